/* The "ga" search strategy (strategy.h): the genetic algorithm of Gottron
 * (2008, section 4, figure 3).  It keeps no state of its own: its
 * population is the GA object's (ga->pop, ranked best first), which
 * checkpoints store anyway.
 *
 * ask (breed):
 * - generation 0: the description's seeds and --seed-config individuals,
 *   then random individuals up to the population size;
 * - later generations: the best `elite` distinct individuals unchanged,
 *   then children: a parent is selected; with probability crossover_rate a
 *   second parent is selected and the child recombined from both, otherwise
 *   the child is a mutated copy of the first ("either by randomly combining
 *   the values of two of the better individuals, or by mutating the values
 *   of such an individual").  A child that repeats a genome already
 *   evaluated or already in the generation is mutated again, up to
 *   RETRIES times, so evaluations go to new settings; after that it is kept
 *   and costs nothing (its fitness comes from the archive).
 * - a child matching a forbidden combination is never evaluated: it is
 *   repaired (one gene of the combination changes), else redrawn at random,
 *   else dropped (see settle); all with the run's random stream.
 * tell (survival): the evaluated generation ranked best first (Deb's rules,
 * rank.c); --pareto: NSGA-II, parents and children merged, the best pop by
 * non-domination rank and crowding (nsga2.c). */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cetune/ga.h"
#include "ga_internal.h"
#include "nsga2.h"
#include "strategy.h"

enum { RETRIES = 20 };

/* 1 when g was evaluated before or is among the first n candidates. */
static int known(const struct cet_ga *ga, const double *g, const double *cand, size_t n)
{
    size_t i;
    if (!cet_ga_lookup(ga, g, &i))
        return 1;
    for (size_t k = 0; k < n; k++)
        if (!memcmp(cand + k * ga->ngenes, g, ga->ngenes * sizeof *g))
            return 1;
    return 0;
}

static size_t select_parent(struct cet_ga *ga, size_t n)
{
    if (ga->opt.goal.npareto) /* crowded binary tournament: pop is in crowded order */
        return cet_select_tournament(ga->rng, n, 2);
    return cet_selections[ga->opt.select].pick(ga->rng, n, &ga->opt);
}

/* Settles a new child: one that is forbidden is repaired (cet_repair), one
 * that repeats a genome already evaluated or already among the first n
 * candidates is mutated again, up to RETRIES changes in all; one still
 * forbidden is then redrawn at random, up to RETRIES times.  Returns 1 when
 * the child is allowed, 0 when it must be dropped. */
static int settle(struct cet_ga *ga, double *child, const double *cand, size_t n, double sigma)
{
    const struct cet_params_desc *d = ga->desc;
    double res = ga->opt.resolution;
    for (int t = 0; t < RETRIES; t++) {
        if (cet_params_forbidden(d, child))
            cet_repair(d, res, ga->rng, sigma, child);
        else if (known(ga, child, cand, n))
            cet_mutate(d, res, ga->rng, ga->opt.mutation_rate, sigma, child);
        else
            return 1;
    }
    for (int t = 0; t < RETRIES && cet_params_forbidden(d, child); t++)
        cet_genome_random(d, res, ga->rng, child);
    return !cet_params_forbidden(d, child);
}

/* Fills cand with the genomes of the next generation; returns how many
 * (fewer than the population only when forbidden combinations leave too
 * little room). */
static size_t breed(struct cet_ga *ga, double *cand)
{
    const struct cet_params_desc *d = ga->desc;
    size_t G = ga->ngenes, P = ga->opt.pop, nc = 0;
    double res = ga->opt.resolution;
    if (ga->gen < 0 || !ga->npop) {
        for (size_t s = 0; ga->gen < 0 && s < ga->nseeds && nc < P; s++, nc++) {
            memcpy(cand + nc * G, ga->seeds + s * G, G * sizeof *cand);
            cet_genome_normalise(d, res, cand + nc * G);
        }
        for (size_t slot = nc; slot < P; slot++) {
            double *g = cand + nc * G;
            for (int t = 0; t <= RETRIES; t++) {
                cet_genome_random(d, res, ga->rng, g);
                if (!known(ga, g, cand, nc) && !cet_params_forbidden(d, g))
                    break;
            }
            nc += !cet_params_forbidden(d, g);
        }
        return nc;
    }
    /* ga->pop is ranked best first (see the end of cet_ga_generation). */
    size_t n = ga->npop, nfull = 0;
    /* Racing: parents come from the fully evaluated members, ranked first
     * and exactly.  A raced-out member's partial mean is over a few other
     * documents, so a tournament among raced-out members picked parents
     * nearly at random (docs/racing.md).  With one fully evaluated member
     * crossover would have no partner, so then all may be parents. */
    while (nfull < n && !ga->raced[ga->pop[nfull]])
        nfull++;
    if (nfull >= 2)
        n = nfull;
    /* NSGA-II keeps its elite by merging parents and children (survive). */
    size_t elite = ga->opt.goal.npareto ? 0 : ga->opt.elite;
    for (size_t r = 0; r < n && nc < elite && !ga->raced[ga->pop[r]]; r++) {
        int dup = 0; /* the population may hold a genome twice; elites are distinct */
        for (size_t k = 0; k < r && !dup; k++)
            dup = ga->pop[k] == ga->pop[r];
        if (!dup)
            memcpy(cand + nc++ * G, cet_ga_genome(ga, ga->pop[r]), G * sizeof *cand);
    }
    double sigma = cet_ga_sigma(ga);
    for (size_t slot = nc; slot < P; slot++) {
        double *child = cand + nc * G;
        size_t a = select_parent(ga, n);
        const double *pa = cet_ga_genome(ga, ga->pop[a]);
        int crossed = 0;
        if (gsl_rng_uniform(ga->rng) < ga->opt.crossover_rate) {
            size_t b = select_parent(ga, n);
            for (int t = 0; t < 4 && ga->pop[b] == ga->pop[a]; t++)
                b = select_parent(ga, n);
            cet_crossovers[ga->opt.crossover].cross(d, res, ga->rng, pa, cet_ga_genome(ga, ga->pop[b]), child);
            crossed = 1;
        } else {
            memcpy(child, pa, G * sizeof *child);
        }
        if (!crossed)
            cet_mutate(d, res, ga->rng, ga->opt.mutation_rate, sigma, child);
        nc += (size_t)settle(ga, child, cand, nc, sigma);
    }
    return nc;
}

int cet_strategy_ga_create(struct cet_ga *ga, void **state, struct cet_error *err)
{
    (void)ga;
    (void)err;
    *state = NULL;
    return 0;
}

size_t cet_strategy_ga_ask(struct cet_ga *ga, const void *state, double *cand)
{
    (void)state;
    return breed(ga, cand);
}

int cet_strategy_ga_tell(struct cet_ga *ga, void *state, const double *cand, const size_t *idx,
                         const uint8_t *evaluated, size_t n, struct cet_error *err)
{
    (void)state;
    (void)cand;
    size_t P = ga->opt.pop, nm = 0;
    size_t *merged = malloc((ga->npop + n + 1) * sizeof *merged);
    if (!merged)
        return cet_fail(err, "out of memory");
    /* NSGA-II's elitism: the parents compete with their children. */
    for (size_t k = 0; ga->opt.goal.npareto && k < ga->npop; k++)
        merged[nm++] = ga->pop[k];
    for (size_t k = 0; k < n; k++) {
        int dup = 0;
        for (size_t q = 0; ga->opt.goal.npareto && q < nm && !dup; q++)
            dup = merged[q] == idx[k];
        if (evaluated[k] && !dup)
            merged[nm++] = idx[k];
    }
    int bad = ga->opt.goal.npareto
                  ? cet_nsga2_survive(merged, nm, P, ga->obj, CET_MAX_PARETO, ga->viol)
                  : cet_ga_rank_sort(ga, merged, nm);
    ga->npop = nm < P ? nm : P;
    memcpy(ga->pop, merged, ga->npop * sizeof *ga->pop);
    free(merged);
    return bad ? cet_fail(err, "out of memory") : 0;
}

/* Its state is the population, which the GA object's checkpoint holds. */
cJSON *cet_strategy_ga_save(const void *state)
{
    (void)state;
    return cJSON_CreateObject();
}

int cet_strategy_ga_restore(struct cet_ga *ga, void **state, const struct cet_json *doc,
                            const cJSON *j, struct cet_error *err)
{
    (void)ga;
    (void)doc;
    (void)j;
    (void)err;
    *state = NULL;
    return 0;
}

void cet_strategy_ga_destroy(void *state)
{
    (void)state;
}
