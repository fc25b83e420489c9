#!/usr/bin/env bash
# Fuzzes the C client's frame decoder (clients/c/fuzz/fuzz_frame_reader.c) with libFuzzer, under
# ASan and UBSan, starting from the corpus kept in clients/c/fuzz/corpus/frame_reader.
#
#   scripts/c-client/fuzz.sh [SECONDS] [--keep]
#
# SECONDS: how long (default 60, as the test command runs it). --keep: merge what the run found
# into the kept corpus (commit it). Needs clang with libFuzzer (the Swift toolchain's has it).
# BINARIO_FUZZ_UNIT_TIMEOUT: seconds before one input counts as a hang (default 10).
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-60}
keep=${2:-}
build=.build/c-fuzz
corpus=clients/c/fuzz/corpus/frame_reader
found=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$found" "$log"' EXIT
# (The Swift toolchain's clang links with gold, which warns about ASan's local symbols: noise.)
if ! { cmake -S clients/c -B "$build" -DCMAKE_C_COMPILER="${FUZZ_CC:-clang}" -DCMAKE_BUILD_TYPE=Debug -DBINARIO_FUZZ=ON &&
  cmake --build "$build" --target fuzz_frame_reader; } >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
# New inputs go to a temporary folder (the first), the kept corpus is read (the second); a crash's
# input is written to the build folder.
status=0
"$build/fuzz_frame_reader" -max_total_time="$seconds" -timeout="${BINARIO_FUZZ_UNIT_TIMEOUT:-10}" -rss_limit_mb=1024 -print_final_stats=1 \
  -artifact_prefix="$build/" "$found" "$corpus" >"$log" 2>&1 || status=$?
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)' "$log" || true
if [ "$status" -ne 0 ]; then
  tail -40 "$log" >&2
  echo "fuzz_frame_reader failed: the input is in $build (crash-*, leak-*, timeout-*)" >&2
  exit "$status"
fi
if [ "$keep" = --keep ]; then
  "$build/fuzz_frame_reader" -merge=1 "$corpus" "$found" 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new files' || true
fi
