/* Readings as a MOQA board writes them: CSV with a header, or JSON lines, read one at a time. */
#ifndef BINARIO_READINGS_H
#define BINARIO_READINGS_H

#include <stdint.h>
#include <stdio.h>

#include "binario/telemetry/v1/telemetry.pb-c.h"

/* The optional values of a reading, in the order of the export's columns. */
enum { READING_VALUES = 12 };
extern const char *const reading_value_names[READING_VALUES]; /* "position_altitude", "temperature", ..., "pm10" */

typedef struct reading {
  int64_t time_ms;
  double latitude;
  double longitude;
  double values[READING_VALUES];
  uint16_t present;  /* bit i: values[i] is set */
} reading;

/*
 * Reads readings from a file descriptor line by line: CSV whose first line is a header naming the
 * columns (time, latitude, longitude, then any values: the CLI's and the export's format), or
 * JSON lines ({"time": "...", "latitude": 45.46, "pm2.5": 12.1}), told apart by the first line.
 */
typedef struct reading_source reading_source;

/* A source on `fd` (not closed by it); `name` is for messages. NULL when out of memory. */
reading_source *reading_source_new(int fd, const char *name);
void reading_source_free(reading_source *source);

/* What reading_source_next found. */
typedef enum reading_result { READING_OK, READING_END, READING_TIMEOUT, READING_INVALID, READING_FAILED } reading_result;

/*
 * The next reading. Waits at most `timeout_ms` for a line (-1: as long as it takes; a file is
 * never waited for); READING_TIMEOUT also when a signal interrupted the wait. READING_INVALID: the line is not a reading (`error` says why, with its
 * line number); the source goes on with the next line. READING_FAILED: it cannot be read.
 */
reading_result reading_source_next(reading_source *source, int timeout_ms, reading *out, char *error, size_t error_size);

/* Appends `count` readings as CSV rows to `file` (with the header first when `header`). */
int readings_write_csv(FILE *file, const reading *readings, size_t count, int header);

/*
 * Fills `request` with `count` readings for an upload, in one allocation that
 * readings_request_free frees. 0, or -1 when out of memory.
 */
int readings_request(const reading *readings, size_t count, Binario__Telemetry__V1__UploadReadingsRequest *request);
void readings_request_free(Binario__Telemetry__V1__UploadReadingsRequest *request);

#endif
