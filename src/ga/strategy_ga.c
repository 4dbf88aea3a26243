/* The "ga" search strategy (strategy.h): the genetic algorithm of Gottron
 * (2008, section 4, figure 3).  It keeps no state of its own: its
 * population is the one its tell sets (the view's pop, ranked best first),
 * which the engine keeps and checkpoints store anyway.
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
 * the view's rank); --pareto: NSGA-II, parents and children merged, the
 * best pop by non-domination rank and crowding (nsga2.c). */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cetune/search.h"
#include "operators.h"
#include "search/nsga2.h"
#include "search/strategy.h"

enum { RETRIES = 20 };

static const double *genome(const struct cet_search_view *v, size_t i)
{
    return v->genes + i * v->ngenes;
}

/* 1 when g was evaluated before or is among the first n candidates. */
static int known(const struct cet_search_view *v, const double *g, const double *cand, size_t n)
{
    size_t i;
    if (!v->lookup(v, g, &i))
        return 1;
    for (size_t k = 0; k < n; k++)
        if (!memcmp(cand + k * v->ngenes, g, v->ngenes * sizeof *g))
            return 1;
    return 0;
}

static size_t select_parent(const struct cet_search_view *v, gsl_rng *rng, size_t n)
{
    if (v->opt->goal.npareto) /* crowded binary tournament: pop is in crowded order */
        return cet_select_tournament(rng, n, 2);
    return cet_selections[v->opt->select].pick(rng, n, v->opt);
}

/* Settles a new child: one that is forbidden is repaired (cet_repair), one
 * that repeats a genome already evaluated or already among the first n
 * candidates is mutated again, up to RETRIES changes in all; one still
 * forbidden is then redrawn at random, up to RETRIES times.  Returns 1 when
 * the child is allowed, 0 when it must be dropped. */
static int settle(const struct cet_search_view *v, gsl_rng *rng, double *child,
                  const double *cand, size_t n, double sigma)
{
    const struct cet_params_desc *d = v->desc;
    double res = v->opt->resolution;
    for (int t = 0; t < RETRIES; t++) {
        if (cet_params_forbidden(d, child))
            cet_repair(d, res, rng, sigma, child);
        else if (known(v, child, cand, n))
            cet_mutate(d, res, rng, v->opt->mutation_rate, sigma, child);
        else
            return 1;
    }
    for (int t = 0; t < RETRIES && cet_params_forbidden(d, child); t++)
        cet_genome_random(d, res, rng, child);
    return !cet_params_forbidden(d, child);
}

/* Fills cand with the genomes of the next generation; returns how many
 * (fewer than the population only when forbidden combinations leave too
 * little room). */
static size_t breed(const struct cet_search_view *v, gsl_rng *rng, double *cand)
{
    const struct cet_params_desc *d = v->desc;
    const struct cet_search_options *o = v->opt;
    size_t G = v->ngenes, P = o->pop, nc = 0;
    double res = o->resolution;
    if (v->gen < 0 || !v->npop) {
        for (size_t s = 0; v->gen < 0 && s < v->nseeds && nc < P; s++, nc++) {
            memcpy(cand + nc * G, v->seeds + s * G, G * sizeof *cand);
            cet_genome_normalise(d, res, cand + nc * G);
        }
        for (size_t slot = nc; slot < P; slot++) {
            double *g = cand + nc * G;
            for (int t = 0; t <= RETRIES; t++) {
                cet_genome_random(d, res, rng, g);
                if (!known(v, g, cand, nc) && !cet_params_forbidden(d, g))
                    break;
            }
            nc += !cet_params_forbidden(d, g);
        }
        return nc;
    }
    /* v->pop is ranked best first (tell). */
    size_t n = v->npop, nfull = 0;
    /* Racing: parents come from the fully evaluated members, ranked first
     * and exactly.  A raced-out member's partial mean is over a few other
     * documents, so a tournament among raced-out members picked parents
     * nearly at random (docs/racing.md).  With one fully evaluated member
     * crossover would have no partner, so then all may be parents. */
    while (nfull < n && !v->raced[v->pop[nfull]])
        nfull++;
    if (nfull >= 2)
        n = nfull;
    /* NSGA-II keeps its elite by merging parents and children (tell). */
    size_t elite = o->goal.npareto ? 0 : o->elite;
    for (size_t r = 0; r < n && nc < elite && !v->raced[v->pop[r]]; r++) {
        int dup = 0; /* the population may hold a genome twice; elites are distinct */
        for (size_t k = 0; k < r && !dup; k++)
            dup = v->pop[k] == v->pop[r];
        if (!dup)
            memcpy(cand + nc++ * G, genome(v, v->pop[r]), G * sizeof *cand);
    }
    double sigma = cet_sigma_adapted(o, v->stagnant);
    for (size_t slot = nc; slot < P; slot++) {
        double *child = cand + nc * G;
        size_t a = select_parent(v, rng, n);
        const double *pa = genome(v, v->pop[a]);
        int crossed = 0;
        if (gsl_rng_uniform(rng) < o->crossover_rate) {
            size_t b = select_parent(v, rng, n);
            for (int t = 0; t < 4 && v->pop[b] == v->pop[a]; t++)
                b = select_parent(v, rng, n);
            cet_crossovers[o->crossover].cross(d, res, rng, pa, genome(v, v->pop[b]), child);
            crossed = 1;
        } else {
            memcpy(child, pa, G * sizeof *child);
        }
        if (!crossed)
            cet_mutate(d, res, rng, o->mutation_rate, sigma, child);
        nc += (size_t)settle(v, rng, child, cand, nc, sigma);
    }
    return nc;
}

/* A population of 0 is the GA's own: 20, as Gottron (2008) ran it; its
 * patience is counted in generations alone (patience_evals 0: none). */
void cet_strategy_ga_defaults(struct cet_search_options *o, size_t ngenes)
{
    (void)ngenes;
    if (!o->pop)
        o->pop = 20;
}

int cet_strategy_ga_check(const struct cet_search_options *o, size_t nseeds, struct cet_error *err)
{
    if (o->pop < 2)
        return cet_fail(err, "the population needs at least 2 individuals");
    if (o->elite >= o->pop)
        return cet_fail(err, "an elite of %zu leaves no room for children in a population of %zu",
                        o->elite, o->pop);
    if (nseeds > o->pop)
        return cet_fail(err, "%zu seed individuals do not fit in a population of %zu", nseeds,
                        o->pop);
    return 0;
}

int cet_strategy_ga_create(void **state, const struct cet_search_view *v, struct cet_error *err)
{
    (void)v;
    (void)err;
    *state = NULL;
    return 0;
}

size_t cet_strategy_ga_size(const void *state, const struct cet_search_options *o)
{
    (void)state;
    return o->pop;
}

size_t cet_strategy_ga_ask(const void *state, const struct cet_search_view *v, gsl_rng *rng,
                           double *cand)
{
    (void)state;
    return breed(v, rng, cand);
}

int cet_strategy_ga_tell(void *state, const struct cet_search_view *v, gsl_rng *rng,
                         const struct cet_search_told *t, size_t *pop, size_t *npop,
                         int *renewed, struct cet_error *err)
{
    (void)state;
    (void)rng;
    int pareto = v->opt->goal.npareto != 0;
    size_t P = v->opt->pop, nm = 0;
    size_t *merged = malloc((v->npop + t->n + 1) * sizeof *merged);
    *renewed = 0;
    if (!merged)
        return cet_fail(err, "out of memory");
    /* NSGA-II's elitism: the parents compete with their children. */
    for (size_t k = 0; pareto && k < v->npop; k++)
        merged[nm++] = v->pop[k];
    for (size_t k = 0; k < t->n; k++) {
        int dup = 0;
        for (size_t q = 0; pareto && q < nm && !dup; q++)
            dup = merged[q] == t->idx[k];
        if (t->evaluated[k] && !dup)
            merged[nm++] = t->idx[k];
    }
    int bad = pareto ? cet_nsga2_survive(merged, nm, P, v->obj, CET_MAX_PARETO, v->viol)
                     : v->rank(v, merged, nm);
    *npop = nm < P ? nm : P;
    memcpy(pop, merged, *npop * sizeof *pop);
    free(merged);
    return bad ? cet_fail(err, "out of memory") : 0;
}

/* Its state is the population, which the engine's checkpoint holds. */
cJSON *cet_strategy_ga_save(const void *state)
{
    (void)state;
    return cJSON_CreateObject();
}

int cet_strategy_ga_restore(void **state, const struct cet_search_view *v,
                            const struct cet_json *doc, const cJSON *j, struct cet_error *err)
{
    (void)v;
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
