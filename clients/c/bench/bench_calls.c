/*
 * The C client's side of Benchmarks' c-client-bench: unary GetMe calls through the gateway on one
 * connection, `in_flight` at a time (the non-blocking API: start, poll, process), for `seconds`.
 * Prints one line: calls, wall seconds, and this process's CPU microseconds (user + system).
 *
 *   bench_calls HOST PORT CA ACCESS_TOKEN IN_FLIGHT SECONDS
 *   bench_calls --max-rss COMMAND [ARGUMENTS...]   runs COMMAND, prints its peak resident KiB
 */
#define _POSIX_C_SOURCE 200809L

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "binario/client.h"
#include "binario/identity/v1/identity.pb-c.h"

static double now_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static long cpu_microseconds(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static int max_rss(char **command) {
  pid_t child = fork();
  if (child == 0) {
    execvp(command[0], command);
    _exit(127);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) < 0) return 1;
  /* The only child waited for: the children's peak is its own. */
  struct rusage usage;
  getrusage(RUSAGE_CHILDREN, &usage);
  printf("max_rss_kib %ld exit %d\n", usage.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--max-rss") == 0) return max_rss(argv + 2);
  if (argc != 7) {
    fprintf(stderr, "usage: bench_calls HOST PORT CA ACCESS_TOKEN IN_FLIGHT SECONDS | --max-rss COMMAND...\n");
    return 64;
  }
  int in_flight = atoi(argv[5]);
  double seconds = atof(argv[6]);
  binario_connect_options options;
  memset(&options, 0, sizeof options);
  options.host = argv[1];
  options.port = (uint16_t)atoi(argv[2]);
  options.ca_file = argv[3];
  options.server_name = "localhost";
  binario_connection *connection = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  if (binario_connect(&options, &connection, &status) != BINARIO_CODE_OK) {
    fprintf(stderr, "bench_calls: connect: %s\n", status.message);
    return 1;
  }
  char authorization[4096];
  snprintf(authorization, sizeof authorization, "Bearer %s", argv[4]);
  binario_metadata metadata[] = {{"authorization", authorization}};
  binario_call_options call_options = {metadata, 1, 10000};
  Binario__Identity__V1__GetMeRequest request = BINARIO__IDENTITY__V1__GET_ME_REQUEST__INIT;
  const char *method = "/binario.identity.v1.Identity/GetMe";
  binario_call **calls = calloc((size_t)in_flight, sizeof *calls);
  if (calls == NULL) return 1;
  long completed = 0;
  int failed = 0;
  long cpu_start = cpu_microseconds();
  double start = now_seconds();
  double end = start + seconds;
  for (int index = 0; index < in_flight; index++) {
    if (binario_call_start(connection, method, &call_options, &request.base, &calls[index], &status) != BINARIO_CODE_OK) failed = 1;
  }
  while (!failed && now_seconds() < end) {
    struct pollfd descriptor = {.fd = binario_connection_fd(connection), .events = binario_connection_events(connection), .revents = 0};
    int ready = poll(&descriptor, 1, 100);
    if (binario_connection_process(connection, ready > 0 ? descriptor.revents : 0, &status) != BINARIO_CODE_OK) {
      fprintf(stderr, "bench_calls: %s\n", status.message);
      failed = 1;
      break;
    }
    for (int index = 0; index < in_flight && !failed; index++) {
      ProtobufCMessage *message = NULL;
      binario_next next;
      while ((next = binario_call_poll(calls[index], &binario__identity__v1__get_me_response__descriptor, &message, &status)) == BINARIO_NEXT_MESSAGE) {
        protobuf_c_message_free_unpacked(message, NULL);
      }
      if (next != BINARIO_NEXT_END) continue;
      if (status.code != BINARIO_CODE_OK) {
        fprintf(stderr, "bench_calls: GetMe: %s: %s\n", binario_code_name(status.code), status.message);
        failed = 1;
        break;
      }
      completed++;
      binario_call_free(calls[index]);
      calls[index] = NULL;
      if (binario_call_start(connection, method, &call_options, &request.base, &calls[index], &status) != BINARIO_CODE_OK) failed = 1;
    }
  }
  double wall = now_seconds() - start;
  long cpu = cpu_microseconds() - cpu_start;
  for (int index = 0; index < in_flight; index++) binario_call_free(calls[index]);
  free(calls);
  binario_connection_close(connection);
  binario_status_clear(&status);
  if (failed) return 1;
  printf("calls %ld seconds %.3f cpu_us %ld\n", completed, wall, cpu);
  return 0;
}
