/*
 * binario-taxi: a taxi's on-board unit. Signs the driver in, reports the taxi's position from a
 * CSV or GPX track at a pace, makes the taxi available, and prints the job offers of the driver's
 * stream (WatchJobs) as they arrive, accepting or rejecting each from a flag or the keyboard. The
 * stream and the unary calls share one connection, driven by the library's non-blocking mode in
 * this program's own poll loop (the connection, the keyboard, the next position's time).
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binario/client.h"
#include "binario/dispatch/v1/dispatch.pb-c.h"
#include "binario/identity/v1/identity.pb-c.h"
#include "program.h"

static const char program[] = "binario-taxi";

typedef struct point {
  double latitude;
  double longitude;
} point;

typedef enum answer_mode { ANSWER_ASK, ANSWER_ACCEPT, ANSWER_REJECT } answer_mode;

typedef struct taxi {
  program_gateway gateway;
  binario_connection *connection;
  char *authorization;           /* "Bearer <access token>" */
  point *track;
  size_t track_length;
  size_t next_point;
  int pace_ms;
  int loop;
  answer_mode mode;
  long offers_limit;             /* stop after answering this many; 0: no limit */
  long offers_answered;
  char *pending_offer;           /* asked on the keyboard, not answered yet */
  int on_ride;
  int64_t next_position_at;      /* monotonic ms */
} taxi;

/* ---- The track ------------------------------------------------------------------------------- */

/* The value of attribute `name` ("lat") in the tag starting at `tag`, or 0 when absent. */
static int gpx_attribute(const char *tag, const char *end, const char *name, double *value) {
  size_t length = strlen(name);
  for (const char *cursor = tag; cursor != NULL && cursor < end; cursor = strstr(cursor + 1, name)) {
    if (cursor > tag && (cursor[-1] == ' ' || cursor[-1] == '\t' || cursor[-1] == '\n') && strncmp(cursor, name, length) == 0 &&
        cursor[length] == '=' && (cursor[length + 1] == '"' || cursor[length + 1] == '\'')) {
      char *stop_at = NULL;
      *value = strtod(cursor + length + 2, &stop_at);
      return stop_at != cursor + length + 2;
    }
  }
  return 0;
}

static int add_point(taxi *state, size_t *capacity, double latitude, double longitude) {
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) return -1;
  if (state->track_length == *capacity) {
    *capacity = *capacity == 0 ? 64 : *capacity * 2;
    point *grown = realloc(state->track, *capacity * sizeof *grown);
    if (grown == NULL) return -1;
    state->track = grown;
  }
  state->track[state->track_length++] = (point){latitude, longitude};
  return 0;
}

/*
 * Reads a track: GPX (every <trkpt lat=".." lon="..">, or <rtept>/<wpt>) or CSV (latitude,
 * longitude per line, a header allowed). 0, or -1 with a message.
 */
static int read_track(taxi *state, const char *path) {
  FILE *file = fopen(path, "r");
  if (file == NULL) {
    fprintf(stderr, "%s: cannot read %s: %s\n", program, path, strerror(errno));
    return -1;
  }
  char *text = NULL;
  size_t size = 0;
  FILE *memory = open_memstream(&text, &size);
  char chunk[8192];
  for (size_t count; memory != NULL && (count = fread(chunk, 1, sizeof chunk, file)) > 0;) fwrite(chunk, 1, count, memory);
  fclose(file);
  if (memory == NULL || fclose(memory) != 0 || text == NULL) {
    fprintf(stderr, "%s: out of memory reading %s\n", program, path);
    free(text);
    return -1;
  }
  size_t capacity = 0;
  int result = 0;
  if (strstr(text, "<gpx") != NULL) {
    static const char *const tags[] = {"<trkpt", "<rtept", "<wpt"};
    for (size_t kind = 0; kind < 3 && state->track_length == 0; kind++) {
      for (const char *tag = strstr(text, tags[kind]); tag != NULL; tag = strstr(tag + 1, tags[kind])) {
        const char *end = strchr(tag, '>');
        double latitude, longitude;
        if (end == NULL || !gpx_attribute(tag, end, "lat", &latitude) || !gpx_attribute(tag, end, "lon", &longitude) ||
            add_point(state, &capacity, latitude, longitude) != 0) {
          fprintf(stderr, "%s: %s: a %s> without a valid lat and lon\n", program, path, tags[kind]);
          result = -1;
          break;
        }
      }
    }
  } else {
    long line_number = 0;
    for (char *line = strtok(text, "\n"); line != NULL && result == 0; line = strtok(NULL, "\n")) {
      line_number++;
      double latitude, longitude;
      char extra;
      int fields = sscanf(line, " %lf , %lf %c", &latitude, &longitude, &extra);
      if (fields < 2) {
        if (line_number == 1 || line[strspn(line, " \t\r")] == '\0') continue; /* a header, a blank line */
        fprintf(stderr, "%s: %s, line %ld: expected latitude,longitude\n", program, path, line_number);
        result = -1;
      } else if (add_point(state, &capacity, latitude, longitude) != 0) {
        fprintf(stderr, "%s: %s, line %ld: not a position on Earth\n", program, path, line_number);
        result = -1;
      }
    }
  }
  free(text);
  if (result == 0 && state->track_length == 0) {
    fprintf(stderr, "%s: %s holds no positions\n", program, path);
    result = -1;
  }
  return result;
}

/* ---- Calls ----------------------------------------------------------------------------------- */

/* A unary call with the driver's token; reports a failure as `what`. The status code. */
static int call(taxi *state, const char *method, const ProtobufCMessage *request, const ProtobufCMessageDescriptor *descriptor,
                ProtobufCMessage **response, const char *what) {
  binario_metadata metadata[] = {{"authorization", state->authorization}};
  binario_call_options options = {metadata, state->authorization != NULL ? 1 : 0, state->gateway.timeout_ms};
  binario_status status = BINARIO_STATUS_INIT;
  int code = binario_unary(state->connection, method, &options, request, descriptor, response, &status);
  if (code != BINARIO_CODE_OK) program_report(program, what, &status);
  binario_status_clear(&status);
  return code;
}

static int sign_in(taxi *state, const char *email, const char *password) {
  Binario__Identity__V1__LoginRequest request = BINARIO__IDENTITY__V1__LOGIN_REQUEST__INIT;
  request.email = (char *)email;
  request.password = (char *)password;
  ProtobufCMessage *answer = NULL;
  int code = call(state, "/binario.identity.v1.Identity/Login", &request.base, &binario__identity__v1__login_response__descriptor, &answer,
                  "signing in");
  if (code != BINARIO_CODE_OK) return code;
  Binario__Identity__V1__LoginResponse *response = (Binario__Identity__V1__LoginResponse *)answer;
  const char *token = response->tokens != NULL && response->tokens->access_token != NULL ? response->tokens->access_token : "";
  size_t length = strlen("Bearer ") + strlen(token) + 1;
  free(state->authorization);
  state->authorization = malloc(length);
  if (state->authorization != NULL) snprintf(state->authorization, length, "Bearer %s", token);
  protobuf_c_message_free_unpacked(answer, NULL);
  if (state->authorization == NULL) return BINARIO_CODE_RESOURCE_EXHAUSTED;
  printf("signed in as %s\n", email);
  return BINARIO_CODE_OK;
}

static const char *taxi_state_name(Binario__Dispatch__V1__TaxiState taxi_state) {
  switch (taxi_state) {
  case BINARIO__DISPATCH__V1__TAXI_STATE__TAXI_STATE_UNAVAILABLE: return "unavailable";
  case BINARIO__DISPATCH__V1__TAXI_STATE__TAXI_STATE_WAITING: return "waiting";
  case BINARIO__DISPATCH__V1__TAXI_STATE__TAXI_STATE_OFFERED: return "holding an offer";
  case BINARIO__DISPATCH__V1__TAXI_STATE__TAXI_STATE_BUSY: return "on a job";
  default: return "unknown";
  }
}

static void print_taxi(const Binario__Dispatch__V1__Taxi *taxi_message) {
  if (taxi_message == NULL) return;
  printf("taxi %s: %s", taxi_message->code != NULL ? taxi_message->code : "?", taxi_state_name(taxi_message->state));
  if (taxi_message->zone_id != NULL && taxi_message->zone_id[0] != '\0') printf(", zone %s", taxi_message->zone_id);
  if (taxi_message->queue_position > 0) printf(", number %u in the queue", taxi_message->queue_position);
  printf("\n");
}

/* Reports the next point of the track (or the last one again when it is over). */
static int report_position(taxi *state) {
  const point *here = &state->track[state->next_point < state->track_length ? state->next_point : state->track_length - 1];
  Binario__Dispatch__V1__Position position = BINARIO__DISPATCH__V1__POSITION__INIT;
  position.has_latitude = position.has_longitude = 1;
  position.latitude = here->latitude;
  position.longitude = here->longitude;
  Binario__Dispatch__V1__ReportPositionRequest request = BINARIO__DISPATCH__V1__REPORT_POSITION_REQUEST__INIT;
  request.position = &position;
  ProtobufCMessage *answer = NULL;
  int code = call(state, "/binario.dispatch.v1.Dispatch/ReportPosition", &request.base,
                  &binario__dispatch__v1__report_position_response__descriptor, &answer, "reporting the position");
  if (code != BINARIO_CODE_OK) return code;
  printf("at %.6f,%.6f\n", here->latitude, here->longitude);
  protobuf_c_message_free_unpacked(answer, NULL);
  if (state->next_point + 1 < state->track_length) {
    state->next_point++;
  } else if (state->loop) {
    state->next_point = 0;
  } else {
    state->next_point = state->track_length; /* over: the taxi stays where it is */
  }
  return BINARIO_CODE_OK;
}

static int set_availability(taxi *state, int available, const char *reason) {
  Binario__Dispatch__V1__SetAvailabilityRequest request = BINARIO__DISPATCH__V1__SET_AVAILABILITY_REQUEST__INIT;
  request.has_available = 1;
  request.available = available;
  request.reason = (char *)reason;
  ProtobufCMessage *answer = NULL;
  int code = call(state, "/binario.dispatch.v1.Dispatch/SetAvailability", &request.base,
                  &binario__dispatch__v1__set_availability_response__descriptor, &answer, available ? "becoming available" : "becoming unavailable");
  if (code != BINARIO_CODE_OK) return code;
  print_taxi(((Binario__Dispatch__V1__SetAvailabilityResponse *)answer)->taxi);
  protobuf_c_message_free_unpacked(answer, NULL);
  return BINARIO_CODE_OK;
}

static int answer_offer(taxi *state, const char *offer_id, int accept) {
  ProtobufCMessage *answer = NULL;
  int code;
  if (accept) {
    Binario__Dispatch__V1__AcceptOfferRequest request = BINARIO__DISPATCH__V1__ACCEPT_OFFER_REQUEST__INIT;
    request.offer_id = (char *)offer_id;
    code = call(state, "/binario.dispatch.v1.Dispatch/AcceptOffer", &request.base, &binario__dispatch__v1__accept_offer_response__descriptor,
                &answer, "accepting the offer");
    if (code == BINARIO_CODE_OK) {
      const Binario__Dispatch__V1__Ride *ride = ((Binario__Dispatch__V1__AcceptOfferResponse *)answer)->ride;
      printf("accepted offer %s: ride %s\n", offer_id, ride != NULL && ride->ride_id != NULL ? ride->ride_id : "?");
      state->on_ride = 1;
    }
  } else {
    Binario__Dispatch__V1__RejectOfferRequest request = BINARIO__DISPATCH__V1__REJECT_OFFER_REQUEST__INIT;
    request.offer_id = (char *)offer_id;
    code = call(state, "/binario.dispatch.v1.Dispatch/RejectOffer", &request.base, &binario__dispatch__v1__reject_offer_response__descriptor,
                &answer, "rejecting the offer");
    if (code == BINARIO_CODE_OK) printf("rejected offer %s\n", offer_id);
  }
  if (answer != NULL) protobuf_c_message_free_unpacked(answer, NULL);
  state->offers_answered++;
  return code;
}

/* ---- The driver's stream --------------------------------------------------------------------- */

static void handle_event(taxi *state, const Binario__Dispatch__V1__WatchJobsResponse *event) {
  switch (event->event_case) {
  case BINARIO__DISPATCH__V1__WATCH_JOBS_RESPONSE__EVENT_OFFER: {
    const Binario__Dispatch__V1__Offer *offer = event->offer;
    const Binario__Dispatch__V1__Ride *ride = offer->ride;
    const Binario__Dispatch__V1__Place *pickup = ride != NULL ? ride->pickup : NULL;
    char expires[40] = "?";
    if (offer->expires_at != NULL) program_format_time(offer->expires_at->seconds * 1000 + offer->expires_at->nanos / 1000000, expires, sizeof expires);
    printf("offer %s: pickup %s, %.0f m away, %u passenger(s), expires %s\n", offer->offer_id,
           pickup != NULL && pickup->address != NULL && pickup->address[0] != '\0' ? pickup->address : "(a position)", offer->distance_metres,
           ride != NULL ? ride->passengers : 0, expires);
    if (state->mode == ANSWER_ASK) {
      free(state->pending_offer);
      state->pending_offer = strdup(offer->offer_id);
      printf("accept? [y/n] ");
    } else {
      answer_offer(state, offer->offer_id, state->mode == ANSWER_ACCEPT);
    }
    break;
  }
  case BINARIO__DISPATCH__V1__WATCH_JOBS_RESPONSE__EVENT_OFFER_WITHDRAWN:
    printf("offer %s withdrawn: %s\n", event->offer_withdrawn->offer_id, event->offer_withdrawn->reason);
    if (state->pending_offer != NULL && strcmp(state->pending_offer, event->offer_withdrawn->offer_id) == 0) {
      free(state->pending_offer);
      state->pending_offer = NULL;
    }
    break;
  case BINARIO__DISPATCH__V1__WATCH_JOBS_RESPONSE__EVENT_RIDE: {
    /* "RIDE_STATE_ALLOCATED" reads "allocated". */
    const ProtobufCEnumValue *value = protobuf_c_enum_descriptor_get_value(&binario__dispatch__v1__ride_state__descriptor, event->ride->state);
    char name[40] = "unknown";
    if (value != NULL) {
      snprintf(name, sizeof name, "%s", value->name + (strncmp(value->name, "RIDE_STATE_", 11) == 0 ? 11 : 0));
      for (char *letter = name; *letter != '\0'; letter++) *letter = *letter == '_' ? ' ' : (char)tolower((unsigned char)*letter);
    }
    printf("ride %s: %s\n", event->ride->ride_id, name);
    break;
  }
  case BINARIO__DISPATCH__V1__WATCH_JOBS_RESPONSE__EVENT_TAXI:
    print_taxi(event->taxi);
    break;
  default:
    break;
  }
  fflush(stdout);
}

static int open_watch(taxi *state, binario_call **watch) {
  Binario__Dispatch__V1__WatchJobsRequest request = BINARIO__DISPATCH__V1__WATCH_JOBS_REQUEST__INIT;
  binario_metadata metadata[] = {{"authorization", state->authorization}};
  binario_call_options options = {metadata, 1, 0};
  binario_status status = BINARIO_STATUS_INIT;
  int code = binario_call_start(state->connection, "/binario.dispatch.v1.Dispatch/WatchJobs", &options, &request.base, watch, &status);
  if (code != BINARIO_CODE_OK) program_report(program, "watching jobs", &status);
  binario_status_clear(&status);
  return code;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: %s --email EMAIL [--password-file FILE] --track FILE [options]\n"
          "A taxi's on-board unit: signs the driver in, reports positions from a CSV (latitude,longitude)\n"
          "or GPX track, becomes available, and prints job offers as they arrive, answering each.\n\n"
          "  --gateway HOST:PORT   the gateway's Binario port (BINARIO_GATEWAY, default localhost:7100)\n"
          "  --ca FILE             PEM CA of the gateway's certificate (BINARIO_CA, default .dev/certs/ca.pem)\n"
          "  --server-name NAME    the name the certificate must carry (default: the host)\n"
          "  --email EMAIL         the driver's account\n"
          "  --password-file FILE  the driver's password (or BINARIO_PASSWORD)\n"
          "  --track FILE          positions to report, CSV or GPX\n"
          "  --pace SECONDS        between positions (default 5)\n"
          "  --loop                drive the track again from its start at its end\n"
          "  --accept | --reject   answer every offer so (default: ask on the keyboard)\n"
          "  --offers N            stop after answering N offers (default: run until Ctrl-C)\n"
          "  --timeout-ms N        each call's deadline (default 10000)\n"
          "At the end the taxi becomes unavailable (\"end of shift\") unless it took a ride.\n",
          program);
}

int main(int argc, char **argv) {
  taxi state;
  memset(&state, 0, sizeof state);
  state.pace_ms = 5000;
  const char *gateway = program_gateway_defaults(&state.gateway);
  const char *email = NULL, *password_file = NULL, *track = NULL;
  static const struct option options[] = {
      {"gateway", required_argument, NULL, 'g'}, {"ca", required_argument, NULL, 'c'},
      {"server-name", required_argument, NULL, 'n'}, {"email", required_argument, NULL, 'e'},
      {"password-file", required_argument, NULL, 'p'}, {"track", required_argument, NULL, 't'},
      {"pace", required_argument, NULL, 'P'}, {"loop", no_argument, NULL, 'l'},
      {"accept", no_argument, NULL, 'a'}, {"reject", no_argument, NULL, 'r'},
      {"offers", required_argument, NULL, 'o'}, {"timeout-ms", required_argument, NULL, 'd'},
      {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
  };
  for (int option; (option = getopt_long(argc, argv, "h", options, NULL)) != -1;) {
    char *end = NULL;
    double number = optarg != NULL ? strtod(optarg, &end) : 0;
    int numeric = optarg != NULL && end != optarg && *end == '\0';
    switch (option) {
    case 'g': gateway = optarg; break;
    case 'c': state.gateway.ca_file = optarg; break;
    case 'n': state.gateway.server_name = optarg; break;
    case 'e': email = optarg; break;
    case 'p': password_file = optarg; break;
    case 't': track = optarg; break;
    case 'l': state.loop = 1; break;
    case 'a': state.mode = ANSWER_ACCEPT; break;
    case 'r': state.mode = ANSWER_REJECT; break;
    case 'P':
      if (!numeric || number < 0 || number > 3600) goto bad_number;
      state.pace_ms = (int)(number * 1000);
      break;
    case 'o':
      if (!numeric || number < 1 || number > 1e6) goto bad_number;
      state.offers_limit = (long)number;
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
  if (email == NULL || track == NULL || optind != argc) {
    usage(stderr);
    return PROGRAM_EXIT_USAGE;
  }
  char *password = program_secret(program, password_file, "BINARIO_PASSWORD", "--password-file");
  if (password == NULL) return PROGRAM_EXIT_USAGE;
  int exit_status = PROGRAM_EXIT_FAILED;
  binario_call *watch = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  if (program_parse_gateway(program, gateway, &state.gateway) != 0 || read_track(&state, track) != 0) {
    exit_status = PROGRAM_EXIT_USAGE;
    goto done;
  }
  program_stop_on_signals();

  if (program_connect(&state.gateway, 30000, &state.connection, &status) != BINARIO_CODE_OK) {
    program_report(program, "connecting", &status);
    exit_status = PROGRAM_EXIT_TEMPORARY;
    goto done;
  }
  if (sign_in(&state, email, password) != BINARIO_CODE_OK || report_position(&state) != BINARIO_CODE_OK ||
      open_watch(&state, &watch) != BINARIO_CODE_OK || set_availability(&state, 1, "") != BINARIO_CODE_OK) {
    goto done;
  }
  fflush(stdout);
  state.next_position_at = program_monotonic_ms() + state.pace_ms;
  int keyboard = state.mode == ANSWER_ASK;
  exit_status = PROGRAM_EXIT_OK;
  while (!program_stopping && (state.offers_limit == 0 || state.offers_answered < state.offers_limit)) {
    int moving = state.next_point < state.track_length;
    int64_t now = program_monotonic_ms();
    int timeout = binario_connection_timeout_ms(state.connection);
    if (moving) {
      int until = state.next_position_at <= now ? 0 : (int)(state.next_position_at - now);
      if (timeout < 0 || until < timeout) timeout = until;
    }
    struct pollfd descriptors[2] = {
        {.fd = binario_connection_fd(state.connection), .events = binario_connection_events(state.connection), .revents = 0},
        {.fd = STDIN_FILENO, .events = POLLIN, .revents = 0},
    };
    int ready = poll(descriptors, keyboard ? 2 : 1, timeout);
    if (ready < 0 && errno != EINTR) break;
    if (binario_connection_process(state.connection, ready > 0 ? descriptors[0].revents : 0, &status) != BINARIO_CODE_OK) {
      program_report(program, "the connection", &status);
      exit_status = PROGRAM_EXIT_TEMPORARY;
      break;
    }
    ProtobufCMessage *message = NULL;
    binario_next next;
    while ((next = binario_call_poll(watch, &binario__dispatch__v1__watch_jobs_response__descriptor, &message, &status)) == BINARIO_NEXT_MESSAGE) {
      handle_event(&state, (Binario__Dispatch__V1__WatchJobsResponse *)message);
      protobuf_c_message_free_unpacked(message, NULL);
    }
    if (next == BINARIO_NEXT_END) {
      program_report(program, "the jobs stream ended", &status);
      exit_status = program_is_temporary(status.code) ? PROGRAM_EXIT_TEMPORARY : PROGRAM_EXIT_FAILED;
      break;
    }
    if (keyboard && ready > 0 && (descriptors[1].revents & (POLLIN | POLLHUP)) != 0) {
      char line[64];
      ssize_t count = read(STDIN_FILENO, line, sizeof line - 1);
      if (count <= 0) {
        keyboard = 0; /* no more keyboard: offers wait for their expiry */
      } else if (state.pending_offer != NULL) {
        line[count] = '\0';
        int accept = line[0] == 'y' || line[0] == 'Y';
        if (accept || line[0] == 'n' || line[0] == 'N') {
          answer_offer(&state, state.pending_offer, accept);
          free(state.pending_offer);
          state.pending_offer = NULL;
        } else {
          printf("accept? [y/n] ");
        }
      }
      fflush(stdout);
    }
    if (moving && program_monotonic_ms() >= state.next_position_at) {
      report_position(&state);
      fflush(stdout);
      state.next_position_at += state.pace_ms;
      if (state.next_position_at < program_monotonic_ms()) state.next_position_at = program_monotonic_ms() + state.pace_ms;
    }
  }
  if (!state.on_ride && binario_connection_usable(state.connection, NULL)) set_availability(&state, 0, "end of shift");
done:
  fflush(stdout);
  binario_call_free(watch);
  binario_connection_close(state.connection);
  binario_status_clear(&status);
  free(state.authorization);
  free(state.pending_offer);
  free(state.track);
  free(state.gateway.host);
  free(password);
  return exit_status;
}
