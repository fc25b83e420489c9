#!/usr/bin/env bash
# The test command: installs missing system packages, checks that the committed generated
# Swift matches proto/, builds, then runs every unit and end-to-end test, one test target at
# a time (see "Known issues" in the README for why not all at once).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-system-packages.sh
scripts/generate-proto.sh --check
swift build --build-tests
for target in BinarioDevCertificatesTests BinarioStorageTests BinarioServiceKitTests BinarioTransportTests; do
  echo "== $target"
  timeout 600 swift test --skip-build --filter "$target"
done
