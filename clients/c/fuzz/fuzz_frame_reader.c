/*
 * libFuzzer target: bytes from the network, as libbinario meets them. The first byte chooses how
 * the rest is cut into reads (split frames, merged frames); the reader must return whole frames or
 * refuse, never read out of bounds or leak. Every frame's status details, when an End carries
 * them, go through the google.rpc.Status decoder too, and the input as a whole does as well.
 *
 *   scripts/c-client/fuzz.sh 600     run ten minutes and keep what it finds in corpus/frame_reader
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "binario/client.h"
#include "binario/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void look_at(const Binario__Wire__V1__Frame *frame) {
  if (frame->kind_case != BINARIO__WIRE__V1__FRAME__KIND_END) return;
  for (size_t index = 0; index < frame->end->n_trailers; index++) {
    const Binario__Wire__V1__MetadataEntry *entry = frame->end->trailers[index];
    if (entry->value_case != BINARIO__WIRE__V1__METADATA_ENTRY__VALUE_BINARY) continue;
    binario_status status = BINARIO_STATUS_INIT;
    binario_status_decode_details(entry->binary.data, entry->binary.len, &status);
    binario_status_clear(&status);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  size_t piece = (size_t)(data[0] % 17) + 1; /* 1..17 bytes per read */
  data++;
  size--;
  binario_frame_reader *reader = binario_frame_reader_new(1u << 16);
  if (reader == NULL) return 0;
  int failed = 0;
  for (size_t offset = 0; offset < size && !failed; offset += piece) {
    size_t length = size - offset < piece ? size - offset : piece;
    if (binario_frame_reader_feed(reader, data + offset, length) != BINARIO_OK) break;
    for (;;) {
      Binario__Wire__V1__Frame *frame = NULL;
      binario_result result = binario_frame_reader_next(reader, &frame);
      if (result == BINARIO_E_AGAIN) break;
      if (result != BINARIO_OK) {
        failed = 1;
        break;
      }
      look_at(frame);
      /* A frame read must encode again within the limit it was read under. */
      size_t encoded = 0;
      if (binario_frame_encoded_length(frame, 1u << 16, &encoded) != BINARIO_OK) __builtin_trap();
      binario_frame_free(frame);
    }
  }
  binario_frame_reader_free(reader);
  binario_status status = BINARIO_STATUS_INIT;
  binario_status_decode_details(data, size, &status);
  binario_status_clear(&status);
  return 0;
}
