// The fuzzing program's `main`. SwiftPM links an executable with `main` aliased to a function
// named after its module (binario_fuzz_main) unless the whole build is sanitized for the fuzzer;
// only Binario's own modules are (BINARIO_FUZZING=1 in scripts/fuzz.sh), so this entry hands the
// arguments to libFuzzer's driver itself, with the input function Fuzz/Driver defines in Swift.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));

int binario_fuzz_main(int argc, char **argv) {
  return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
