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

#include "cetune/folds.h"
#include "cetune/ga.h"
#include "ga_internal.h"

int cet_folds_split(uint32_t *fold, const struct cet_corpus *c, size_t k, uint64_t seed,
                    struct cet_error *err)
{
    if (k < 2 || k > c->ndocs)
        return cet_fail(err, "%zu folds need at least 2 folds and a training document per "
                             "fold; there are %zu documents", k, c->ndocs);
    uint32_t *order = malloc(c->ndocs * sizeof *order);
    if (!order)
        return cet_fail(err, "out of memory");
    if (cet_shuffle_packages(order, c, seed, CET_STREAM_FOLDS, err) < 0) {
        free(order);
        return -1;
    }
    size_t deal = 0;
    for (size_t p = 0; p < c->npkgs; p++) {
        const struct cet_package *pk = &c->pkgs[p];
        for (size_t i = 0; i < pk->count; i++)
            fold[order[pk->first + i]] = (uint32_t)(deal++ % k);
    }
    free(order);
    return 0;
}
