/*
 * libbinario: the Binario wire protocol's frames (version 1), as ARCHITECTURE.md specifies them.
 *
 * Every message in each direction is a frame: a 4-byte unsigned big-endian length N, then N bytes
 * of a protobuf-encoded binario.wire.v1.Frame (generated/binario/wire/v1/frame.pb-c.h). N above
 * the receiver's limit is a protocol error.
 *
 * No global state. Every function that allocates says who frees; every allocation is checked.
 */
#ifndef BINARIO_FRAME_H
#define BINARIO_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "binario/wire/v1/frame.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a call of the library did: 0, or a negative code (binario_result_message names it). */
typedef enum binario_result {
  BINARIO_OK = 0,
  /* An allocation failed. */
  BINARIO_E_NO_MEMORY = -1,
  /* A frame longer than the limit (sent or received). */
  BINARIO_E_FRAME_TOO_LARGE = -2,
  /* Bytes that are not a binario.wire.v1.Frame. */
  BINARIO_E_MALFORMED_FRAME = -3,
  /* Not enough bytes yet for a whole frame: feed more. */
  BINARIO_E_AGAIN = -4,
  /* An argument was NULL or out of range. */
  BINARIO_E_INVALID_ARGUMENT = -5,
} binario_result;

/* The default largest frame, in bytes of its protobuf (4 MiB), as the services use. */
#define BINARIO_DEFAULT_FRAME_LIMIT (4u * 1024u * 1024u)

/* A short English description of `result`, for a person (a static string). */
const char *binario_result_message(binario_result result);

/*
 * Encodes `frame` as its 4-byte length and protobuf bytes into a new buffer of `*length` bytes,
 * which the caller frees with free(). BINARIO_E_FRAME_TOO_LARGE when the protobuf is longer than
 * `limit`.
 */
binario_result binario_frame_encode(const Binario__Wire__V1__Frame *frame, uint32_t limit, uint8_t **bytes, size_t *length);

/*
 * How many bytes `frame` takes encoded (its 4-byte length and protobuf), for
 * binario_frame_encode_into; BINARIO_E_FRAME_TOO_LARGE when the protobuf is longer than `limit`.
 */
binario_result binario_frame_encoded_length(const Binario__Wire__V1__Frame *frame, uint32_t limit, size_t *length);

/* Encodes `frame` at `destination`, which holds binario_frame_encoded_length's bytes; returns them. */
size_t binario_frame_encode_into(const Binario__Wire__V1__Frame *frame, uint8_t *destination);

/* Frees a frame that binario_frame_reader_next returned (NULL is fine). */
void binario_frame_free(Binario__Wire__V1__Frame *frame);

/*
 * Reads frames out of a byte stream as it arrives: bytes are fed in whatever pieces the socket
 * gives (a frame split across reads, several merged in one), frames come out whole and in order.
 * Once it has met a frame too large or malformed it stays failed: the connection must be closed.
 */
typedef struct binario_frame_reader binario_frame_reader;

/* A reader refusing frames longer than `limit` (0: BINARIO_DEFAULT_FRAME_LIMIT); NULL when out of memory. */
binario_frame_reader *binario_frame_reader_new(uint32_t limit);

/* Frees the reader and the bytes it holds (NULL is fine). */
void binario_frame_reader_free(binario_frame_reader *reader);

/* Adds `length` bytes read from the connection. */
binario_result binario_frame_reader_feed(binario_frame_reader *reader, const uint8_t *bytes, size_t length);

/*
 * The next whole frame, which the caller frees with binario_frame_free; BINARIO_E_AGAIN when the
 * bytes fed so far hold none; BINARIO_E_FRAME_TOO_LARGE as soon as a length above the limit is
 * read (before its bytes arrive); BINARIO_E_MALFORMED_FRAME for bytes that do not decode.
 */
binario_result binario_frame_reader_next(binario_frame_reader *reader, Binario__Wire__V1__Frame **frame);

/* How many bytes fed are not yet part of a returned frame. */
size_t binario_frame_reader_buffered(const binario_frame_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
