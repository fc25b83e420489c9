#!/usr/bin/env bash
# The test command (.ci/run runs it; README "The test command" lists its phases and their cost).
#
# Two builds are unavoidable — debug for the tests, release for the containers — and on
# two cores the machine's CPU is the limit, so the phases run in three streams that overlap where
# one leaves a core idle:
#
#   main      install → debug build → generated code → unit and end-to-end tests → deploy/
#             checked offline → (release build done) → containers under podman
#   checks    lint → the web app's catalogues and base map → the services' words in Italian →
#             the C client (ASan build, tests, 40 s of fuzzing)              at nice 10
#   release   the release build for the containers (deploy/build-release.sh)  at nice 5
#
# The Swift fuzzers are not here: their build (Binario's modules under AddressSanitizer and
# libFuzzer, with every service they reach) was a third full build, and the run passed its budget.
# The kept corpora are replayed by FuzzRegressionTests in every run; `scripts/fuzz.sh` fuzzes
# (docs/reliability.md).
#
# The main stream has the machine first: the end-to-end tests start real processes and some
# check that things happen "within a second", so nothing beside them runs at their priority.
# The release build comes next: it is the longest chain (its last modules compile one at a time,
# whole-module optimized), and the containers' test waits for it; the fuzzers' build has the rest.
# Each background stream logs to .build/test-logs/STREAM.log (printed if it fails). Every phase
# prints its wall time; the run ends with all of them and the total against the budget.
set -euo pipefail
cd "$(dirname "$0")/.."

budget_seconds=$((25 * 60))

# On CI (a fresh clone, whose debug build nobody works in afterwards) the debug build writes only
# line tables for debug information, in Swift and in C (BoringSSL twice among it): less for the
# compiler and the linker to write, and still file and line in every backtrace. (It keeps its
# index store: on Linux, test discovery reads it.) Locally the flags stay SwiftPM's own, so the
# test command reuses a developer's build. Every script that builds in .build/debug
# (generate-proto.sh) passes the same flags, or SwiftPM would build again.
if [ "${CI:-}" = true ]; then
  export BINARIO_SWIFT_BUILD_FLAGS="-Xswiftc -gline-tables-only -Xcc -gline-tables-only"
fi
read -r -a build_flags <<<"${BINARIO_SWIFT_BUILD_FLAGS:-}"
logs=.build/test-logs
mkdir -p "$logs"
times=$logs/phases.tsv
: >"$times"
started=$(date +%s)

# phase NAME COMMAND...: runs COMMAND as one timed phase of the current stream.
stream=main
phase() {
  local name=$1 began status=0
  shift
  began=$(date +%s)
  echo "== $name"
  "$@" || status=$?
  local took=$(($(date +%s) - began))
  printf '%s\t%s\t%s\t%s\t%s\n' "$stream" "$name" "$((began - started))" "$took" "$status" >>"$times"
  if [ "$status" = 0 ]; then
    echo "== $name: ${took} s"
  else
    echo "== $name: FAILED (exit $status) after ${took} s" >&2
  fi
  return "$status"
}

# The end of the run, whatever it was: every phase's wall time, and the total.
report() {
  local status=$? total=$(($(date +%s) - started))
  echo
  echo "== phases (wall time; streams overlap, so they add up to more than the total)"
  awk -F '\t' '{ printf "  %-8s %-52s %4ss  (from %4ss)%s\n", $1, $2, $4, $3, ($5 == 0 ? "" : "  FAILED") }' "$times"
  printf '== total %d:%02d (budget %d:00)%s\n' $((total / 60)) $((total % 60)) $((budget_seconds / 60)) \
    "$([ "$total" -le "$budget_seconds" ] || echo ': OVER BUDGET')"
  [ "$status" = 0 ] || echo "== the test command FAILED" >&2
}
trap report EXIT

# background NAME FUNCTION: runs FUNCTION as stream NAME, logging to .build/test-logs/NAME.log.
background() {
  local name=$1 function=$2
  (
    stream=$name
    "$function"
  ) >"$logs/$name.log" 2>&1 &
  eval "${name}_pid=$!"
}

# finish NAME: waits for stream NAME; on failure prints its log and fails.
finish() {
  local name=$1 pid status=0
  pid=$(eval echo "\$${name}_pid")
  wait "$pid" || status=$?
  if [ "$status" != 0 ]; then
    echo "== stream '$name' failed; its log:" >&2
    cat "$logs/$name.log" >&2
    exit "$status"
  fi
}

install() {
  # chromium and chromium-driver: the docs page and the web app in headless Chromium;
  # zbar-tools: the wallet's QR code read back; iptables: PartitionTests cuts a link with it;
  # podman, runc, curl: the containers; prometheus: promtool, which checks deploy/monitoring's
  # alerts and dashboard against the processes' metrics. Then the pinned Python tools and Swagger UI.
  scripts/install-system-packages.sh chromium chromium-driver zbar-tools iptables podman runc curl prometheus
  scripts/install-python-tools.sh
  scripts/install-swagger-ui.sh
}

c_client() {
  cmake -S clients/c -B .build/c -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build .build/c
  (cd .build/c && ctest --output-on-failure --verbose | grep -E '^[0-9]+: \[|tests passed|tests failed')
}

checks_stream() {
  renice -n 10 -p "$BASHPID" >/dev/null
  phase "lint (swift format, .swift-format)" scripts/format.sh --lint
  phase "the web app's catalogues (it, en) are complete" python3 scripts/web/check_catalogues.py
  phase "every person text has its Italian" python3 scripts/check-person-texts.py
  phase "the web app's base map is current" python3 scripts/web/make_base_map.py --check
  phase "C client: ASan build and cmocka tests" c_client
  # Fuzzing beside the main stream's builds and tests: a unit may wait seconds for a core, so a
  # unit counts as hung after 30 s, not 10 (a hang still fails the run).
  export BINARIO_FUZZ_UNIT_TIMEOUT=30
  phase "C client: frame decoder fuzzed 40 s" scripts/c-client/fuzz.sh 40
}

release_stream() {
  renice -n 5 -p "$BASHPID" >/dev/null
  phase "release build (one shared library, for the containers)" deploy/build-release.sh >/dev/null
}

# Tests that hang must fail the run rather than eat CI's time, and say which test it was. Serially:
# the end-to-end tests start real processes, and timing-sensitive tests should not compete.
swift_tests() {
  local log status=0
  log=$(mktemp)
  timeout 1200 stdbuf -oL -eL swift test ${build_flags[@]+"${build_flags[@]}"} --skip-build --no-parallel 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
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
  rm -f "$log"
  return "$status"
}

phase "install: Debian packages, Python tools, Swagger UI" install
background release release_stream
background checks checks_stream
phase "debug build (services, tools, tests)" swift build ${build_flags[@]+"${build_flags[@]}"} --build-tests
phase "generated code is current (proto, routes, C)" scripts/generate-proto.sh --check
phase "unit and end-to-end tests" swift_tests
phase "deploy/ checked offline" scripts/check-deploy.sh
stream=release
phase "waiting for the release build" finish release
stream=main
phase "containers under podman (deploy/container-test.sh)" deploy/container-test.sh
stream=checks
phase "waiting for the checks" finish checks
