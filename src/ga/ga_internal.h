/* The GA's private side, shared inside libcetune but not part of its
 * public API (include/cetune/ga.h): the GA object and the racing state,
 * the operators on the run's random stream, the archive and ranking.  No
 * file outside src/ga includes it. */
#ifndef CETUNE_GA_INTERNAL_H
#define CETUNE_GA_INTERNAL_H

#include <gsl/gsl_rng.h>

#include "cetune/buf.h"
#include "cetune/ga.h"
#include "seed.h"

/* The state of racing (race.c), NULL without it.  Memory: the incumbent's
 * per-document F1 (ndocs doubles) and the scores of one generation's new
 * individuals (pop x ndocs struct cet_score, 40 bytes each), nothing per
 * archived individual but its document count and raced-out flag. */
struct cet_race {
    uint32_t *order;              /* the documents in racing order (ndocs), fixed for the run */
    uint32_t *seq;                /* the generation's order: the incumbent's weak pages
                                     (F1 below race_weak) first, then the others, each
                                     part in racing order (cet_race_sequence) */
    size_t nweak;                 /* how many weak pages seq starts with */
    uint32_t *pos;                /* pos[doc] = its place in seq */
    size_t ndocs;
    size_t incumbent;             /* archive index of the best fully evaluated, or -1 */
    double *inc_f1;               /* its F1 per document (corpus order) */
    cet_ga_score_fn score;
    /* The generation in progress, kept when cancelled between blocks so a
     * checkpoint can resume it: */
    int pending;
    size_t *members;              /* archive indices of the generation (pop) */
    size_t nmembers;
    size_t first, n;              /* its new individuals: archive first .. first+n */
    size_t done;                  /* documents of seq scored so far */
    struct cet_score *scores;     /* n x ndocs (row j by document index) */
};

/* Private to src/ga: everything else reads a GA through include/cetune/ga.h
 * and writes or reads its state through state.h. */
struct cet_ga {
    struct cet_ga_options opt;
    const struct cet_params_desc *desc;
    size_t ngenes, nfull;         /* genes; extractor parameters */
    gsl_rng *rng;
    gsl_rng *rng_saved;           /* the state before the generation in progress */
    int ready;                    /* cet_ga_setup done */

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
                                     cet_ga_setup; only counted) */
    long doc_evals;               /* (individual, document) evaluations so far */
    struct cet_race *race;        /* racing state (cet_ga_race_setup), or NULL */
    double best_ref;              /* best fitness at the last improvement */
    long last_improve;            /* generation of the last improvement */
    double elapsed;               /* wall-clock seconds of complete generations, including
                                     the caller's work between them, across resumes */
    double t_last;                /* when the last generation of this process ended */
    enum cet_stop stop;

    struct cet_ga_stats *hist;    /* one row per complete generation */
    size_t nhist, hist_cap;

    /* The checkpoint's archive rows formatted so far (state.c), kept so
     * each checkpoint formats only the rows added since the last. */
    struct cet_buf json_rows;
    size_t njson_rows;

    cet_ga_eval_fn eval;
    cet_ga_measure_fn measure;
    cet_ga_cancel_fn cancel;
    void *ctx;
};

/* ---- genomes (genome.c) ---- */

/* A random genome, uniform (or log-uniform) within the ranges, normalised. */
void cet_genome_random(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                       double *g);

/* ---- the seeded document order (shuffle.c) ---- */

/* Each package's documents in a seeded random order, for folds.c and
 * race.c: perm[pk->first .. pk->first + pk->count) becomes a permutation
 * of that range, drawn from stream `stream` of seed (c's packages cover
 * docs[0 .. ndocs), so perm holds c->ndocs entries). */
int cet_shuffle_packages(uint32_t *perm, const struct cet_corpus *c, uint64_t seed,
                         uint64_t stream, struct cet_error *err);

/* ---- operators (select.c, crossover.c, mutate.c) ---- */

/* The operator tables: adding a scheme is a file with its function, an
 * enum value and a row.  A row names the scheme (as options, run.json and
 * checkpoints say it), says which options it reads (`uses`: the option
 * names in checkpoints, which always store every option) and calls it. */
struct cet_selection {
    const char *name;
    const char *uses;
    /* A parent's rank among n individuals ranked best first. */
    size_t (*pick)(gsl_rng *rng, size_t n, const struct cet_ga_options *o);
};
extern const struct cet_selection cet_selections[CET_SELECT_COUNT];
struct cet_crossover {
    const char *name;
    const char *uses;
    void (*cross)(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                  const double *a, const double *b, double *child);
};
extern const struct cet_crossover cet_crossovers[CET_CROSS_COUNT];
/* The index of the selection or crossover scheme called name, or -1
 * (checkpoints name them). */
int cet_selection_find(const char *name);
int cet_crossover_find(const char *name);

/* Picks a parent among n individuals ranked best first (rank 0 is best) and
 * returns its rank. */
size_t cet_select_tournament(gsl_rng *rng, size_t n, size_t size);
size_t cet_select_truncation(gsl_rng *rng, size_t n, double fraction);
/* Uniform crossover per gene; correlated groups are blended instead: one
 * weight w ~ U(0,1) per group, child = w a + (1-w) b (in log space for log
 * genes).  A gene active in one parent only is copied from it.  The child
 * is normalised. */
void cet_crossover(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                   const double *a, const double *b, double *child);
/* Mutates each active gene with probability rate (0: 1/active genes; at
 * least one gene always):
 * Gaussian with spread sigma x range (integers move at least one step),
 * booleans flip, enums take another allowed value.  Normalised after. */
void cet_mutate(const struct cet_params_desc *d, double resolution, gsl_rng *rng, double rate,
                double sigma, double *g);
/* When g is forbidden, changes one gene (chosen uniformly) of the first
 * forbidden combination it matches, as a mutation would, and normalises;
 * g may match another combination after. */
void cet_repair(const struct cet_params_desc *d, double resolution, gsl_rng *rng, double sigma,
                double *g);

/* ---- stopping (stop.c) ---- */

/* Updates the improvement record after generation ga->gen and sets ga->stop. */
void cet_ga_check_stop(struct cet_ga *ga);
/* The mutation spread in force: sigma, widened while stagnating when adaptive. */
double cet_ga_sigma(const struct cet_ga *ga);


/* ---- the archive (archive.c) ---- */

/* Archive entry i's genome. */
static inline const double *cet_ga_genome(const struct cet_ga *ga, size_t i)
{
    return ga->genes + i * ga->ngenes;
}
/* Appends genome g (normalised, not yet evaluated) to the archive; returns
 * its index or (size_t)-1 when out of memory. */
size_t cet_ga_archive_add(struct cet_ga *ga, const double *g, long born);
/* Drops the entries from narch on, rebuilding the hash table in place (no
 * allocation, so it cannot fail). */
void cet_ga_archive_truncate(struct cet_ga *ga, size_t narch);
/* Adds genome g (normalised) to the archive with known results, as if it
 * had been evaluated in generation born; 0 or -1 when out of memory. */
int cet_ga_archive_put(struct cet_ga *ga, const double *g, long born, double f, double p,
                       double r);
/* Sets archive entry i's results from what one evaluation measured
 * (objective.h). */
void cet_ga_archive_measures(struct cet_ga *ga, size_t i, const struct cet_measures *m);

/* ---- ranking (rank.c) ---- */

/* Sorts archive indices v[0..n) best first (Deb's rules: feasible before
 * infeasible, smaller violation first, then fitness, then evaluation
 * order; raced-out individuals last); -1 when out of memory. */
int cet_ga_rank_sort(const struct cet_ga *ga, size_t *v, size_t n);

/* race.c, for evolve.c (the racing of a generation's new individuals). */
void cet_race_free(struct cet_race *R);
/* Puts the generation's sequence in R->seq, R->nweak and R->pos from the
 * run's order and the incumbent's F1 (no weak pages without an incumbent
 * or with weak 0).  Called when a generation starts, and by a checkpoint
 * restoring one in progress. */
void cet_race_sequence(struct cet_race *R, double weak);
/* 1 when new individual j is significantly worse than the incumbent at
 * alpha on the documents of the sequence scored so far; d is scratch of
 * ndocs (race.c). */
int cet_ga_race_worse(const struct cet_race *R, size_t j, double alpha, double *d);
/* The generation's members (archive indices) and its new individuals,
 * archive first .. first+n: racing starts. */
void cet_ga_race_begin(struct cet_ga *ga, const size_t *members, size_t nmembers, size_t first,
                        size_t n);
/* Evaluates blocks until every new individual is fully evaluated or raced
 * out: 0, 1 when cancelled, -1 on error. */
int cet_ga_race_run(struct cet_ga *ga, struct cet_error *err);
/* The generation is complete; a new best becomes the incumbent. */
void cet_ga_race_end(struct cet_ga *ga);

#endif
