#!/usr/bin/env bash
# Fuzzes every parser of a stranger's bytes in the Swift services with libFuzzer under
# AddressSanitizer: the frame layer, the gateway's metadata and tokens, the HTTP/JSON door, the
# GTFS importer and the open-data importers (the targets are in Fuzz/Targets/FuzzTarget.swift).
#
#   scripts/fuzz.sh [SECONDS] [--keep] [TARGET ...]
#   scripts/fuzz.sh --build-only
#
# SECONDS: how long each target runs (default 30; the test command gives 20). --keep: merge
# what the run found into the kept corpus, Fuzz/Corpus/TARGET (commit it). TARGETs: which (default
# all). A crash stops the run; its input is saved as .build/fuzz/crash-TARGET-*: make it a
# regression test by moving it to Fuzz/Regressions/TARGET/ under a name that says what broke.
# --build-only: build the fuzzer and stop. BINARIO_FUZZ_UNIT_TIMEOUT: seconds before one input
# counts as a hang (default 10; the test command, which fuzzes beside its builds, gives 30).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30
keep=
build_only=
targets=()
for argument in "$@"; do
  case "$argument" in
    --keep) keep=1 ;;
    --build-only) build_only=1 ;;
    [0-9]*) seconds=$argument ;;
    *) targets+=("$argument") ;;
  esac
done
if [ ${#targets[@]} = 0 ]; then
  targets=(frames gateway-metadata access-token http-json gtfs open-data)
fi

scratch="$PWD/.build/fuzz"
log=$(mktemp)
found=$(mktemp -d)
trap 'rm -rf "$log" "$found"' EXIT
# A build plan from before a source file was removed fails with "missing inputs": plan anew.
rm -f "$scratch/debug.yaml"
# Only Binario's own modules are instrumented (BINARIO_FUZZING=1 makes Package.swift add the
# sanitizer flags to them, and Fuzz/Package.swift links the runtimes): the parsers fuzzed are all
# there, and building BoringSSL, NIO and gRPC plain halves the build. Line tables only, not full
# debug information: enough for a crash's stack to name files and lines; no index store, which
# nothing here reads.
export BINARIO_FUZZING=1
build=(swift build --package-path Fuzz --scratch-path "$scratch" --disable-index-store
  -Xswiftc -gline-tables-only -Xcc -gline-tables-only --product binario-fuzz)
if ! "${build[@]}" >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
program="$("${build[@]}" --show-bin-path)/binario-fuzz"
[ -z "$build_only" ] || exit 0

total_runs=0
for target in "${targets[@]}"; do
  corpus=Fuzz/Corpus/$target
  mkdir -p "$found/$target"
  status=0
  # New inputs go to a temporary folder (the first), the kept corpus is read (the second).
  BINARIO_FUZZ_TARGET=$target "$program" -max_total_time="$seconds" -timeout="${BINARIO_FUZZ_UNIT_TIMEOUT:-10}" -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$scratch/crash-$target-" \
    "$found/$target" "$corpus" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
  if [ "$status" -ne 0 ]; then
    tail -60 "$log" >&2
    echo "fuzz: $target failed; the input is in $scratch (crash-$target-*)" >&2
    exit "$status"
  fi
  printf 'fuzz: %-17s %9s runs in %ss, %4s new inputs, peak %s MB\n' "$target" "${runs:-?}" "$seconds" "${added:-?}" "${rss:-?}"
  total_runs=$((total_runs + ${runs:-0}))
  if [ -n "$keep" ]; then
    BINARIO_FUZZ_TARGET=$target "$program" -merge=1 \
      -max_len=65536 -artifact_prefix="$scratch/crash-$target-" "$corpus" "$found/$target" 2>&1 |
      grep -E 'MERGE-OUTER: [0-9]+ new files' || true
  fi
done
echo "fuzz: ${#targets[@]} targets, $total_runs runs, no crash"
