/*
 * libbinario: calls over one Binario connection (wire protocol version 1, ARCHITECTURE.md).
 *
 * A connection is TCP + TLS 1.2 or later with ALPN "binario/1", the server verified against a CA
 * file and a host name, with an optional client certificate. Many calls share it: unary calls
 * and server-streaming calls, each with metadata (the bearer or device token) and a deadline.
 * Pings are answered, and sent when the connection has been quiet for the keepalive interval; a
 * GoAway from the server lets open calls finish and refuses new ones.
 *
 * Every failure is a gRPC status code (binario_code) with a message for a person, in a
 * binario_status; an INVALID_ARGUMENT from a service also names the offending fields, decoded
 * from the `grpc-status-details-bin` trailer (google.rpc.Status with a BadRequest).
 *
 * Two ways to drive it:
 *  - blocking: binario_unary, binario_call_next wait (in poll) until they have an answer;
 *  - non-blocking, for a program with its own loop: put binario_connection_fd in its poll set
 *    with binario_connection_events, call binario_connection_process when it is ready (or when
 *    binario_connection_timeout_ms runs out), and take what arrived with binario_call_poll.
 *
 * A write to a connection the server closed is an error the library reports, never SIGPIPE.
 *
 * No global state. A connection and its calls are used by one thread at a time
 * (thread-compatible); different connections are independent.
 */
#ifndef BINARIO_CLIENT_H
#define BINARIO_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#ifdef __cplusplus
extern "C" {
#endif

/* gRPC's canonical status codes: the outcome of a call, and of the library's own functions. */
typedef enum binario_code {
  BINARIO_CODE_OK = 0,
  BINARIO_CODE_CANCELLED = 1,
  BINARIO_CODE_UNKNOWN = 2,
  BINARIO_CODE_INVALID_ARGUMENT = 3,
  BINARIO_CODE_DEADLINE_EXCEEDED = 4,
  BINARIO_CODE_NOT_FOUND = 5,
  BINARIO_CODE_ALREADY_EXISTS = 6,
  BINARIO_CODE_PERMISSION_DENIED = 7,
  BINARIO_CODE_RESOURCE_EXHAUSTED = 8,
  BINARIO_CODE_FAILED_PRECONDITION = 9,
  BINARIO_CODE_ABORTED = 10,
  BINARIO_CODE_OUT_OF_RANGE = 11,
  BINARIO_CODE_UNIMPLEMENTED = 12,
  BINARIO_CODE_INTERNAL = 13,
  BINARIO_CODE_UNAVAILABLE = 14,
  BINARIO_CODE_DATA_LOSS = 15,
  BINARIO_CODE_UNAUTHENTICATED = 16,
} binario_code;

/* The code's name, "INVALID_ARGUMENT" (a static string). */
const char *binario_code_name(int code);

/* One field a request got wrong: "readings[3].time", "is in the future". */
typedef struct binario_field_violation {
  char *field;
  char *description;
} binario_field_violation;

/*
 * How something ended. Zero-initialise it (BINARIO_STATUS_INIT) before its first use; the
 * library clears what it held before filling it again, and binario_status_clear frees it.
 */
typedef struct binario_status {
  int code;                             /* a binario_code */
  char *message;                        /* for a person; NULL when OK */
  size_t violation_count;
  binario_field_violation *violations;  /* from an INVALID_ARGUMENT's BadRequest detail */
} binario_status;

#define BINARIO_STATUS_INIT {0, NULL, 0, NULL}

/* Frees what `status` holds and leaves it OK. */
void binario_status_clear(binario_status *status);

/* Sets `status` (NULL is fine) to `code` and a printf-style message; returns `code`. */
int binario_status_set(binario_status *status, int code, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * Decodes a `grpc-status-details-bin` value (a google.rpc.Status) into `status`: its code,
 * message and BadRequest field violations. BINARIO_CODE_INTERNAL when the bytes do not decode.
 */
int binario_status_decode_details(const uint8_t *bytes, size_t length, binario_status *status);

/* Where and how to connect. Zero-initialise it and fill what you need. */
typedef struct binario_connect_options {
  const char *host;               /* the gateway's name or address */
  uint16_t port;
  const char *ca_file;            /* PEM CA certificates to verify the server; NULL: the system's */
  const char *server_name;        /* the name its certificate must carry; NULL: host */
  const char *certificate_file;   /* optional client certificate (PEM) ... */
  const char *private_key_file;   /* ... and its key */
  uint32_t frame_limit;           /* largest frame either way; 0: 4 MiB, as the services */
  uint32_t connect_timeout_ms;    /* TCP and TLS handshake; 0: 10 s */
  uint32_t keepalive_ms;          /* ping after this long without a byte from the server, and give
                                     the connection up when the answer takes as long; 0: never */
} binario_connect_options;

typedef struct binario_connection binario_connection;

/*
 * Connects (blocking, at most connect_timeout_ms). On success *connection is set and the result
 * is BINARIO_CODE_OK; otherwise UNAVAILABLE (no route, refused, TLS failed, wrong ALPN),
 * INVALID_ARGUMENT (options), or RESOURCE_EXHAUSTED (memory), explained in `status`.
 */
int binario_connect(const binario_connect_options *options, binario_connection **connection, binario_status *status);

/*
 * Closes the connection and frees it. Calls still open end with CANCELLED; they must still be
 * freed with binario_call_free, before or after. NULL is fine.
 */
void binario_connection_close(binario_connection *connection);

/*
 * Whether new calls can start: false once the server sent GoAway or the connection failed (then
 * `status`, if not NULL, says why). Reconnect to go on.
 */
int binario_connection_usable(const binario_connection *connection, binario_status *status);

/* The socket, for a program's own poll. */
int binario_connection_fd(const binario_connection *connection);

/* The poll events to wait for: POLLIN, and POLLOUT while frames wait to be written. */
short binario_connection_events(const binario_connection *connection);

/*
 * Milliseconds until the library next needs binario_connection_process without the socket being
 * ready (a call's deadline, a keepalive ping); -1 when nothing is due.
 */
int binario_connection_timeout_ms(const binario_connection *connection);

/*
 * Does the connection's work without blocking: writes what it can, reads what arrived and hands
 * it to its calls, answers pings, sends a keepalive ping, ends calls whose deadline passed.
 * `revents` is what poll returned for the socket (0 after a timeout). BINARIO_CODE_OK, or the code
 * with which the connection failed (UNAVAILABLE, INTERNAL), every open call ending with it.
 */
int binario_connection_process(binario_connection *connection, short revents, binario_status *status);

/* One text metadata entry: a lower-case key, and a value ("authorization", "Bearer ..."). */
typedef struct binario_metadata {
  const char *key;
  const char *value;
} binario_metadata;

/* What goes with a call. Zero-initialise it; NULL options mean none of these. */
typedef struct binario_call_options {
  const binario_metadata *metadata;
  size_t metadata_count;
  uint32_t timeout_ms;            /* the call's deadline from its start; 0: none */
} binario_call_options;

typedef struct binario_call binario_call;

/*
 * Starts a call with one request message, for a unary or server-streaming method
 * ("/binario.telemetry.v1.Telemetry/UploadReadings"). Does not block: the Open frame is queued
 * and written by the next binario_connection_process (or by the blocking calls). Fails with
 * UNAVAILABLE when the connection is not usable, RESOURCE_EXHAUSTED when the request is larger
 * than the frame limit or memory ran out.
 */
int binario_call_start(binario_connection *connection, const char *method, const binario_call_options *options,
                       const ProtobufCMessage *request, binario_call **call, binario_status *status);

/* What binario_call_poll and binario_call_next found. */
typedef enum binario_next {
  BINARIO_NEXT_END = 0,      /* the call is over: `status` says how (OK or an error) */
  BINARIO_NEXT_MESSAGE = 1,  /* *message is the next response; free it with protobuf_c_message_free_unpacked */
  BINARIO_NEXT_PENDING = 2,  /* (binario_call_poll only) nothing yet */
} binario_next;

/*
 * The next response message of `call`, decoded as `descriptor`, if one has arrived; or the end
 * of the call. Does not block and does no I/O. A message that does not decode as `descriptor`
 * ends the call with INTERNAL (and cancels it).
 */
binario_next binario_call_poll(binario_call *call, const ProtobufCMessageDescriptor *descriptor,
                               ProtobufCMessage **message, binario_status *status);

/* Like binario_call_poll, but waits (driving the connection) until there is a message or an end. */
binario_next binario_call_next(binario_call *call, const ProtobufCMessageDescriptor *descriptor,
                               ProtobufCMessage **message, binario_status *status);

/* Frees the call, cancelling it first (a Cancel frame) when it is still open. NULL is fine. */
void binario_call_free(binario_call *call);

/*
 * A unary call, blocking: sends `request`, waits for the response (decoded as `descriptor`, freed
 * by the caller with protobuf_c_message_free_unpacked) and the OK end. Otherwise the status code,
 * *response NULL.
 */
int binario_unary(binario_connection *connection, const char *method, const binario_call_options *options,
                  const ProtobufCMessage *request, const ProtobufCMessageDescriptor *descriptor,
                  ProtobufCMessage **response, binario_status *status);

#ifdef __cplusplus
}
#endif

#endif
