#include "FuzzerDriver.h"
#include <stdio.h>

// Replaced by libFuzzer's definition when the fuzzer sanitizer is on.
__attribute__((weak)) int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size)) {
    (void)argc; (void)argv; (void)test;
    fputs("rewind-fuzz: built without the fuzzer; build with -Xswiftc -sanitize=fuzzer (see Fuzz/run)\n", stderr);
    return 2;
}

// libFuzzer's own byte-level mutation; the stand-in keeps a plain build linking.
__attribute__((weak)) size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize) {
    (void)data; (void)maxSize;
    return size;
}

static RewindStructureMutator structureMutator;

void RewindSetStructureMutator(RewindStructureMutator mutator) {
    structureMutator = mutator;
}

// libFuzzer calls this, when it is defined, instead of mutating inputs itself: one mutation in
// four is structural (a decoded block changed as trees and encoded again), the rest libFuzzer's.
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize, unsigned int seed) {
    if (structureMutator && seed % 4 == 0) {
        size_t mutated = structureMutator(data, size, maxSize, seed / 4);
        if (mutated > 0) return mutated;
    }
    return LLVMFuzzerMutate(data, size, maxSize);
}
