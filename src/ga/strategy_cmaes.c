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
 * - The ranking is the GA's (rank.c): Deb's rules, so --constraint puts
 *   feasible configurations first; --objective changes the fitness it ranks.
 * - A sample that normalises to a genome already evaluated costs nothing
 *   (its results come from the archive) and still counts in the ranking.
 * - --race and --pareto are refused (cet_ga_check): racing pauses a
 *   generation across a checkpoint, while the samples CMA-ES learns from
 *   live only from ask to tell; a Pareto front has no ranking to learn from. */
#include <stdlib.h>
#include <string.h>

#include "cetune/ga.h"
#include "cmaes.h"
#include "ga_internal.h"
#include "strategy.h"
#include "util/json.h"

static void settings(const struct cet_ga *ga, struct cet_cmaes_settings *set)
{
    cet_cmaes_default_settings(set);
    set->lambda = ga->opt.pop;
    set->resolution = ga->opt.resolution;
}

int cet_strategy_cmaes_create(struct cet_ga *ga, void **state, struct cet_error *err)
{
    struct cet_cmaes_settings set;
    settings(ga, &set);
    struct cet_cmaes *s;
    if (cet_cmaes_create(&s, ga->desc, &set, ga->nseeds ? ga->seeds : NULL, err))
        return -1;
    if (!ga->opt.pop) /* room for lambda samples, and for the seeds of generation 0 */
        ga->opt.pop = cet_cmaes_lambda(s) > ga->nseeds ? cet_cmaes_lambda(s) : ga->nseeds;
    *state = s;
    return 0;
}

/* Generation 0 of a run with seeds is the seeds. */
static int seeding(const struct cet_ga *ga)
{
    return ga->gen < 0 && ga->nseeds;
}

size_t cet_strategy_cmaes_ask(struct cet_ga *ga, const void *state, double *cand)
{
    size_t G = ga->ngenes, n = 0;
    if (!seeding(ga))
        return cet_cmaes_ask(state, ga->rng, cand);
    for (; n < ga->nseeds && n < ga->opt.pop; n++) {
        memcpy(cand + n * G, ga->seeds + n * G, G * sizeof *cand);
        cet_genome_normalise(ga->desc, ga->opt.resolution, cand + n * G);
    }
    return n;
}

int cet_strategy_cmaes_tell(struct cet_ga *ga, void *state, const double *cand, const size_t *idx,
                            const uint8_t *evaluated, size_t n, struct cet_error *err)
{
    struct cet_cmaes *s = state;
    size_t *v = malloc((n ? n : 1) * sizeof *v), *order = malloc((n ? n : 1) * sizeof *order);
    uint8_t *used = calloc(n ? n : 1, 1);
    double *fit = malloc((n ? n : 1) * sizeof *fit);
    size_t ne = 0, no = 0;
    int rc = -1;
    if (!v || !order || !used || !fit) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < n; k++)
        if (evaluated[k])
            v[ne++] = idx[k];
    if (cet_ga_rank_sort(ga, v, ne)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    /* The candidates in the order of their archive entries; a genome
     * sampled twice keeps its sampling order. */
    for (size_t r = 0; r < ne; r++)
        for (size_t k = 0; k < n; k++)
            if (!used[k] && idx[k] == v[r]) {
                used[k] = 1;
                order[no] = k;
                fit[no++] = ga->fit[idx[k]];
                break;
            }
    if (seeding(ga)) {
        if (no)
            cet_cmaes_start(s, cand + order[0] * ga->ngenes);
    } else {
        /* Nothing new this generation: the GA would stop (exhausted), a
         * restart draws elsewhere (cet_cmaes_tell). */
        int restarted;
        if (cet_cmaes_tell(s, ga->rng, order, fit, no, ga->gen_fresh == 0, &restarted, err))
            goto done;
        ga->gen_renewed = restarted;
    }
    /* IPOP's restarts double lambda: the population grows with it. */
    size_t lambda = cet_cmaes_lambda(s);
    if (lambda > ga->opt.pop) {
        size_t *pop = realloc(ga->pop, lambda * sizeof *pop);
        if (!pop) {
            cet_fail(err, "out of memory");
            goto done;
        }
        ga->pop = pop;
        ga->opt.pop = lambda;
    }
    ga->npop = 0;
    for (size_t r = 0; r < ne; r++)
        if (!r || v[r] != v[r - 1])
            ga->pop[ga->npop++] = v[r];
    rc = 0;
done:
    free(v);
    free(order);
    free(used);
    free(fit);
    return rc;
}

cJSON *cet_strategy_cmaes_save(const void *state)
{
    return cet_cmaes_save(state);
}

int cet_strategy_cmaes_restore(struct cet_ga *ga, void **state, const struct cet_json *doc,
                               const cJSON *j, struct cet_error *err)
{
    /* ask fills room for the population: a larger lambda is refused before
     * anything is allocated for it. */
    struct cet_json_reader r = {.j = doc, .err = err, .what = "checkpoint"};
    if (cJSON_IsObject(j) && (cet_jr_whole(&r, j, "lambda", 2, (double)ga->opt.pop), r.failed))
        return -1;
    struct cet_cmaes *s;
    if (cet_cmaes_restore(&s, ga->desc, doc, j, err))
        return -1;
    *state = s;
    return 0;
}

void cet_strategy_cmaes_destroy(void *state)
{
    cet_cmaes_free(state);
}
