/* NSGA-II (Deb, Pratap, Agarwal and Meyarivan 2002), as DEAP implements it
 * (selNSGA2, sortNondominated, assignCrowdingDist), for --pareto:
 * - fast non-dominated sorting: front 0 is dominated by nobody, front k by
 *   members of fronts below k only;
 * - crowding distance: per objective, the members of a front sorted by it,
 *   the two ends infinitely far, the others the normalised gap between
 *   their neighbours, summed over objectives;
 * - survival (elitism): parents and offspring merged, whole fronts taken
 *   while they fit, the last one cut by crowding distance, largest first;
 * - crowded binary tournament: the survivors are kept in crowded-comparison
 *   order (front, then crowding distance, largest first), so a binary
 *   tournament on their ranks (select.c) picks the crowded-comparison
 *   winner.
 * Constrained domination (the paper's section VI): a feasible individual
 * dominates every infeasible one, and an infeasible one dominates another
 * with a larger violation.  Objectives are maximised.  Ties keep evaluation
 * order, so the result is a function of the archive only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nsga2.h"
#include "util/sort.h"

int cet_dominates(const double *a, const double *b, size_t nobj, double viol_a, double viol_b)
{
    if (viol_a > 0 || viol_b > 0)
        return viol_a < viol_b;
    int better = 0;
    for (size_t k = 0; k < nobj; k++) {
        if (a[k] < b[k])
            return 0;
        better |= a[k] > b[k];
    }
    return better;
}

int cet_nsga2_fronts(size_t *front, const double *obj, size_t nobj, const double *viol,
                     const size_t *idx, size_t n)
{
    /* Deb's bookkeeping: how many dominate each member, and whom each dominates. */
    size_t *count = calloc(n ? n : 1, sizeof *count);
    size_t *dom = malloc((n ? n * n : 1) * sizeof *dom);
    size_t *ndom = calloc(n ? n : 1, sizeof *ndom);
    size_t *cur = malloc((n ? n : 1) * sizeof *cur), *next = malloc((n ? n : 1) * sizeof *next);
    if (!count || !dom || !ndom || !cur || !next) {
        free(count), free(dom), free(ndom), free(cur), free(next);
        return -1;
    }
    size_t ncur = 0;
    for (size_t a = 0; a < n; a++) {
        const double *oa = obj + idx[a] * nobj;
        for (size_t b = a + 1; b < n; b++) {
            const double *ob = obj + idx[b] * nobj;
            if (cet_dominates(oa, ob, nobj, viol[idx[a]], viol[idx[b]])) {
                dom[a * n + ndom[a]++] = b;
                count[b]++;
            } else if (cet_dominates(ob, oa, nobj, viol[idx[b]], viol[idx[a]])) {
                dom[b * n + ndom[b]++] = a;
                count[a]++;
            }
        }
    }
    for (size_t a = 0; a < n; a++)
        if (!count[a]) {
            front[a] = 0;
            cur[ncur++] = a;
        }
    for (size_t f = 1; ncur; f++) {
        size_t nnext = 0;
        for (size_t k = 0; k < ncur; k++) {
            size_t a = cur[k];
            for (size_t d = 0; d < ndom[a]; d++) {
                size_t b = dom[a * n + d];
                if (--count[b] == 0) {
                    front[b] = f;
                    next[nnext++] = b;
                }
            }
        }
        memcpy(cur, next, nnext * sizeof *cur);
        ncur = nnext;
    }
    free(count), free(dom), free(ndom), free(cur), free(next);
    return 0;
}

/* Sorting members by one objective, ties by position (stable, total). */
struct by_obj {
    const double *obj;
    size_t nobj, k;
    const size_t *idx;
};

static int lower(const struct by_obj *s, size_t a, size_t b)
{
    double x = s->obj[s->idx[a] * s->nobj + s->k], y = s->obj[s->idx[b] * s->nobj + s->k];
    return x != y ? x < y : a < b;
}

static int lower_before(const void *ctx, size_t a, size_t b)
{
    return lower(ctx, a, b);
}

int cet_nsga2_crowding(double *dist, const double *obj, size_t nobj, const size_t *idx,
                       const size_t *members, size_t m)
{
    size_t *v = malloc((m ? m : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < m; i++)
        dist[members[i]] = 0;
    for (size_t k = 0; k < nobj && m; k++) {
        struct by_obj s = {obj, nobj, k, idx};
        memcpy(v, members, m * sizeof *v);
        if (cet_sort_indices(v, m, lower_before, &s)) {
            free(v);
            return -1;
        }
        double lo = obj[idx[v[0]] * nobj + k], hi = obj[idx[v[m - 1]] * nobj + k];
        dist[v[0]] = dist[v[m - 1]] = INFINITY;
        if (hi == lo)
            continue;
        for (size_t i = 1; i + 1 < m; i++)
            dist[v[i]] += (obj[idx[v[i + 1]] * nobj + k] - obj[idx[v[i - 1]] * nobj + k]) /
                          (hi - lo);
    }
    free(v);
    return 0;
}

/* Crowded-comparison order: lower front, then larger distance, then position. */
struct crowded {
    const size_t *front;
    const double *dist;
};

static int crowded_before(const struct crowded *c, size_t a, size_t b)
{
    if (c->front[a] != c->front[b])
        return c->front[a] < c->front[b];
    if (c->dist[a] != c->dist[b])
        return c->dist[a] > c->dist[b];
    return a < b;
}

static int crowded_order(const void *ctx, size_t a, size_t b)
{
    return crowded_before(ctx, a, b);
}

int cet_nsga2_survive(size_t *idx, size_t n, size_t keep, const double *obj, size_t nobj,
                      const double *viol)
{
    size_t *front = malloc((n ? n : 1) * sizeof *front);
    double *dist = malloc((n ? n : 1) * sizeof *dist);
    size_t *members = malloc((n ? n : 1) * sizeof *members);
    size_t *order = malloc((n ? n : 1) * sizeof *order), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    int rc = -1;
    if (!front || !dist || !members || !order || !tmp ||
        cet_nsga2_fronts(front, obj, nobj, viol, idx, n))
        goto done;
    size_t maxf = 0;
    for (size_t i = 0; i < n; i++)
        maxf = front[i] > maxf ? front[i] : maxf;
    for (size_t f = 0; f <= maxf && n; f++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (front[i] == f)
                members[m++] = i;
        if (cet_nsga2_crowding(dist, obj, nobj, idx, members, m))
            goto done;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    struct crowded c = {front, dist};
    if (cet_sort_indices(order, n, crowded_order, &c))
        goto done;
    /* Whole fronts first, the last one cut by crowding: exactly the first
     * `keep` of the crowded-comparison order. */
    for (size_t i = 0; i < n; i++)
        tmp[i] = idx[order[i]];
    memcpy(idx, tmp, (keep < n ? keep : n) * sizeof *idx);
    rc = 0;
done:
    free(front), free(dist), free(members), free(order), free(tmp);
    return rc;
}
