/* Parent selection over a population ranked best first (rank 0 is the
 * fittest, ties already broken by evaluation order), so both schemes are
 * deterministic functions of the random stream.
 * - Tournament (default): `size` ranks drawn uniformly with replacement,
 *   the best of them wins; larger tournaments press harder.
 * - Truncation: "the better performing individuals are used as parents"
 *   (Gottron 2008, section 4): a uniform pick among the best `fraction` of the
 *   population (at least two individuals, so crossover has a choice). */
#include <math.h>

#include "cetune/search.h"
#include "operators.h"

size_t cet_select_tournament(gsl_rng *rng, size_t n, size_t size)
{
    size_t best = n;
    for (size_t k = 0; k < (size ? size : 1); k++) {
        size_t r = (size_t)gsl_rng_uniform_int(rng, n);
        if (r < best)
            best = r;
    }
    return best;
}

size_t cet_select_truncation(gsl_rng *rng, size_t n, double fraction)
{
    size_t top = (size_t)ceil(fraction * (double)n);
    if (top < 2)
        top = 2;
    if (top > n)
        top = n;
    return (size_t)gsl_rng_uniform_int(rng, top);
}

static size_t pick_tournament(gsl_rng *rng, size_t n, const struct cet_search_options *o)
{
    return cet_select_tournament(rng, n, o->tournament);
}

static size_t pick_truncation(gsl_rng *rng, size_t n, const struct cet_search_options *o)
{
    return cet_select_truncation(rng, n, o->truncation);
}

const struct cet_selection cet_selections[CET_SELECT_COUNT] = {
    [CET_SELECT_TOURNAMENT] = {"tournament", "tournament", pick_tournament},
    [CET_SELECT_TRUNCATION] = {"truncation", "truncation", pick_truncation},
};
const char *const cet_selection_names[CET_SELECT_COUNT + 1] = {
    [CET_SELECT_TOURNAMENT] = "tournament",
    [CET_SELECT_TRUNCATION] = "truncation",
};
