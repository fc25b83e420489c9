/* What binario-sensor and binario-taxi share: reaching the gateway, reporting a status, secrets,
 * times. */
#ifndef BINARIO_PROGRAM_H
#define BINARIO_PROGRAM_H

#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "binario/client.h"

/* Exit statuses: done; bad usage or a refusal; the gateway unreachable (try again later). */
enum { PROGRAM_EXIT_OK = 0, PROGRAM_EXIT_FAILED = 1, PROGRAM_EXIT_USAGE = 64, PROGRAM_EXIT_TEMPORARY = 75 };

/* How to reach the gateway, from the command line (--gateway, --ca-file, --server-name). */
typedef struct program_gateway {
  char *host;                 /* parsed from --gateway HOST:PORT (default 127.0.0.1:7100) */
  uint16_t port;
  const char *ca_file;
  const char *server_name;    /* default: localhost for a loopback address, else the host */
  uint32_t timeout_ms;        /* per call (--timeout-ms), and for connecting */
} program_gateway;

/* The gateway's defaults from the environment, as the CLI reads them: BINARIO_CA (default
 * .dev/certs/ca.pem) into `gateway`, BINARIO_GATEWAY (default localhost:7100) returned for
 * program_parse_gateway; a 10 s call deadline. */
const char *program_gateway_defaults(program_gateway *gateway);

/* A secret from `path` when given (program_read_secret), else from the environment variable
 * `variable` (copied); free() it. NULL, with a message on stderr naming both ways. */
char *program_secret(const char *program, const char *path, const char *variable, const char *option);

/* Set once SIGINT or SIGTERM arrived (program_stop_on_signals): finish and exit. */
extern volatile sig_atomic_t program_stopping;

/* Sets program_stopping on SIGINT and SIGTERM (interrupting a poll or read, without SA_RESTART). */
void program_stop_on_signals(void);

/* The long name of the option whose getopt value is `value` ("batch" for 'b'), for a message. */
const char *program_option_name(const struct option *options, int value);

/* Milliseconds on the monotonic clock, for timeouts and paces. */
int64_t program_monotonic_ms(void);

/* Parses "HOST:PORT" or "[IPV6]:PORT" into `gateway`; 0, or -1 with a message on stderr. */
int program_parse_gateway(const char *program, const char *text, program_gateway *gateway);

/* Connects as `gateway` says. The status code (OK on success). */
int program_connect(const program_gateway *gateway, uint32_t keepalive_ms, binario_connection **connection, binario_status *status);

/* Prints "PROGRAM: WHAT: CODE: message" and each field violation on stderr. */
void program_report(const char *program, const char *what, const binario_status *status);

/* Whether a failure is the network's (try again later) rather than a refusal. */
int program_is_temporary(int code);

/* The first line of `path`, without its line break (free() it); NULL with a message on stderr. */
char *program_read_secret(const char *program, const char *path);

/* Parses an ISO 8601 instant ("2024-01-15T08:00:00Z", "...:00.250+01:00") into milliseconds
 * since 1970 UTC; 0, or -1 when it is not one. */
int program_parse_time(const char *text, int64_t *milliseconds);

/* Writes `milliseconds` as "2024-01-15T08:00:00.250Z" (at least 32 bytes). */
void program_format_time(int64_t milliseconds, char *buffer, size_t size);

#endif
