"""A standard gRPC client (grpcio) against the gateway's gRPC front door, as an app developer
would write one: stubs generated from proto/ with grpcio-tools, TLS with the deployment's CA.

Run by the end-to-end FrontDoorTests (Swift), which start the suite and pass its address:

    .tools/venv/bin/python Tests/FrontDoorClients/grpc_client.py --address localhost:7110 \
        --ca .dev/certs/ca.pem --admin-email admin@... --admin-password ...

Checks register -> confirm -> login -> GetMe; INVALID_ARGUMENT with BadRequest details
(grpcio-status); a deadline exceeded on a stream that never ends by itself; an admin method and
an internal method refused; health; a sensor board's device token uploading (unary and client
streaming) and opening nothing else; and server reflection listing the services. Exits non-zero,
naming the failed check, on any difference.
"""

import argparse
import importlib
import pathlib
import re
import sys
import tempfile
import uuid

import grpc
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from grpc_status import rpc_status
from grpc_tools import protoc

HEALTH_CHECK = "/grpc.health.v1.Health/Check"
HEALTH_WATCH = "/grpc.health.v1.Health/Watch"
SERVING = b"\x08\x01"  # HealthCheckResponse{status: SERVING}


def generate_stubs(proto_root, out):
    """identity's and telemetry's messages and stubs from proto/, with the access options they
    import (google.api's come from googleapis-common-protos; health is called by hand, since a
    generated `grpc` package would hide grpcio's)."""
    well_known = pathlib.Path(protoc.__file__).parent / "_proto"
    arguments = ["protoc", f"-I{proto_root}", f"-I{well_known}", f"--python_out={out}", f"--grpc_python_out={out}",
                 "binario/auth/v1/access.proto", "binario/identity/v1/identity.proto", "binario/telemetry/v1/telemetry.proto"]
    if protoc.main(arguments) != 0:
        raise SystemExit("grpcio-tools could not generate the stubs")
    sys.path.insert(0, str(out))


def expect_code(call, code, what):
    """Runs `call`, which must fail with `code`; returns the error."""
    try:
        call()
    except grpc.RpcError as error:
        if error.code() != code:
            raise AssertionError(f"{what}: expected {code.name}, got {error.code().name}: {error.details()}")
        return error
    raise AssertionError(f"{what}: expected {code.name}, the call succeeded")


def newest_code(identity, pb, admin, recipient):
    outbox = identity.ListOutboxMessages(pb.ListOutboxMessagesRequest(recipient=recipient, limit=10),
                                         metadata=[("authorization", f"Bearer {admin}")])
    for message in outbox.messages:
        match = re.search(r"\b(\d{6})\b", message.body)
        if match:
            return match.group(1)
    raise AssertionError(f"no code for {recipient} in the outbox")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--proto", default=str(pathlib.Path(__file__).resolve().parents[2] / "proto"))
    parser.add_argument("--admin-email", required=True)
    parser.add_argument("--admin-password", required=True)
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory() as stubs:
        generate_stubs(arguments.proto, stubs)
        pb = importlib.import_module("binario.identity.v1.identity_pb2")
        stubs_module = importlib.import_module("binario.identity.v1.identity_pb2_grpc")

        credentials = grpc.ssl_channel_credentials(root_certificates=pathlib.Path(arguments.ca).read_bytes())
        with grpc.secure_channel(arguments.address, credentials) as channel:
            identity = stubs_module.IdentityStub(channel)

            # Health, from the gateway itself.
            check = channel.unary_unary(HEALTH_CHECK, request_serializer=None, response_deserializer=None)
            assert check(b"", timeout=10) == SERVING, "health: the gateway is not SERVING"
            print("ok: health SERVING")

            # Register -> confirm -> login -> GetMe.
            email = f"grpcio-{uuid.uuid4().hex[:8]}@example.com"
            password = "a-good-password-1"
            identity.Register(pb.RegisterRequest(email=email, password=password, first_name="Grace"), timeout=10)
            admin = identity.Login(pb.LoginRequest(email=arguments.admin_email, password=arguments.admin_password),
                                   timeout=10).tokens.access_token
            identity.ConfirmEmail(pb.ConfirmEmailRequest(email=email, code=newest_code(identity, pb, admin, email)),
                                  timeout=10)
            response, call = identity.Login.with_call(pb.LoginRequest(email=email, password=password), timeout=10)
            token = response.tokens.access_token
            assert any(key == "x-request-id" for key, _ in call.initial_metadata()), "no x-request-id in the headers"
            me = identity.GetMe(pb.GetMeRequest(), metadata=[("authorization", f"Bearer {token}")], timeout=10)
            assert me.profile.email == email, f"GetMe: expected {email}, got {me.profile.email}"
            print("ok: register -> confirm -> login -> GetMe")

            # INVALID_ARGUMENT with BadRequest details naming the fields.
            error = expect_code(lambda: identity.Register(pb.RegisterRequest(email="not-an-email", password="short"),
                                                          timeout=10),
                                grpc.StatusCode.INVALID_ARGUMENT, "bad sign-up")
            status = rpc_status.from_call(error)
            assert status is not None, "INVALID_ARGUMENT without grpc-status-details-bin"
            fields = set()
            for detail in status.details:
                bad_request = error_details_pb2.BadRequest()
                if detail.Unpack(bad_request):
                    fields.update(violation.field for violation in bad_request.field_violations)
            assert {"email", "password"} <= fields, f"BadRequest names {sorted(fields)}"
            print(f"ok: INVALID_ARGUMENT with BadRequest for {sorted(fields)}")

            # The same in Italian (the accept-language metadata key): a LocalizedMessage for the
            # whole and for each field, the status message staying English.
            error = expect_code(lambda: identity.Register(pb.RegisterRequest(email="not-an-email", password="short"),
                                                          metadata=[("accept-language", "it")], timeout=10),
                                grpc.StatusCode.INVALID_ARGUMENT, "bad sign-up in Italian")
            status = rpc_status.from_call(error)
            localized, per_field = None, {}
            for detail in status.details:
                message, bad_request = error_details_pb2.LocalizedMessage(), error_details_pb2.BadRequest()
                if detail.Unpack(message):
                    localized = message
                elif detail.Unpack(bad_request):
                    per_field.update({violation.field: violation.localized_message for violation in bad_request.field_violations})
            assert localized is not None and localized.locale == "it-IT", f"no Italian LocalizedMessage: {status.details}"
            assert "non è un indirizzo email" in per_field["email"].message, f"the email's problem in Italian: {per_field}"
            assert "is not an email address" in (error.details() or ""), "the status message is not the English one"
            error = expect_code(lambda: identity.GetMe(pb.GetMeRequest(), metadata=[("accept-language", "it")], timeout=10),
                                grpc.StatusCode.UNAUTHENTICATED, "GetMe without a token, in Italian")
            refusal = [message for detail in rpc_status.from_call(error).details
                       for message in [error_details_pb2.LocalizedMessage()] if detail.Unpack(message)]
            assert refusal and "richiede l'accesso" in refusal[0].message, f"the gateway's refusal in Italian: {refusal}"
            print("ok: refusals in Italian (LocalizedMessage) on asking with the accept-language key")

            # Server streaming and cancellation: Watch sends SERVING at once, then waits; the
            # client cancels it.
            watch = channel.unary_stream(HEALTH_WATCH, request_serializer=None, response_deserializer=None)
            stream = watch(b"", timeout=10)
            assert next(stream) == SERVING, "Watch: the first message is not SERVING"
            stream.cancel()
            expect_code(lambda: next(stream), grpc.StatusCode.CANCELLED, "Watch after cancel")
            print("ok: server streaming, then cancelled by the client")

            # A deadline: Watch never ends by itself, so only the deadline ends it.

            def watch_until_deadline():
                for _ in watch(b"", timeout=0.5):
                    pass

            expect_code(watch_until_deadline, grpc.StatusCode.DEADLINE_EXCEEDED, "Watch with a deadline")
            print("ok: DEADLINE_EXCEEDED")

            # Refusals: an admin method for a passenger, an internal method for anyone, no token.
            passenger = [("authorization", f"Bearer {token}")]
            expect_code(lambda: identity.ListAccounts(pb.ListAccountsRequest(), metadata=passenger, timeout=10),
                        grpc.StatusCode.PERMISSION_DENIED, "ListAccounts as a passenger")
            expect_code(lambda: identity.LookupAccounts(pb.LookupAccountsRequest(emails=[email]),
                                                        metadata=[("authorization", f"Bearer {admin}")], timeout=10),
                        grpc.StatusCode.PERMISSION_DENIED, "the internal LookupAccounts")
            expect_code(lambda: identity.GetMe(pb.GetMeRequest(), timeout=10),
                        grpc.StatusCode.UNAUTHENTICATED, "GetMe without a token")
            print("ok: admin and internal methods refused, no token unauthenticated")

            # As any gRPC server: a method the service does not have is UNIMPLEMENTED, and a
            # message over the door's limit RESOURCE_EXHAUSTED with a status (not a reset stream).
            missing = channel.unary_unary("/binario.identity.v1.Identity/NoSuchMethod",
                                          request_serializer=None, response_deserializer=None)
            expect_code(lambda: missing(b"", metadata=passenger, timeout=10), grpc.StatusCode.UNIMPLEMENTED,
                        "a method Identity does not have")
            huge = pb.RegisterRequest(email="big@example.com", password="a-good-password-1", first_name="x" * (5 << 20))
            error = expect_code(lambda: identity.Register(huge, timeout=30), grpc.StatusCode.RESOURCE_EXHAUSTED,
                                "a 5 MiB message")
            assert "at most" in (error.details() or ""), f"RESOURCE_EXHAUSTED without a message: {error.details()!r}"
            assert identity.GetMe(pb.GetMeRequest(), metadata=passenger, timeout=10).profile.email == email, \
                "the channel does not work after the refusal"
            print("ok: UNIMPLEMENTED for an unknown method, RESOURCE_EXHAUSTED with a status for a message over the limit")

            # A sensor board: its device token uploads, unary and client streaming, and opens
            # nothing else; an account's token uploads nothing.
            telemetry_pb = importlib.import_module("binario.telemetry.v1.telemetry_pb2")
            telemetry = importlib.import_module("binario.telemetry.v1.telemetry_pb2_grpc").TelemetryStub(channel)
            board = telemetry.RegisterDevice(telemetry_pb.RegisterDeviceRequest(name="grpcio board"), metadata=passenger,
                                             timeout=10)
            device = [("authorization", f"Device {board.token}")]

            def reading(second):
                value = telemetry_pb.Reading(latitude=45.47, longitude=9.19, pm10=20.0 + second)
                value.time.FromSeconds(1705305600 + second)
                return value

            uploaded = telemetry.UploadReadings(telemetry_pb.UploadReadingsRequest(readings=[reading(0), reading(1)]),
                                                metadata=device, timeout=10)
            assert uploaded.stored == 2, f"UploadReadings: {uploaded}"
            streamed = telemetry.StreamReadings(
                iter([telemetry_pb.StreamReadingsRequest(readings=[reading(second)]) for second in range(2, 5)]),
                metadata=device, timeout=10)
            assert streamed.stored == 3 and not streamed.rejected, f"StreamReadings: {streamed}"
            expect_code(lambda: identity.GetMe(pb.GetMeRequest(), metadata=device, timeout=10),
                        grpc.StatusCode.UNAUTHENTICATED, "GetMe with a device token")
            expect_code(lambda: telemetry.UploadReadings(telemetry_pb.UploadReadingsRequest(readings=[reading(9)]),
                                                         metadata=passenger, timeout=10),
                        grpc.StatusCode.UNAUTHENTICATED, "UploadReadings with an account's token")
            print("ok: a device token uploads (unary and client streaming) and opens nothing else")

            # Server reflection: the services, and a file by symbol without the protos.
            database = ProtoReflectionDescriptorDatabase(channel)
            services = set(database.get_services())
            expected = {"binario.identity.v1.Identity", "grpc.health.v1.Health"}
            assert expected <= services, f"reflection lists {sorted(services)}"
            described = database.FindFileContainingSymbol("binario.identity.v1.Identity")
            assert described.name == "binario/identity/v1/identity.proto", described.name
            assert any(method.name == "GetMe" for service in described.service for method in service.method)
            print(f"ok: reflection lists {sorted(services)}")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
