/*
 * libbinario's connection against a scripted peer (cmocka): a TLS server in a thread of this
 * test, with a certificate made here, that does what a gateway rarely does on cue: GoAway while a
 * call is open, a frame above the client's limit, pings of its own, silence where a Pong belongs,
 * closing mid-call, no ALPN. SIGPIPE is left as it is: the library must never raise it, even
 * writing a Cancel into a connection the peer closed.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "binario/client.h"
#include "binario/frame.h"
#include "google/protobuf/timestamp.pb-c.h"

typedef enum scenario {
  SCENARIO_GO_AWAY,       /* GoAway, then the open call's answer */
  SCENARIO_OVERSIZED,     /* a frame length above the client's limit */
  SCENARIO_SERVER_PING,   /* a Ping; the call ends once the Pong came back */
  SCENARIO_SILENT,        /* reads, never answers (not even a Ping) */
  SCENARIO_CLOSE,         /* closes the connection with the call open */
  SCENARIO_NO_ALPN,       /* agrees on no ALPN protocol (a plain TLS server) */
  SCENARIO_CLIENT_CERT,   /* requires a client certificate from its CA, then answers */
} scenario;

typedef struct peer {
  scenario scenario;
  int listener;
  uint16_t port;
  SSL_CTX *context;
  pthread_t thread;
  int pong_nonce;         /* what came back for the server's Ping */
  char ca_file[64];
  char key_file[64];      /* the certificate's key, for the client's certificate */
} peer;

static EVP_PKEY *key;
static X509 *certificate;

/* A self-signed certificate for "localhost", its own CA. */
static int make_certificate(void **state) {
  (void)state;
  key = EVP_EC_gen("P-256");
  certificate = X509_new();
  X509_set_version(certificate, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1);
  X509_gmtime_adj(X509_getm_notBefore(certificate), -3600);
  X509_gmtime_adj(X509_getm_notAfter(certificate), 3600);
  X509_set_pubkey(certificate, key);
  X509_NAME *name = X509_get_subject_name(certificate);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"localhost", -1, -1, 0);
  X509_set_issuer_name(certificate, name);
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, certificate, certificate, NULL, NULL, 0);
  const char *extensions[][2] = {{"subjectAltName", "DNS:localhost"}, {"basicConstraints", "critical,CA:TRUE"}};
  for (size_t index = 0; index < 2; index++) {
    X509_EXTENSION *extension = X509V3_EXT_conf(NULL, &context, extensions[index][0], extensions[index][1]);
    X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
  }
  X509_sign(certificate, key, EVP_sha256());
  return 0;
}

static int free_certificate(void **state) {
  (void)state;
  X509_free(certificate);
  EVP_PKEY_free(key);
  return 0;
}

static int select_alpn(SSL *ssl, const unsigned char **out, unsigned char *out_length, const unsigned char *in, unsigned int in_length, void *argument) {
  (void)ssl;
  const peer *server = argument;
  static const unsigned char binario[] = "\x09" "binario/1";
  if (server->scenario == SCENARIO_NO_ALPN) return SSL_TLSEXT_ERR_NOACK;
  unsigned char *selected = NULL;
  if (SSL_select_next_proto(&selected, out_length, binario, sizeof binario - 1, in, in_length) != OPENSSL_NPN_NEGOTIATED) return SSL_TLSEXT_ERR_ALERT_FATAL;
  *out = selected;
  return SSL_TLSEXT_ERR_OK;
}

static void send_frame(SSL *ssl, const Binario__Wire__V1__Frame *frame) {
  uint8_t *bytes = NULL;
  size_t length = 0;
  if (binario_frame_encode(frame, 0, &bytes, &length) == BINARIO_OK) SSL_write(ssl, bytes, (int)length);
  free(bytes);
}

/* The next frame from the client, or NULL when it is gone. */
static Binario__Wire__V1__Frame *receive_frame(SSL *ssl, binario_frame_reader *reader) {
  for (;;) {
    Binario__Wire__V1__Frame *frame = NULL;
    if (binario_frame_reader_next(reader, &frame) == BINARIO_OK) return frame;
    uint8_t buffer[4096];
    int count = SSL_read(ssl, buffer, sizeof buffer);
    if (count <= 0) return NULL;
    binario_frame_reader_feed(reader, buffer, (size_t)count);
  }
}

static void send_answer(SSL *ssl, uint64_t call_id) {
  Google__Protobuf__Timestamp answer = GOOGLE__PROTOBUF__TIMESTAMP__INIT;
  answer.seconds = 42;
  uint8_t payload[32];
  Binario__Wire__V1__Message message = BINARIO__WIRE__V1__MESSAGE__INIT;
  message.has_payload = 1;
  message.payload.data = payload;
  message.payload.len = google__protobuf__timestamp__pack(&answer, payload);
  Binario__Wire__V1__Frame frame = BINARIO__WIRE__V1__FRAME__INIT;
  frame.has_call_id = 1;
  frame.call_id = call_id;
  frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_MESSAGE;
  frame.message = &message;
  send_frame(ssl, &frame);
  Binario__Wire__V1__End end = BINARIO__WIRE__V1__END__INIT;
  end.has_status_code = 1;
  end.status_code = 0;
  frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_END;
  frame.end = &end;
  send_frame(ssl, &frame);
}

static void *serve(void *argument) {
  peer *server = argument;
  /* The peer's own writes may meet a client that has closed (TLS 1.3's session tickets, after a
   * client refused the handshake's ALPN): SIGPIPE is blocked in this thread only, so the test's
   * thread, where the library runs, still dies of any SIGPIPE the library would raise. */
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, NULL);
  int fd = accept(server->listener, NULL, NULL);
  if (fd < 0) return NULL;
  SSL *ssl = SSL_new(server->context);
  SSL_set_fd(ssl, fd);
  SSL_set_quiet_shutdown(ssl, 1); /* no close_notify into a socket the client may have closed */
  binario_frame_reader *reader = binario_frame_reader_new(0);
  if (SSL_accept(ssl) == 1 && server->scenario != SCENARIO_NO_ALPN) {
    Binario__Wire__V1__Frame *open = receive_frame(ssl, reader);
    uint64_t call_id = open != NULL ? open->call_id : 0;
    binario_frame_free(open);
    Binario__Wire__V1__Frame frame = BINARIO__WIRE__V1__FRAME__INIT;
    switch (server->scenario) {
    case SCENARIO_GO_AWAY: {
      Binario__Wire__V1__GoAway go_away = BINARIO__WIRE__V1__GO_AWAY__INIT;
      go_away.reason = "restarting";
      frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_GO_AWAY;
      frame.go_away = &go_away;
      send_frame(ssl, &frame);
      send_answer(ssl, call_id);
      break;
    }
    case SCENARIO_OVERSIZED: {
      const uint8_t header[] = {0x00, 0x10, 0x00, 0x00}; /* 1 MiB follows, says the length */
      SSL_write(ssl, header, sizeof header);
      break;
    }
    case SCENARIO_SERVER_PING: {
      Binario__Wire__V1__Ping ping = BINARIO__WIRE__V1__PING__INIT;
      ping.has_nonce = 1;
      ping.nonce = 9;
      frame.kind_case = BINARIO__WIRE__V1__FRAME__KIND_PING;
      frame.ping = &ping;
      send_frame(ssl, &frame);
      for (Binario__Wire__V1__Frame *reply; (reply = receive_frame(ssl, reader)) != NULL;) {
        int pong = reply->kind_case == BINARIO__WIRE__V1__FRAME__KIND_PONG;
        if (pong) server->pong_nonce = (int)reply->pong->nonce;
        binario_frame_free(reply);
        if (pong) break;
      }
      send_answer(ssl, call_id);
      break;
    }
    case SCENARIO_CLIENT_CERT:
      send_answer(ssl, call_id);
      break;
    case SCENARIO_SILENT:
      /* Reads (the client's pings) until the client gives up and closes. */
      for (Binario__Wire__V1__Frame *ignored; (ignored = receive_frame(ssl, reader)) != NULL;) binario_frame_free(ignored);
      break;
    default:
      break;
    }
  }
  /* Waits for the client to close before closing (except the scenario that closes first). */
  if (server->scenario != SCENARIO_CLOSE && server->scenario != SCENARIO_SILENT) {
    for (Binario__Wire__V1__Frame *rest; (rest = receive_frame(ssl, reader)) != NULL;) binario_frame_free(rest);
  }
  binario_frame_reader_free(reader);
  SSL_shutdown(ssl);
  SSL_free(ssl);
  close(fd);
  return NULL;
}

static void start(peer *server, scenario what) {
  memset(server, 0, sizeof *server);
  server->scenario = what;
  server->context = SSL_CTX_new(TLS_server_method());
  assert_int_equal(SSL_CTX_use_certificate(server->context, certificate), 1);
  assert_int_equal(SSL_CTX_use_PrivateKey(server->context, key), 1);
  SSL_CTX_set_alpn_select_cb(server->context, select_alpn, server);
  if (what == SCENARIO_CLIENT_CERT) {
    X509_STORE_add_cert(SSL_CTX_get_cert_store(server->context), certificate);
    SSL_CTX_set_verify(server->context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
  }
  server->listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  assert_int_equal(bind(server->listener, (struct sockaddr *)&address, sizeof address), 0);
  assert_int_equal(listen(server->listener, 1), 0);
  socklen_t length = sizeof address;
  getsockname(server->listener, (struct sockaddr *)&address, &length);
  server->port = ntohs(address.sin_port);
  snprintf(server->ca_file, sizeof server->ca_file, "/tmp/binario-test-ca-XXXXXX");
  int fd = mkstemp(server->ca_file);
  FILE *file = fdopen(fd, "w");
  PEM_write_X509(file, certificate);
  fclose(file);
  snprintf(server->key_file, sizeof server->key_file, "/tmp/binario-test-key-XXXXXX");
  file = fdopen(mkstemp(server->key_file), "w");
  PEM_write_PrivateKey(file, key, NULL, NULL, 0, NULL, NULL);
  fclose(file);
  assert_int_equal(pthread_create(&server->thread, NULL, serve, server), 0);
}

static void stop(peer *server) {
  pthread_join(server->thread, NULL);
  close(server->listener);
  SSL_CTX_free(server->context);
  unlink(server->ca_file);
  unlink(server->key_file);
}

static binario_connection *connect_to(peer *server, uint32_t frame_limit, uint32_t keepalive_ms, binario_status *status) {
  binario_connect_options options;
  memset(&options, 0, sizeof options);
  if (server->scenario == SCENARIO_CLIENT_CERT) {
    /* The server's own certificate doubles as the client's: its CA is the server's trust. */
    options.certificate_file = server->ca_file;
    options.private_key_file = server->key_file;
  }
  options.host = "127.0.0.1";
  options.port = server->port;
  options.ca_file = server->ca_file;
  options.server_name = "localhost";
  options.frame_limit = frame_limit;
  options.keepalive_ms = keepalive_ms;
  binario_connection *connection = NULL;
  binario_connect(&options, &connection, status);
  return connection;
}

/* Starts a call whose request and answer are Timestamps. */
static binario_call *start_call(binario_connection *connection, binario_status *status) {
  Google__Protobuf__Timestamp request = GOOGLE__PROTOBUF__TIMESTAMP__INIT;
  binario_call *call = NULL;
  assert_int_equal(binario_call_start(connection, "/test.Peer/Call", NULL, &request.base, &call, status), BINARIO_CODE_OK);
  return call;
}

static void go_away_lets_the_open_call_finish_and_refuses_new_ones(void **state) {
  (void)state;
  peer server;
  start(&server, SCENARIO_GO_AWAY);
  binario_status status = BINARIO_STATUS_INIT;
  binario_connection *connection = connect_to(&server, 0, 0, &status);
  assert_non_null(connection);
  binario_call *call = start_call(connection, &status);
  ProtobufCMessage *message = NULL;
  assert_int_equal(binario_call_next(call, &google__protobuf__timestamp__descriptor, &message, &status), BINARIO_NEXT_MESSAGE);
  assert_int_equal(((Google__Protobuf__Timestamp *)message)->seconds, 42);
  protobuf_c_message_free_unpacked(message, NULL);
  assert_int_equal(binario_call_next(call, &google__protobuf__timestamp__descriptor, &message, &status), BINARIO_NEXT_END);
  assert_int_equal(status.code, BINARIO_CODE_OK);
  binario_call_free(call);
  assert_false(binario_connection_usable(connection, &status));
  assert_non_null(strstr(status.message, "restarting"));
  Google__Protobuf__Timestamp request = GOOGLE__PROTOBUF__TIMESTAMP__INIT;
  assert_int_equal(binario_call_start(connection, "/test.Peer/Call", NULL, &request.base, &call, &status), BINARIO_CODE_UNAVAILABLE);
  assert_null(call);
  binario_connection_close(connection);
  binario_status_clear(&status);
  stop(&server);
}

static void a_frame_above_the_limit_breaks_the_connection(void **state) {
  (void)state;
  peer server;
  start(&server, SCENARIO_OVERSIZED);
  binario_status status = BINARIO_STATUS_INIT;
  binario_connection *connection = connect_to(&server, 1024, 0, &status);
  binario_call *call = start_call(connection, &status);
  ProtobufCMessage *message = NULL;
  assert_int_equal(binario_call_next(call, &google__protobuf__timestamp__descriptor, &message, &status), BINARIO_NEXT_END);
  assert_int_equal(status.code, BINARIO_CODE_INTERNAL);
  assert_non_null(strstr(status.message, "longer than the limit"));
  assert_false(binario_connection_usable(connection, NULL));
  binario_call_free(call);
  binario_connection_close(connection);
  binario_status_clear(&status);
  stop(&server);
}

static void the_servers_ping_is_answered(void **state) {
  (void)state;
  peer server;
  start(&server, SCENARIO_SERVER_PING);
  binario_status status = BINARIO_STATUS_INIT;
  binario_connection *connection = connect_to(&server, 0, 0, &status);
  ProtobufCMessage *answer = NULL;
  Google__Protobuf__Timestamp request = GOOGLE__PROTOBUF__TIMESTAMP__INIT;
  assert_int_equal(binario_unary(connection, "/test.Peer/Call", NULL, &request.base, &google__protobuf__timestamp__descriptor, &answer, &status),
                   BINARIO_CODE_OK);
  protobuf_c_message_free_unpacked(answer, NULL);
  binario_connection_close(connection);
  stop(&server);
  assert_int_equal(server.pong_nonce, 9);
  binario_status_clear(&status);
}

static void an_unanswered_ping_gives_the_connection_up(void **state) {
  (void)state;
  peer server;
  start(&server, SCENARIO_SILENT);
  binario_status status = BINARIO_STATUS_INIT;
  binario_connection *connection = connect_to(&server, 0, 50, &status);
  binario_call *call = start_call(connection, &status);
  ProtobufCMessage *message = NULL;
  assert_int_equal(binario_call_next(call, &google__protobuf__timestamp__descriptor, &message, &status), BINARIO_NEXT_END);
  assert_int_equal(status.code, BINARIO_CODE_UNAVAILABLE);
  assert_non_null(strstr(status.message, "did not answer a ping"));
  binario_call_free(call);
  binario_connection_close(connection);
  binario_status_clear(&status);
  stop(&server);
}

static void a_closed_connection_ends_open_calls(void **state) {
  (void)state;
  peer server;
  start(&server, SCENARIO_CLOSE);
  binario_status status = BINARIO_STATUS_INIT;
  binario_connection *connection = connect_to(&server, 0, 0, &status);
  binario_call *call = start_call(connection, &status);
  ProtobufCMessage *message = NULL;
  assert_int_equal(binario_call_next(call, &google__protobuf__timestamp__descriptor, &message, &status), BINARIO_NEXT_END);
  assert_int_equal(status.code, BINARIO_CODE_UNAVAILABLE);
  binario_call_free(call);
  binario_connection_close(connection);
  binario_status_clear(&status);
  stop(&server);
}

static void another_protocol_is_refused(void **state) {
  (void)state;
  peer server;
  start(&server, SCENARIO_NO_ALPN);
  binario_status status = BINARIO_STATUS_INIT;
  assert_null(connect_to(&server, 0, 0, &status));
  assert_int_equal(status.code, BINARIO_CODE_UNAVAILABLE);
  assert_non_null(strstr(status.message, "binario/1"));
  binario_status_clear(&status);
  stop(&server);
}

static void a_client_certificate_is_presented(void **state) {
  (void)state;
  peer server;
  start(&server, SCENARIO_CLIENT_CERT);
  binario_status status = BINARIO_STATUS_INIT;
  binario_connection *connection = connect_to(&server, 0, 0, &status);
  assert_non_null(connection);
  ProtobufCMessage *answer = NULL;
  Google__Protobuf__Timestamp request = GOOGLE__PROTOBUF__TIMESTAMP__INIT;
  assert_int_equal(binario_unary(connection, "/test.Peer/Call", NULL, &request.base, &google__protobuf__timestamp__descriptor, &answer, &status),
                   BINARIO_CODE_OK);
  protobuf_c_message_free_unpacked(answer, NULL);
  binario_connection_close(connection);
  binario_status_clear(&status);
  stop(&server);
}

static void a_missing_client_key_is_an_invalid_argument(void **state) {
  (void)state;
  binario_connect_options options;
  memset(&options, 0, sizeof options);
  options.host = "127.0.0.1";
  options.port = 9;
  options.certificate_file = "/nonexistent/client.pem";
  binario_connection *connection = NULL;
  binario_status status = BINARIO_STATUS_INIT;
  assert_int_equal(binario_connect(&options, &connection, &status), BINARIO_CODE_INVALID_ARGUMENT);
  assert_non_null(strstr(status.message, "client certificate"));
  binario_status_clear(&status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(go_away_lets_the_open_call_finish_and_refuses_new_ones),
      cmocka_unit_test(a_frame_above_the_limit_breaks_the_connection),
      cmocka_unit_test(the_servers_ping_is_answered),
      cmocka_unit_test(an_unanswered_ping_gives_the_connection_up),
      cmocka_unit_test(a_closed_connection_ends_open_calls),
      cmocka_unit_test(another_protocol_is_refused),
      cmocka_unit_test(a_client_certificate_is_presented),
      cmocka_unit_test(a_missing_client_key_is_an_invalid_argument),
  };
  return cmocka_run_group_tests(tests, make_certificate, free_certificate);
}
