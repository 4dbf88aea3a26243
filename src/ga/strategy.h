/* Search strategies (docs/api.md, "Search strategies"): what decides which
 * genomes a generation evaluates and learns from their results.  The GA
 * object (ga_internal.h) keeps what every strategy shares: the options, the
 * description, the random stream, the archive, the history, the counters,
 * the stop rule and racing.  A strategy's own state is opaque outside its
 * file; cet_ga_save / cet_ga_restore (state.c) store it in a checkpoint
 * under the member "strategy".
 *
 * A generation (evolve.c) is: ask -> archive look-up/insert -> evaluate
 * (chunks, racing, cancel) -> tell -> statistics -> stop rule.
 *
 * Adding a strategy: a file with its six functions, an enum value in
 * include/cetune/ga.h, a row and a name in strategy.c. */
#ifndef CETUNE_GA_STRATEGY_H
#define CETUNE_GA_STRATEGY_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cetune/error.h"
#include "cetune/ga.h"
#include "util/json.h"

struct cet_strategy {
    const char *name; /* as --strategy, run.json and checkpoints name it */
    /* Allocates the strategy's state once cet_ga_setup has checked the
     * options and the seeds are known (ga->seeds, ga->nseeds; --seed-config
     * included).  Not called for a GA restored from a checkpoint (restore
     * made the state).  It may set ga->opt.pop (its own lambda): setup
     * sizes the population after it. */
    int (*create)(struct cet_ga *ga, void **state, struct cet_error *err);
    /* Proposes the next generation into cand (room for ga->opt.pop
     * genomes): normalised, never forbidden; returns how many.  Draws only
     * from ga->rng.  MUST NOT change *state: a cancelled generation is
     * undone by restoring ga->rng and the archive, so every state change
     * happens in tell. */
    size_t (*ask)(struct cet_ga *ga, const void *state, double *cand);
    /* Learns from the evaluated generation: when evaluated[k], idx[k] is the
     * archive index of cand[k] (its results are in the archive: fit, viol,
     * ...); otherwise cand[k] was left unevaluated (the --max-evals budget
     * ran out) and idx[k] means nothing.  With racing, cand/idx are the generation's members (cand
     * copied from the archive), the same whether or not the generation was
     * paused and resumed.  Sets the new population ga->pop / ga->npop (best
     * first), which statistics, report and checkpoints read.  0 or -1 with
     * err filled. */
    int (*tell)(struct cet_ga *ga, void *state, const double *cand, const size_t *idx,
                const uint8_t *evaluated, size_t n, struct cet_error *err);
    /* The state as a JSON object (exact doubles: cet_json_exact), NULL when
     * out of memory.  cet_ga_save adds the member "name". */
    cJSON *(*save)(const void *state);
    /* Rebuilds the state from what save wrote (j, an object of doc, for
     * error positions).  It must validate everything it reads (the
     * checkpoint fuzzer feeds it garbage): a clear error naming
     * file:line:col (cet_json_fail), never a crash.  Called after the
     * options, seeds, archive and population were restored. */
    int (*restore)(struct cet_ga *ga, void **state, const struct cet_json *doc, const cJSON *j,
                   struct cet_error *err);
    void (*destroy)(void *state);
};

/* By enum cet_strategy_kind; a row without functions is not built. */
extern const struct cet_strategy cet_strategies[CET_STRATEGY_COUNT];

/* The index of the strategy called name, or -1. */
int cet_strategy_find(const char *name);

/* Declares a strategy's functions prefix_create ... prefix_destroy, which
 * its row in strategy.c names. */
#define CET_STRATEGY_DECLARE(prefix)                                                          \
    int prefix##_create(struct cet_ga *ga, void **state, struct cet_error *err);              \
    size_t prefix##_ask(struct cet_ga *ga, const void *state, double *cand);                  \
    int prefix##_tell(struct cet_ga *ga, void *state, const double *cand, const size_t *idx,  \
                      const uint8_t *evaluated, size_t n, struct cet_error *err);             \
    cJSON *prefix##_save(const void *state);                                                  \
    int prefix##_restore(struct cet_ga *ga, void **state, const struct cet_json *doc,         \
                         const cJSON *j, struct cet_error *err);                              \
    void prefix##_destroy(void *state);
/* The row of a strategy declared with CET_STRATEGY_DECLARE. */
#define CET_STRATEGY_ROW(name, prefix)                                                        \
    {                                                                                         \
        name, prefix##_create, prefix##_ask, prefix##_tell, prefix##_save, prefix##_restore,  \
            prefix##_destroy                                                                  \
    }

CET_STRATEGY_DECLARE(cet_strategy_ga)    /* strategy_ga.c */
CET_STRATEGY_DECLARE(cet_strategy_cmaes) /* strategy_cmaes.c */

#endif
