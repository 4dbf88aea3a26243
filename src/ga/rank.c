/* Ranking the archive: Deb's rules for the single objective (feasible
 * first, smaller violation, higher fitness, earlier evaluation; raced-out
 * individuals last), the best distinct individuals (--top), the Pareto
 * front and the best individual of a run. */
#include <stdlib.h>
#include <string.h>

#include "cetune/ga.h"
#include "ga_internal.h"
#include "nsga2.h"
#include "util/sort.h"

/* Better (Deb's rules): feasible before infeasible, smaller violation
 * first, then higher fitness, then earlier evaluation (a stable, total
 * order). */
static int better(const struct cet_ga *ga, size_t a, size_t b)
{
    /* Racing (race.c): raced-out individuals (fitness over fewer
     * documents) after every fully evaluated one. */
    if (ga->raced[a] != ga->raced[b])
        return !ga->raced[a];
    if (ga->viol[a] != ga->viol[b])
        return ga->viol[a] < ga->viol[b];
    if (ga->fit[a] != ga->fit[b])
        return ga->fit[a] > ga->fit[b];
    return a < b;
}

static int before(const void *ctx, size_t a, size_t b)
{
    return better(ctx, a, b);
}

int cet_ga_rank_sort(const struct cet_ga *ga, size_t *v, size_t n)
{
    return cet_sort_indices(v, n, before, ga);
}

/* Archive indices sorted best first (Deb's rules: feasible before
 * infeasible, smaller violation first, then fitness, then evaluation
 * order; with racing, raced-out individuals last); the caller frees
 * *out.  -1 when out of memory. */
static int ranking(const struct cet_ga *ga, size_t **out, size_t *n)
{
    *out = malloc((ga->narch ? ga->narch : 1) * sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < ga->narch; i++)
        (*out)[i] = i;
    *n = ga->narch;
    if (cet_ga_rank_sort(ga, *out, ga->narch)) {
        free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

int cet_ga_top(const struct cet_ga *ga, size_t max, size_t **out, size_t *n)
{
    size_t *rank, nr, k = 0;
    if (ranking(ga, &rank, &nr))
        return -1;
    for (size_t r = 0; r < nr && k < max; r++) {
        size_t i = rank[r];
        if (ga->raced[i])
            break; /* ranked last: only raced-out ones follow */
        int same = 0;
        for (size_t j = 0; j < k && !same; j++)
            same = ga->fit[rank[j]] == ga->fit[i] && ga->prec[rank[j]] == ga->prec[i] &&
                   ga->rec[rank[j]] == ga->rec[i];
        if (!same)
            rank[k++] = i;
    }
    *out = rank;
    *n = k;
    return 0;
}

int cet_ga_front(const struct cet_ga *ga, size_t **out, size_t *n)
{
    size_t nobj = ga->opt.goal.npareto, k = 0;
    *n = 0;
    if (!(*out = malloc((ga->narch ? ga->narch : 1) * sizeof **out)))
        return -1;
    for (size_t a = 0; a < ga->narch; a++) {
        const double *oa = ga->obj + a * CET_MAX_PARETO;
        int out_of = 0;
        for (size_t b = 0; b < ga->narch && !out_of; b++) {
            const double *ob = ga->obj + b * CET_MAX_PARETO;
            out_of = cet_dominates(ob, oa, nobj, ga->viol[b], ga->viol[a]) ||
                     (b < a && ga->viol[b] == ga->viol[a] &&
                      !memcmp(oa, ob, nobj * sizeof *oa)); /* the same point, found earlier */
        }
        if (!out_of)
            (*out)[k++] = a;
    }
    *n = k;
    return 0;
}

int cet_ga_best(const struct cet_ga *ga, size_t *best)
{
    size_t *front = NULL, n = ga->narch;
    int found = 0;
    if (ga->opt.goal.npareto && cet_ga_front(ga, &front, &n))
        return CET_ERROR;
    for (size_t k = 0; k < n; k++) {
        size_t i = front ? front[k] : k;
        if (!ga->raced[i] && (!found || better(ga, i, *best))) {
            *best = i;
            found = 1;
        }
    }
    free(front);
    return found ? 0 : CET_ENOTFOUND;
}
