#!/usr/bin/env bash
# The release build the container image holds (deploy/Dockerfile and deploy/container-test.sh run
# this script, so both hold the same build): the executables in deploy/image-executables, each a
# small C program that calls its entry point in one shared library, libBinarioSuite.so
# (deploy/image), which links the Swift runtime and Foundation dynamically. The image then holds
# the runtime, the libraries and Binario's own code once, not once per executable.
#
#   deploy/build-release.sh             build, then print the folder that holds bin/ and lib/
#
# Without debug information (the image's files are stripped of it anyway; leaving it out saves
# the compiler and the linker a third of their work), in its own build folder, .build/image, so
# it can run beside the debug build of the tests (SwiftPM locks a build folder while it builds).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
flags=(
  -c release --package-path deploy/image --scratch-path "$root/.build/image" --disable-index-store
  -Xswiftc -gnone -Xcc -g0
  # Only the entry points are exported (deploy/image/exports.map); with the sections nothing
  # reaches dropped.
  -Xlinker --version-script="$root/deploy/image/exports.map" -Xlinker --gc-sections
)
swift build "${flags[@]}" --product BinarioSuite >&2
built=$(swift build "${flags[@]}" --show-bin-path)

out=$root/.build/image/suite
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
cp "$built/libBinarioSuite.so" "$out/lib/"
# Each executable: main.c with its entry point, binario_main_<name> with '-' spelled '_'. It finds
# the library beside it, in ../lib (the image's /usr/local/lib).
while read -r tool; do
  clang -O2 -DENTRY="binario_main_${tool//-/_}" -o "$out/bin/$tool" deploy/image/main.c \
    -L"$out/lib" -lBinarioSuite -Wl,-rpath,'$ORIGIN/../lib'
done < <(grep -v '^#' deploy/image-executables)
echo "$out"
