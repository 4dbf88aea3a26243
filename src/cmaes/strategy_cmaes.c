/* The "cmaes" search strategy (strategy.h; docs/cmaes.md): CMA-ES
 * (cmaes.c) proposes each generation, one CMA-ES iteration, and learns
 * from its ranking.
 *
 * - Generation 0 evaluates the seeds (the description's, its defaults when
 *   it has none, and --seed-config): the best of them becomes the mean of
 *   the search (cet_cmaes_start), so seeds set where CMA-ES starts.
 * - Every later generation is lambda samples: --pop, or with pop 0 CMA-ES's
 *   own 4 + floor(3 ln genes) (IPOP doubles it at each restart, and the
 *   population grows with it).
 * - The ranking is the engine's (the view's rank): Deb's rules, so --constraint puts
 *   feasible configurations first; --objective changes the fitness it ranks.
 * - A sample that normalises to a genome already evaluated costs nothing
 *   (its results come from the archive) and still counts in the ranking.
 * - --race and --pareto are refused (its check): racing pauses a
 *   generation across a checkpoint, while the samples CMA-ES learns from
 *   live only from ask to tell; a Pareto front has no ranking to learn from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/search.h"
#include "cmaes.h"
#include "search/strategy.h"
#include "util/json.h"

/* Its population of 0 is its own lambda, known once it is created.  Its
 * patience (patience_evals 0) is Hansen's stagnation window, 10 + 30 n /
 * lambda iterations, in evaluations: lambda's small generations would
 * otherwise stop score's 46 genes after 75 evaluations (--patience 5). */
void cet_strategy_cmaes_defaults(struct cet_search_options *o, size_t ngenes)
{
    if (o->patience_evals)
        return;
    double n = ngenes ? (double)ngenes : 1;
    double lambda = o->pop ? (double)o->pop : 4 + floor(3 * log(n));
    o->patience_evals = (long)(lambda * (10 + ceil(30 * n / lambda)));
}

/* Why CMA-ES does without racing and Pareto searches: */
int cet_strategy_cmaes_check(const struct cet_search_options *o, size_t nseeds,
                             struct cet_error *err)
{
    if (o->race)
        return cet_fail(err, "--race works with --strategy ga only: a raced generation can pause "
                             "across a checkpoint, and CMA-ES's samples live from ask to tell");
    if (o->goal.npareto)
        return cet_fail(err, "--pareto works with --strategy ga only: CMA-ES learns from one "
                             "ranking, a Pareto front has none");
    if (o->pop && nseeds > o->pop) /* pop 0: room for the seeds is made (create) */
        return cet_fail(err, "%zu seed individuals do not fit in a population of %zu", nseeds,
                        o->pop);
    return 0;
}

int cet_strategy_cmaes_create(void **state, const struct cet_search_view *v,
                              struct cet_error *err)
{
    struct cet_cmaes_settings set;
    cet_cmaes_default_settings(&set);
    set.lambda = v->opt->pop;
    set.resolution = v->opt->resolution;
    struct cet_cmaes *s;
    if (cet_cmaes_create(&s, v->desc, &set, v->nseeds ? v->seeds : NULL, err))
        return -1;
    *state = s;
    return 0;
}

/* Room for lambda samples; with its own population also for the seeds
 * of generation 0. */
size_t cet_strategy_cmaes_size(const void *state, const struct cet_search_options *o)
{
    size_t lambda = cet_cmaes_lambda(state);
    return lambda > o->pop ? lambda : o->pop;
}

/* Generation 0 of a run with seeds is the seeds. */
static int seeding(const struct cet_search_view *v)
{
    return v->gen < 0 && v->nseeds;
}

size_t cet_strategy_cmaes_ask(const void *state, const struct cet_search_view *v, gsl_rng *rng,
                              double *cand)
{
    size_t G = v->ngenes, n = 0;
    if (!seeding(v))
        return cet_cmaes_ask(state, rng, cand);
    for (; n < v->nseeds && n < v->opt->pop; n++) {
        memcpy(cand + n * G, v->seeds + n * G, G * sizeof *cand);
        cet_genome_normalise(v->desc, v->opt->resolution, cand + n * G);
    }
    return n;
}

int cet_strategy_cmaes_tell(void *state, const struct cet_search_view *v, gsl_rng *rng,
                            const struct cet_search_told *t, size_t *pop, size_t *npop,
                            int *renewed, struct cet_error *err)
{
    struct cet_cmaes *s = state;
    size_t n = t->n;
    size_t *r = malloc((n ? n : 1) * sizeof *r), *order = malloc((n ? n : 1) * sizeof *order);
    uint8_t *used = calloc(n ? n : 1, 1);
    double *fit = malloc((n ? n : 1) * sizeof *fit);
    size_t ne = 0, no = 0;
    int rc = -1;
    *renewed = 0;
    if (!r || !order || !used || !fit) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < n; k++)
        if (t->evaluated[k])
            r[ne++] = t->idx[k];
    if (v->rank(v, r, ne)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    /* The candidates in the order of their archive entries; a genome
     * sampled twice keeps its sampling order. */
    for (size_t q = 0; q < ne; q++)
        for (size_t k = 0; k < n; k++)
            if (!used[k] && t->idx[k] == r[q]) {
                used[k] = 1;
                order[no] = k;
                fit[no++] = v->fit[t->idx[k]];
                break;
            }
    /* Nothing new this generation (stale): the run would stop exhausted,
     * so a restart draws elsewhere (cet_cmaes_tell), and says so. */
    if (seeding(v)) {
        if (no)
            cet_cmaes_start(s, t->cand + order[0] * v->ngenes);
    } else if (cet_cmaes_tell(s, rng, order, fit, no, t->nfresh == 0, renewed, err)) {
        goto done;
    }
    *npop = 0;
    for (size_t q = 0; q < ne; q++)
        if (!q || r[q] != r[q - 1])
            pop[(*npop)++] = r[q];
    rc = 0;
done:
    free(r);
    free(order);
    free(used);
    free(fit);
    return rc;
}

cJSON *cet_strategy_cmaes_save(const void *state)
{
    return cet_cmaes_save(state);
}

int cet_strategy_cmaes_restore(void **state, const struct cet_search_view *v,
                               const struct cet_json *doc, const cJSON *j, struct cet_error *err)
{
    /* ask fills room for the population: a larger lambda is refused before
     * anything is allocated for it. */
    struct cet_json_reader r = {.j = doc, .err = err, .what = "checkpoint"};
    if (cJSON_IsObject(j) && (cet_jr_whole(&r, j, "lambda", 2, (double)v->opt->pop), r.failed))
        return -1;
    struct cet_cmaes *s;
    if (cet_cmaes_restore(&s, v->desc, doc, j, err))
        return -1;
    *state = s;
    return 0;
}

void cet_strategy_cmaes_destroy(void *state)
{
    cet_cmaes_free(state);
}
