#!/usr/bin/env bash
# The chaos run, as long as you like: builds the suite and binario-chaos (debug, as the tests
# do), then runs the whole suite under a mixed load through the gateway while a random process
# is killed with SIGKILL every few seconds and restarted, and checks that every acknowledged
# write is there exactly once. Exits 1 when a promise was broken.
#
#   scripts/chaos.sh [SECONDS] [binario-chaos options...]
#   scripts/chaos.sh 600 --kill-every 1-3 --seed 7
#   scripts/chaos.sh 120 --victims ticketing,dispatch
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
swift build --product binario-chaos
swift build
exec .build/debug/binario-chaos --seconds "$seconds" "$@"
