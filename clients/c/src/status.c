/* Status codes, their messages, and the rich error model's `grpc-status-details-bin`. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "google/rpc/error_details.pb-c.h"
#include "google/rpc/status.pb-c.h"

static const char bad_request_type[] = "type.googleapis.com/google.rpc.BadRequest";

const char *binario_code_name(int code) {
  static const char *const names[] = {
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
      "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
  };
  if (code < 0 || code >= (int)(sizeof names / sizeof names[0])) return "UNKNOWN";
  return names[code];
}

void binario_status_clear(binario_status *status) {
  if (status == NULL) return;
  free(status->message);
  for (size_t index = 0; index < status->violation_count; index++) {
    free(status->violations[index].field);
    free(status->violations[index].description);
  }
  free(status->violations);
  status->code = BINARIO_CODE_OK;
  status->message = NULL;
  status->violation_count = 0;
  status->violations = NULL;
}

static char *copy_text(const char *text) {
  size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (copy != NULL) memcpy(copy, text, length + 1);
  return copy;
}

int binario_status_vset(binario_status *status, int code, const char *format, va_list arguments) {
  if (status == NULL) return code;
  binario_status_clear(status);
  status->code = code;
  char buffer[512];
  vsnprintf(buffer, sizeof buffer, format, arguments);
  /* Out of memory for the message itself: the code still says what happened. */
  status->message = copy_text(buffer);
  return code;
}

int binario_status_set(binario_status *status, int code, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  binario_status_vset(status, code, format, arguments);
  va_end(arguments);
  return code;
}

int binario_status_copy(binario_status *status, const binario_status *source) {
  if (status == NULL || status == source) return source->code;
  binario_status_clear(status);
  status->code = source->code;
  if (source->message != NULL && (status->message = copy_text(source->message)) == NULL) goto out_of_memory;
  if (source->violation_count > 0) {
    status->violations = calloc(source->violation_count, sizeof *status->violations);
    if (status->violations == NULL) goto out_of_memory;
    status->violation_count = source->violation_count;
    for (size_t index = 0; index < source->violation_count; index++) {
      status->violations[index].field = copy_text(source->violations[index].field);
      status->violations[index].description = copy_text(source->violations[index].description);
      if (status->violations[index].field == NULL || status->violations[index].description == NULL) goto out_of_memory;
    }
  }
  return status->code;
out_of_memory:
  binario_status_clear(status);
  status->code = source->code;
  return status->code;
}

/* Adds the violations of one BadRequest to `status`. 0, or -1 when out of memory. */
static int add_violations(binario_status *status, const Google__Rpc__BadRequest *request) {
  if (request->n_field_violations == 0) return 0;
  size_t count = status->violation_count + request->n_field_violations;
  binario_field_violation *grown = realloc(status->violations, count * sizeof *grown);
  if (grown == NULL) return -1;
  status->violations = grown;
  for (size_t index = 0; index < request->n_field_violations; index++) {
    const Google__Rpc__BadRequest__FieldViolation *violation = request->field_violations[index];
    binario_field_violation *target = &status->violations[status->violation_count];
    target->field = copy_text(violation->field != NULL ? violation->field : "");
    target->description = copy_text(violation->description != NULL ? violation->description : "");
    status->violation_count++;
    if (target->field == NULL || target->description == NULL) return -1;
  }
  return 0;
}

int binario_status_decode_details(const uint8_t *bytes, size_t length, binario_status *status) {
  if (status == NULL) return BINARIO_CODE_INVALID_ARGUMENT;
  Google__Rpc__Status *decoded = google__rpc__status__unpack(NULL, length, bytes);
  if (decoded == NULL) return binario_status_set(status, BINARIO_CODE_INTERNAL, "the status details do not decode as a google.rpc.Status");
  binario_status_clear(status);
  status->code = decoded->has_code ? decoded->code : BINARIO_CODE_UNKNOWN;
  int result = BINARIO_CODE_OK;
  if (decoded->message != NULL && decoded->message[0] != '\0' && (status->message = copy_text(decoded->message)) == NULL) {
    result = BINARIO_CODE_RESOURCE_EXHAUSTED;
  }
  for (size_t index = 0; index < decoded->n_details && result == BINARIO_CODE_OK; index++) {
    const Google__Protobuf__Any *detail = decoded->details[index];
    if (detail->type_url == NULL || strcmp(detail->type_url, bad_request_type) != 0) continue;
    Google__Rpc__BadRequest *request = google__rpc__bad_request__unpack(NULL, detail->value.len, detail->value.data);
    if (request == NULL) {
      result = BINARIO_CODE_INTERNAL;
      break;
    }
    if (add_violations(status, request) != 0) result = BINARIO_CODE_RESOURCE_EXHAUSTED;
    google__rpc__bad_request__free_unpacked(request, NULL);
  }
  google__rpc__status__free_unpacked(decoded, NULL);
  if (result != BINARIO_CODE_OK) {
    int code = status->code;
    binario_status_clear(status);
    status->code = code;
  }
  return result;
}
