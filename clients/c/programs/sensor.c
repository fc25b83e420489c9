/*
 * binario-sensor: a MOQA board's uploader. Reads readings (CSV with a header, or JSON lines) from
 * a file or standard input and uploads them in batches to telemetry through the gateway, with the
 * board's device token. When the gateway cannot be reached the readings go to a spool file, and
 * the spool is resent first when it is back: readings are idempotent per device and time, so a
 * batch resent after a lost acknowledgement is counted as already stored, never stored twice.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binario/client.h"
#include "program.h"
#include "readings.h"

static const char program[] = "binario-sensor";
static const char upload_method[] = "/binario.telemetry.v1.Telemetry/UploadReadings";

typedef struct sensor {
  program_gateway gateway;
  char *authorization;      /* "Device bdt_..." */
  const char *spool_path;
  size_t batch_size;
  int interval_ms;          /* streaming: a partial batch goes after this long */
  int retry_ms;             /* streaming: the first retry after a failure (then doubling) */
  int streaming;            /* input is a pipe or terminal: wait for lines, retry while running */
  binario_connection *connection;
  /* Totals for the summary. */
  long sent, stored, duplicates, rejected, invalid;
  long spooled;             /* readings in the spool file now (-1: not known: it was there at start) */
  int offline;              /* the last attempt failed: new readings go to the spool */
  int64_t next_retry;       /* monotonic ms */
  int current_retry_ms;
  int refused;              /* a permanent refusal (token revoked, ...): stop */
} sensor;

static void disconnect(sensor *state) {
  binario_connection_close(state->connection);
  state->connection = NULL;
}

/* Uploads one batch. The status code; OK when telemetry answered (each reading stored, a
 * duplicate, or rejected for a reason that resending cannot change). */
static int upload(sensor *state, const reading *batch, size_t count, binario_status *status) {
  if (count == 0) return BINARIO_CODE_OK;
  if (state->connection != NULL && !binario_connection_usable(state->connection, NULL)) disconnect(state);
  if (state->connection == NULL) {
    int connected = program_connect(&state->gateway, 0, &state->connection, status);
    if (connected != BINARIO_CODE_OK) return connected;
  }
  Binario__Telemetry__V1__UploadReadingsRequest request;
  if (readings_request(batch, count, &request) != 0) {
    return binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory for a batch");
  }
  binario_metadata metadata[] = {{"authorization", state->authorization}};
  binario_call_options options = {metadata, 1, state->gateway.timeout_ms};
  ProtobufCMessage *answer = NULL;
  int code = binario_unary(state->connection, upload_method, &options, &request.base,
                           &binario__telemetry__v1__upload_readings_response__descriptor, &answer, status);
  readings_request_free(&request);
  if (code != BINARIO_CODE_OK) {
    if (program_is_temporary(code)) disconnect(state);
    return code;
  }
  Binario__Telemetry__V1__UploadReadingsResponse *response = (Binario__Telemetry__V1__UploadReadingsResponse *)answer;
  state->sent += (long)count;
  state->stored += response->stored;
  state->duplicates += response->duplicates;
  state->rejected += (long)response->n_rejected;
  for (size_t index = 0; index < response->n_rejected; index++) {
    const Binario__Telemetry__V1__RejectedReading *rejection = response->rejected[index];
    char time[40] = "?";
    if (rejection->index >= 0 && (size_t)rejection->index < count) program_format_time(batch[rejection->index].time_ms, time, sizeof time);
    fprintf(stderr, "%s: rejected the reading of %s: %s\n", program, time, rejection->reason != NULL ? rejection->reason : "");
  }
  if (state->streaming) {
    printf("sent %zu readings: %d accepted (%d stored, %d already stored), %zu rejected\n", count, response->accepted, response->stored,
           response->duplicates, response->n_rejected);
    fflush(stdout);
  }
  protobuf_c_message_free_unpacked(answer, NULL);
  return BINARIO_CODE_OK;
}

/* Writes `count` readings to `file` and makes them durable. 0, or -1 with errno. */
static int write_durably(FILE *file, const reading *batch, size_t count, int header) {
  if (readings_write_csv(file, batch, count, header) != 0 || fflush(file) != 0 || fsync(fileno(file)) != 0) return -1;
  return 0;
}

/* Adds readings to the end of the spool, durably. 0, or -1 (reported). */
static int spool_append(sensor *state, const reading *batch, size_t count) {
  if (count == 0) return 0;
  struct stat info;
  int header = stat(state->spool_path, &info) != 0 || info.st_size == 0;
  FILE *file = fopen(state->spool_path, "a");
  if (file == NULL || write_durably(file, batch, count, header) != 0) {
    fprintf(stderr, "%s: cannot write the spool %s: %s: %zu readings lost\n", program, state->spool_path, strerror(errno), count);
    if (file != NULL) fclose(file);
    return -1;
  }
  fclose(file);
  if (state->spooled >= 0) state->spooled += (long)count;
  return 0;
}

/*
 * Sends what the spool holds, in batches. On success the spool is removed; when a batch fails,
 * it and the rest are written to a new spool that replaces the old one (renamed over it, so a
 * crash leaves one or the other whole). The status code of the failure, or OK.
 */
static int spool_send(sensor *state, reading *batch, binario_status *status) {
  int fd = open(state->spool_path, O_RDONLY);
  if (fd < 0) {
    if (errno == ENOENT) {
      state->spooled = 0;
      return BINARIO_CODE_OK;
    }
    return binario_status_set(status, BINARIO_CODE_INTERNAL, "cannot read the spool");
  }
  reading_source *source = reading_source_new(fd, state->spool_path);
  if (source == NULL) {
    close(fd);
    return binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory");
  }
  int code = BINARIO_CODE_OK;
  size_t count = 0;
  int ended = 0;
  char error[300];
  while (code == BINARIO_CODE_OK && !ended) {
    count = 0;
    while (count < state->batch_size) {
      reading_result result = reading_source_next(source, -1, &batch[count], error, sizeof error);
      if (result == READING_OK) {
        count++;
      } else if (result == READING_INVALID) {
        fprintf(stderr, "%s: skipping a damaged spool line: %s\n", program, error);
      } else if (result == READING_TIMEOUT) {
        continue;
      } else {
        ended = 1;
        break;
      }
    }
    code = upload(state, batch, count, status);
  }
  if (code == BINARIO_CODE_OK) {
    reading_source_free(source);
    close(fd);
    unlink(state->spool_path);
    state->spooled = 0;
    return BINARIO_CODE_OK;
  }
  /* Keep the batch that failed and everything after it. */
  char replacement[4096];
  snprintf(replacement, sizeof replacement, "%s.new", state->spool_path);
  FILE *file = fopen(replacement, "w");
  long kept = 0;
  int written = file != NULL && write_durably(file, batch, count, 1) == 0 ? 0 : -1;
  kept += (long)count;
  while (written == 0) {
    reading one;
    reading_result result = reading_source_next(source, -1, &one, error, sizeof error);
    if (result == READING_END || result == READING_FAILED) break;
    if (result != READING_OK) continue;
    written = readings_write_csv(file, &one, 1, 0);
    kept++;
  }
  if (written == 0 && (fflush(file) != 0 || fsync(fileno(file)) != 0)) written = -1;
  if (file != NULL) fclose(file);
  if (written == 0 && rename(replacement, state->spool_path) == 0) {
    state->spooled = kept;
  } else {
    /* The old spool is still whole: it is resent next time, and what was stored counts as already stored. */
    unlink(replacement);
    state->spooled = -1;
  }
  reading_source_free(source);
  close(fd);
  return code;
}

/* After a failure: when to try again (streaming), and whether to stop for good. */
static void note_failure(sensor *state, int code, const binario_status *status, const char *what) {
  if (!state->offline || !program_is_temporary(code)) program_report(program, what, status);
  if (!program_is_temporary(code)) {
    state->refused = 1;
    return;
  }
  state->offline = 1;
  state->current_retry_ms = state->current_retry_ms == 0 ? state->retry_ms : state->current_retry_ms * 2;
  if (state->current_retry_ms > 300000) state->current_retry_ms = 300000;
  state->next_retry = program_monotonic_ms() + state->current_retry_ms;
}

/* Sends the spool; on success the sensor is online again. */
static void try_spool(sensor *state, reading *batch) {
  binario_status status = BINARIO_STATUS_INIT;
  int code = spool_send(state, batch, &status);
  if (code == BINARIO_CODE_OK) {
    if (state->offline && state->streaming) {
      printf("the gateway is back: the spool is sent\n");
      fflush(stdout);
    }
    state->offline = 0;
    state->current_retry_ms = 0;
  } else {
    note_failure(state, code, &status, "sending the spool");
  }
  binario_status_clear(&status);
}

/* A full (or timed-out) batch from the input: uploaded, or spooled while the gateway is away. */
static void deliver(sensor *state, reading *batch, size_t count, reading *scratch) {
  if (count == 0) return;
  if (state->offline || state->spooled != 0) {
    spool_append(state, batch, count);
    /* From a file, one failure is enough for this run: the rest waits in the spool too. */
    if (state->streaming && program_monotonic_ms() >= state->next_retry) try_spool(state, scratch);
    return;
  }
  binario_status status = BINARIO_STATUS_INIT;
  int code = upload(state, batch, count, &status);
  if (code != BINARIO_CODE_OK) {
    spool_append(state, batch, count);
    note_failure(state, code, &status, "uploading");
  }
  binario_status_clear(&status);
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: %s [options] [FILE | -]\n"
          "Uploads a board's readings (CSV with a header, or JSON lines; standard input by default) to\n"
          "telemetry through the gateway, in batches, with the board's device token. Readings that\n"
          "cannot be sent wait in the spool file and go first next time.\n\n"
          "  --gateway HOST:PORT   the gateway's Binario port (BINARIO_GATEWAY, default localhost:7100)\n"
          "  --ca FILE             PEM CA of the gateway's certificate (BINARIO_CA, default .dev/certs/ca.pem)\n"
          "  --server-name NAME    the name the certificate must carry (default: the host)\n"
          "  --token-file FILE     the device token (or BINARIO_DEVICE_TOKEN)\n"
          "  --spool FILE          where unsent readings wait (default binario-sensor.spool)\n"
          "  --batch N             readings per upload, 1 to 10000 (default 500)\n"
          "  --interval SECONDS    from a pipe: send a partial batch after this long (default 10)\n"
          "  --retry SECONDS       from a pipe: first retry when unreachable, then doubling (default 5)\n"
          "  --timeout-ms N        each call's deadline (default 10000)\n\n"
          "Exit status: 0 all sent; 75 readings wait in the spool (the gateway is unreachable);\n"
          "1 refused (a revoked token: readings wait in the spool); 64 usage.\n",
          program);
}

int main(int argc, char **argv) {
  sensor state;
  memset(&state, 0, sizeof state);
  state.spool_path = "binario-sensor.spool";
  state.batch_size = 500;
  state.interval_ms = 10000;
  state.retry_ms = 5000;
  const char *gateway = program_gateway_defaults(&state.gateway);
  const char *token_file = NULL;
  static const struct option options[] = {
      {"gateway", required_argument, NULL, 'g'}, {"ca", required_argument, NULL, 'c'},
      {"server-name", required_argument, NULL, 'n'}, {"token-file", required_argument, NULL, 't'},
      {"spool", required_argument, NULL, 's'}, {"batch", required_argument, NULL, 'b'},
      {"interval", required_argument, NULL, 'i'}, {"retry", required_argument, NULL, 'r'},
      {"timeout-ms", required_argument, NULL, 'd'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
  };
  for (int option; (option = getopt_long(argc, argv, "h", options, NULL)) != -1;) {
    char *end = NULL;
    long number = optarg != NULL ? strtol(optarg, &end, 10) : 0;
    int numeric = optarg != NULL && end != optarg && *end == '\0';
    switch (option) {
    case 'g': gateway = optarg; break;
    case 'c': state.gateway.ca_file = optarg; break;
    case 'n': state.gateway.server_name = optarg; break;
    case 't': token_file = optarg; break;
    case 's': state.spool_path = optarg; break;
    case 'b':
      if (!numeric || number < 1 || number > 10000) goto bad_number;
      state.batch_size = (size_t)number;
      break;
    case 'i':
      if (!numeric || number < 1 || number > 86400) goto bad_number;
      state.interval_ms = (int)number * 1000;
      break;
    case 'r':
      if (!numeric || number < 1 || number > 3600) goto bad_number;
      state.retry_ms = (int)number * 1000;
      break;
    case 'd':
      if (!numeric || number < 1 || number > 600000) goto bad_number;
      state.gateway.timeout_ms = (uint32_t)number;
      break;
    case 'h': usage(stdout); return PROGRAM_EXIT_OK;
    default: usage(stderr); return PROGRAM_EXIT_USAGE;
    }
    continue;
  bad_number:
    fprintf(stderr, "%s: --%s: \"%s\" is out of range\n", program, program_option_name(options, option), optarg);
    return PROGRAM_EXIT_USAGE;
  }
  if (argc - optind > 1) {
    usage(stderr);
    return PROGRAM_EXIT_USAGE;
  }
  const char *input = optind < argc ? argv[optind] : "-";
  char *token = program_secret(program, token_file, "BINARIO_DEVICE_TOKEN", "--token-file");
  if (token == NULL) return PROGRAM_EXIT_USAGE;
  if (program_parse_gateway(program, gateway, &state.gateway) != 0) {
    free(token);
    return PROGRAM_EXIT_USAGE;
  }
  size_t length = strlen("Device ") + strlen(token) + 1;
  state.authorization = malloc(length);
  int fd = strcmp(input, "-") == 0 ? STDIN_FILENO : open(input, O_RDONLY);
  reading *batch = calloc(state.batch_size, sizeof *batch);
  reading *scratch = calloc(state.batch_size, sizeof *scratch);
  reading_source *source = fd >= 0 ? reading_source_new(fd, strcmp(input, "-") == 0 ? "standard input" : input) : NULL;
  int exit_status = PROGRAM_EXIT_OK;
  if (fd < 0) {
    fprintf(stderr, "%s: cannot read %s: %s\n", program, input, strerror(errno));
    exit_status = PROGRAM_EXIT_USAGE;
    goto done;
  }
  if (state.authorization == NULL || batch == NULL || scratch == NULL || source == NULL) {
    fprintf(stderr, "%s: out of memory\n", program);
    exit_status = PROGRAM_EXIT_FAILED;
    goto done;
  }
  snprintf(state.authorization, length, "Device %s", token);
  struct stat input_info;
  state.streaming = fstat(fd, &input_info) == 0 && !S_ISREG(input_info.st_mode);

  program_stop_on_signals();

  /* What an earlier run left first. */
  state.spooled = -1;
  try_spool(&state, scratch);

  size_t count = 0;
  int64_t batch_started = 0;
  char error[400];
  while (!program_stopping && !state.refused) {
    int timeout = -1;
    if (state.streaming) {
      int64_t now = program_monotonic_ms();
      int64_t due = count > 0 ? batch_started + state.interval_ms : -1;
      if (state.offline && (due < 0 || state.next_retry < due)) due = state.next_retry;
      timeout = due < 0 ? -1 : due <= now ? 0 : (int)(due - now);
    }
    reading_result result = reading_source_next(source, timeout, &batch[count], error, sizeof error);
    if (result == READING_OK) {
      if (count++ == 0) batch_started = program_monotonic_ms();
      if (count == state.batch_size) {
        deliver(&state, batch, count, scratch);
        count = 0;
      }
    } else if (result == READING_INVALID) {
      fprintf(stderr, "%s: skipped: %s\n", program, error);
      state.invalid++;
    } else if (result == READING_TIMEOUT) {
      if (count > 0 && program_monotonic_ms() >= batch_started + state.interval_ms) {
        deliver(&state, batch, count, scratch);
        count = 0;
      } else if (state.offline && program_monotonic_ms() >= state.next_retry) {
        try_spool(&state, scratch);
      }
    } else {
      if (result == READING_FAILED) {
        fprintf(stderr, "%s: %s\n", program, error);
        exit_status = PROGRAM_EXIT_FAILED;
      }
      break;
    }
  }
  /* What is left, even when stopping: sent, or kept in the spool. */
  if (!state.refused) deliver(&state, batch, count, scratch);
  else spool_append(&state, batch, count);

  printf("sent %ld readings: %ld accepted (%ld stored, %ld already stored), %ld rejected", state.sent, state.stored + state.duplicates,
         state.stored, state.duplicates, state.rejected);
  if (state.invalid > 0) printf(", %ld lines skipped", state.invalid);
  printf("\n");
  if (state.spooled != 0) {
    if (state.spooled > 0) printf("%ld readings wait in %s for the next run\n", state.spooled, state.spool_path);
    else printf("readings wait in %s for the next run\n", state.spool_path);
    if (exit_status == PROGRAM_EXIT_OK) exit_status = state.refused ? PROGRAM_EXIT_FAILED : PROGRAM_EXIT_TEMPORARY;
  }
  if (state.refused && exit_status == PROGRAM_EXIT_OK) exit_status = PROGRAM_EXIT_FAILED;
done:
  disconnect(&state);
  reading_source_free(source);
  if (fd > STDIN_FILENO) close(fd);
  free(batch);
  free(scratch);
  free(state.authorization);
  free(state.gateway.host);
  free(token);
  return exit_status;
}
