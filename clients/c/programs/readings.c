#define _POSIX_C_SOURCE 200809L

#include "readings.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "program.h"

const char *const reading_value_names[READING_VALUES] = {
    "position_altitude", "temperature", "humidity", "pressure", "altitude", "tvoc",
    "eco2", "pm0.5", "pm1", "pm2.5", "pm4", "pm10",
};

/* Columns of a CSV header beyond the values: where time, latitude and longitude are. */
enum { COLUMN_TIME = READING_VALUES, COLUMN_LATITUDE, COLUMN_LONGITUDE, COLUMN_OTHER, COLUMN_LIMIT = 64 };

struct reading_source {
  int fd;
  const char *name;
  char *buffer;          /* bytes read and not yet returned as lines: buffer[start, end) */
  size_t start;
  size_t end;
  size_t capacity;
  int ended;             /* end of input reached */
  long line_number;
  int format;            /* 0 unknown yet, 'c' CSV, 'j' JSON lines */
  int columns[COLUMN_LIMIT];
  int column_count;
};

reading_source *reading_source_new(int fd, const char *name) {
  reading_source *source = calloc(1, sizeof *source);
  if (source == NULL) return NULL;
  source->fd = fd;
  source->name = name;
  return source;
}

void reading_source_free(reading_source *source) {
  if (source == NULL) return;
  free(source->buffer);
  free(source);
}

/* The next line (NUL-terminated in place, without its line break), or NULL: end or timeout. */
static char *next_line(reading_source *source, int timeout_ms, int *timed_out, int *failed) {
  *timed_out = 0;
  *failed = 0;
  for (;;) {
    char *newline = source->end > source->start ? memchr(source->buffer + source->start, '\n', source->end - source->start) : NULL;
    if (newline != NULL || (source->ended && source->start < source->end)) {
      char *line = source->buffer + source->start;
      if (newline == NULL) {
        /* The last line, without a line break: terminate it in the spare byte kept for this. */
        newline = source->buffer + source->end;
        source->start = source->end;
      } else {
        source->start = (size_t)(newline - source->buffer) + 1;
      }
      *newline = '\0';
      if (newline > line && newline[-1] == '\r') newline[-1] = '\0';
      source->line_number++;
      return line;
    }
    if (source->ended) return NULL;
    if (timeout_ms >= 0) {
      struct pollfd descriptor = {.fd = source->fd, .events = POLLIN, .revents = 0};
      int ready = poll(&descriptor, 1, timeout_ms);
      if (ready == 0) {
        *timed_out = 1;
        return NULL;
      }
      if (ready < 0 && errno == EINTR) {
        *timed_out = 1; /* a signal: let the program look at it */
        return NULL;
      }
    }
    /* Make room: move what is left to the front, then grow, always keeping one spare byte. */
    if (source->start > 0) {
      memmove(source->buffer, source->buffer + source->start, source->end - source->start);
      source->end -= source->start;
      source->start = 0;
    }
    if (source->capacity - source->end < 4097) {
      size_t capacity = source->capacity == 0 ? 8192 : source->capacity * 2;
      char *grown = realloc(source->buffer, capacity);
      if (grown == NULL) {
        *failed = 1;
        return NULL;
      }
      source->buffer = grown;
      source->capacity = capacity;
    }
    ssize_t count = read(source->fd, source->buffer + source->end, source->capacity - source->end - 1);
    if (count < 0) {
      if (errno == EINTR) {
        *timed_out = 1;
        return NULL;
      }
      if (errno == EAGAIN) continue;
      *failed = 1;
      return NULL;
    }
    if (count == 0) source->ended = 1;
    source->end += (size_t)count;
  }
}

static char *trim(char *text) {
  while (isspace((unsigned char)*text)) text++;
  size_t length = strlen(text);
  while (length > 0 && isspace((unsigned char)text[length - 1])) text[--length] = '\0';
  return text;
}

/* Which column `name` is (COLUMN_OTHER when none), case-insensitively. */
static int column_of(const char *name) {
  if (strcasecmp(name, "time") == 0) return COLUMN_TIME;
  if (strcasecmp(name, "latitude") == 0) return COLUMN_LATITUDE;
  if (strcasecmp(name, "longitude") == 0) return COLUMN_LONGITUDE;
  for (int index = 0; index < READING_VALUES; index++) {
    if (strcasecmp(name, reading_value_names[index]) == 0) return index;
  }
  return COLUMN_OTHER;
}

/* Sets one field of `out` from text; 0, or -1 (with `error`) when the text is not its value. */
static int set_field(reading *out, int column, const char *name, const char *text, int *seen, char *error, size_t size) {
  if (column == COLUMN_OTHER || *text == '\0') return 0;
  if (column == COLUMN_TIME) {
    if (program_parse_time(text, &out->time_ms) != 0) {
      snprintf(error, size, "time is not an ISO 8601 instant (2024-01-15T08:00:00Z): \"%s\"", text);
      return -1;
    }
    *seen |= 1;
    return 0;
  }
  char *end = NULL;
  errno = 0;
  double value = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(value)) {
    snprintf(error, size, "%s is not a number: \"%s\"", name, text);
    return -1;
  }
  if (column == COLUMN_LATITUDE) {
    out->latitude = value;
    *seen |= 2;
  } else if (column == COLUMN_LONGITUDE) {
    out->longitude = value;
    *seen |= 4;
  } else {
    out->values[column] = value;
    out->present |= (uint16_t)(1u << column);
  }
  return 0;
}

static int finish(int seen, char *error, size_t size) {
  if ((seen & 1) == 0) {
    snprintf(error, size, "%s", "time is missing");
    return -1;
  }
  if ((seen & 6) != 6) {
    snprintf(error, size, "%s", "latitude and longitude are required");
    return -1;
  }
  return 0;
}

static int parse_csv(reading_source *source, char *line, reading *out, char *error, size_t size) {
  int seen = 0;
  int index = 0;
  for (char *field = line; field != NULL && index < source->column_count; index++) {
    char *comma = strchr(field, ',');
    if (comma != NULL) *comma = '\0';
    int column = source->columns[index];
    const char *name = column < READING_VALUES ? reading_value_names[column] : column == COLUMN_LATITUDE ? "latitude" : "longitude";
    if (set_field(out, column, name, trim(field), &seen, error, size) != 0) return -1;
    field = comma != NULL ? comma + 1 : NULL;
  }
  return finish(seen, error, size);
}

/* A JSON string at *cursor (no escapes but \" and \\ are expected in a reading); NULL when not one. */
static char *json_string(char **cursor) {
  char *text = *cursor;
  if (*text != '"') return NULL;
  char *start = ++text;
  char *write = start;
  for (; *text != '"'; text++) {
    if (*text == '\0') return NULL;
    if (*text == '\\' && (text[1] == '"' || text[1] == '\\' || text[1] == '/')) text++;
    *write++ = *text;
  }
  *write = '\0';
  *cursor = text + 1;
  return start;
}

static void skip_space(char **cursor) {
  while (isspace((unsigned char)**cursor)) (*cursor)++;
}

/* One flat JSON object per line: keys to strings, numbers or null. */
static int parse_json(char *line, reading *out, char *error, size_t size) {
  char *cursor = line;
  int seen = 0;
  skip_space(&cursor);
  if (*cursor++ != '{') goto not_json;
  skip_space(&cursor);
  if (*cursor == '}') return finish(seen, error, size);
  for (;;) {
    skip_space(&cursor);
    char *key = json_string(&cursor);
    if (key == NULL) goto not_json;
    skip_space(&cursor);
    if (*cursor++ != ':') goto not_json;
    skip_space(&cursor);
    char *value;
    char delimiter;
    if (*cursor == '"') {
      if ((value = json_string(&cursor)) == NULL) goto not_json;
      skip_space(&cursor);
      delimiter = *cursor;
    } else {
      value = cursor;
      while (*cursor != '\0' && *cursor != ',' && *cursor != '}') cursor++;
      delimiter = *cursor;
      *cursor = '\0';
      value = trim(value);
      if (strcmp(value, "null") == 0) value = "";
    }
    if (set_field(out, column_of(key), key, value, &seen, error, size) != 0) return -1;
    if (delimiter == '}') break;
    if (delimiter != ',') goto not_json;
    cursor++;
  }
  return finish(seen, error, size);
not_json:
  snprintf(error, size, "%s", "not a JSON object of a reading");
  return -1;
}

reading_result reading_source_next(reading_source *source, int timeout_ms, reading *out, char *error, size_t error_size) {
  for (;;) {
    int timed_out = 0;
    int failed = 0;
    char *line = next_line(source, timeout_ms, &timed_out, &failed);
    if (failed) {
      snprintf(error, error_size, "%s: cannot read: %s", source->name, strerror(errno != 0 ? errno : ENOMEM));
      return READING_FAILED;
    }
    if (line == NULL) return timed_out ? READING_TIMEOUT : READING_END;
    char *text = trim(line);
    if (*text == '\0') continue;
    if (source->format == 0) {
      source->format = *text == '{' ? 'j' : 'c';
      if (source->format == 'c') {
        for (char *name = strtok(text, ","); name != NULL && source->column_count < COLUMN_LIMIT; name = strtok(NULL, ",")) {
          source->columns[source->column_count++] = column_of(trim(name));
        }
        continue;
      }
    }
    memset(out, 0, sizeof *out);
    char detail[200];
    int parsed = source->format == 'j' ? parse_json(text, out, detail, sizeof detail) : parse_csv(source, text, out, detail, sizeof detail);
    if (parsed == 0) return READING_OK;
    snprintf(error, error_size, "%s, line %ld: %s", source->name, source->line_number, detail);
    return READING_INVALID;
  }
}

/* The shortest of %.15g, %.16g, %.17g that reads back as the same double: a resent reading is
 * the same reading, and the spool stays readable. */
static void write_number(FILE *file, double value) {
  char text[40];
  for (int precision = 15; precision <= 17; precision++) {
    snprintf(text, sizeof text, "%.*g", precision, value);
    if (strtod(text, NULL) == value) break;
  }
  fprintf(file, ",%s", text);
}

int readings_write_csv(FILE *file, const reading *readings, size_t count, int header) {
  if (header) {
    fputs("time,latitude,longitude", file);
    for (int index = 0; index < READING_VALUES; index++) fprintf(file, ",%s", reading_value_names[index]);
    fputc('\n', file);
  }
  for (size_t row = 0; row < count; row++) {
    char time[40];
    program_format_time(readings[row].time_ms, time, sizeof time);
    fputs(time, file);
    write_number(file, readings[row].latitude);
    write_number(file, readings[row].longitude);
    for (int index = 0; index < READING_VALUES; index++) {
      if (readings[row].present & (1u << index)) write_number(file, readings[row].values[index]);
      else fputc(',', file);
    }
    fputc('\n', file);
  }
  return ferror(file) ? -1 : 0;
}

int readings_request(const reading *readings, size_t count, Binario__Telemetry__V1__UploadReadingsRequest *request) {
  binario__telemetry__v1__upload_readings_request__init(request);
  if (count == 0) return 0;
  /* One block: the pointers, then the messages, then their timestamps. */
  size_t size = count * (sizeof(Binario__Telemetry__V1__Reading *) + sizeof(Binario__Telemetry__V1__Reading) + sizeof(Google__Protobuf__Timestamp));
  void *block = malloc(size);
  if (block == NULL) return -1;
  Binario__Telemetry__V1__Reading **pointers = block;
  Binario__Telemetry__V1__Reading *messages = (Binario__Telemetry__V1__Reading *)(pointers + count);
  Google__Protobuf__Timestamp *times = (Google__Protobuf__Timestamp *)(messages + count);
  const ProtobufCMessageDescriptor *descriptor = &binario__telemetry__v1__reading__descriptor;
  for (size_t index = 0; index < count; index++) {
    const reading *source = &readings[index];
    Binario__Telemetry__V1__Reading *message = &messages[index];
    binario__telemetry__v1__reading__init(message);
    google__protobuf__timestamp__init(&times[index]);
    int64_t seconds = source->time_ms >= 0 ? source->time_ms / 1000 : (source->time_ms - 999) / 1000;
    times[index].seconds = seconds;
    times[index].nanos = (int32_t)(source->time_ms - seconds * 1000) * 1000000;
    message->time = &times[index];
    message->has_latitude = message->has_longitude = 1;
    message->latitude = source->latitude;
    message->longitude = source->longitude;
    /* The values by their field's name in the descriptor ("pm2.5" is field pm2_5). */
    for (int value = 0; value < READING_VALUES; value++) {
      if ((source->present & (1u << value)) == 0) continue;
      char name[32];
      snprintf(name, sizeof name, "%s", reading_value_names[value]);
      for (char *dot = strchr(name, '.'); dot != NULL; dot = strchr(dot, '.')) *dot = '_';
      const ProtobufCFieldDescriptor *field = protobuf_c_message_descriptor_get_field_by_name(descriptor, name);
      if (field == NULL) continue;
      *(double *)((char *)message + field->offset) = source->values[value];
      *(protobuf_c_boolean *)((char *)message + field->quantifier_offset) = 1;
    }
    pointers[index] = message;
  }
  request->n_readings = count;
  request->readings = pointers;
  return 0;
}

void readings_request_free(Binario__Telemetry__V1__UploadReadingsRequest *request) {
  free(request->readings);
  request->readings = NULL;
  request->n_readings = 0;
}
