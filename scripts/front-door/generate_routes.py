#!/usr/bin/env python3
"""Generates the gateway's HTTP/JSON route table and OpenAPI document from the protos'
google.api.http annotations.

    generate_routes.py DESCRIPTOR_SET --routes ROUTES.swift --openapi OPENAPI.swift
        [--openapi-json OPENAPI.json] [--descriptors DESCRIPTORS.swift] [--access-policy POLICY.swift]

--openapi-json also writes the document as plain JSON (for validators). --descriptors writes
every file of the set (without source info) as serialized FileDescriptorProtos, for the gRPC
front door's server reflection. --access-policy writes the suite's access policy (Shared/Auth's
MethodAccessPolicy for each service) from every method's `binario.auth.v1.access` option; a
method of a binario service without one is an error. --retry-safety writes which forwarded
methods the gateway may send again (reads, keyed writes). --feature-indexes ROOT writes each service's
README (read from Services/<Name>/README.md, written under ROOT) with its feature index.

DESCRIPTOR_SET is `protoc --include_imports --include_source_info --descriptor_set_out` of the
service protos. Every method with a `google.api.http` option becomes one route: its verb and path
template, which part of the request the body fills, the request and response Swift types, and
the JSON kind of each request field a path or query parameter may set. A method without the
option (an internal one) gets no route. scripts/generate-proto.sh runs this and checks that the
committed output is current.
"""

import argparse
import base64
import json
import pathlib
import re

from google.api import annotations_pb2, http_pb2
from google.protobuf import descriptor_pb2, descriptor_pool

VERBS = ("get", "put", "post", "delete", "patch")
# binario.auth.v1.AccessLevel's names -> Shared/Auth's AccessLevel cases.
SWIFT_LEVELS = {"PUBLIC": "public", "SIGNED_IN": "signedIn", "DRIVER": "driver", "ADMIN": "admin",
                "INSPECTOR": "inspector", "DEVICE": "device"}
FieldType = descriptor_pb2.FieldDescriptorProto
# How a path or query value (always text) becomes the field's JSON value.
KINDS = {
    FieldType.TYPE_BOOL: "bool",
    FieldType.TYPE_STRING: "string",
    FieldType.TYPE_BYTES: "string",
    FieldType.TYPE_ENUM: "string",
    FieldType.TYPE_INT64: "string", FieldType.TYPE_UINT64: "string", FieldType.TYPE_SINT64: "string",
    FieldType.TYPE_FIXED64: "string", FieldType.TYPE_SFIXED64: "string",
    FieldType.TYPE_INT32: "number", FieldType.TYPE_UINT32: "number", FieldType.TYPE_SINT32: "number",
    FieldType.TYPE_FIXED32: "number", FieldType.TYPE_SFIXED32: "number",
    FieldType.TYPE_DOUBLE: "number", FieldType.TYPE_FLOAT: "number",
}


def swift_type(full_name, files):
    """`.binario.identity.v1.RegisterRequest` -> `Binario_Identity_V1_RegisterRequest`."""
    name = full_name.lstrip(".")
    for proto in files:
        if proto.package and name.startswith(proto.package + "."):
            package = "_".join(
                "".join(part[:1].upper() + part[1:] for part in segment.split("_"))
                for segment in proto.package.split("."))
            return package + "_" + name[len(proto.package) + 1:]
    raise SystemExit(f"no file declares {full_name}")


def messages_by_name(files):
    found = {}

    def walk(prefix, message):
        name = f"{prefix}.{message.name}"
        found[name] = message
        for nested in message.nested_type:
            walk(name, nested)

    for proto in files:
        for message in proto.message_type:
            walk(f".{proto.package}", message)
    return found


# Well-known message types proto3's JSON writes as one string, settable from a query.
STRING_WELL_KNOWN_TYPES = {
    ".google.protobuf.Timestamp": "timestamp", ".google.protobuf.Duration": "duration", ".google.protobuf.FieldMask": "fieldmask",
}


def scalar_fields(message, messages, prefix="", depth=0):
    """(field path, JSON kind) of every singular scalar field, nested messages included (2 deep),
    and of every Timestamp and Duration, which proto3's JSON writes as a string (RFC 3339, "1.5s")."""
    for field in message.field:
        if field.label == FieldType.LABEL_REPEATED:
            continue
        path = prefix + field.name
        if field.type_name in STRING_WELL_KNOWN_TYPES:
            yield path, STRING_WELL_KNOWN_TYPES[field.type_name]
        elif field.type == FieldType.TYPE_MESSAGE:
            if depth < 2 and not field.type_name.startswith(".google.protobuf."):
                yield from scalar_fields(messages[field.type_name], messages, path + ".", depth + 1)
        else:
            yield path, KINDS[field.type]


def openapi_variable(variable):
    """A path variable's name in the OpenAPI document: a nested field's dots become underscores
    (`account.user_id` -> `account_user_id`), since common OpenAPI tools cannot template dotted
    names. The gateway matches the path by position, so the name is only documentation."""
    return variable.replace(".", "_")


def openapi_path(template):
    return re.sub(r"\{([^}]+)\}", lambda match: "{" + openapi_variable(match.group(1)) + "}", template)


def has_string_field(message, name):
    """Whether `message` has a singular string field called `name` (a stream's resume cursor)."""
    return any(field.name == name and field.type == field.TYPE_STRING and field.label != field.LABEL_REPEATED
               for field in message.field)


def comment(proto, path):
    for location in proto.source_code_info.location:
        if list(location.path) == path:
            return " ".join(line.strip() for line in location.leading_comments.strip().splitlines())
    return ""


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


SCALAR_SCHEMAS = {
    FieldType.TYPE_BOOL: {"type": "boolean"},
    FieldType.TYPE_STRING: {"type": "string"},
    FieldType.TYPE_BYTES: {"type": "string", "contentEncoding": "base64"},
    FieldType.TYPE_INT32: {"type": "integer", "format": "int32"},
    FieldType.TYPE_SINT32: {"type": "integer", "format": "int32"},
    FieldType.TYPE_SFIXED32: {"type": "integer", "format": "int32"},
    FieldType.TYPE_UINT32: {"type": "integer", "format": "int64", "minimum": 0, "maximum": 4294967295},
    FieldType.TYPE_FIXED32: {"type": "integer", "format": "int64", "minimum": 0, "maximum": 4294967295},
    FieldType.TYPE_INT64: {"type": "string", "format": "int64", "pattern": "^-?[0-9]+$"},
    FieldType.TYPE_SINT64: {"type": "string", "format": "int64", "pattern": "^-?[0-9]+$"},
    FieldType.TYPE_SFIXED64: {"type": "string", "format": "int64", "pattern": "^-?[0-9]+$"},
    FieldType.TYPE_UINT64: {"type": "string", "format": "uint64", "pattern": "^[0-9]+$"},
    FieldType.TYPE_FIXED64: {"type": "string", "format": "uint64", "pattern": "^[0-9]+$"},
    FieldType.TYPE_DOUBLE: {"type": "number", "format": "double"},
    FieldType.TYPE_FLOAT: {"type": "number", "format": "float"},
}
WELL_KNOWN = {
    ".google.protobuf.Timestamp": {"type": "string", "format": "date-time"},
    ".google.protobuf.Duration": {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?s$"},
    ".google.protobuf.Empty": {"type": "object", "additionalProperties": False},
    ".google.protobuf.FieldMask": {"type": "string", "description": "Field paths, comma-separated (proto3 JSON's FieldMask)"},
}
LOCALIZED_MESSAGE = {
    "type": "object",
    "description": "google.rpc.LocalizedMessage: the words in the language the request asked for "
                   "(Accept-Language; it or en, else en).",
    "required": ["locale", "message"],
    "properties": {"locale": {"type": "string", "examples": ["it-IT"]}, "message": {"type": "string"}},
}
ERROR_SCHEMA = {
    "type": "object",
    "description": "Why a call failed: the gRPC status code's name, a message for a person (English), the same in "
                   "the language asked for, and each bad field.",
    "required": ["code", "message"],
    "properties": {
        "code": {"type": "string", "enum": [
            "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
            "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
            "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"]},
        "message": {"type": "string"},
        "localizedMessage": LOCALIZED_MESSAGE,
        "fieldViolations": {"type": "array", "items": {
            "type": "object",
            "required": ["field", "description"],
            "properties": {"field": {"type": "string"}, "description": {"type": "string"}, "localizedMessage": LOCALIZED_MESSAGE},
        }},
        "requestId": {"type": "string"},
    },
}


def component_name(full_name):
    """`.binario.identity.v1.RegisterRequest` -> `binario.identity.v1.RegisterRequest`."""
    return full_name.lstrip(".")


def enums_by_name(files):
    found = {}

    def walk(prefix, message):
        for enum in message.enum_type:
            found[f"{prefix}.{message.name}.{enum.name}"] = enum
        for nested in message.nested_type:
            walk(f"{prefix}.{message.name}", nested)

    for proto in files:
        for enum in proto.enum_type:
            found[f".{proto.package}.{enum.name}"] = enum
        for message in proto.message_type:
            walk(f".{proto.package}", message)
    return found


class OpenAPIBuilder:
    def __init__(self, files):
        self.messages = messages_by_name(files)
        self.enums = enums_by_name(files)
        self.schemas = {"Error": ERROR_SCHEMA}

    def field_schema(self, field):
        if field.type == FieldType.TYPE_MESSAGE:
            entry = self.messages[field.type_name]
            if entry.options.map_entry:
                key, value = entry.field
                return {"type": "object", "additionalProperties": self.field_schema(value)}
            schema = self.reference(field.type_name)
        elif field.type == FieldType.TYPE_ENUM:
            enum = self.enums[field.type_name]
            schema = {"type": "string", "enum": [value.name for value in enum.value]}
        else:
            schema = dict(SCALAR_SCHEMAS[field.type])
        if field.label == FieldType.LABEL_REPEATED:
            return {"type": "array", "items": schema}
        return schema

    def reference(self, full_name):
        if full_name in WELL_KNOWN:
            return dict(WELL_KNOWN[full_name])
        name = component_name(full_name)
        if name not in self.schemas:
            self.schemas[name] = {}  # placeholder against cycles
            message = self.messages[full_name]
            properties = {field.json_name: self.field_schema(field) for field in message.field}
            schema = {"type": "object", "properties": properties, "additionalProperties": False}
            oneofs = [o.name for o in message.oneof_decl if not o.name.startswith("_")]
            if oneofs:
                schema["description"] = "At most one field of each of: " + ", ".join(oneofs) + "."
            self.schemas[name] = schema
        return {"$ref": f"#/components/schemas/{name}"}

    def operation(self, route, method_name, service_name):
        parameters = []
        variables = re.findall(r"\{([^}]+)\}", route["template"])
        for variable in variables:
            parameters.append({"name": openapi_variable(variable), "in": "path", "required": True,
                               "schema": kind_schema(route["fields"][variable])})
        if not route["body"]:
            for path, kind in sorted(route["fields"].items()):
                if path not in variables:
                    parameters.append({"name": path, "in": "query", "required": False, "schema": kind_schema(kind)})
        operation = {
            "operationId": f"{service_name}_{method_name}",
            "tags": [service_name],
            "summary": first_sentence(route["summary"]) or method_name,
            "description": route["summary"] or method_name,
            "security": security(route["access"]),
            "x-binario-access": route["access"],
            "responses": {
                "200": {"description": "OK", "content": (
                    # google.api.HttpBody: the answer's bytes as they are, in its content type.
                    {"*/*": {"schema": {"type": "string", "format": "binary"}}}
                    if route["response_type"] == ".google.api.HttpBody" else {
                        ("text/event-stream" if route["streaming"] else "application/json"): {
                            "schema": self.reference(route["response_type"])}})},
                **error_responses(route),
                "default": {"description": "The call failed.", "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
            },
        }
        if route["streaming"]:
            operation["description"] += (" Served as Server-Sent Events: one `message` event per message; a call that "
                                         "fails once open ends with one `error` event whose data is an Error.")
            operation["x-sse-events"] = {"message": self.reference(route["response_type"]),
                                         "error": {"$ref": "#/components/schemas/Error"}}
            if route["resumable"]:
                operation["description"] += (" Each event's id is the message's cursor; reconnect with Last-Event-ID "
                                             "to resume after it.")
        if parameters:
            operation["parameters"] = parameters
        if route["body"]:
            operation["requestBody"] = {"required": True, "content": {
                "application/json": {"schema": self.reference(route["request_type"])}}}
        return operation


def kind_schema(kind):
    return {"string": {"type": "string"}, "number": {"type": "number"}, "bool": {"type": "boolean"},
            "timestamp": {"type": "string", "format": "date-time"}, "duration": {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?s$"},
            "fieldmask": {"type": "string"}}[kind]


def swift_kind(kind):
    """The gateway's ParameterKind: a Timestamp or Duration goes into the JSON as a string."""
    return "string" if kind in ("timestamp", "duration", "fieldmask") else kind


def first_sentence(text):
    match = re.match(r"(.+?[.;:])(\s|$)", text)
    return (match.group(1) if match else text)[:120]


def write_descriptors(files, output, rules):
    lines = [
        "// Generated by scripts/generate-proto.sh (scripts/front-door/generate_routes.py) from proto/.",
        "// Do not edit.",
        "",
        "extension ProtoDescriptors {",
        "  /// Each proto file the front doors serve, with its imports, as a serialized",
        "  /// `google.protobuf.FileDescriptorProto` in base64, imports before the files that use them.",
        "  public static let generatedFiles: [(name: String, base64: String)] = [",
    ]
    # A file whose every service is internal (binario.events.v1) is not the gateway's to show,
    # unless a file it serves imports it.
    imported = {name for proto in files for name in proto.dependency}
    internal_only = {proto.name for proto in files if proto.service and proto.name not in imported and all(
        rules.get(f"/{proto.package}.{service.name}/{method.name}", ("",))[0] == "INTERNAL"
        for service in proto.service for method in service.method)}
    for proto in files:
        if proto.name in internal_only:
            continue
        stripped = descriptor_pb2.FileDescriptorProto()
        stripped.CopyFrom(proto)
        stripped.ClearField("source_code_info")
        encoded = base64.b64encode(stripped.SerializeToString(deterministic=True)).decode()
        lines.append(f"    ({swift_string(proto.name)}, {swift_string(encoded)}),")
    lines += ["  ]", "}", ""]
    with open(output, "w") as out:
        out.write("\n".join(lines))


ERROR_STATUSES = {
    "400": "INVALID_ARGUMENT (each field at fault in fieldViolations, by its JSON name) or FAILED_PRECONDITION",
    "401": "UNAUTHENTICATED: no token, or one that is malformed, expired or revoked",
    "403": "PERMISSION_DENIED: the caller's role or relation does not allow it",
    "404": "NOT_FOUND: nothing with that id (or nothing the caller may see)",
    "409": "ALREADY_EXISTS or ABORTED",
    "413": "the body is larger than the door takes",
    "429": "RESOURCE_EXHAUSTED: too many calls (Retry-After says when to try again) or too many attempts",
    "500": "INTERNAL or UNKNOWN",
    "503": "UNAVAILABLE: the service behind the route cannot be reached; try again",
    "504": "DEADLINE_EXCEEDED",
}


def error_responses(route):
    """The statuses an operation can fail with, from its access level, verb and shape: what the
    gateway itself refuses, and what every service answers for bad input, missing things and
    conflicts. Each body is an Error."""
    codes = ["400", "401", "429", "500", "503"]
    if route["access"] != "PUBLIC":
        codes.append("403")
    if "{" in route["template"] or route["verb"] != "get":
        codes.append("404")
    if route["verb"] in ("post", "put", "patch", "delete"):
        codes.append("409")
    if route["body"]:
        codes.append("413")
    if not route["streaming"]:
        codes.append("504")
    return {code: {"description": ERROR_STATUSES[code], "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}} for code in sorted(codes)}


def security(level):
    """An operation's OpenAPI security: a board's device token, or an account's bearer token,
    which a public method takes but does not need."""
    if level == "DEVICE":
        return [{"deviceToken": []}]
    return [{}, {"bearer": []}] if level == "PUBLIC" else [{"bearer": []}]


def access_rules(files):
    """rpc path -> (level, internal callers) of every method of every service that declares
    binario.auth.v1.access options, read with the extension access.proto (in the set) defines."""
    pool = descriptor_pool.Default()
    for proto in files:
        if proto.name == "binario/auth/v1/access.proto":
            pool.AddSerializedFile(proto.SerializeToString())
    access = pool.FindExtensionByName("binario.auth.v1.access")
    callers = pool.FindExtensionByName("binario.auth.v1.internal_callers")
    rules = {}
    for proto in files:
        for service in proto.service:
            for method in service.method:
                options = descriptor_pb2.MethodOptions.FromString(method.options.SerializeToString())
                level = access.enum_type.values_by_number[options.Extensions[access]].name
                path = f"/{proto.package}.{service.name}/{method.name}"
                if level == "ACCESS_LEVEL_UNSPECIFIED":
                    if proto.package.startswith("binario."):
                        raise SystemExit(f"{path} declares no (binario.auth.v1.access) option")
                    continue
                if (level == "INTERNAL") != bool(options.Extensions[callers]):
                    raise SystemExit(f"{path}: internal_callers go with INTERNAL, and INTERNAL needs them")
                rules[path] = (level, list(options.Extensions[callers]), proto, service, method)
    return rules


def camel(name):
    """`geo-offers` or `geo_offers` -> `geoOffers`."""
    words = re.split(r"[-_]", name)
    return words[0] + "".join(word[:1].upper() + word[1:] for word in words[1:])


def write_access_policy(rules, files, output):
    """Shared/Auth's MethodAccessPolicy per service (`identity`, `geoOffers`, `health`: the proto
    package's second part) and `all`, from the access options."""
    by_policy = {}
    for path, (level, callers, proto, service, method) in sorted(rules.items()):
        by_policy.setdefault(camel(proto.package.split(".")[1]), []).append((level, callers, proto, service, method))
    lines = [
        "// Generated by scripts/generate-proto.sh (scripts/front-door/generate_routes.py) from the",
        "// (binario.auth.v1.access) options in proto/. Do not edit.",
        "",
        "import BinarioProto",
        "import GRPCCore",
        "",
        "extension MethodAccessPolicy {",
    ]
    for name, methods in sorted(by_policy.items()):
        services = sorted({f"{proto.package}.{service.name}" for _, _, proto, service, _ in methods})
        lines += [f"  /// Who may call each method of {', '.join(f'`{s}`' for s in services)}.",
                  f"  public static let {name} = MethodAccessPolicy(["]
        for level, callers, proto, service, method in methods:
            descriptor = f"{swift_type('.' + proto.package + '.' + service.name, files)}.Method.{method.name}.descriptor"
            if level == "INTERNAL":
                peers = ", ".join(f"WorkloadIdentity.{camel(caller)}" for caller in callers)
                lines.append(f"    {descriptor}: .internal(allowedPeers: [{peers}]),")
            else:
                lines.append(f"    {descriptor}: .level(.{SWIFT_LEVELS[level]}),")
        lines.append("  ])")
        lines.append("")
    lines += ["  /// The whole suite's table: every service's methods.",
              "  public static let all = MethodAccessPolicy.identity"]
    lines += [f"    .merging(.{name})" for name in sorted(by_policy) if name != "identity"]
    lines += ["}", ""]
    with open(output, "w") as out:
        out.write("\n".join(lines))


INDEX_BEGIN = "<!-- BEGIN feature index: generated by scripts/generate-proto.sh; edit proto/ or the file names, not this table -->"
INDEX_END = "<!-- END feature index -->"


def lower_camel(name):
    return name[:1].lower() + name[1:]


# Creating writes (Create*, Add*, Register*) that take no idempotency_key, and why a retry of
# one never makes a second thing: every other creating write must take a key.
NATURALLY_ONCE = {
    "Register": "the email is the account's key: a second registration with it is refused",
    "CreateDriver": "the email is the account's key",
    "CreateTaxi": "its code and its plate are unique",
    "CreateRun": "with a trip_id, the trip's key (a second one is refused); without, a new trip each time",
    "RegisterPushDevice": "the push token is the device's key: the same token again updates it",
    "AddCampaignMember": "a member is added once (the same account again changes nothing)",
}


def write_retry_safety(rules, files, messages, output):
    """The gateway's RetrySafety table: which forwarded methods it may send again after their
    upstream ended them UNAVAILABLE part way (the call may have run). A method marked
    `idempotency_level = NO_SIDE_EFFECTS` always; one whose request has an `idempotency_key`
    when the request carries one. A GET route must be NO_SIDE_EFFECTS, and only a GET route
    may be (an HTTP client retries a GET on its own)."""
    lines = [
        "// Generated by scripts/generate-proto.sh (scripts/front-door/generate_routes.py) from the",
        "// idempotency_level options and idempotency_key fields in proto/. Do not edit.",
        "",
        "import BinarioProto",
        "",
        "extension RetrySafety {",
        "  /// Every forwarded method the gateway may send again, by RPC path.",
        "  static let generated: [String: RetrySafety] = [",
    ]
    keyed = []
    resumable = []
    for path, (level, _, proto, service, method) in sorted(rules.items()):
        if level == "INTERNAL" or not proto.package.startswith("binario."):
            continue
        reads = method.options.idempotency_level == descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS
        verb = None
        if method.options.HasExtension(annotations_pb2.http):
            verb = method.options.Extensions[annotations_pb2.http].WhichOneof("pattern")
        if (verb == "get") != reads and verb is not None:
            raise SystemExit(f"{path}: a GET route and `option idempotency_level = NO_SIDE_EFFECTS` go together")
        creating = re.match(r"(Create|Add|Register)[A-Z]", method.name) is not None
        keyed_request = has_string_field(messages[method.input_type], "idempotency_key")
        if creating and not keyed_request and method.name not in NATURALLY_ONCE:
            raise SystemExit(f"{path}: a creating write takes an idempotency_key (or says in NATURALLY_ONCE why it is done once)")
        if method.client_streaming:
            continue  # the gateway keeps only a call's first message: it cannot send a stream again
        if reads and method.server_streaming and has_string_field(messages[method.input_type], "cursor") \
                and has_string_field(messages[method.output_type], "cursor"):
            request, response = swift_type(method.input_type, files), swift_type(method.output_type, files)
            resumable.append((request, response))
            lines.append(f"    {swift_string(path)}: .resumable({request}.self, {response}.self),")
        elif reads:
            lines.append(f"    {swift_string(path)}: .noSideEffects,")
        elif has_string_field(messages[method.input_type], "idempotency_key"):
            request = swift_type(method.input_type, files)
            keyed.append(request)
            lines.append(f"    {swift_string(path)}: .keyed({request}.self),")
    lines += ["  ]", "}", ""]
    lines += [f"extension {request}: KeyedRequest {{}}" for request in sorted(set(keyed))]
    lines += [f"extension {request}: ResumableRequest {{}}" for request, _ in sorted(set(resumable))]
    lines += [f"extension {response}: CursorResponse {{}}" for _, response in sorted(set(resumable))]
    lines.append("")
    with open(output, "w") as out:
        out.write("\n".join(lines))


def feature_files(folder, feature):
    """The domain and store files of `feature` in a service folder (`Domain/<Feature>/`, or
    `*Domain+<Feature>.swift` anywhere under Domain/; `Store/*Store+<Feature>.swift`)."""
    domain = sorted(str(path.relative_to(folder)) for path in (folder / "Service/Domain").rglob(f"*+{feature}.swift"))
    if (folder / "Service/Domain" / feature).is_dir():
        domain = [f"Service/Domain/{feature}/"]
    store = sorted(str(path.relative_to(folder)) for path in (folder / "Service/Store").glob(f"*+{feature}.swift"))
    return domain, store


def write_feature_indexes(rules, routes, source_root, out_root):
    """Each service's README (Services/<Name>/README.md) with its feature index between the
    markers: every method in proto order with its access level and HTTP route (from proto/), and
    the handler, domain and store files of its feature (from the file names: the handler file
    that implements it is `<Name>Handler+<Feature>.swift`, or `<Feature>Handler.swift` for a
    service's second proto service)."""
    route_of = {route["rpc"]: f"`{route['verb'].upper()} {route['template']}`" for route in routes}
    by_folder = {}
    for path, (level, callers, proto, service, method) in rules.items():
        if not proto.package.startswith("binario."):
            continue
        name = camel(proto.package.split(".")[1])
        by_folder.setdefault(name[:1].upper() + name[1:], []).append((path, level, callers, service, method))
    for folder_name, methods in sorted(by_folder.items()):
        folder = pathlib.Path(source_root) / "Services" / folder_name
        if not folder.is_dir():
            continue  # a package served by several services (binario.events.v1): Shared/'s
        handlers = {path: path.read_text() for path in sorted((folder / "Service/Handlers").glob("*.swift"))}
        rows = []
        for path, level, callers, service, method in methods:
            implemented = [file for file, text in handlers.items()
                           if re.search(rf"func {lower_camel(method.name)}\(\s*request:", text)]
            handler = implemented[0] if implemented else None
            feature = None
            if handler and "+" in handler.stem:
                feature = handler.stem.split("+", 1)[1]
            elif handler and handler.stem.endswith("Handler") and handler.stem != f"{folder_name}Handler":
                # A service's second proto service has a handler of its own, named for its feature
                # (scheduling's ItinerariesHandler, ticketing's SubscriptionsHandler).
                feature = handler.stem.removesuffix("Handler")
            domain, store = feature_files(folder, feature) if feature else ([], [])
            access = level.lower().replace("_", "-") + (f" ({', '.join(callers)})" if callers else "")
            rows.append((feature or "—", method.name, access, route_of.get(path, "—"),
                         f"`{handler.relative_to(folder)}`" if handler else "—",
                         ", ".join(f"`{file}`" for file in domain) or "—",
                         ", ".join(f"`{file}`" for file in store) or "—"))
        table = [INDEX_BEGIN, "", "| feature | RPC | access | HTTP route | handler | domain | store |",
                 "|---|---|---|---|---|---|---|"]
        table += ["| " + " | ".join(row) + " |" for row in rows]
        table += ["", INDEX_END]
        readme = folder / "README.md"
        text = readme.read_text()
        if INDEX_BEGIN in text:
            before, rest = text.split(INDEX_BEGIN, 1)
            after = rest.split(INDEX_END, 1)[1]
            text = before + "\n".join(table) + after
        else:
            # First time: after the README's opening paragraph, under a heading of its own.
            head, _, body = text.partition("\n\n")
            intro, _, rest = body.partition("\n\n")
            text = head + "\n\n" + intro + "\n\n## Feature index\n\n" + "\n".join(table) + "\n\n" + rest
        settings, jobs = generated_sections(folder)
        text = replace_section(text, SETTINGS_BEGIN, SETTINGS_END, settings, "Settings")
        text = replace_section(text, JOBS_BEGIN, JOBS_END, jobs, "Background jobs")
        target = pathlib.Path(out_root) / "Services" / folder_name / "README.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


SETTINGS_BEGIN = "<!-- BEGIN settings: generated by scripts/generate-proto.sh from Process/; edit the Setting declarations, not this table -->"
SETTINGS_END = "<!-- END settings -->"
JOBS_BEGIN = "<!-- BEGIN background jobs: generated by scripts/generate-proto.sh from Process/ -->"
JOBS_END = "<!-- END background jobs -->"
SETTING_DECLARATION = re.compile(
    r'static let (\w+) = Setting\(\s*(?:"(\w+)"|GatewaySettings\.Key\.(\w+)),\s*help:\s*"((?:[^"\\]|\\.)*)",\s*valueName:\s*"([^"]+)"')
PEER_OPTION = re.compile(r"@OptionGroup var \w+: (\w+)AddressOption")
JOB = re.compile(r"((?:^[ \t]*//.*\n)*)^[ \t]*context\.addJob\(\s*PeriodicJob\(\s*\"([\w-]+)\",\s*every:\s*\.(\w+)\((\d[\d_ *]*)\)", re.M)


def words(key):
    """camelCase split as Setting.words does: a run of capitals stays together."""
    result, current, previous_lower = [], "", False
    for character in key:
        if character.isupper() and previous_lower:
            result.append(current)
            current = ""
        current += character
        previous_lower = character.islower() or character.isdigit()
    return result + [current]


def settings_rows(process_folder):
    """The settings a service's Process/ declares: its peers' addresses, then its own."""
    rows = []
    sources = "".join(path.read_text() for path in sorted(process_folder.glob("*.swift")))
    for peer in PEER_OPTION.findall(sources):
        name = "-".join(word.lower() for word in words(peer))
        key = peer[:1].lower() + peer[1:] + "Address"
        rows.append((key, f"Where {name} listens (host:port).", "host:port"))
    for _, key, gateway_key, help_text, value_name in SETTING_DECLARATION.findall(sources):
        rows.append((key or gateway_key, help_text.replace('\\"', '"'), value_name))
    return rows


def generated_sections(folder):
    """The README's settings table and background jobs list, from the service's Process/."""
    table = [SETTINGS_BEGIN, "", "Beside the common settings of every service (`docs/development.md`), each a flag, a",
             "`BINARIO_*` variable or a key of the config file (flags win, then variables, then the file):", "",
             "| flag | variable | config key | what it sets |", "|---|---|---|---|"]
    for key, help_text, value_name in settings_rows(folder / "Process"):
        flag = "--" + "-".join(word.lower() for word in words(key))
        variable = "BINARIO_" + "_".join(word.upper() for word in words(key))
        escaped = help_text.replace("|", "\\|")
        table.append(f"| `{flag} <{value_name}>` | `{variable}` | `{key}` | {escaped} |")
    table += ["", SETTINGS_END]
    jobs = [JOBS_BEGIN, ""]
    sources = "".join(path.read_text() for path in sorted((folder / "Process").glob("*.swift")))
    found = JOB.findall(sources)
    for comment, name, unit, amount in found:
        said = " ".join(line.strip().lstrip("/").strip() for line in comment.strip().splitlines())
        seconds = eval(amount.replace("_", ""))  # a literal such as 15 * 60
        every = {"seconds": f"{seconds} s", "milliseconds": f"{seconds} ms"}.get(unit, f"{amount} {unit}")
        jobs.append(f"- `{name}` (`PeriodicJob`, at most every {every}): {said or 'see Process/.'}")
    if not found:
        jobs.append("No periodic jobs.")
    jobs += ["", JOBS_END]
    return "\n".join(table), "\n".join(jobs)


def replace_section(text, begin, end, section, heading):
    """`section` between its markers, or, the first time, at the end under `heading`."""
    if begin in text:
        before, rest = text.split(begin, 1)
        return before + section + rest.split(end, 1)[1]
    return text.rstrip("\n") + f"\n\n## {heading}\n\n" + section + "\n"


COMMON_BEGIN = "<!-- BEGIN common settings: generated by scripts/generate-proto.sh from ConfigurationSetting -->"
COMMON_END = "<!-- END common settings -->"
COMMON_DECLARATION = re.compile(r'case \.(\w+):\s*Setting\(self\.rawValue, help: "((?:[^"\\]|\\.)*)", valueName: "([^"]+)"\)')


def write_service_documents(source_root, out_root, folders):
    """The settings and background jobs of services without a feature index (the gateway), and
    the common settings every service reads, in docs/development.md."""
    for folder_name in folders:
        folder = pathlib.Path(source_root) / "Services" / folder_name
        text = (folder / "README.md").read_text()
        settings, jobs = generated_sections(folder)
        text = replace_section(text, SETTINGS_BEGIN, SETTINGS_END, settings, "Settings")
        text = replace_section(text, JOBS_BEGIN, JOBS_END, jobs, "Background jobs")
        target = pathlib.Path(out_root) / "Services" / folder_name / "README.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    declarations = (pathlib.Path(source_root) / "Shared/ServiceKit/Configuration/ConfigurationSetting.swift").read_text()
    table = [COMMON_BEGIN, "", "| flag | variable | config key | what it sets |", "|---|---|---|---|"]
    for key, help_text, value_name in COMMON_DECLARATION.findall(declarations):
        flag = "--" + "-".join(word.lower() for word in words(key))
        variable = "BINARIO_" + "_".join(word.upper() for word in words(key))
        escaped = help_text.replace("|", "\\|")
        table.append(f"| `{flag} <{value_name}>` | `{variable}` | `{key}` | {escaped} |")
    table += ["", "`--config <file>` (`BINARIO_CONFIG`) names the JSON config file.", "", COMMON_END]
    development = pathlib.Path(source_root) / "docs/development.md"
    text = replace_section(development.read_text(), COMMON_BEGIN, COMMON_END, "\n".join(table), "The settings every service reads")
    target = pathlib.Path(out_root) / "docs/development.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)


def main(descriptor_set, output, openapi_output, openapi_json=None, descriptors_output=None, policy_output=None,
         index_root=None, retry_output=None):
    files = descriptor_pb2.FileDescriptorSet.FromString(open(descriptor_set, "rb").read()).file
    rules = access_rules(files)
    if policy_output:
        write_access_policy(rules, files, policy_output)
    if descriptors_output:
        write_descriptors(files, descriptors_output, rules)
    messages = messages_by_name(files)
    if retry_output:
        write_retry_safety(rules, files, messages, retry_output)
    routes = []
    for proto in files:
        for service_index, service in enumerate(proto.service):
            for method_index, method in enumerate(service.method):
                if not method.options.HasExtension(annotations_pb2.http):
                    continue
                rule = method.options.Extensions[annotations_pb2.http]
                verb = rule.WhichOneof("pattern")
                if verb not in VERBS:
                    raise SystemExit(f"{service.name}.{method.name}: only {', '.join(VERBS)} routes are supported")
                if method.client_streaming:
                    raise SystemExit(f"{service.name}.{method.name}: a client-streaming method has no HTTP/JSON route")
                if rule.additional_bindings:
                    raise SystemExit(f"{service.name}.{method.name}: additional_bindings are not supported")
                template = getattr(rule, verb)
                request = messages[method.input_type]
                fields = dict(scalar_fields(request, messages))
                for variable in re.findall(r"\{([^}=]+)", template):
                    if variable not in fields:
                        raise SystemExit(f"{service.name}.{method.name}: {template} names {variable}, not a scalar field of {request.name}")
                if verb == "get" and rule.body:
                    raise SystemExit(f"{service.name}.{method.name}: a GET route takes no body")
                routes.append({
                    "service": service.name,
                    "method": method.name,
                    "request_type": method.input_type,
                    "response_type": method.output_type,
                    "verb": verb,
                    "template": template,
                    "body": rule.body,
                    "rpc": f"/{proto.package}.{service.name}/{method.name}",
                    "request": swift_type(method.input_type, files),
                    "response": swift_type(method.output_type, files),
                    "streaming": method.server_streaming,
                    "resumable": method.server_streaming and has_string_field(request, "cursor")
                    and has_string_field(messages[method.output_type], "cursor"),
                    "fields": fields,
                    "summary": comment(proto, [6, service_index, 2, method_index]),
                    "access": rules[f"/{proto.package}.{service.name}/{method.name}"][0],
                })
    routes.sort(key=lambda r: r["rpc"])

    lines = [
        "// Generated by scripts/generate-proto.sh (scripts/front-door/generate_routes.py) from the",
        "// google.api.http annotations in proto/. Do not edit.",
        "",
        "import BinarioProto",
        "",
        "extension HTTPRouteTable {",
        "  /// Every public method's HTTP/JSON route, in RPC path order.",
        "  public static let generated: [HTTPRoute] = [",
    ]
    for route in routes:
        fields = ", ".join(f"{swift_string(path)}: .{swift_kind(kind)}" for path, kind in sorted(route["fields"].items()))
        lines += [
            "    HTTPRoute(",
            f"      verb: .{route['verb']},",
            f"      template: {swift_string(route['template'])},",
            f"      body: {swift_string(route['body'])},",
            f"      rpc: {swift_string(route['rpc'])},",
            f"      serverStreaming: {'true' if route['streaming'] else 'false'},",
            f"      resumesAtCursor: {'true' if route['resumable'] else 'false'},",
            f"      parameterKinds: [{fields or ':'}],",
            f"      transcoder: MessageTranscoder<{route['request']}, {route['response']}>(),",
            f"      summary: {swift_string(route['summary'])}",
            "    ),",
        ]
    lines += ["  ]", "}", ""]
    with open(output, "w") as out:
        out.write("\n".join(lines))

    if index_root:
        write_feature_indexes(rules, routes, ".", index_root)
        write_service_documents(".", index_root, ["Gateway"])

    builder = OpenAPIBuilder(files)
    paths = {}
    for route in sorted(routes, key=lambda r: (r["template"], r["verb"])):
        paths.setdefault(openapi_path(route["template"]), {})[route["verb"]] = builder.operation(route, route["method"], route["service"])
    document = {
        "openapi": "3.1.0",
        "info": {
            "title": "Binario",
            "version": "v1",
            "description": "The HTTP/JSON front door of Binario's gateway, generated from the services' protos "
                           "(google.api.http). Bodies and answers use proto3's canonical JSON mapping. Sign in with "
                           "POST /v1/sessions and send the access token as Authorization: Bearer; a sensor board "
                           "uploads with its device token as Authorization: Device.",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": dict(sorted(builder.schemas.items())),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
                "deviceToken": {"type": "apiKey", "in": "header", "name": "Authorization",
                                "description": "A sensor board's device token: Authorization: Device bdt_… "
                                               "(RegisterDevice shows it once). It opens the upload methods only."},
            },
        },
    }
    text = json.dumps(document, indent=2, sort_keys=False, ensure_ascii=False)
    if openapi_json:
        with open(openapi_json, "w") as out:
            out.write(text + "\n")
    with open(openapi_output, "w") as out:
        out.write("\n".join([
            "// Generated by scripts/generate-proto.sh (scripts/front-door/generate_routes.py) from the",
            "// google.api.http annotations in proto/. Do not edit.",
            "",
            "extension OpenAPIDocument {",
            "  /// The OpenAPI 3.1 document of every HTTP/JSON route, as JSON.",
            "  public static let generatedJSON = #\"\"\"",
            text,
            "\"\"\"#",
            "}",
            "",
        ]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("descriptor_set")
    parser.add_argument("--routes", required=True)
    parser.add_argument("--openapi", required=True)
    parser.add_argument("--openapi-json")
    parser.add_argument("--descriptors")
    parser.add_argument("--access-policy")
    parser.add_argument("--feature-indexes", metavar="ROOT")
    parser.add_argument("--retry-safety")
    arguments = parser.parse_args()
    main(arguments.descriptor_set, arguments.routes, arguments.openapi, arguments.openapi_json, arguments.descriptors,
         arguments.access_policy, arguments.feature_indexes, arguments.retry_safety)
