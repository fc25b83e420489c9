#!/usr/bin/env bash
# The release build the container image holds: every executable with the Swift standard library
# and Foundation linked in statically, as deploy/Dockerfile builds it, and without debug
# information (the image's executables are stripped of it anyway; leaving it out saves the
# compiler and the linker a third of their work). In its own build folder, .build/static, so it
# can run beside the debug build of the tests (SwiftPM locks a build folder while it builds).
#
#   deploy/build-release.sh             build, then print the folder that holds the executables
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib --scratch-path "$PWD/.build/static" -Xswiftc -gnone -Xcc -g0)
swift build "${flags[@]}" >&2
swift build "${flags[@]}" --show-bin-path
