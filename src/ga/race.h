/* Internal to src/ga and its tests: racing's significance test (race.c). */
#ifndef CETUNE_GA_RACE_H
#define CETUNE_GA_RACE_H

#include <stddef.h>

/* One-sided sign-flip (Fisher-Pitman) randomization test of H1 "the
 * differences d[0..n) have a mean below 0": the p-value P(S <= sum d), S
 * the sum of the |d[i]| with independent random signs.  Exact over the 12
 * largest |d[i]|, the others' part normal (mean 0, variance sum d^2).
 * Zeros count for nothing (1 when all are 0); d is overwritten. */
double cet_race_pvalue(double *d, size_t n);

#endif
