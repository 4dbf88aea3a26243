/* Declarations shared inside libcetune but not part of its public API:
 * what the run module (src/run) needs to rebuild a GA from a checkpoint. */
#ifndef CETUNE_GA_INTERNAL_H
#define CETUNE_GA_INTERNAL_H

#include "cetune/ga.h"

/* Adds genome g (normalised) to the archive with known results, as if it
 * had been evaluated in generation born; 0 or -1 when out of memory. */
int cet_ga_archive_put(struct cet_ga *ga, const double *g, long born, double f, double p,
                       double r);
/* Sets archive entry i's results from what one evaluation measured
 * (objective.h). */
void cet_ga_archive_measures(struct cet_ga *ga, size_t i, const struct cet_measures *m);

#endif
