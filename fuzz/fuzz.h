/* Every fuzz target defines LLVMFuzzerTestOneInput; replay.c runs the same
 * function over files when the target is built without libFuzzer. */
#ifndef CETUNE_FUZZ_H
#define CETUNE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
