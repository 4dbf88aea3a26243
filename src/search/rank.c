/* Ranking the archive: Deb's rules for the single objective (feasible
 * first, smaller violation, higher fitness, earlier evaluation; raced-out
 * individuals last), the best distinct individuals (--top), the Pareto
 * front and the best individual of a run. */
#include <stdlib.h>
#include <string.h>

#include "cetune/search.h"
#include "search_internal.h"
#include "nsga2.h"
#include "util/sort.h"

/* Better (Deb's rules): feasible before infeasible, smaller violation
 * first, then higher fitness, then earlier evaluation (a stable, total
 * order). */
static int better(const struct cet_search *engine, size_t a, size_t b)
{
    /* Racing (race.c): raced-out individuals (fitness over fewer
     * documents) after every fully evaluated one. */
    if (engine->raced[a] != engine->raced[b])
        return !engine->raced[a];
    if (engine->viol[a] != engine->viol[b])
        return engine->viol[a] < engine->viol[b];
    if (engine->fit[a] != engine->fit[b])
        return engine->fit[a] > engine->fit[b];
    return a < b;
}

static int before(const void *ctx, size_t a, size_t b)
{
    return better(ctx, a, b);
}

int cet_search_rank_sort(const struct cet_search *engine, size_t *v, size_t n)
{
    return cet_sort_indices(v, n, before, engine);
}

/* Archive indices sorted best first (Deb's rules: feasible before
 * infeasible, smaller violation first, then fitness, then evaluation
 * order; with racing, raced-out individuals last); the caller frees
 * *out.  -1 when out of memory. */
static int ranking(const struct cet_search *engine, size_t **out, size_t *n)
{
    *out = malloc((engine->narch ? engine->narch : 1) * sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < engine->narch; i++)
        (*out)[i] = i;
    *n = engine->narch;
    if (cet_search_rank_sort(engine, *out, engine->narch)) {
        free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

int cet_search_top(const struct cet_search *engine, size_t max, size_t **out, size_t *n)
{
    size_t *rank, nr, k = 0;
    if (ranking(engine, &rank, &nr))
        return -1;
    for (size_t r = 0; r < nr && k < max; r++) {
        size_t i = rank[r];
        if (engine->raced[i])
            break; /* ranked last: only raced-out ones follow */
        int same = 0;
        for (size_t j = 0; j < k && !same; j++)
            same = engine->fit[rank[j]] == engine->fit[i] && engine->prec[rank[j]] == engine->prec[i] &&
                   engine->rec[rank[j]] == engine->rec[i];
        if (!same)
            rank[k++] = i;
    }
    *out = rank;
    *n = k;
    return 0;
}

int cet_search_front(const struct cet_search *engine, size_t **out, size_t *n)
{
    size_t nobj = engine->opt.goal.npareto, k = 0;
    *n = 0;
    if (!(*out = malloc((engine->narch ? engine->narch : 1) * sizeof **out)))
        return -1;
    for (size_t a = 0; a < engine->narch; a++) {
        const double *oa = engine->obj + a * CET_MAX_PARETO;
        int out_of = 0;
        for (size_t b = 0; b < engine->narch && !out_of; b++) {
            const double *ob = engine->obj + b * CET_MAX_PARETO;
            out_of = cet_dominates(ob, oa, nobj, engine->viol[b], engine->viol[a]) ||
                     (b < a && engine->viol[b] == engine->viol[a] &&
                      !memcmp(oa, ob, nobj * sizeof *oa)); /* the same point, found earlier */
        }
        if (!out_of)
            (*out)[k++] = a;
    }
    *n = k;
    return 0;
}

int cet_search_best(const struct cet_search *engine, size_t *best)
{
    size_t *front = NULL, n = engine->narch;
    int found = 0;
    if (engine->opt.goal.npareto && cet_search_front(engine, &front, &n))
        return CET_ERROR;
    for (size_t k = 0; k < n; k++) {
        size_t i = front ? front[k] : k;
        if (!engine->raced[i] && (!found || better(engine, i, *best))) {
            *best = i;
            found = 1;
        }
    }
    free(front);
    return found ? 0 : CET_ENOTFOUND;
}
