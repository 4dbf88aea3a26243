/* Cross-validation folds (--folds K): the training documents split into K
 * folds, stratified by package, with the run seed.
 *
 * Each package's documents are put in a seeded random order (stream
 * CET_STREAM_FOLDS), then dealt to the folds in turn, the deal going on
 * from package to package where the previous one stopped.  So every fold
 * holds each package in about its share, the folds differ in size by at
 * most one document, and the split depends only on the seed and the
 * corpus. */
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "cetune/folds.h"
#include "cetune/ga.h"

int cet_folds_split(uint32_t *fold, const struct cet_corpus *c, size_t k, uint64_t seed,
                    struct cet_error *err)
{
    if (k < 2 || k > c->ndocs)
        return cet_fail(err, "%zu folds need at least 2 folds and a training document per "
                             "fold; there are %zu documents", k, c->ndocs);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t *order = malloc((c->ndocs + 1) * sizeof *order);
    if (!rng || !order) {
        if (rng)
            gsl_rng_free(rng);
        free(order);
        return cet_fail(err, "out of memory");
    }
    gsl_rng_set(rng, (unsigned long)cet_seed_derive(seed, CET_STREAM_FOLDS));
    size_t deal = 0;
    for (size_t p = 0; p < c->npkgs; p++) {
        const struct cet_package *pk = &c->pkgs[p];
        for (size_t i = 0; i < pk->count; i++)
            order[i] = pk->first + i;
        gsl_ran_shuffle(rng, order, pk->count, sizeof *order);
        for (size_t i = 0; i < pk->count; i++)
            fold[order[i]] = (uint32_t)(deal++ % k);
    }
    gsl_rng_free(rng);
    free(order);
    return 0;
}
