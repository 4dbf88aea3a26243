/* Internal to src/ga and its tests: the variation operators on the run's
 * random stream (select.c, crossover.c, mutate.c; random genomes are
 * src/space/genome.c's) and the
 * mutation spread of adaptive mutation (mutate.c). */
#ifndef CETUNE_GA_OPERATORS_H
#define CETUNE_GA_OPERATORS_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "cetune/search.h"
#include "cetune/params.h"
#include "space/space.h"

/* ---- operators (select.c, crossover.c, mutate.c) ---- */

/* The operator tables: adding a scheme is a file with its function, an
 * enum value and a row.  A row names the scheme (as options, run.json and
 * checkpoints say it), says which options it reads (`uses`: the option
 * names in checkpoints, which always store every option) and calls it. */
struct cet_selection {
    const char *name;
    const char *uses;
    /* A parent's rank among n individuals ranked best first. */
    size_t (*pick)(gsl_rng *rng, size_t n, const struct cet_search_options *o);
};
extern const struct cet_selection cet_selections[CET_SELECT_COUNT];
struct cet_crossover {
    const char *name;
    const char *uses;
    void (*cross)(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                  const double *a, const double *b, double *child);
};
extern const struct cet_crossover cet_crossovers[CET_CROSS_COUNT];

/* Picks a parent among n individuals ranked best first (rank 0 is best) and
 * returns its rank. */
size_t cet_select_tournament(gsl_rng *rng, size_t n, size_t size);
size_t cet_select_truncation(gsl_rng *rng, size_t n, double fraction);
/* Uniform crossover per gene; correlated groups are blended instead: one
 * weight w ~ U(0,1) per group, child = w a + (1-w) b (in log space for log
 * genes).  A gene active in one parent only is copied from it.  The child
 * is normalised. */
void cet_crossover(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                   const double *a, const double *b, double *child);
/* Mutates each active gene with probability rate (0: 1/active genes; at
 * least one gene always):
 * Gaussian with spread sigma x range (integers move at least one step),
 * booleans flip, enums take another allowed value.  Normalised after. */
void cet_mutate(const struct cet_params_desc *d, double resolution, gsl_rng *rng, double rate,
                double sigma, double *g);
/* When g is forbidden, changes one gene (chosen uniformly) of the first
 * forbidden combination it matches, as a mutation would, and normalises;
 * g may match another combination after. */
void cet_repair(const struct cet_params_desc *d, double resolution, gsl_rng *rng, double sigma,
                double *g);

/* The mutation spread after `stagnant` generations without improvement:
 * o->mutation_sigma, times o->adapt_factor per stagnant generation when o->adaptive,
 * up to half the range. */
double cet_sigma_adapted(const struct cet_search_options *o, long stagnant);

#endif
