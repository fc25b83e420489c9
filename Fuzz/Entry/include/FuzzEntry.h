#ifndef BINARIO_FUZZ_ENTRY_H
#define BINARIO_FUZZ_ENTRY_H
// The fuzzing program's entry (see FuzzEntry.c). Nothing to call from Swift; the header exists
// because SwiftPM wants one for a C target.
#endif
