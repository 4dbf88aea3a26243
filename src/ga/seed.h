/* Internal to the library (src/ga, src/run) and its tests: the run seed's
 * independent random streams (genome.c). */
#ifndef CETUNE_GA_SEED_H
#define CETUNE_GA_SEED_H

#include <stdint.h>

/* A 64-bit seed for stream `stream` of a run seed (splitmix64), so that
 * independent streams (the sample, the GA) never share draws. */
uint64_t cet_seed_derive(uint64_t seed, uint64_t stream);
enum { CET_STREAM_SAMPLE = 1, CET_STREAM_GA = 2, CET_STREAM_RACE = 3, CET_STREAM_FOLDS = 4 };

#endif
