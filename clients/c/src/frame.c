#include "binario/frame.h"

#include <stdlib.h>
#include <string.h>

const char *binario_result_message(binario_result result) {
  switch (result) {
  case BINARIO_OK: return "ok";
  case BINARIO_E_NO_MEMORY: return "out of memory";
  case BINARIO_E_FRAME_TOO_LARGE: return "a frame is longer than the limit";
  case BINARIO_E_MALFORMED_FRAME: return "bytes that are not a Binario frame";
  case BINARIO_E_AGAIN: return "not a whole frame yet";
  case BINARIO_E_INVALID_ARGUMENT: return "an argument is missing or out of range";
  }
  return "unknown result";
}

binario_result binario_frame_encoded_length(const Binario__Wire__V1__Frame *frame, uint32_t limit, size_t *length) {
  if (frame == NULL || length == NULL) return BINARIO_E_INVALID_ARGUMENT;
  if (limit == 0) limit = BINARIO_DEFAULT_FRAME_LIMIT;
  size_t size = binario__wire__v1__frame__get_packed_size(frame);
  if (size > limit) return BINARIO_E_FRAME_TOO_LARGE;
  *length = 4 + size;
  return BINARIO_OK;
}

size_t binario_frame_encode_into(const Binario__Wire__V1__Frame *frame, uint8_t *destination) {
  size_t size = binario__wire__v1__frame__pack(frame, destination + 4);
  destination[0] = (uint8_t)(size >> 24);
  destination[1] = (uint8_t)(size >> 16);
  destination[2] = (uint8_t)(size >> 8);
  destination[3] = (uint8_t)size;
  return 4 + size;
}

binario_result binario_frame_encode(const Binario__Wire__V1__Frame *frame, uint32_t limit, uint8_t **bytes, size_t *length) {
  if (bytes == NULL) return BINARIO_E_INVALID_ARGUMENT;
  size_t total = 0;
  binario_result result = binario_frame_encoded_length(frame, limit, &total);
  if (result != BINARIO_OK) return result;
  uint8_t *buffer = malloc(total);
  if (buffer == NULL) return BINARIO_E_NO_MEMORY;
  binario_frame_encode_into(frame, buffer);
  *bytes = buffer;
  *length = total;
  return BINARIO_OK;
}

void binario_frame_free(Binario__Wire__V1__Frame *frame) {
  if (frame != NULL) binario__wire__v1__frame__free_unpacked(frame, NULL);
}

struct binario_frame_reader {
  uint32_t limit;
  /* Bytes fed and not yet returned as frames: buffer[start, end). */
  uint8_t *buffer;
  size_t start;
  size_t end;
  size_t capacity;
  /* A frame too large or malformed was met: every later call answers it. */
  binario_result failure;
};

binario_frame_reader *binario_frame_reader_new(uint32_t limit) {
  binario_frame_reader *reader = calloc(1, sizeof *reader);
  if (reader == NULL) return NULL;
  reader->limit = limit == 0 ? BINARIO_DEFAULT_FRAME_LIMIT : limit;
  return reader;
}

void binario_frame_reader_free(binario_frame_reader *reader) {
  if (reader == NULL) return;
  free(reader->buffer);
  free(reader);
}

size_t binario_frame_reader_buffered(const binario_frame_reader *reader) {
  return reader == NULL ? 0 : reader->end - reader->start;
}

binario_result binario_frame_reader_feed(binario_frame_reader *reader, const uint8_t *bytes, size_t length) {
  if (reader == NULL || (bytes == NULL && length > 0)) return BINARIO_E_INVALID_ARGUMENT;
  if (reader->failure != BINARIO_OK) return reader->failure;
  if (length == 0) return BINARIO_OK;
  /* Keep the unread bytes at the front, then grow (doubling) if they still do not fit. */
  if (reader->start > 0) {
    memmove(reader->buffer, reader->buffer + reader->start, reader->end - reader->start);
    reader->end -= reader->start;
    reader->start = 0;
  }
  if (length > reader->capacity - reader->end) {
    size_t needed = reader->end + length;
    if (needed < reader->end) return BINARIO_E_NO_MEMORY; /* overflow */
    size_t capacity = reader->capacity == 0 ? 4096 : reader->capacity;
    while (capacity < needed) {
      if (capacity > SIZE_MAX / 2) return BINARIO_E_NO_MEMORY;
      capacity *= 2;
    }
    uint8_t *grown = realloc(reader->buffer, capacity);
    if (grown == NULL) return BINARIO_E_NO_MEMORY;
    reader->buffer = grown;
    reader->capacity = capacity;
  }
  memcpy(reader->buffer + reader->end, bytes, length);
  reader->end += length;
  return BINARIO_OK;
}

binario_result binario_frame_reader_next(binario_frame_reader *reader, Binario__Wire__V1__Frame **frame) {
  if (reader == NULL || frame == NULL) return BINARIO_E_INVALID_ARGUMENT;
  *frame = NULL;
  if (reader->failure != BINARIO_OK) return reader->failure;
  size_t available = reader->end - reader->start;
  if (available < 4) return BINARIO_E_AGAIN;
  const uint8_t *header = reader->buffer + reader->start;
  uint32_t size = (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 | (uint32_t)header[3];
  if (size > reader->limit) return reader->failure = BINARIO_E_FRAME_TOO_LARGE;
  if (available - 4 < size) return BINARIO_E_AGAIN;
  Binario__Wire__V1__Frame *decoded = binario__wire__v1__frame__unpack(NULL, size, header + 4);
  if (decoded == NULL) return reader->failure = BINARIO_E_MALFORMED_FRAME;
  reader->start += 4 + (size_t)size;
  if (reader->start == reader->end) reader->start = reader->end = 0;
  *frame = decoded;
  return BINARIO_OK;
}
