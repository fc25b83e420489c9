/* The frame layer: round trips, frames split across and merged within reads, oversized and
 * malformed frames refused (cmocka). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "binario/frame.h"

/* An Open frame of a unary call: method, a metadata entry, a deadline, an empty but present
 * payload (an empty request message is not the same as none). */
static uint8_t *unary_open(uint64_t call_id, size_t *length) {
  Binario__Wire__V1__MetadataEntry entry = BINARIO__WIRE__V1__METADATA_ENTRY__INIT;
  entry.key = "authorization";
  entry.value_case = BINARIO__WIRE__V1__METADATA_ENTRY__VALUE_TEXT;
  entry.text = "Device bdt_x";
  Binario__Wire__V1__MetadataEntry *entries[] = {&entry};
  Binario__Wire__V1__Open open = BINARIO__WIRE__V1__OPEN__INIT;
  open.method = "/binario.telemetry.v1.Telemetry/UploadReadings";
  open.n_metadata = 1;
  open.metadata = entries;
  open.has_timeout_ms = 1;
  open.timeout_ms = 5000;
  open.has_payload = 1;
  open.payload.len = 0;
  open.payload.data = NULL;
  open.has_half_close = 1;
  open.half_close = 1;
  Binario__Wire__V1__Frame frame = BINARIO__WIRE__V1__FRAME__INIT;
  frame.has_call_id = 1;
  frame.call_id = call_id;
  frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_OPEN;
  frame.open = &open;
  uint8_t *bytes = NULL;
  assert_int_equal(binario_frame_encode(&frame, 0, &bytes, length), BINARIO_OK);
  return bytes;
}

static void check_open(const Binario__Wire__V1__Frame *frame, uint64_t call_id) {
  assert_non_null(frame);
  assert_int_equal(frame->call_id, call_id);
  assert_int_equal(frame->kind_case, BINARIO__WIRE__V1__FRAME__KIND_OPEN);
  assert_string_equal(frame->open->method, "/binario.telemetry.v1.Telemetry/UploadReadings");
  assert_int_equal(frame->open->n_metadata, 1);
  assert_string_equal(frame->open->metadata[0]->key, "authorization");
  assert_string_equal(frame->open->metadata[0]->text, "Device bdt_x");
  assert_int_equal(frame->open->timeout_ms, 5000);
  assert_true(frame->open->has_payload);
  assert_int_equal(frame->open->payload.len, 0);
  assert_true(frame->open->half_close);
}

static void round_trip(void **state) {
  (void)state;
  size_t length = 0;
  uint8_t *bytes = unary_open(7, &length);
  /* The length prefix is big-endian and counts the protobuf alone. */
  assert_int_equal(((size_t)bytes[0] << 24 | (size_t)bytes[1] << 16 | (size_t)bytes[2] << 8 | bytes[3]), length - 4);
  binario_frame_reader *reader = binario_frame_reader_new(0);
  assert_non_null(reader);
  assert_int_equal(binario_frame_reader_feed(reader, bytes, length), BINARIO_OK);
  Binario__Wire__V1__Frame *frame = NULL;
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_OK);
  check_open(frame, 7);
  binario_frame_free(frame);
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_E_AGAIN);
  assert_null(frame);
  assert_int_equal(binario_frame_reader_buffered(reader), 0);
  binario_frame_reader_free(reader);
  free(bytes);
}

static void split_across_reads(void **state) {
  (void)state;
  size_t length = 0;
  uint8_t *bytes = unary_open(9, &length);
  binario_frame_reader *reader = binario_frame_reader_new(0);
  Binario__Wire__V1__Frame *frame = NULL;
  for (size_t index = 0; index < length; index++) {
    assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_E_AGAIN);
    assert_int_equal(binario_frame_reader_feed(reader, bytes + index, 1), BINARIO_OK);
  }
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_OK);
  check_open(frame, 9);
  binario_frame_free(frame);
  binario_frame_reader_free(reader);
  free(bytes);
}

static void merged_in_one_read(void **state) {
  (void)state;
  size_t first_length = 0, second_length = 0;
  uint8_t *first = unary_open(1, &first_length);
  uint8_t *second = unary_open(3, &second_length);
  /* Two frames and the first half of a third in one read; the rest in the next. */
  size_t total = first_length + second_length + first_length;
  uint8_t *both = malloc(total);
  assert_non_null(both);
  memcpy(both, first, first_length);
  memcpy(both + first_length, second, second_length);
  memcpy(both + first_length + second_length, first, first_length);
  binario_frame_reader *reader = binario_frame_reader_new(0);
  size_t cut = first_length + second_length + first_length / 2;
  assert_int_equal(binario_frame_reader_feed(reader, both, cut), BINARIO_OK);
  Binario__Wire__V1__Frame *frame = NULL;
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_OK);
  check_open(frame, 1);
  binario_frame_free(frame);
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_OK);
  check_open(frame, 3);
  binario_frame_free(frame);
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_E_AGAIN);
  assert_int_equal(binario_frame_reader_feed(reader, both + cut, total - cut), BINARIO_OK);
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_OK);
  check_open(frame, 1);
  binario_frame_free(frame);
  binario_frame_reader_free(reader);
  free(both);
  free(first);
  free(second);
}

static void oversized_refused_at_its_length(void **state) {
  (void)state;
  binario_frame_reader *reader = binario_frame_reader_new(1024);
  const uint8_t header[] = {0x00, 0x00, 0x04, 0x01}; /* 1025 bytes announced */
  assert_int_equal(binario_frame_reader_feed(reader, header, sizeof header), BINARIO_OK);
  Binario__Wire__V1__Frame *frame = NULL;
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_E_FRAME_TOO_LARGE);
  /* It stays failed: the connection is to be closed. */
  assert_int_equal(binario_frame_reader_feed(reader, header, sizeof header), BINARIO_E_FRAME_TOO_LARGE);
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_E_FRAME_TOO_LARGE);
  binario_frame_reader_free(reader);

  /* Nor is one encoded past the limit. */
  Binario__Wire__V1__Message message = BINARIO__WIRE__V1__MESSAGE__INIT;
  uint8_t payload[2048] = {0};
  message.has_payload = 1;
  message.payload.len = sizeof payload;
  message.payload.data = payload;
  Binario__Wire__V1__Frame big = BINARIO__WIRE__V1__FRAME__INIT;
  big.has_call_id = 1;
  big.call_id = 1;
  big.kind_case = BINARIO__WIRE__V1__FRAME__KIND_MESSAGE;
  big.message = &message;
  uint8_t *bytes = NULL;
  size_t length = 0;
  assert_int_equal(binario_frame_encode(&big, 1024, &bytes, &length), BINARIO_E_FRAME_TOO_LARGE);
  assert_null(bytes);
}

static void malformed_refused(void **state) {
  (void)state;
  binario_frame_reader *reader = binario_frame_reader_new(0);
  /* Field 1 as a length-delimited field whose length runs past the frame. */
  const uint8_t bytes[] = {0x00, 0x00, 0x00, 0x03, 0x0a, 0x7f, 0x01};
  assert_int_equal(binario_frame_reader_feed(reader, bytes, sizeof bytes), BINARIO_OK);
  Binario__Wire__V1__Frame *frame = NULL;
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_E_MALFORMED_FRAME);
  assert_null(frame);
  binario_frame_reader_free(reader);
}

static void empty_frame_and_arguments(void **state) {
  (void)state;
  /* A zero-length frame is a Frame with nothing set (call 0, no kind): it decodes. */
  binario_frame_reader *reader = binario_frame_reader_new(0);
  const uint8_t empty[] = {0, 0, 0, 0};
  assert_int_equal(binario_frame_reader_feed(reader, empty, sizeof empty), BINARIO_OK);
  Binario__Wire__V1__Frame *frame = NULL;
  assert_int_equal(binario_frame_reader_next(reader, &frame), BINARIO_OK);
  assert_int_equal(frame->call_id, 0);
  assert_int_equal(frame->kind_case, BINARIO__WIRE__V1__FRAME__KIND__NOT_SET);
  binario_frame_free(frame);
  assert_int_equal(binario_frame_reader_feed(NULL, empty, 4), BINARIO_E_INVALID_ARGUMENT);
  assert_int_equal(binario_frame_reader_feed(reader, NULL, 4), BINARIO_E_INVALID_ARGUMENT);
  assert_int_equal(binario_frame_reader_next(reader, NULL), BINARIO_E_INVALID_ARGUMENT);
  assert_string_equal(binario_result_message(BINARIO_E_AGAIN), "not a whole frame yet");
  binario_frame_reader_free(reader);
  binario_frame_reader_free(NULL);
  binario_frame_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round_trip),
      cmocka_unit_test(split_across_reads),
      cmocka_unit_test(merged_in_one_read),
      cmocka_unit_test(oversized_refused_at_its_length),
      cmocka_unit_test(malformed_refused),
      cmocka_unit_test(empty_frame_and_arguments),
  };
  return cmocka_run_group_tests_name("frame layer", tests, NULL, NULL);
}
