/* Search strategies (docs/api.md, "Search strategies"), in the style of
 * NLopt's algorithms and c-cmaes's ask/tell: what decides which genomes a
 * generation evaluates and learns from their results.
 *
 * A strategy sees its own state, the search (struct cet_search_view: the
 * space, the options, read-only views of the archive and the population)
 * and the random stream; it asks for genomes and is told their results and
 * how many were new.  It never sees the engine (src/search/evolve.c), which
 * keeps what every strategy shares: the archive, the history, the
 * counters, the stop rule, racing, and the checkpoint (state.c stores the
 * strategy's own state under the member "strategy").
 *
 * A generation (evolve.c) is: ask -> archive look-up/insert -> evaluate
 * (chunks, racing, cancel) -> tell -> statistics -> stop rule.
 *
 * Adding a strategy: a file with the functions of struct cet_strategy, an
 * enum value in include/cetune/search.h, its row and name in strategy.c, and
 * its bit in the `strategies` of the options it reads (options.c). */
#ifndef CETUNE_GA_STRATEGY_H
#define CETUNE_GA_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "cetune/error.h"
#include "cetune/search.h"
#include "util/json.h"

/* The search as a strategy sees it, read-only, valid for one call. */
struct cet_search_view {
    const struct cet_params_desc *desc; /* the search space */
    const struct cet_search_options *opt;
    size_t ngenes;
    long gen;           /* the last complete generation, -1 before the first */
    long stagnant;      /* generations since the best last improved (0 before the first) */
    const double *seeds; /* nseeds x ngenes: the seeds of generation 0 (--seed-config too) */
    size_t nseeds;
    const size_t *pop;  /* the population the last tell set: npop archive indices */
    size_t npop;
    /* The archive, every genome evaluated once, in evaluation order. */
    size_t narch;
    const double *genes; /* narch x ngenes, normalised */
    const double *fit;   /* the objective (--pareto: mean F1) */
    const double *viol;  /* constraint violation (0: feasible) */
    const double *obj;   /* narch x CET_MAX_PARETO Pareto objectives */
    const uint8_t *raced; /* 1: raced out (its fit is a mean over fewer documents) */
    /* 0 with *at the archive index of genome g, or CET_ENOTFOUND. */
    int (*lookup)(const struct cet_search_view *v, const double *g, size_t *at);
    /* Sorts archive indices v[0..n) best first (Deb's rules: feasible
     * first, smaller violation, higher fitness, evaluation order; raced out
     * last).  0, or -1 when out of memory. */
    int (*rank)(const struct cet_search_view *v, size_t *idx, size_t n);
    const void *engine; /* for lookup and rank only */
};

/* What a strategy is told after a generation is evaluated. */
struct cet_search_told {
    const double *cand;       /* the n candidates ask proposed (with racing: the members) */
    const size_t *idx;        /* idx[k]: the archive index of cand[k], where evaluated[k] */
    const uint8_t *evaluated; /* 0: left unevaluated (the --max-evals budget ran out) */
    size_t n;
    size_t nfresh;            /* how many genomes were new (evaluated this generation) */
};

struct cet_strategy {
    const char *name; /* as --strategy, run.json and checkpoints name it */
    /* Its own defaults, where the options leave them to it (pop 0,
     * patience_evals 0), for a description of ngenes genes. */
    void (*defaults)(struct cet_search_options *o, size_t ngenes);
    /* Its own checks of the options and the nseeds seeds: 0, or -1 with
     * err saying why. */
    int (*check)(const struct cet_search_options *o, size_t nseeds, struct cet_error *err);
    /* Allocates the state once the options are checked and the seeds known.
     * Not called for a search restored from a checkpoint (restore made it). */
    int (*create)(void **state, const struct cet_search_view *v, struct cet_error *err);
    /* The population it works with: the most candidates ask proposes, and
     * the population tell sets (IPOP's restarts grow it). */
    size_t (*size)(const void *state, const struct cet_search_options *o);
    /* Proposes the next generation into cand (room for size genomes):
     * normalised, never forbidden; returns how many.  Draws only from rng.
     * MUST NOT change the state: a cancelled generation is undone by
     * restoring rng and the archive, so every change happens in tell. */
    size_t (*ask)(const void *state, const struct cet_search_view *v, gsl_rng *rng,
                  double *cand);
    /* Learns from the evaluated generation (its results are in the
     * archive, v) and sets the new population pop[0..*npop) (room for
     * size), best first, which statistics, reports and checkpoints read.
     * *renewed = 1 when it renewed its search (a CMA-ES restart), so that
     * a generation with nothing new does not end the run.  With racing the
     * told candidates are the generation's members, the same whether or
     * not the generation was paused and resumed.  0 or -1 with err. */
    int (*tell)(void *state, const struct cet_search_view *v, gsl_rng *rng,
                const struct cet_search_told *t, size_t *pop, size_t *npop, int *renewed,
                struct cet_error *err);
    /* The state as a JSON object (exact doubles: cet_json_exact), NULL when
     * out of memory.  cet_search_save adds the member "name". */
    cJSON *(*save)(const void *state);
    /* Rebuilds the state from what save wrote (j, an object of doc, for
     * error positions), after the options, seeds, archive and population
     * were restored.  It must validate everything it reads (the checkpoint
     * fuzzer feeds it garbage): a clear error naming file:line:col
     * (cet_json_fail), never a crash. */
    int (*restore)(void **state, const struct cet_search_view *v, const struct cet_json *doc,
                   const cJSON *j, struct cet_error *err);
    void (*destroy)(void *state);
};

/* By enum cet_strategy_kind; a row without functions is not built. */
extern const struct cet_strategy cet_strategies[CET_STRATEGY_COUNT];

/* The index of the strategy called name, or -1. */
int cet_strategy_find(const char *name);

/* Declares a strategy's functions prefix_defaults ... prefix_destroy,
 * which its row in strategy.c names. */
#define CET_STRATEGY_DECLARE(prefix)                                                          \
    void prefix##_defaults(struct cet_search_options *o, size_t ngenes);                                         \
    int prefix##_check(const struct cet_search_options *o, size_t nseeds, struct cet_error *err); \
    int prefix##_create(void **state, const struct cet_search_view *v, struct cet_error *err); \
    size_t prefix##_size(const void *state, const struct cet_search_options *o);                  \
    size_t prefix##_ask(const void *state, const struct cet_search_view *v, gsl_rng *rng,     \
                        double *cand);                                                        \
    int prefix##_tell(void *state, const struct cet_search_view *v, gsl_rng *rng,             \
                      const struct cet_search_told *t, size_t *pop, size_t *npop,             \
                      int *renewed, struct cet_error *err);                                   \
    cJSON *prefix##_save(const void *state);                                                  \
    int prefix##_restore(void **state, const struct cet_search_view *v,                       \
                         const struct cet_json *doc, const cJSON *j, struct cet_error *err);  \
    void prefix##_destroy(void *state);
/* The row of a strategy declared with CET_STRATEGY_DECLARE. */
#define CET_STRATEGY_ROW(name, prefix)                                                        \
    {                                                                                         \
        name, prefix##_defaults, prefix##_check, prefix##_create, prefix##_size,              \
            prefix##_ask, prefix##_tell, prefix##_save, prefix##_restore, prefix##_destroy    \
    }

CET_STRATEGY_DECLARE(cet_strategy_ga)    /* strategy_ga.c */
CET_STRATEGY_DECLARE(cet_strategy_cmaes) /* strategy_cmaes.c */

#endif
