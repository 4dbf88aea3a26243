/* The seeded per-package document order that cross-validation folds
 * (folds.c) and racing (race.c) both start from: each package's documents
 * shuffled by one random stream derived from the run seed, one
 * gsl_ran_shuffle per package in package order, so the order depends only
 * on the seed, the stream and the corpus. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "cetune/ga.h"
#include "ga_internal.h"

int cet_shuffle_packages(uint32_t *perm, const struct cet_corpus *c, uint64_t seed,
                         uint64_t stream, struct cet_error *err)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return cet_fail(err, "out of memory");
    gsl_rng_set(rng, (unsigned long)cet_seed_derive(seed, stream));
    for (size_t p = 0; p < c->npkgs; p++) {
        const struct cet_package *pk = &c->pkgs[p];
        for (uint32_t i = 0; i < pk->count; i++)
            perm[pk->first + i] = pk->first + i;
        gsl_ran_shuffle(rng, perm + pk->first, pk->count, sizeof *perm);
    }
    gsl_rng_free(rng);
    return 0;
}
