#define _POSIX_C_SOURCE 200809L

#include "program.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int program_parse_gateway(const char *program, const char *text, program_gateway *gateway) {
  const char *colon = strrchr(text, ':');
  char *end = NULL;
  long port = colon != NULL ? strtol(colon + 1, &end, 10) : 0;
  if (colon == NULL || colon == text || end == colon + 1 || *end != '\0' || port < 1 || port > 65535) {
    fprintf(stderr, "%s: --gateway: expected HOST:PORT, got \"%s\"\n", program, text);
    return -1;
  }
  const char *host = text;
  size_t length = (size_t)(colon - text);
  if (host[0] == '[' && length >= 2 && host[length - 1] == ']') {
    host++;
    length -= 2;
  }
  free(gateway->host);
  gateway->host = strndup(host, length);
  if (gateway->host == NULL) {
    fprintf(stderr, "%s: out of memory\n", program);
    return -1;
  }
  gateway->port = (uint16_t)port;
  return 0;
}

int program_connect(const program_gateway *gateway, uint32_t keepalive_ms, binario_connection **connection, binario_status *status) {
  binario_connect_options options;
  memset(&options, 0, sizeof options);
  options.host = gateway->host != NULL ? gateway->host : "127.0.0.1";
  options.port = gateway->port != 0 ? gateway->port : 7100;
  options.ca_file = gateway->ca_file;
  options.server_name = gateway->server_name;
  if (options.server_name == NULL && (strcmp(options.host, "127.0.0.1") == 0 || strcmp(options.host, "::1") == 0)) {
    options.server_name = "localhost";
  }
  options.connect_timeout_ms = gateway->timeout_ms;
  options.keepalive_ms = keepalive_ms;
  return binario_connect(&options, connection, status);
}

void program_report(const char *program, const char *what, const binario_status *status) {
  fprintf(stderr, "%s: %s: %s: %s\n", program, what, binario_code_name(status->code),
          status->message != NULL ? status->message : "(no message)");
  for (size_t index = 0; index < status->violation_count; index++) {
    fprintf(stderr, "  %s: %s\n", status->violations[index].field, status->violations[index].description);
  }
}

int program_is_temporary(int code) {
  return code == BINARIO_CODE_UNAVAILABLE || code == BINARIO_CODE_DEADLINE_EXCEEDED || code == BINARIO_CODE_CANCELLED;
}

char *program_read_secret(const char *program, const char *path) {
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    fprintf(stderr, "%s: cannot read %s: %s\n", program, path, strerror(errno));
    return NULL;
  }
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length = getline(&line, &capacity, file);
  fclose(file);
  while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r' || line[length - 1] == ' ')) line[--length] = '\0';
  if (length <= 0) {
    fprintf(stderr, "%s: %s is empty\n", program, path);
    free(line);
    return NULL;
  }
  return line;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t year, unsigned month, unsigned day) {
  year -= month <= 2;
  int64_t era = (year >= 0 ? year : year - 399) / 400;
  unsigned year_of_era = (unsigned)(year - era * 400);
  unsigned day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + (int64_t)day_of_era - 719468;
}

int program_parse_time(const char *text, int64_t *milliseconds) {
  int year, month, day, hour, minute, second, consumed = 0;
  if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed) != 6 || consumed != 19) return -1;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return -1;
  const char *rest = text + consumed;
  int64_t fraction = 0;
  if (*rest == '.') {
    int digits = 0;
    for (rest++; *rest >= '0' && *rest <= '9'; rest++, digits++) {
      if (digits < 3) fraction = fraction * 10 + (*rest - '0');
    }
    if (digits == 0) return -1;
    for (; digits < 3; digits++) fraction *= 10;
  }
  int64_t offset = 0;
  if (*rest == 'Z' || *rest == 'z') {
    rest++;
  } else if (*rest == '+' || *rest == '-') {
    int hours, minutes, used = 0;
    if (sscanf(rest + 1, "%2d:%2d%n", &hours, &minutes, &used) != 2 || used != 5) return -1;
    offset = (hours * 60 + minutes) * 60 * (*rest == '+' ? 1 : -1);
    rest += 6;
  } else {
    return -1;
  }
  if (*rest != '\0') return -1;
  int64_t seconds = days_from_civil(year, (unsigned)month, (unsigned)day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  *milliseconds = seconds * 1000 + fraction;
  return 0;
}

void program_format_time(int64_t milliseconds, char *buffer, size_t size) {
  int64_t seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000;
  time_t instant = (time_t)seconds;
  struct tm utc;
  gmtime_r(&instant, &utc);
  snprintf(buffer, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
           utc.tm_min, utc.tm_sec, (int)(milliseconds - seconds * 1000));
}


const char *program_gateway_defaults(program_gateway *gateway) {
  gateway->ca_file = getenv("BINARIO_CA") != NULL ? getenv("BINARIO_CA") : ".dev/certs/ca.pem";
  gateway->timeout_ms = 10000;
  return getenv("BINARIO_GATEWAY") != NULL ? getenv("BINARIO_GATEWAY") : "localhost:7100";
}

char *program_secret(const char *program, const char *path, const char *variable, const char *option) {
  if (path != NULL) return program_read_secret(program, path);
  const char *value = getenv(variable);
  if (value != NULL && value[0] != '\0') {
    char *copy = strdup(value);
    if (copy == NULL) fprintf(stderr, "%s: out of memory\n", program);
    return copy;
  }
  fprintf(stderr, "%s: pass %s FILE or set %s\n", program, option, variable);
  return NULL;
}

volatile sig_atomic_t program_stopping = 0;

static void note_stop(int signal_number) {
  (void)signal_number;
  program_stopping = 1;
}

void program_stop_on_signals(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = note_stop;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
}

int64_t program_monotonic_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

const char *program_option_name(const struct option *options, int value) {
  for (; options->name != NULL; options++) {
    if (options->val == value) return options->name;
  }
  return "?";
}
