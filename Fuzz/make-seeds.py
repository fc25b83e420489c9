#!/usr/bin/env python3
"""Writes the fuzz targets' first inputs (Fuzz/Corpus/<target>/seed-*): valid examples of what
each target reads, for libFuzzer to mutate. The inputs the fuzzer finds are kept beside them
(scripts/fuzz.sh --keep). Run from anywhere; rewrites only the seed-* files."""
import base64, io, json, pathlib, struct, zipfile

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

root = pathlib.Path(__file__).resolve().parent
repo = root.parent


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number, value):
    """A protobuf field: an int (varint) or bytes/str (length-delimited)."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    if isinstance(value, str):
        value = value.encode()
    return varint(number << 3 | 2) + varint(len(value)) + value


def frame(call_id, kind_number, body=b""):
    encoded = (field(1, call_id) if call_id else b"") + field(kind_number, body)
    return struct.pack(">I", len(encoded)) + encoded


def entry(key, text):
    return field(1, key) + field(2, text)


def open_(method, metadata=(), payload=None, half_close=False, timeout_ms=0):
    body = field(1, method) + b"".join(field(2, entry(k, v)) for k, v in metadata)
    if timeout_ms:
        body += field(3, timeout_ms)
    if payload is not None:
        body += field(4, payload)
    if half_close:
        body += field(5, 1)
    return body


def write(target, name, data):
    folder = root / "Corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"seed-{name}").write_bytes(data.encode() if isinstance(data, str) else data)


echo = "/binario.echo.v1.Echo/Get"
traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
write("frames", "unary", frame(1, 2, open_(echo, [("request-id", "r1")], payload=b"\x0a\x02hi", half_close=True)))
write("frames", "streaming", frame(3, 2, open_(echo)) + frame(3, 3, field(1, b"a")) + frame(3, 3, field(1, b"b")) + frame(3, 4))
write("frames", "ping", frame(0, 8, field(1, 42)) + frame(0, 9, field(1, 7)))
write("frames", "cancel", frame(5, 2, open_(echo, timeout_ms=1)) + frame(5, 7))
write("frames", "go-away", frame(1, 2, open_(echo)) + frame(0, 10, field(1, "bye")) + frame(7, 2, open_(echo, half_close=True)))
write("frames", "callee-frames", frame(1, 5) + frame(1, 6, field(1, 0)))

# Tokens signed with the key GatewayInputFuzzing uses (32 bytes of 7).
key = Ed25519PrivateKey.from_private_bytes(bytes([7] * 32))


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(header, claims):
    signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
    return signing_input + "." + b64(key.sign(signing_input.encode()))


header = {"alg": "EdDSA", "kid": "fuzz-key", "typ": "JWT"}
claims = {"iss": "binario-identity", "sub": "u1", "sid": "s1", "jti": "t1", "roles": ["rider", "admin"],
          "iat": 1_799_999_000, "exp": 1_800_000_900}
valid = token(header, claims)
peer = "[IPv4]127.0.0.1/127.0.0.1:52114"


def metadata_input(method, pairs, peer=peer):
    return "\0".join([method, peer] + [part for pair in pairs for part in pair])


write("gateway-metadata", "signed-in", metadata_input("/binario.identity.v1.Identity/GetMe", [
    ("authorization", "Bearer " + valid), ("x-request-id", "req-1"), ("traceparent", traceparent), ("tracestate", "a=b")]))
write("gateway-metadata", "spoofed-caller", metadata_input("/binario.scheduling.v1.Scheduling/ListStations", [
    ("x-user-id", "admin"), ("x-user-roles", "admin"), ("request-id", "bad id!"), ("x-forwarded-for", "1.2.3.4")]))
write("gateway-metadata", "device", metadata_input("/binario.telemetry.v1.Telemetry/UploadReadings", [
    ("authorization", "Device bdt_" + "A" * 43), ("x-device-token", "forged"), ("trace-bin", "\x01\x02")], peer="ipv6:[::1]:443"))
write("gateway-metadata", "internal", metadata_input("/binario.identity.v1.Identity/GetSigningKeys", [
    ("authorization", "Bearer not.a.token")], peer="ipv4:10.0.0.1:80"))

write("access-token", "bearer", "\0Bearer " + valid)
write("access-token", "garbage", "\0Bearer eyJhbGciOiJub25lIn0.e30.")
write("access-token", "device", "\0Device bdt_" + "x" * 43)
write("access-token", "claims", b"\x01" + json.dumps(header).encode() + b"\0" + json.dumps(claims).encode())
write("access-token", "expired", b"\x01" + json.dumps(header).encode() + b"\0" + json.dumps(dict(claims, exp=1)).encode())

write("http-json", "register", "POST\0/v1/accounts\0\0" + json.dumps({"email": "ada@example.com", "password": "correct-horse-42", "displayName": "Ada"}))
write("http-json", "path-and-query", "GET\0/v1/taxi/rides/r-1?x=1&y=%20\0\0")
write("http-json", "sub-body", "PUT\0/v1/admin/deals/d-1\0\0" + json.dumps({"description": "10%", "shopId": "s", "validUntil": "2026-01-01T00:00:00Z"}))
write("http-json", "nearby", "GET\0/v1/nearby/deals?latitude=45.46&longitude=9.19&radius_meters=500\0\0")
write("http-json", "resume", "GET\0/v1/driver/jobs:watch\0cursor-17\0")
write("http-json", "nested", "POST\0/v1/taxi/rides\0\0" + "[" * 64 + "]" * 64)

network = repo / "Services" / "Scheduling" / "DemoNetwork"
names = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt"]


def small(name):
    """The demo file, cut to its first lines: a seed is mutated faster when it is short."""
    return b"".join((network / name).read_bytes().splitlines(keepends=True)[:25])


write("gtfs", "files", b"\0".join(small(name) for name in names))
archive = io.BytesIO()
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
    for name in names:
        zipped.writestr("feed/" + name, small(name))
write("gtfs", "zip", archive.getvalue())

demo = repo / "Services" / "Telemetry" / "DemoData"
write("open-data", "air-quality-stations", b"\x00" + (demo / "air-quality-stations.csv").read_bytes())
write("open-data", "weather-stations", b"\x01" + (demo / "weather-stations.json").read_bytes())
write("open-data", "measurements", b"\x02" + b"".join((demo / "measurements-2024-01-15.csv").read_bytes().splitlines(keepends=True)[:30]))
