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

/* race.c, for evolve.c (the racing of a generation's new individuals). */
void cet_race_free(struct cet_race *R);
/* The generation's members (archive indices) and its new individuals,
 * archive first .. first+n: racing starts. */
void cet_ga__race_begin(struct cet_ga *ga, const size_t *members, size_t nmembers, size_t first,
                        size_t n);
/* Evaluates blocks until every new individual is fully evaluated or raced
 * out: 0, 1 when cancelled, -1 on error. */
int cet_ga__race_run(struct cet_ga *ga, struct cet_error *err);
/* The generation is complete; a new best becomes the incumbent. */
void cet_ga__race_end(struct cet_ga *ga);

#endif
