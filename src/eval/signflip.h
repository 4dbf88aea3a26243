/* Library-internal: the paired test that racing (src/search/race.c) and the
 * final choice (src/run/choose.c) compare per-page F1 with (signflip.c). */
#ifndef CETUNE_EVAL_SIGNFLIP_H
#define CETUNE_EVAL_SIGNFLIP_H

#include <stddef.h>

/* One-sided sign-flip (Fisher-Pitman) randomization test of H1 "the
 * differences d[0..n) have a mean below 0": the p-value P(S <= sum d), S
 * the sum of the |d[i]| with independent random signs.  Exact over the 12
 * largest |d[i]|, the others' part normal (mean 0, variance sum d^2).
 * Zeros count for nothing (1 when all are 0); d is overwritten. */
double cet_signflip_pvalue(double *d, size_t n);

#endif
