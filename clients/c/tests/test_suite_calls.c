/*
 * libbinario against a running suite (the one Tests/EndToEndTests/CDeviceClientTests starts):
 * unary and server-streaming calls, many calls on one connection, an error with field
 * violations, deadlines, keepalive pings, cancelling, the frame limit, TLS verification.
 *
 * The environment names the suite: BINARIO_TEST_GATEWAY (host:port of the Binario door),
 * BINARIO_TEST_CA (its CA), BINARIO_TEST_DEVICE_TOKEN (a board's), BINARIO_TEST_DRIVER_TOKEN (an
 * access token of a driver whose taxi has a position). Without them the tests are skipped, so
 * ctest alone runs only the unit tests.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "binario/client.h"
#include "binario/dispatch/v1/dispatch.pb-c.h"
#include "binario/identity/v1/identity.pb-c.h"
#include "binario/telemetry/v1/telemetry.pb-c.h"

static const char upload_method[] = "/binario.telemetry.v1.Telemetry/UploadReadings";
static const char watch_method[] = "/binario.dispatch.v1.Dispatch/WatchJobs";

typedef struct suite {
  char host[256];
  uint16_t port;
  const char *ca;
  char device[256];
  char driver[2048];
} suite;

static suite environment;

static int setup(void **state) {
  (void)state;
  const char *gateway = getenv("BINARIO_TEST_GATEWAY");
  const char *colon = gateway != NULL ? strrchr(gateway, ':') : NULL;
  if (colon == NULL || getenv("BINARIO_TEST_CA") == NULL || getenv("BINARIO_TEST_DEVICE_TOKEN") == NULL || getenv("BINARIO_TEST_DRIVER_TOKEN") == NULL) {
    return 0;
  }
  snprintf(environment.host, sizeof environment.host, "%.*s", (int)(colon - gateway), gateway);
  environment.port = (uint16_t)atoi(colon + 1);
  environment.ca = getenv("BINARIO_TEST_CA");
  snprintf(environment.device, sizeof environment.device, "Device %s", getenv("BINARIO_TEST_DEVICE_TOKEN"));
  snprintf(environment.driver, sizeof environment.driver, "Bearer %s", getenv("BINARIO_TEST_DRIVER_TOKEN"));
  return 0;
}

static binario_connection *connect_with(uint32_t frame_limit, uint32_t keepalive_ms) {
  if (environment.port == 0) skip();
  binario_connect_options options;
  memset(&options, 0, sizeof options);
  options.host = environment.host;
  options.port = environment.port;
  options.ca_file = environment.ca;
  options.server_name = "localhost";
  options.frame_limit = frame_limit;
  options.keepalive_ms = keepalive_ms;
  binario_connection *connection = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  int code = binario_connect(&options, &connection, &status);
  if (code != BINARIO_CODE_OK) fprintf(stderr, "connect: %s\n", status.message);
  assert_int_equal(code, BINARIO_CODE_OK);
  binario_status_clear(&status);
  return connection;
}

/* A day ago, in milliseconds, fixed at the first use: readings at seconds past it are this
 * run's own (readings are idempotent per device and millisecond). */
static int64_t run_start_ms(void) {
  static int64_t start = 0;
  if (start == 0) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    start = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 - 86400000;
  }
  return start;
}

/* An upload request of `count` readings from `first`; its storage in the arrays given. */
static void upload_request(Binario__Telemetry__V1__UploadReadingsRequest *request, Binario__Telemetry__V1__Reading *readings,
                           Binario__Telemetry__V1__Reading **pointers, Google__Protobuf__Timestamp *times, size_t count, int64_t first) {
  binario__telemetry__v1__upload_readings_request__init(request);
  for (size_t index = 0; index < count; index++) {
    google__protobuf__timestamp__init(&times[index]);
    int64_t milliseconds = run_start_ms() + (first + (int64_t)index) * 1000;
    times[index].seconds = milliseconds / 1000;
    times[index].nanos = (int32_t)(milliseconds % 1000) * 1000000;
    binario__telemetry__v1__reading__init(&readings[index]);
    readings[index].time = &times[index];
    readings[index].has_latitude = readings[index].has_longitude = readings[index].has_temperature = 1;
    readings[index].latitude = 45.4642;
    readings[index].longitude = 9.19;
    readings[index].temperature = 4.5 + (double)index;
    pointers[index] = &readings[index];
  }
  request->n_readings = count;
  request->readings = pointers;
}

static void unary_upload_is_stored_then_counted_as_a_duplicate(void **state) {
  (void)state;
  binario_connection *connection = connect_with(0, 0);
  Binario__Telemetry__V1__UploadReadingsRequest request;
  Binario__Telemetry__V1__Reading readings[3];
  Binario__Telemetry__V1__Reading *pointers[3];
  Google__Protobuf__Timestamp times[3];
  upload_request(&request, readings, pointers, times, 3, 0);
  binario_metadata metadata[] = {{"authorization", environment.device}};
  binario_call_options options = {metadata, 1, 5000};
  for (int attempt = 0; attempt < 2; attempt++) {
    ProtobufCMessage *answer = NULL;
    binario_status status = BINARIO_STATUS_INIT;
    assert_int_equal(binario_unary(connection, upload_method, &options, &request.base,
                                   &binario__telemetry__v1__upload_readings_response__descriptor, &answer, &status),
                     BINARIO_CODE_OK);
    Binario__Telemetry__V1__UploadReadingsResponse *response = (Binario__Telemetry__V1__UploadReadingsResponse *)answer;
    assert_int_equal(response->stored, attempt == 0 ? 3 : 0);
    assert_int_equal(response->duplicates, attempt == 0 ? 0 : 3);
    protobuf_c_message_free_unpacked(answer, NULL);
    binario_status_clear(&status);
  }
  binario_connection_close(connection);
}

static void many_calls_share_one_connection(void **state) {
  (void)state;
  enum { CALLS = 16 };
  binario_connection *connection = connect_with(0, 0);
  binario_metadata metadata[] = {{"authorization", environment.device}};
  binario_call_options options = {metadata, 1, 5000};
  binario_call *calls[CALLS];
  binario_status status = BINARIO_STATUS_INIT;
  for (int index = 0; index < CALLS; index++) {
    Binario__Telemetry__V1__UploadReadingsRequest request;
    Binario__Telemetry__V1__Reading reading;
    Binario__Telemetry__V1__Reading *pointer;
    Google__Protobuf__Timestamp time;
    upload_request(&request, &reading, &pointer, &time, 1, 100 + index);
    assert_int_equal(binario_call_start(connection, upload_method, &options, &request.base, &calls[index], &status), BINARIO_CODE_OK);
  }
  /* Nothing has been waited for: the first answer cannot be there before the connection is driven. */
  ProtobufCMessage *message = NULL;
  assert_int_equal(binario_call_poll(calls[0], &binario__telemetry__v1__upload_readings_response__descriptor, &message, &status), BINARIO_NEXT_PENDING);
  int stored = 0;
  for (int index = CALLS - 1; index >= 0; index--) {
    assert_int_equal(binario_call_next(calls[index], &binario__telemetry__v1__upload_readings_response__descriptor, &message, &status), BINARIO_NEXT_MESSAGE);
    stored += ((Binario__Telemetry__V1__UploadReadingsResponse *)message)->stored;
    protobuf_c_message_free_unpacked(message, NULL);
    assert_int_equal(binario_call_next(calls[index], &binario__telemetry__v1__upload_readings_response__descriptor, &message, &status), BINARIO_NEXT_END);
    assert_int_equal(status.code, BINARIO_CODE_OK);
    binario_call_free(calls[index]);
  }
  assert_int_equal(stored, CALLS);
  binario_status_clear(&status);
  binario_connection_close(connection);
}

static void an_invalid_request_names_its_fields(void **state) {
  (void)state;
  binario_connection *connection = connect_with(0, 0);
  Binario__Identity__V1__LoginRequest request = BINARIO__IDENTITY__V1__LOGIN_REQUEST__INIT;
  request.email = "";
  request.password = "";
  ProtobufCMessage *answer = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  assert_int_equal(binario_unary(connection, "/binario.identity.v1.Identity/Login", NULL, &request.base,
                                 &binario__identity__v1__login_response__descriptor, &answer, &status),
                   BINARIO_CODE_INVALID_ARGUMENT);
  assert_null(answer);
  assert_non_null(status.message);
  assert_true(status.violation_count >= 1);
  int names_email = 0;
  for (size_t index = 0; index < status.violation_count; index++) names_email |= strcmp(status.violations[index].field, "email") == 0;
  assert_true(names_email);
  binario_status_clear(&status);
  binario_connection_close(connection);
}

static void refusals_carry_a_code_and_a_message(void **state) {
  (void)state;
  binario_connection *connection = connect_with(0, 0);
  Binario__Telemetry__V1__UploadReadingsRequest request;
  Binario__Telemetry__V1__Reading reading;
  Binario__Telemetry__V1__Reading *pointer;
  Google__Protobuf__Timestamp time;
  upload_request(&request, &reading, &pointer, &time, 1, 500);
  binario_metadata forged[] = {{"authorization", "Device bdt_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}};
  binario_call_options options = {forged, 1, 5000};
  ProtobufCMessage *answer = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  assert_int_equal(binario_unary(connection, upload_method, &options, &request.base,
                                 &binario__telemetry__v1__upload_readings_response__descriptor, &answer, &status),
                   BINARIO_CODE_UNAUTHENTICATED);
  assert_non_null(status.message);
  /* A method no service has is refused at the gateway, by name, as gRPC servers do. */
  assert_int_equal(binario_unary(connection, "/binario.telemetry.v1.Telemetry/NoSuchMethod", &options, &request.base,
                                 &binario__telemetry__v1__upload_readings_response__descriptor, &answer, &status),
                   BINARIO_CODE_UNIMPLEMENTED);
  assert_non_null(strstr(status.message, "NoSuchMethod"));
  /* The connection is still good after both. */
  assert_true(binario_connection_usable(connection, NULL));
  binario_status_clear(&status);
  binario_connection_close(connection);
}

/* Reads the stream until a taxi event in `wanted` state arrives. */
static void expect_taxi_event(binario_call *watch, Binario__Dispatch__V1__TaxiState wanted) {
  binario_status status = BINARIO_STATUS_INIT;
  for (;;) {
    ProtobufCMessage *message = NULL;
    assert_int_equal(binario_call_next(watch, &binario__dispatch__v1__watch_jobs_response__descriptor, &message, &status), BINARIO_NEXT_MESSAGE);
    Binario__Dispatch__V1__WatchJobsResponse *event = (Binario__Dispatch__V1__WatchJobsResponse *)message;
    int found = event->event_case == BINARIO__DISPATCH__V1__WATCH_JOBS_RESPONSE__EVENT_TAXI && event->taxi->state == wanted;
    protobuf_c_message_free_unpacked(message, NULL);
    if (found) break;
  }
  binario_status_clear(&status);
}

static void set_available(binario_connection *connection, int available) {
  binario_metadata metadata[] = {{"authorization", environment.driver}};
  binario_call_options options = {metadata, 1, 5000};
  Binario__Dispatch__V1__SetAvailabilityRequest request = BINARIO__DISPATCH__V1__SET_AVAILABILITY_REQUEST__INIT;
  request.has_available = 1;
  request.available = available;
  request.reason = available ? "" : "break";
  ProtobufCMessage *answer = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  int code = binario_unary(connection, "/binario.dispatch.v1.Dispatch/SetAvailability", &options, &request.base,
                           &binario__dispatch__v1__set_availability_response__descriptor, &answer, &status);
  if (code != BINARIO_CODE_OK) fprintf(stderr, "SetAvailability: %s\n", status.message);
  assert_int_equal(code, BINARIO_CODE_OK);
  protobuf_c_message_free_unpacked(answer, NULL);
  binario_status_clear(&status);
}

static void a_server_stream_delivers_events_as_they_happen(void **state) {
  (void)state;
  binario_connection *connection = connect_with(0, 0);
  binario_metadata metadata[] = {{"authorization", environment.driver}};
  binario_call_options options = {metadata, 1, 0};
  Binario__Dispatch__V1__WatchJobsRequest request = BINARIO__DISPATCH__V1__WATCH_JOBS_REQUEST__INIT;
  binario_call *watch = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  assert_int_equal(binario_call_start(connection, watch_method, &options, &request.base, &watch, &status), BINARIO_CODE_OK);
  /* Unary calls on the same connection while the stream is open; each change arrives on it. */
  set_available(connection, 0);
  expect_taxi_event(watch, BINARIO__DISPATCH__V1__TAXI_STATE__TAXI_STATE_UNAVAILABLE);
  set_available(connection, 1);
  expect_taxi_event(watch, BINARIO__DISPATCH__V1__TAXI_STATE__TAXI_STATE_WAITING);
  /* Freed while open: cancelled, and the connection goes on. */
  binario_call_free(watch);
  set_available(connection, 1);
  binario_status_clear(&status);
  binario_connection_close(connection);
}

/* A stream that never ends by itself, with a deadline, on a connection pinging every 50 ms: the
 * deadline ends it, and the connection survives its idle time (every ping answered). */
static void a_deadline_ends_a_call_and_pings_keep_the_connection(void **state) {
  (void)state;
  binario_connection *connection = connect_with(0, 50);
  binario_metadata metadata[] = {{"authorization", environment.driver}};
  binario_call_options options = {metadata, 1, 600};
  Binario__Dispatch__V1__WatchJobsRequest request = BINARIO__DISPATCH__V1__WATCH_JOBS_REQUEST__INIT;
  binario_call *watch = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  assert_int_equal(binario_call_start(connection, watch_method, &options, &request.base, &watch, &status), BINARIO_CODE_OK);
  ProtobufCMessage *message = NULL;
  binario_next next;
  while ((next = binario_call_next(watch, &binario__dispatch__v1__watch_jobs_response__descriptor, &message, &status)) == BINARIO_NEXT_MESSAGE) {
    protobuf_c_message_free_unpacked(message, NULL);
  }
  assert_int_equal(status.code, BINARIO_CODE_DEADLINE_EXCEEDED);
  assert_true(binario_connection_usable(connection, NULL));
  binario_call_free(watch);
  set_available(connection, 1);
  binario_status_clear(&status);
  binario_connection_close(connection);
}

static void a_request_above_the_frame_limit_is_refused_here(void **state) {
  (void)state;
  binario_connection *connection = connect_with(1024, 0);
  enum { COUNT = 64 };
  Binario__Telemetry__V1__UploadReadingsRequest request;
  Binario__Telemetry__V1__Reading readings[COUNT];
  Binario__Telemetry__V1__Reading *pointers[COUNT];
  Google__Protobuf__Timestamp times[COUNT];
  upload_request(&request, readings, pointers, times, COUNT, 1000);
  binario_metadata metadata[] = {{"authorization", environment.device}};
  binario_call_options options = {metadata, 1, 5000};
  ProtobufCMessage *answer = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  assert_int_equal(binario_unary(connection, upload_method, &options, &request.base,
                                 &binario__telemetry__v1__upload_readings_response__descriptor, &answer, &status),
                   BINARIO_CODE_RESOURCE_EXHAUSTED);
  /* A small one still goes. */
  request.n_readings = 1;
  assert_int_equal(binario_unary(connection, upload_method, &options, &request.base,
                                 &binario__telemetry__v1__upload_readings_response__descriptor, &answer, &status),
                   BINARIO_CODE_OK);
  protobuf_c_message_free_unpacked(answer, NULL);
  binario_status_clear(&status);
  binario_connection_close(connection);
}

static void the_server_is_verified(void **state) {
  (void)state;
  if (environment.port == 0) skip();
  binario_connect_options options;
  memset(&options, 0, sizeof options);
  options.host = environment.host;
  options.port = environment.port;
  options.ca_file = environment.ca;
  options.server_name = "not-the-gateway.example";
  binario_connection *connection = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  assert_int_equal(binario_connect(&options, &connection, &status), BINARIO_CODE_UNAVAILABLE);
  assert_null(connection);
  assert_non_null(strstr(status.message, "not trusted"));
  /* The system's CAs do not know the dev CA. */
  options.server_name = "localhost";
  options.ca_file = NULL;
  assert_int_equal(binario_connect(&options, &connection, &status), BINARIO_CODE_UNAVAILABLE);
  binario_status_clear(&status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(unary_upload_is_stored_then_counted_as_a_duplicate),
      cmocka_unit_test(many_calls_share_one_connection),
      cmocka_unit_test(an_invalid_request_names_its_fields),
      cmocka_unit_test(refusals_carry_a_code_and_a_message),
      cmocka_unit_test(a_server_stream_delivers_events_as_they_happen),
      cmocka_unit_test(a_deadline_ends_a_call_and_pings_keep_the_connection),
      cmocka_unit_test(a_request_above_the_frame_limit_is_refused_here),
      cmocka_unit_test(the_server_is_verified),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
