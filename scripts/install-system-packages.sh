#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, if they are missing:
#   libsqlite3-dev     GRDB links SQLite
#   protobuf-compiler  protoc, to regenerate (and check) the Swift generated from proto/
#   zlib1g-dev         ZIPFoundation (GTFS feeds in zip archives) links zlib
#   openssl            inspecting certificates by hand
#   cmake, pkg-config, libprotobuf-c-dev, protobuf-c-compiler, libcmocka-dev, libssl-dev
#                      the C device client (clients/c): its build, protobuf-c, its tests, TLS
#   libjs-leaflet, libjs-chart.js, node-qrcode-generator
#                      the web app's map, charts and QR codes (clients/web), served by the gateway
# and any further packages named as arguments (deploy/container-test.sh: podman runc).
set -euo pipefail

needed=(libsqlite3-dev protobuf-compiler zlib1g-dev openssl cmake pkg-config libprotobuf-c-dev protobuf-c-compiler libcmocka-dev
  libssl-dev libjs-leaflet libjs-chart.js node-qrcode-generator "$@")
missing=()
for package in "${needed[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
