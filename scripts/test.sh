#!/usr/bin/env bash
# The test command: installs missing system packages, the pinned Python tools and Swagger UI,
# checks that the committed generated code matches proto/, builds and tests the C device client
# (and fuzzes its frame decoder for a minute), fuzzes the Swift parsers (30 s each),
# builds everything Swift (services, tools, tests), runs every unit and end-to-end test in one
# `swift test` (among them the chaos run's 40-second form, ChaosTests), checks deploy/ offline
# (scripts/check-deploy.sh), then runs the suite in containers under podman from a release
# build (deploy/container-test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

# chromium and chromium-driver: the gateway's docs page and the web app are loaded in headless
# Chromium; zbar-tools: the web app's test reads the wallet's QR code with zbarimg.
scripts/install-system-packages.sh chromium chromium-driver zbar-tools
# The front doors' tests drive grpcio, schemathesis and Selenium, and the docs page serves
# Swagger UI.
scripts/install-python-tools.sh
scripts/install-swagger-ui.sh
scripts/generate-proto.sh --check
python3 scripts/web/make_base_map.py --check

# The C device client (clients/c): built with AddressSanitizer and UBSan, its cmocka tests.
cmake -S clients/c -B .build/c -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build .build/c
(cd .build/c && ctest --output-on-failure --verbose | grep -E '^[0-9]+: \[|tests passed|tests failed')
# Its frame decoder under libFuzzer for a minute, from the corpus kept in the repository
# (scripts/c-client/fuzz.sh SECONDS --keep runs longer and keeps what it finds).
scripts/c-client/fuzz.sh 60
# Every Swift parser of a stranger's bytes (frames, the gateway's metadata and tokens, HTTP/JSON,
# the GTFS and open-data importers) under libFuzzer and AddressSanitizer, 30 s a target, from the
# corpus kept in Fuzz/Corpus (scripts/fuzz.sh SECONDS --keep runs longer and keeps what it finds).
scripts/fuzz.sh 30

swift build --build-tests

# A hung test must fail the run rather than eat CI's time, and say which test it was.
# Serially: the end-to-end tests start real processes, and timing-sensitive tests (deadlines,
# "unavailable within a second") should not compete with each other for two cores.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
timeout 1200 stdbuf -oL -eL swift test --skip-build --no-parallel 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
if [ "$status" = 124 ]; then
  echo "error: the tests did not finish within 20 minutes; started and never finished:" >&2
  awk '
    # Swift Testing prints "◇ Test NAME started." and "✔ Test NAME [with N test cases] passed ...";
    # the cases of a parameterized test print only their start.
    /◇ Test .* started\.$/ {
      name = $0; sub(/^.*◇ Test /, "", name); sub(/ started\.$/, "", name)
      if (name != "run" && name !~ /^case /) open[name] = 1
    }
    /[✔✘] Test .* (passed|failed)/ {
      name = $0; sub(/^.*[✔✘] Test /, "", name); sub(/ (with [0-9]+ test cases )?(passed|failed).*$/, "", name)
      delete open[name]
    }
    END { for (name in open) print "  " name }
  ' "$log" >&2
fi
[ "$status" = 0 ] || exit "$status"

scripts/check-deploy.sh
deploy/container-test.sh
