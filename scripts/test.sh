#!/usr/bin/env bash
# The test command: installs missing system packages, checks that the committed generated
# Swift matches proto/, builds everything (services, tools, tests), then runs every unit and
# end-to-end test in one `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-system-packages.sh
scripts/generate-proto.sh --check
swift build --build-tests
# A hung test must fail the run rather than eat CI's time.
# Serially: the end-to-end tests start real processes, and timing-sensitive tests (deadlines,
# "unavailable within a second") should not compete with each other for two cores.
timeout 1200 swift test --skip-build --no-parallel
