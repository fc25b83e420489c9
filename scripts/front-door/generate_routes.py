#!/usr/bin/env python3
"""Generates the gateway's HTTP/JSON route table from the protos' google.api.http annotations.

    generate_routes.py DESCRIPTOR_SET OUT.swift

DESCRIPTOR_SET is `protoc --include_imports --include_source_info --descriptor_set_out` of the
service protos. Every method with a `google.api.http` option becomes one route: its verb and path
template, which part of the request the body fills, the request and response Swift types, and
the JSON kind of each request field a path or query parameter may set. A method without the
option (an internal one) gets no route. scripts/generate-proto.sh runs this and checks that the
committed output is current.
"""

import re
import sys

from google.api import annotations_pb2, http_pb2
from google.protobuf import descriptor_pb2

VERBS = ("get", "put", "post", "delete", "patch")
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


def scalar_fields(message, messages, prefix="", depth=0):
    """(field path, JSON kind) of every singular scalar field, nested messages included (2 deep)."""
    for field in message.field:
        if field.label == FieldType.LABEL_REPEATED:
            continue
        path = prefix + field.name
        if field.type == FieldType.TYPE_MESSAGE:
            if depth < 2 and not field.type_name.startswith(".google.protobuf."):
                yield from scalar_fields(messages[field.type_name], messages, path + ".", depth + 1)
        else:
            yield path, KINDS[field.type]


def comment(proto, path):
    for location in proto.source_code_info.location:
        if list(location.path) == path:
            return " ".join(line.strip() for line in location.leading_comments.strip().splitlines())
    return ""


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(descriptor_set, output):
    files = descriptor_pb2.FileDescriptorSet.FromString(open(descriptor_set, "rb").read()).file
    messages = messages_by_name(files)
    routes = []
    for proto in files:
        if not proto.package.startswith("binario."):
            continue
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
                    "verb": verb,
                    "template": template,
                    "body": rule.body,
                    "rpc": f"/{proto.package}.{service.name}/{method.name}",
                    "request": swift_type(method.input_type, files),
                    "response": swift_type(method.output_type, files),
                    "streaming": method.server_streaming,
                    "fields": fields,
                    "summary": comment(proto, [6, service_index, 2, method_index]),
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
        fields = ", ".join(f"{swift_string(path)}: .{kind}" for path, kind in sorted(route["fields"].items()))
        lines += [
            "    HTTPRoute(",
            f"      verb: .{route['verb']},",
            f"      template: {swift_string(route['template'])},",
            f"      body: {swift_string(route['body'])},",
            f"      rpc: {swift_string(route['rpc'])},",
            f"      serverStreaming: {'true' if route['streaming'] else 'false'},",
            f"      parameterKinds: [{fields or ':'}],",
            f"      transcoder: MessageTranscoder<{route['request']}, {route['response']}>(),",
            f"      summary: {swift_string(route['summary'])}",
            "    ),",
        ]
    lines += ["  ]", "}", ""]
    with open(output, "w") as out:
        out.write("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
