#include "FuzzerDriver.h"
#include <stdio.h>

// Replaced by libFuzzer's definition when the fuzzer sanitizer is on.
__attribute__((weak)) int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size)) {
    (void)argc; (void)argv; (void)test;
    fputs("rewind-fuzz: built without the fuzzer; build with -Xswiftc -sanitize=fuzzer (see Fuzz/run)\n", stderr);
    return 2;
}
