#ifndef REWIND_FUZZER_DRIVER_H
#define REWIND_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver: parses libFuzzer's own flags from argv and calls `test` with each input.
/// Linked from libFuzzer when built with `-sanitize=fuzzer`; otherwise the weak stand-in in
/// FuzzerDriver.c reports that the build has no fuzzer and returns 2.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

/// A structure-aware mutation: changes the input in `data` (of `size` bytes, room for `maxSize`)
/// and returns its new size, or 0 to leave the input to libFuzzer's own mutations.
typedef size_t (*RewindStructureMutator)(uint8_t *data, size_t size, size_t maxSize, unsigned int seed);

/// Makes libFuzzer use `mutator` for a share of its mutations (the rest are its own byte-level
/// ones, through `LLVMFuzzerMutate`).
void RewindSetStructureMutator(RewindStructureMutator mutator);

#endif
