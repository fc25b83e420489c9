#!/usr/bin/env bash
# The release build the container image holds: the executables in deploy/image-executables, with
# the Swift standard library and Foundation linked in statically, and without debug information
# (the image's executables are stripped of it anyway; leaving it out saves the compiler and the
# linker a third of their work). deploy/Dockerfile runs this script, so the image and
# deploy/container-test.sh hold the same build. In its own build folder, .build/static, so it can
# run beside the debug build of the tests (SwiftPM locks a build folder while it builds).
#
#   deploy/build-release.sh             build, then print the folder that holds the executables
#
# Only the image's executables: `swift build` with no product would also build the chaos run, the
# echo server and the test support, which no image holds. SwiftPM takes one --product a run; the
# runs after the first reuse what it built.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib --scratch-path "$PWD/.build/static" --disable-index-store -Xswiftc -gnone -Xcc -g0)
while read -r product; do
  swift build "${flags[@]}" --product "$product" >&2
done < <(grep -v '^#' deploy/image-executables)
swift build "${flags[@]}" --show-bin-path
