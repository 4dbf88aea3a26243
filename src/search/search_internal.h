/* The engine's private side, shared inside libcetune but not part of its
 * public API (include/cetune/search.h): the engine and the racing state,
 * the operators on the run's random stream, the archive and ranking.  No
 * file outside src/search includes it. */
#ifndef CETUNE_GA_INTERNAL_H
#define CETUNE_GA_INTERNAL_H

#include <gsl/gsl_rng.h>

#include "cetune/buf.h"
#include "cetune/search.h"
#include "race.h"
#include "space/space.h"

/* Private to src/search: everything else reads the engine through include/cetune/search.h
 * and writes or reads its state through state.h. */
struct cet_search {
    struct cet_search_options opt;
    const struct cet_params_desc *desc;
    size_t ngenes, nfull;         /* genes; extractor parameters */
    gsl_rng *rng;
    gsl_rng *rng_saved;           /* the state before the generation in progress */
    int ready;                    /* cet_search_setup done */

    double *seeds;                /* injected into generation 0: nseeds x ngenes */
    size_t nseeds;

    /* The archive: every evaluated genome once, in evaluation order. */
    double *genes;                /* narch x ngenes */
    double *fit, *prec, *rec;     /* fit: the objective (--pareto: mean F1) */
    double *f1, *words, *viol;    /* mean F1, mean extracted words, constraint violation */
    double *obj;                  /* narch x CET_MAX_PARETO: the Pareto objectives */
    long *born;                   /* generation of its evaluation */
    uint32_t *ndone;              /* documents it was evaluated on */
    uint8_t *raced;               /* 1: raced out (fit is the mean over ndone documents) */
    size_t narch, cap;
    uint32_t *slots;              /* hash of normalised genome -> archive index + 1
                                     (archive.c) */
    size_t nslots;

    void *strategy_state;         /* cet_strategies[opt.strategy]'s (strategy.h) */
    int strategy_ready;           /* strategy_state made (setup or a checkpoint) */

    size_t *pop;                  /* archive indices of the current generation */
    size_t npop;

    long gen;                     /* last complete generation, -1 before the first */
    long evals;                   /* evaluations so far */
    size_t ndocs;                 /* documents of a full evaluation (set before
                                     cet_search_setup; only counted) */
    long doc_evals;               /* (individual, document) evaluations so far */
    struct cet_race *race;        /* racing state (cet_search_race_setup), or NULL */
    double best_ref;              /* best fitness at the last improvement */
    long last_improve;            /* generation of the last improvement */
    long evals_improve;           /* evaluations at the last improvement */
    double elapsed;               /* wall-clock seconds of complete generations, including
                                     the caller's work between them, across resumes */
    double t_last;                /* when the last generation of this process ended */
    enum cet_stop stop;

    struct cet_search_stats *hist;    /* one row per complete generation */
    size_t nhist, hist_cap;

    /* The checkpoint's archive rows formatted so far (state.c), kept so
     * each checkpoint formats only the rows added since the last. */
    struct cet_buf json_rows;
    size_t njson_rows;

    cet_search_eval_fn eval;
    cet_search_measure_fn measure;
    cet_search_cancel_fn cancel;
    void *ctx;
};

/* ---- stopping (stop.c) ---- */

/* Updates the improvement record after generation engine->gen and sets engine->stop. */
void cet_search_check_stop(struct cet_search *engine);

/* ---- what a strategy sees (evolve.c) ---- */

struct cet_search_view;
/* The search as the strategies see it (strategy.h): valid until the engine
 * changes. */
void cet_search_view(const struct cet_search *engine, struct cet_search_view *v);


/* ---- the archive (archive.c) ---- */

/* Archive entry i's genome. */
static inline const double *cet_search_genome(const struct cet_search *engine, size_t i)
{
    return engine->genes + i * engine->ngenes;
}
/* Appends genome g (normalised, not yet evaluated) to the archive, its
 * index into *at; 0 or -1 when out of memory. */
int cet_search_archive_add(struct cet_search *engine, const double *g, long born, size_t *at);
/* Drops the entries from narch on, rebuilding the hash table in place (no
 * allocation, so it cannot fail). */
void cet_search_archive_truncate(struct cet_search *engine, size_t narch);
/* Adds genome g (normalised) to the archive with known results, as if it
 * had been evaluated in generation born; 0 or -1 when out of memory. */
int cet_search_archive_put(struct cet_search *engine, const double *g, long born, double f, double p,
                       double r);
/* Sets archive entry i's results from what one evaluation measured
 * (objective.h). */
void cet_search_archive_measures(struct cet_search *engine, size_t i, const struct cet_measures *m);

/* ---- ranking (rank.c) ---- */

/* Sorts archive indices v[0..n) best first (Deb's rules: feasible before
 * infeasible, smaller violation first, then fitness, then evaluation
 * order; raced-out individuals last); -1 when out of memory. */
int cet_search_rank_sort(const struct cet_search *engine, size_t *v, size_t n);

/* race.c, for evolve.c (the racing of a generation's new individuals). */
void cet_race_free(struct cet_race *R);
/* The generation's members (archive indices) and its new individuals,
 * archive first .. first+n: racing starts. */
void cet_search_race_begin(struct cet_search *engine, const size_t *members, size_t nmembers, size_t first,
                        size_t n);
/* Evaluates blocks until every new individual is fully evaluated or raced
 * out: 0, 1 when cancelled, -1 on error. */
int cet_search_race_run(struct cet_search *engine, struct cet_error *err);
/* The generation is complete; a new best becomes the incumbent. */
void cet_search_race_end(struct cet_search *engine);

#endif
