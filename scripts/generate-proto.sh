#!/usr/bin/env bash
# Regenerates every committed file generated from proto/: the Swift messages and stubs, the gateway's
# route table and OpenAPI document, and the C device client's messages.
#
#   scripts/generate-proto.sh           write the generated files in place
#   scripts/generate-proto.sh --check   regenerate into a temporary folder and fail if the
#                                       committed files differ (run by .ci/run)
#
# Needs protoc (Debian's protobuf-compiler). The two protoc plugins are built from the
# swift-protobuf and grpc-swift-protobuf this package resolves, so generated code always
# matches the runtime it is compiled against. The gateway's HTTP/JSON route table comes from the
# protos' google.api.http annotations, through a Python generator in the project's pinned venv.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=write
[ "${1:-}" = "--check" ] && mode=check

if ! command -v protoc >/dev/null || ! command -v protoc-c >/dev/null; then
  echo "protoc or protoc-c not found: scripts/install-system-packages.sh installs them" >&2
  exit 1
fi

# BINARIO_SWIFT_BUILD_FLAGS: the test command's build flags on CI, so the build is reused.
read -r -a build_flags <<<"${BINARIO_SWIFT_BUILD_FLAGS:-}"
swift build ${build_flags[@]+"${build_flags[@]}"} --product protoc-gen-swift >/dev/null
swift build ${build_flags[@]+"${build_flags[@]}"} --product protoc-gen-grpc-swift-2 >/dev/null
bin=$(swift build ${build_flags[@]+"${build_flags[@]}"} --show-bin-path)

# Which protos go where, with which visibility. Paths are relative to proto/.
# output folder | visibility | protos
targets=(
  "Shared/Proto|Public|google/api/httpbody.proto binario/wire/v1/frame.proto grpc/health/v1/health.proto grpc/reflection/v1/reflection.proto binario/identity/v1/identity.proto binario/scheduling/v1/scheduling.proto binario/scheduling/v1/notifications.proto binario/scheduling/v1/itineraries.proto binario/type/v1/money.proto binario/ticketing/v1/tickets.proto binario/ticketing/v1/subscriptions.proto binario/geo_offers/v1/geo_offers.proto binario/dispatch/v1/dispatch.proto binario/telemetry/v1/telemetry.proto binario/events/v1/events.proto binario/identity/v1/identity_events.proto binario/scheduling/v1/scheduling_events.proto"
  "Shared/Echo/Generated|Public|binario/echo/v1/echo.proto"
  "Services/Scheduling/Service/Generated|Internal|transit_realtime/gtfs-realtime.proto"
  "Shared/ServiceKit/Tracing/Export/Generated|Internal|opentelemetry/proto/common/v1/common.proto opentelemetry/proto/resource/v1/resource.proto opentelemetry/proto/trace/v1/trace.proto opentelemetry/proto/collector/trace/v1/trace_service.proto"
  "Tests/BinarioTransportTests/Interop/Generated|Internal|grpc/testing/empty.proto grpc/testing/messages.proto grpc/testing/test.proto"
)

out_root=.
if [ "$mode" = check ]; then
  out_root=$(mktemp -d)
  trap 'rm -rf "$out_root"' EXIT
fi

for entry in "${targets[@]}"; do
  IFS='|' read -r folder visibility protos <<<"$entry"
  out="$out_root/$folder"
  if [ "$mode" = write ]; then
    # Remove stale generated files (a proto renamed or deleted) before writing anew.
    find "$out" \( -name '*.pb.swift' -o -name '*.grpc.swift' \) -delete 2>/dev/null || true
  fi
  mkdir -p "$out"
  # shellcheck disable=SC2086
  protoc --proto_path=proto \
    --plugin=protoc-gen-swift="$bin/protoc-gen-swift" \
    --plugin=protoc-gen-grpc-swift-2="$bin/protoc-gen-grpc-swift-2" \
    --swift_out="$out" --swift_opt=Visibility="$visibility" \
    --grpc-swift-2_out="$out" --grpc-swift-2_opt=Visibility="$visibility" \
    $protos
done

# The gateway's HTTP/JSON route table and OpenAPI document, from the google.api.http annotations
# of the services' protos, and the suite's access policy from their binario.auth.v1.access
# options (scripts/front-door/generate_routes.py, in the project's pinned Python venv).
scripts/install-python-tools.sh
# A service's protos join service_protos once the service serves them behind the gateway (until
# then their routes would lead nowhere).
service_protos=(
  binario/identity/v1/identity.proto
  binario/scheduling/v1/scheduling.proto binario/scheduling/v1/notifications.proto binario/scheduling/v1/itineraries.proto
  binario/ticketing/v1/tickets.proto binario/ticketing/v1/subscriptions.proto
  binario/geo_offers/v1/geo_offers.proto binario/dispatch/v1/dispatch.proto binario/telemetry/v1/telemetry.proto
  grpc/health/v1/health.proto grpc/reflection/v1/reflection.proto
  # Internal only (the gateway neither routes nor reflects it): here for its access policy.
  binario/events/v1/events.proto
)
routes=Services/Gateway/Service/FrontDoor/Generated/HTTPRouteTable+Generated.swift
openapi=Services/Gateway/Service/FrontDoor/Generated/OpenAPIDocument+Generated.swift
reflection=Services/Gateway/Service/FrontDoor/Generated/ProtoDescriptors+Generated.swift
access_policy=Shared/Auth/Generated/MethodAccessPolicy+Generated.swift
retry_safety=Services/Gateway/Service/Forwarding/Generated/RetrySafety+Generated.swift
descriptors=$(mktemp)
openapi_json=$(mktemp --suffix=.json)
trap 'rm -f "$descriptors" "$openapi_json"; if [ "$mode" = check ]; then rm -rf "$out_root"; fi' EXIT
protoc --proto_path=proto --include_imports --include_source_info --descriptor_set_out="$descriptors" "${service_protos[@]}"
mkdir -p "$(dirname "$out_root/$routes")" "$(dirname "$out_root/$access_policy")" "$(dirname "$out_root/$retry_safety")"
.tools/venv/bin/python scripts/front-door/generate_routes.py "$descriptors" \
  --routes "$out_root/$routes" --openapi "$out_root/$openapi" --openapi-json "$openapi_json" \
  --descriptors "$out_root/$reflection" --access-policy "$out_root/$access_policy" --feature-indexes "$out_root" \
  --retry-safety "$out_root/$retry_safety"
if ! .tools/venv/bin/openapi-spec-validator "$openapi_json" >/dev/null; then
  .tools/venv/bin/openapi-spec-validator "$openapi_json" >&2 || true
  echo "the generated OpenAPI document is not valid OpenAPI 3.1" >&2
  exit 1
fi

# The C device client's message code (clients/c), by Debian's protoc-c from proto2 renderings of
# the protos it speaks (the same bytes on the wire; protoc-c 1.4 takes no proto3 `optional`), with
# the well-known types they import from Debian's libprotobuf-dev.
c_generated=clients/c/generated
c_protos=(binario/wire/v1/frame.proto binario/type/v1/money.proto binario/identity/v1/identity.proto
  binario/dispatch/v1/dispatch.proto binario/telemetry/v1/telemetry.proto google/rpc/status.proto google/rpc/error_details.proto)
c_proto=$(mktemp -d)
for proto in "${c_protos[@]}"; do
  mkdir -p "$c_proto/$(dirname "$proto")"
  python3 scripts/c-client/proto2_for_protoc_c.py "proto/$proto" "$c_proto/$proto"
done
mkdir -p "$c_proto/google/protobuf"
cp /usr/include/google/protobuf/timestamp.proto /usr/include/google/protobuf/any.proto "$c_proto/google/protobuf/"
if [ "$mode" = write ]; then rm -rf "$c_generated"; fi
mkdir -p "$out_root/$c_generated"
protoc-c --c_out="$out_root/$c_generated" -I"$c_proto" "${c_protos[@]}" google/protobuf/timestamp.proto google/protobuf/any.proto
rm -rf "$c_proto"

if [ "$mode" = check ]; then
  stale=0
  if ! diff -r "$out_root/$c_generated" "$c_generated" >/dev/null; then echo "stale: $c_generated" >&2; stale=1; fi
  for file in "$routes" "$openapi" "$reflection" "$access_policy" "$retry_safety" Services/*/README.md docs/development.md; do
    if ! cmp -s "$out_root/$file" "$file"; then echo "stale: $file" >&2; stale=1; fi
  done
  for entry in "${targets[@]}"; do
    IFS='|' read -r folder _ _ <<<"$entry"
    while IFS= read -r file; do
      rel=${file#"$out_root/"}
      if ! cmp -s "$file" "$rel"; then echo "stale: $rel" >&2; stale=1; fi
    done < <(find "$out_root/$folder" -name '*.swift')
    while IFS= read -r file; do
      [ -f "$out_root/$file" ] || { echo "no longer generated: $file" >&2; stale=1; }
    done < <(find "$folder" \( -name '*.pb.swift' -o -name '*.grpc.swift' \))
  done
  if [ $stale -ne 0 ]; then
    echo "Generated Swift is out of date with proto/: run scripts/generate-proto.sh and commit." >&2
    exit 1
  fi
  echo "generated code is up to date"
fi
