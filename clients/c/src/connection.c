/*
 * One Binario connection and its calls: TLS with ALPN binario/1 on a non-blocking socket, frames
 * written from an output buffer and read through a binario_frame_reader, handed to the call they
 * name. Everything happens in binario_connection_process; the blocking functions loop on poll.
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "binario/client.h"
#include "binario/frame.h"
#include "status.h"

/* ALPN's wire form: a length byte, then the protocol's name. */
static const unsigned char alpn[] = "\x09" "binario/1";
static const char status_details_key[] = "grpc-status-details-bin";

/* A Message frame received and not yet taken by binario_call_poll. */
typedef struct received_message {
  Binario__Wire__V1__Frame *frame;
  struct received_message *next;
} received_message;

struct binario_call {
  binario_connection *connection;  /* NULL once the connection is closed */
  uint64_t id;
  int64_t deadline;                /* monotonic milliseconds; 0: none */
  uint32_t timeout_ms;
  received_message *first;
  received_message *last;
  int ended;                       /* the End arrived, or the call ended here */
  binario_status status;           /* how it ended */
  binario_call *next;              /* the connection's calls */
};

struct binario_connection {
  int fd;
  SSL_CTX *context;
  BIO_METHOD *socket_method;       /* the BIO under TLS: send() without SIGPIPE */
  SSL *tls;
  uint32_t frame_limit;
  uint32_t keepalive_ms;
  binario_frame_reader *reader;
  /* Frames encoded and not yet written: output[start, end). */
  uint8_t *output;
  size_t output_start;
  size_t output_end;
  size_t output_capacity;
  int write_blocked;               /* the last write waits for the socket to be writable */
  uint64_t next_call_id;
  uint64_t ping_nonce;
  int64_t last_received;           /* when bytes last came from the server */
  int64_t ping_sent;               /* when the unanswered keepalive ping went; 0: none */
  int going_away;                  /* the server sent GoAway */
  int failed;                      /* the connection is broken */
  binario_status unusable;         /* why new calls are refused (GoAway or failure) */
  binario_call *calls;
};

static int64_t now_ms(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (int64_t)time.tv_sec * 1000 + time.tv_nsec / 1000000;
}

/* OpenSSL's last error, for a message; clears its queue. */
static const char *tls_error(char *buffer, size_t size) {
  unsigned long error = ERR_get_error();
  if (error == 0) {
    snprintf(buffer, size, "%s", errno != 0 ? strerror(errno) : "the connection was closed");
  } else {
    ERR_error_string_n(error, buffer, size);
  }
  ERR_clear_error();
  return buffer;
}

/* ---- Calls ending ---------------------------------------------------------------------------- */

static void end_call(binario_call *call, const binario_status *status) {
  if (call->ended) return;
  call->ended = 1;
  binario_status_copy(&call->status, status);
}

/* Breaks the connection: every open call ends with `code` and the message; returns `code`. */
static int fail_connection(binario_connection *connection, int code, const char *format, ...) __attribute__((format(printf, 3, 4)));
static int fail_connection(binario_connection *connection, int code, const char *format, ...) {
  if (connection->failed) return connection->unusable.code;
  connection->failed = 1;
  va_list arguments;
  va_start(arguments, format);
  binario_status_vset(&connection->unusable, code, format, arguments);
  va_end(arguments);
  for (binario_call *call = connection->calls; call != NULL; call = call->next) end_call(call, &connection->unusable);
  return code;
}

/* ---- Writing --------------------------------------------------------------------------------- */

/* Encodes `frame` onto the output. OK, or RESOURCE_EXHAUSTED (too large, or no memory). */
static int queue_frame(binario_connection *connection, const Binario__Wire__V1__Frame *frame, binario_status *status) {
  size_t length = 0;
  if (binario_frame_encoded_length(frame, connection->frame_limit, &length) != BINARIO_OK) {
    return binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "the message is larger than the frame limit (%u bytes)",
                              connection->frame_limit);
  }
  if (connection->output_start == connection->output_end) connection->output_start = connection->output_end = 0;
  if (length > connection->output_capacity - connection->output_end) {
    if (connection->output_start > 0) {
      memmove(connection->output, connection->output + connection->output_start, connection->output_end - connection->output_start);
      connection->output_end -= connection->output_start;
      connection->output_start = 0;
    }
    size_t needed = connection->output_end + length;
    if (needed > connection->output_capacity) {
      size_t capacity = connection->output_capacity == 0 ? 4096 : connection->output_capacity;
      while (capacity < needed) capacity *= 2;
      uint8_t *grown = realloc(connection->output, capacity);
      if (grown == NULL) return binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory for a frame of %zu bytes", length);
      connection->output = grown;
      connection->output_capacity = capacity;
    }
  }
  connection->output_end += binario_frame_encode_into(frame, connection->output + connection->output_end);
  return BINARIO_CODE_OK;
}

/* Abandons call `call_id` at the server (a Cancel frame). */
static int queue_cancel(binario_connection *connection, uint64_t call_id) {
  Binario__Wire__V1__Cancel cancel = BINARIO__WIRE__V1__CANCEL__INIT;
  Binario__Wire__V1__Frame frame = BINARIO__WIRE__V1__FRAME__INIT;
  frame.has_call_id = 1;
  frame.call_id = call_id;
  frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_CANCEL;
  frame.cancel = &cancel;
  return queue_frame(connection, &frame, NULL);
}

/* A connection-level Ping (ours, for keepalive) or Pong (answering the server's), with `nonce`. */
static int queue_ping(binario_connection *connection, int pong, uint64_t nonce) {
  Binario__Wire__V1__Ping ping = BINARIO__WIRE__V1__PING__INIT;
  Binario__Wire__V1__Pong answer = BINARIO__WIRE__V1__PONG__INIT;
  Binario__Wire__V1__Frame frame = BINARIO__WIRE__V1__FRAME__INIT;
  if (pong) {
    answer.has_nonce = 1;
    answer.nonce = nonce;
    frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_PONG;
    frame.pong = &answer;
  } else {
    ping.has_nonce = 1;
    ping.nonce = nonce;
    frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_PING;
    frame.ping = &ping;
  }
  return queue_frame(connection, &frame, NULL);
}

/* Writes what the socket takes now. OK, or the code the connection failed with. */
static int flush(binario_connection *connection) {
  connection->write_blocked = 0;
  while (connection->output_start < connection->output_end) {
    size_t pending = connection->output_end - connection->output_start;
    int chunk = pending > (1u << 30) ? (1 << 30) : (int)pending;
    ERR_clear_error();
    errno = 0;
    int written = SSL_write(connection->tls, connection->output + connection->output_start, chunk);
    if (written > 0) {
      connection->output_start += (size_t)written;
      continue;
    }
    int error = SSL_get_error(connection->tls, written);
    if (error == SSL_ERROR_WANT_WRITE) {
      connection->write_blocked = 1;
      return BINARIO_CODE_OK;
    }
    if (error == SSL_ERROR_WANT_READ) return BINARIO_CODE_OK;
    char buffer[256];
    return fail_connection(connection, BINARIO_CODE_UNAVAILABLE, "writing to the server failed: %s", tls_error(buffer, sizeof buffer));
  }
  connection->output_start = connection->output_end = 0;
  return BINARIO_CODE_OK;
}

/* ---- Reading --------------------------------------------------------------------------------- */

static binario_call *open_call(binario_connection *connection, uint64_t id) {
  for (binario_call *call = connection->calls; call != NULL; call = call->next) {
    if (call->id == id && !call->ended) return call;
  }
  return NULL;
}

/* The End of a call: its status, with the field violations of its status details if any. */
static void receive_end(binario_call *call, const Binario__Wire__V1__End *end) {
  binario_status status = BINARIO_STATUS_INIT;
  for (size_t index = 0; index < end->n_trailers; index++) {
    const Binario__Wire__V1__MetadataEntry *entry = end->trailers[index];
    if (entry->key != NULL && strcmp(entry->key, status_details_key) == 0 &&
        entry->value_case == BINARIO__WIRE__V1__METADATA_ENTRY__VALUE_BINARY) {
      binario_status_decode_details(entry->binary.data, entry->binary.len, &status);
      break;
    }
  }
  /* The End's own code and message are the call's; the details add the violations. */
  status.code = end->has_status_code ? end->status_code : BINARIO_CODE_OK;
  free(status.message);
  status.message = NULL;
  if (end->status_message != NULL && end->status_message[0] != '\0') status.message = strdup(end->status_message);
  call->ended = 1;
  binario_status_clear(&call->status);
  call->status = status;
}

/* Takes one frame from the server (and its ownership). OK, or the code the connection failed with. */
static int receive(binario_connection *connection, Binario__Wire__V1__Frame *frame) {
  uint64_t id = frame->has_call_id ? frame->call_id : 0;
  if (id == 0) {
    switch (frame->kind_case) {
    case BINARIO__WIRE__V1__FRAME__KIND_PING:
      if (queue_ping(connection, 1, frame->ping->has_nonce ? frame->ping->nonce : 0) != BINARIO_CODE_OK) {
        binario_frame_free(frame);
        return fail_connection(connection, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory to answer a ping");
      }
      break;
    case BINARIO__WIRE__V1__FRAME__KIND_PONG:
      if (frame->pong->has_nonce && frame->pong->nonce == connection->ping_nonce) connection->ping_sent = 0;
      break;
    case BINARIO__WIRE__V1__FRAME__KIND_GO_AWAY:
      if (!connection->going_away && !connection->failed) {
        connection->going_away = 1;
        const char *reason = frame->go_away->reason != NULL && frame->go_away->reason[0] != '\0' ? frame->go_away->reason : "no reason given";
        binario_status_set(&connection->unusable, BINARIO_CODE_UNAVAILABLE, "the server is going away (%s): reconnect", reason);
      }
      break;
    default:
      break;
    }
    binario_frame_free(frame);
    return BINARIO_CODE_OK;
  }
  binario_call *call = open_call(connection, id);
  if (call == NULL) {
    /* A call already ended here (cancelled, past its deadline): what is still in flight is dropped. */
    binario_frame_free(frame);
    return BINARIO_CODE_OK;
  }
  if (frame->kind_case == BINARIO__WIRE__V1__FRAME__KIND_MESSAGE) {
    received_message *node = malloc(sizeof *node);
    if (node == NULL) {
      binario_frame_free(frame);
      return fail_connection(connection, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory for a response");
    }
    node->frame = frame;
    node->next = NULL;
    if (call->last != NULL) call->last->next = node; else call->first = node;
    call->last = node;
    return BINARIO_CODE_OK;
  }
  if (frame->kind_case == BINARIO__WIRE__V1__FRAME__KIND_END) receive_end(call, frame->end);
  binario_frame_free(frame);
  return BINARIO_CODE_OK;
}

/* Reads everything the socket has now. OK, or the code the connection failed with. */
static int read_available(binario_connection *connection) {
  uint8_t buffer[16384];
  for (;;) {
    ERR_clear_error();
    errno = 0;
    int count = SSL_read(connection->tls, buffer, sizeof buffer);
    if (count <= 0) {
      int error = SSL_get_error(connection->tls, count);
      if (error == SSL_ERROR_WANT_READ) return BINARIO_CODE_OK;
      if (error == SSL_ERROR_WANT_WRITE) {
        connection->write_blocked = 1;
        return BINARIO_CODE_OK;
      }
      if (error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0)) {
        ERR_clear_error();
        return fail_connection(connection, BINARIO_CODE_UNAVAILABLE, "the server closed the connection");
      }
      char message[256];
      return fail_connection(connection, BINARIO_CODE_UNAVAILABLE, "reading from the server failed: %s", tls_error(message, sizeof message));
    }
    connection->last_received = now_ms();
    binario_result fed = binario_frame_reader_feed(connection->reader, buffer, (size_t)count);
    if (fed == BINARIO_E_NO_MEMORY) return fail_connection(connection, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory for a frame");
    for (;;) {
      Binario__Wire__V1__Frame *frame = NULL;
      binario_result next = binario_frame_reader_next(connection->reader, &frame);
      if (next == BINARIO_E_AGAIN) break;
      if (next != BINARIO_OK) {
        return fail_connection(connection, BINARIO_CODE_INTERNAL, "the server broke the protocol: %s", binario_result_message(next));
      }
      int received = receive(connection, frame);
      if (received != BINARIO_CODE_OK) return received;
    }
  }
}

/* ---- Driving the connection ------------------------------------------------------------------ */

int binario_connection_fd(const binario_connection *connection) { return connection->fd; }

short binario_connection_events(const binario_connection *connection) {
  if (connection->failed) return 0;
  short events = POLLIN;
  if (connection->output_start < connection->output_end || connection->write_blocked) events |= POLLOUT;
  return events;
}

int binario_connection_timeout_ms(const binario_connection *connection) {
  if (connection->failed) return -1;
  int64_t due = -1;
  for (const binario_call *call = connection->calls; call != NULL; call = call->next) {
    if (!call->ended && call->deadline != 0 && (due < 0 || call->deadline < due)) due = call->deadline;
  }
  if (connection->keepalive_ms > 0) {
    int64_t keepalive = (connection->ping_sent != 0 ? connection->ping_sent : connection->last_received) + connection->keepalive_ms;
    if (due < 0 || keepalive < due) due = keepalive;
  }
  if (due < 0) return -1;
  int64_t remaining = due - now_ms();
  if (remaining < 0) return 0;
  return remaining > 1000000000 ? 1000000000 : (int)remaining;
}

/* Ends the calls whose deadline passed, and keeps the connection alive with pings. */
static int run_timers(binario_connection *connection) {
  int64_t now = now_ms();
  for (binario_call *call = connection->calls; call != NULL; call = call->next) {
    if (call->ended || call->deadline == 0 || call->deadline > now) continue;
    binario_status expired = BINARIO_STATUS_INIT;
    binario_status_set(&expired, BINARIO_CODE_DEADLINE_EXCEEDED, "no answer within the call's deadline of %u ms", call->timeout_ms);
    end_call(call, &expired);
    binario_status_clear(&expired);
    if (queue_cancel(connection, call->id) != BINARIO_CODE_OK) {
      return fail_connection(connection, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory to cancel a call");
    }
  }
  if (connection->keepalive_ms == 0) return BINARIO_CODE_OK;
  if (connection->ping_sent != 0) {
    if (connection->last_received > connection->ping_sent) {
      connection->ping_sent = 0; /* the server is talking: as good as a Pong */
    } else if (now - connection->ping_sent >= connection->keepalive_ms) {
      return fail_connection(connection, BINARIO_CODE_UNAVAILABLE, "the server did not answer a ping within %u ms", connection->keepalive_ms);
    }
  }
  if (connection->ping_sent == 0 && now - connection->last_received >= connection->keepalive_ms) {
    if (queue_ping(connection, 0, ++connection->ping_nonce) != BINARIO_CODE_OK) {
      return fail_connection(connection, BINARIO_CODE_RESOURCE_EXHAUSTED, "out of memory for a ping");
    }
    connection->ping_sent = now;
  }
  return BINARIO_CODE_OK;
}

int binario_connection_process(binario_connection *connection, short revents, binario_status *status) {
  if (!connection->failed && (revents & (POLLIN | POLLHUP | POLLERR)) != 0) read_available(connection);
  if (!connection->failed) run_timers(connection);
  if (!connection->failed) flush(connection);
  if (connection->failed) return binario_status_copy(status, &connection->unusable);
  binario_status_clear(status);
  return BINARIO_CODE_OK;
}

int binario_connection_usable(const binario_connection *connection, binario_status *status) {
  if (connection->failed || connection->going_away) {
    if (status != NULL) binario_status_copy(status, &connection->unusable);
    return 0;
  }
  return 1;
}

/* Waits for the socket (or the next timer) once, then processes. */
static void wait_once(binario_connection *connection) {
  struct pollfd descriptor = {.fd = connection->fd, .events = binario_connection_events(connection), .revents = 0};
  int ready = poll(&descriptor, 1, binario_connection_timeout_ms(connection));
  if (ready < 0 && errno != EINTR) {
    fail_connection(connection, BINARIO_CODE_UNAVAILABLE, "poll failed: %s", strerror(errno));
    return;
  }
  binario_connection_process(connection, ready > 0 ? descriptor.revents : 0, NULL);
}

/* ---- Calls ----------------------------------------------------------------------------------- */

int binario_call_start(binario_connection *connection, const char *method, const binario_call_options *options,
                       const ProtobufCMessage *request, binario_call **call, binario_status *status) {
  if (connection == NULL || method == NULL || request == NULL || call == NULL) {
    return binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "%s", "a call needs a connection, a method and a request");
  }
  *call = NULL;
  if (!binario_connection_usable(connection, status)) return status != NULL ? status->code : BINARIO_CODE_UNAVAILABLE;
  size_t metadata_count = options != NULL ? options->metadata_count : 0;
  binario_call *created = calloc(1, sizeof *created);
  uint8_t *payload = malloc(protobuf_c_message_get_packed_size(request) + 1);
  Binario__Wire__V1__MetadataEntry *entries = calloc(metadata_count + 1, sizeof *entries);
  Binario__Wire__V1__MetadataEntry **pointers = calloc(metadata_count + 1, sizeof *pointers);
  int result = BINARIO_CODE_OK;
  if (created == NULL || payload == NULL || entries == NULL || pointers == NULL) {
    result = binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "%s", "out of memory for a call");
    goto done;
  }
  for (size_t index = 0; index < metadata_count; index++) {
    const binario_metadata *metadata = &options->metadata[index];
    if (metadata->key == NULL || metadata->value == NULL) {
      result = binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "metadata entry %zu has no key or value", index);
      goto done;
    }
    Binario__Wire__V1__MetadataEntry initial = BINARIO__WIRE__V1__METADATA_ENTRY__INIT;
    entries[index] = initial;
    entries[index].key = (char *)metadata->key;
    entries[index].value_case = BINARIO__WIRE__V1__METADATA_ENTRY__VALUE_TEXT;
    entries[index].text = (char *)metadata->value;
    pointers[index] = &entries[index];
  }
  Binario__Wire__V1__Open open = BINARIO__WIRE__V1__OPEN__INIT;
  open.method = (char *)method;
  open.n_metadata = metadata_count;
  open.metadata = pointers;
  if (options != NULL && options->timeout_ms > 0) {
    open.has_timeout_ms = 1;
    open.timeout_ms = options->timeout_ms;
  }
  open.has_payload = 1;
  open.payload.data = payload;
  open.payload.len = protobuf_c_message_pack(request, payload);
  open.has_half_close = 1;
  open.half_close = 1;
  Binario__Wire__V1__Frame frame = BINARIO__WIRE__V1__FRAME__INIT;
  frame.has_call_id = 1;
  frame.call_id = connection->next_call_id;
  frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_OPEN;
  frame.open = &open;
  result = queue_frame(connection, &frame, status);
  if (result != BINARIO_CODE_OK) goto done;
  created->connection = connection;
  created->id = connection->next_call_id++;
  if (options != NULL && options->timeout_ms > 0) {
    created->timeout_ms = options->timeout_ms;
    created->deadline = now_ms() + options->timeout_ms;
  }
  created->next = connection->calls;
  connection->calls = created;
  *call = created;
  created = NULL;
  flush(connection);
  binario_status_clear(status);
done:
  free(created);
  free(payload);
  free(entries);
  free(pointers);
  return result;
}

binario_next binario_call_poll(binario_call *call, const ProtobufCMessageDescriptor *descriptor,
                               ProtobufCMessage **message, binario_status *status) {
  *message = NULL;
  received_message *node = call->first;
  if (node != NULL) {
    call->first = node->next;
    if (call->first == NULL) call->last = NULL;
    const ProtobufCBinaryData *payload = &node->frame->message->payload;
    *message = protobuf_c_message_unpack(descriptor, NULL, payload->len, payload->data);
    binario_frame_free(node->frame);
    free(node);
    if (*message != NULL) return BINARIO_NEXT_MESSAGE;
    if (!call->ended && call->connection != NULL) queue_cancel(call->connection, call->id);
    call->ended = 1;
    binario_status_set(&call->status, BINARIO_CODE_INTERNAL, "a response does not decode as %s", descriptor->name);
    /* The messages after it belong to the call that failed. */
    while (call->first != NULL) {
      received_message *rest = call->first;
      call->first = rest->next;
      binario_frame_free(rest->frame);
      free(rest);
    }
    call->last = NULL;
  }
  if (!call->ended) return BINARIO_NEXT_PENDING;
  binario_status_copy(status, &call->status);
  return BINARIO_NEXT_END;
}

binario_next binario_call_next(binario_call *call, const ProtobufCMessageDescriptor *descriptor,
                               ProtobufCMessage **message, binario_status *status) {
  for (;;) {
    binario_next next = binario_call_poll(call, descriptor, message, status);
    if (next != BINARIO_NEXT_PENDING) return next;
    if (call->connection == NULL) {
      binario_status closed = BINARIO_STATUS_INIT;
      binario_status_set(&closed, BINARIO_CODE_CANCELLED, "%s", "the connection was closed");
      end_call(call, &closed);
      binario_status_clear(&closed);
      continue;
    }
    wait_once(call->connection);
  }
}

void binario_call_free(binario_call *call) {
  if (call == NULL) return;
  binario_connection *connection = call->connection;
  if (connection != NULL) {
    if (!call->ended && !connection->failed) {
      queue_cancel(connection, call->id);
      flush(connection);
    }
    for (binario_call **link = &connection->calls; *link != NULL; link = &(*link)->next) {
      if (*link == call) {
        *link = call->next;
        break;
      }
    }
  }
  while (call->first != NULL) {
    received_message *node = call->first;
    call->first = node->next;
    binario_frame_free(node->frame);
    free(node);
  }
  binario_status_clear(&call->status);
  free(call);
}

int binario_unary(binario_connection *connection, const char *method, const binario_call_options *options,
                  const ProtobufCMessage *request, const ProtobufCMessageDescriptor *descriptor,
                  ProtobufCMessage **response, binario_status *status) {
  if (response == NULL || descriptor == NULL) return binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "%s", "a unary call needs a response");
  *response = NULL;
  binario_call *call = NULL;
  int result = binario_call_start(connection, method, options, request, &call, status);
  if (result != BINARIO_CODE_OK) return result;
  binario_status end = BINARIO_STATUS_INIT;
  ProtobufCMessage *message = NULL;
  if (binario_call_next(call, descriptor, &message, &end) == BINARIO_NEXT_MESSAGE) {
    ProtobufCMessage *extra = NULL;
    if (binario_call_next(call, descriptor, &extra, &end) == BINARIO_NEXT_MESSAGE) {
      protobuf_c_message_free_unpacked(extra, NULL);
      binario_status_set(&end, BINARIO_CODE_INTERNAL, "%s answered a unary call with more than one message", method);
    }
  } else if (end.code == BINARIO_CODE_OK) {
    binario_status_set(&end, BINARIO_CODE_INTERNAL, "%s ended a unary call without a response", method);
  }
  binario_call_free(call);
  if (end.code == BINARIO_CODE_OK) {
    *response = message;
  } else if (message != NULL) {
    protobuf_c_message_free_unpacked(message, NULL);
  }
  result = end.code;
  if (status != NULL) {
    binario_status_clear(status);
    *status = end;
  } else {
    binario_status_clear(&end);
  }
  return result;
}

/* ---- The socket under TLS -------------------------------------------------------------------- */

/*
 * OpenSSL's own socket BIO writes with write(), and a write to a connection the peer closed raises
 * SIGPIPE, which kills a program that did not ignore it. This BIO sends with MSG_NOSIGNAL (where
 * the platform has it; SO_NOSIGPIPE is set on the socket elsewhere), so a closed connection is an
 * error the library reports, whatever the program does with its signals.
 */
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

static int socket_write(BIO *bio, const char *data, int length) {
  BIO_clear_retry_flags(bio);
  ssize_t sent = send((int)(intptr_t)BIO_get_data(bio), data, (size_t)length, MSG_NOSIGNAL);
  if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_write(bio);
  return (int)sent;
}

static int socket_read(BIO *bio, char *data, int length) {
  BIO_clear_retry_flags(bio);
  ssize_t received = recv((int)(intptr_t)BIO_get_data(bio), data, (size_t)length, 0);
  if (received < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_read(bio);
  return (int)received;
}

static long socket_control(BIO *bio, int command, long number, void *pointer) {
  (void)bio;
  (void)number;
  (void)pointer;
  return command == BIO_CTRL_FLUSH ? 1 : 0;
}

static int socket_create(BIO *bio) {
  BIO_set_init(bio, 1);
  return 1;
}

/* A BIO of that kind on `fd` (which the connection closes itself); NULL when out of memory. */
static BIO *socket_bio(binario_connection *connection) {
  if (connection->socket_method == NULL) {
    connection->socket_method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "binario socket");
    if (connection->socket_method == NULL || BIO_meth_set_write(connection->socket_method, socket_write) != 1 ||
        BIO_meth_set_read(connection->socket_method, socket_read) != 1 ||
        BIO_meth_set_ctrl(connection->socket_method, socket_control) != 1 ||
        BIO_meth_set_create(connection->socket_method, socket_create) != 1) {
      return NULL;
    }
  }
  BIO *bio = BIO_new(connection->socket_method);
  if (bio != NULL) BIO_set_data(bio, (void *)(intptr_t)connection->fd);
  return bio;
}

/* ---- Connecting and closing ------------------------------------------------------------------ */

/* Waits until `fd` is ready for `events` or `deadline` passes: 1 ready, 0 timed out, -1 failed. */
static int wait_for(int fd, short events, int64_t deadline) {
  for (;;) {
    int64_t remaining = deadline - now_ms();
    if (remaining <= 0) return 0;
    struct pollfd descriptor = {.fd = fd, .events = events, .revents = 0};
    int ready = poll(&descriptor, 1, (int)remaining);
    if (ready > 0) return 1;
    if (ready == 0) return 0;
    if (errno != EINTR) return -1;
  }
}

/* A non-blocking TCP connection to the first address of `host` that answers; -1 and `status` otherwise. */
static int connect_tcp(const binario_connect_options *options, int64_t deadline, binario_status *status) {
  char port[8];
  snprintf(port, sizeof port, "%u", options->port);
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  struct addrinfo *addresses = NULL;
  int resolved = getaddrinfo(options->host, port, &hints, &addresses);
  if (resolved != 0) {
    binario_status_set(status, BINARIO_CODE_UNAVAILABLE, "cannot resolve %s: %s", options->host, gai_strerror(resolved));
    return -1;
  }
  int last_error = 0;
  int fd = -1;
  for (struct addrinfo *address = addresses; address != NULL && fd < 0; address = address->ai_next) {
    int candidate = socket(address->ai_family, address->ai_socktype, address->ai_protocol);
    if (candidate < 0) {
      last_error = errno;
      continue;
    }
    int flags = fcntl(candidate, F_GETFL, 0);
    fcntl(candidate, F_SETFL, flags | O_NONBLOCK);
    fcntl(candidate, F_SETFD, FD_CLOEXEC);
    int connected = connect(candidate, address->ai_addr, address->ai_addrlen);
    if (connected != 0 && errno == EINPROGRESS) {
      int ready = wait_for(candidate, POLLOUT, deadline);
      int error = 0;
      socklen_t length = sizeof error;
      if (ready == 1 && getsockopt(candidate, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
        connected = 0;
      } else {
        errno = ready == 0 ? ETIMEDOUT : (error != 0 ? error : errno);
      }
    }
    if (connected == 0) {
      int on = 1;
      setsockopt(candidate, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
#ifdef SO_NOSIGPIPE
      setsockopt(candidate, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
      fd = candidate;
    } else {
      last_error = errno;
      close(candidate);
    }
  }
  freeaddrinfo(addresses);
  if (fd < 0) binario_status_set(status, BINARIO_CODE_UNAVAILABLE, "cannot connect to %s:%u: %s", options->host, options->port, strerror(last_error));
  return fd;
}

/* The TLS context: TLS 1.2+, the server verified against the CA, ALPN binario/1, the client certificate. */
static SSL_CTX *tls_context(const binario_connect_options *options, binario_status *status) {
  char message[256];
  SSL_CTX *context = SSL_CTX_new(TLS_client_method());
  if (context == NULL) {
    binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "cannot make a TLS context: %s", tls_error(message, sizeof message));
    return NULL;
  }
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
  SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  int trusted = options->ca_file != NULL ? SSL_CTX_load_verify_locations(context, options->ca_file, NULL)
                                         : SSL_CTX_set_default_verify_paths(context);
  if (trusted != 1) {
    binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "cannot read the CA certificates %s: %s",
                       options->ca_file != NULL ? options->ca_file : "(system)", tls_error(message, sizeof message));
    goto failed;
  }
  if (options->certificate_file != NULL) {
    if (options->private_key_file == NULL ||
        SSL_CTX_use_certificate_chain_file(context, options->certificate_file) != 1 ||
        SSL_CTX_use_PrivateKey_file(context, options->private_key_file, SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(context) != 1) {
      binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "cannot use the client certificate %s and its key: %s",
                         options->certificate_file, tls_error(message, sizeof message));
      goto failed;
    }
  }
  if (SSL_CTX_set_alpn_protos(context, alpn, sizeof alpn - 1) != 0) {
    binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "%s", "cannot offer ALPN binario/1");
    goto failed;
  }
  return context;
failed:
  SSL_CTX_free(context);
  return NULL;
}

/* The TLS handshake, bounded by `deadline`, then the ALPN check. OK, or UNAVAILABLE in `status`. */
static int handshake(binario_connection *connection, const char *name, int64_t deadline, binario_status *status) {
  char message[256];
  for (;;) {
    ERR_clear_error();
    errno = 0;
    int result = SSL_connect(connection->tls);
    if (result == 1) break;
    int error = SSL_get_error(connection->tls, result);
    short events = error == SSL_ERROR_WANT_READ ? POLLIN : error == SSL_ERROR_WANT_WRITE ? POLLOUT : 0;
    if (events == 0) {
      long verified = SSL_get_verify_result(connection->tls);
      if (verified != X509_V_OK) {
        ERR_clear_error();
        return binario_status_set(status, BINARIO_CODE_UNAVAILABLE, "the server's certificate is not trusted for %s: %s", name,
                                  X509_verify_cert_error_string(verified));
      }
      return binario_status_set(status, BINARIO_CODE_UNAVAILABLE, "the TLS handshake failed: %s", tls_error(message, sizeof message));
    }
    int ready = wait_for(connection->fd, events, deadline);
    if (ready == 0) return binario_status_set(status, BINARIO_CODE_UNAVAILABLE, "%s", "the TLS handshake timed out");
    if (ready < 0) return binario_status_set(status, BINARIO_CODE_UNAVAILABLE, "poll failed: %s", strerror(errno));
  }
  const unsigned char *selected = NULL;
  unsigned int length = 0;
  SSL_get0_alpn_selected(connection->tls, &selected, &length);
  if (length != sizeof alpn - 2 || memcmp(selected, alpn + 1, length) != 0) {
    return binario_status_set(status, BINARIO_CODE_UNAVAILABLE, "%s", "the server does not speak binario/1 (ALPN)");
  }
  return BINARIO_CODE_OK;
}

int binario_connect(const binario_connect_options *options, binario_connection **connection, binario_status *status) {
  if (connection == NULL) return binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "%s", "no place for the connection");
  *connection = NULL;
  if (options == NULL || options->host == NULL || options->port == 0) {
    return binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "%s", "the options need a host and a port");
  }
  int64_t deadline = now_ms() + (options->connect_timeout_ms > 0 ? options->connect_timeout_ms : 10000);
  binario_connection *created = calloc(1, sizeof *created);
  if (created == NULL) return binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "%s", "out of memory for a connection");
  created->fd = -1;
  created->frame_limit = options->frame_limit > 0 ? options->frame_limit : BINARIO_DEFAULT_FRAME_LIMIT;
  created->keepalive_ms = options->keepalive_ms;
  created->next_call_id = 1;
  created->reader = binario_frame_reader_new(created->frame_limit);
  if (created->reader == NULL) {
    binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "%s", "out of memory for a connection");
    goto failed;
  }
  if ((created->context = tls_context(options, status)) == NULL) goto failed;
  if ((created->fd = connect_tcp(options, deadline, status)) < 0) goto failed;
  BIO *bio = NULL;
  if ((created->tls = SSL_new(created->context)) == NULL || (bio = socket_bio(created)) == NULL) {
    binario_status_set(status, BINARIO_CODE_RESOURCE_EXHAUSTED, "%s", "out of memory for TLS");
    goto failed;
  }
  SSL_set_bio(created->tls, bio, bio);
  const char *name = options->server_name != NULL ? options->server_name : options->host;
  unsigned char address[sizeof(struct in6_addr)];
  int is_address = inet_pton(AF_INET, name, address) == 1 || inet_pton(AF_INET6, name, address) == 1;
  int named = is_address ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(created->tls), name)
                         : SSL_set_tlsext_host_name(created->tls, name) == 1 && SSL_set1_host(created->tls, name) == 1;
  if (!named) {
    binario_status_set(status, BINARIO_CODE_INVALID_ARGUMENT, "cannot verify the server as %s", name);
    goto failed;
  }
  if (handshake(created, name, deadline, status) != BINARIO_CODE_OK) goto failed;
  created->last_received = now_ms();
  *connection = created;
  binario_status_clear(status);
  return BINARIO_CODE_OK;
failed:
  {
    int code = status != NULL ? status->code : BINARIO_CODE_UNAVAILABLE;
    binario_connection_close(created);
    return code;
  }
}

void binario_connection_close(binario_connection *connection) {
  if (connection == NULL) return;
  binario_status closed = BINARIO_STATUS_INIT;
  binario_status_set(&closed, BINARIO_CODE_CANCELLED, "%s", "the connection was closed");
  for (binario_call *call = connection->calls; call != NULL; call = call->next) {
    end_call(call, &closed);
    call->connection = NULL;
  }
  binario_status_clear(&closed);
  if (connection->tls != NULL) {
    if (!connection->failed) {
      /* Best effort: the frames still queued (a Cancel), then TLS's close_notify. */
      flush(connection);
      ERR_clear_error();
      SSL_shutdown(connection->tls);
    }
    SSL_free(connection->tls);
  }
  BIO_meth_free(connection->socket_method);
  ERR_clear_error();
  if (connection->fd >= 0) close(connection->fd);
  SSL_CTX_free(connection->context);
  binario_frame_reader_free(connection->reader);
  free(connection->output);
  binario_status_clear(&connection->unusable);
  free(connection);
}
