/* The search engine (Gottron 2008, section 4; docs/papers.md): generation
 * after generation, a search strategy (the genetic algorithm "ga" or
 * CMA-ES, "cmaes") proposes parameter settings of one extractor, described
 * by a parameter description (params.h), and the engine evaluates them
 * until the best fitness (mean word F1 on the training sample) stops
 * improving.  The engine, struct cet_search, keeps what every strategy
 * shares: the archive, the history, the counters, the stop rule, racing
 * and the checkpoint.  (In 0.1.0 it was struct cet_ga with cet_ga_*
 * functions: the end of this header maps those names for one release.)
 *
 * The lifecycle follows PGAPack: cet_search_new (defaults),
 * cet_search_set_options, cet_search_add_seed, cet_search_setup (validate,
 * seed the random stream; a search restored from a checkpoint keeps its
 * stream), then cet_search_generation until cet_search_status says it
 * stopped, cet_search_free.  The engine is opaque
 * (src/search/search_internal.h); the strategies and the GA's operators, which
 * draw from its random stream, are private (src/search/strategy.h,
 * src/ga/operators.h).
 *
 * Reproducibility: every random draw comes from one gsl_rng (MT19937) on the
 * calling thread, seeded from opt.seed, in a fixed order; fitness comes from
 * an evaluation callback whose results do not depend on threads (eval.h).
 * So the same seed gives the same run for any thread count, and a run
 * restored from a checkpoint continues exactly as if never stopped.
 *
 * Genomes are normalised (cet_genome_normalise, cetune/params.h) before
 * they are used, so the archive, keyed on the normalised genome, never
 * evaluates a genome twice. */
#ifndef CETUNE_SEARCH_H
#define CETUNE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/error.h"
#include "cetune/eval.h"
#include "cetune/split.h"
#include "cetune/objective.h"
#include "cetune/params.h"

CET_BEGIN_DECL

/* Search strategies: indices into cet_strategies (src/search/strategy.c).  A
 * strategy decides which genomes each generation evaluates and learns from
 * their results; the engine keeps the archive, history, counters, stop
 * rule and racing that all strategies share. */
enum cet_strategy_kind {
    CET_STRATEGY_AUTO = -1, /* chosen by the description when options are given (cet_strategy_default) */
    CET_STRATEGY_GA,
    CET_STRATEGY_CMAES,
    CET_STRATEGY_COUNT
};
/* Parent selection schemes: indices into cet_selections (select.c). */
enum cet_select { CET_SELECT_TOURNAMENT, CET_SELECT_TRUNCATION, CET_SELECT_COUNT };
/* Recombination schemes: indices into cet_crossovers (crossover.c). */
enum cet_cross { CET_CROSS_UNIFORM, CET_CROSS_COUNT };

enum cet_stop {
    CET_STOP_NONE = 0,
    CET_STOP_GENERATIONS, /* --generations reached */
    CET_STOP_PATIENCE,    /* no improvement above epsilon for --patience generations */
    CET_STOP_EVALS,       /* --max-evals reached */
    CET_STOP_TIME,        /* --time reached */
    CET_STOP_EXHAUSTED,   /* nothing new left to try (tiny search spaces) */
};

/* The search options.  Each has one row in cet_search_options (src/search/options.c),
 * which gives its name, type, default, range, the strategies that read it
 * and its help: defaults, checks, run.json, checkpoints, the folds'
 * arguments, `evolve --help` and the man page all come from that table.  A
 * field's name is the option's name: its key in run.json and checkpoints,
 * and with '-' for '_' its command-line flag. */
struct cet_search_options {
    enum cet_strategy_kind strategy; /* the search strategy (by the description: ga or cmaes) */
    size_t pop;             /* individuals per generation (0: the strategy's own; ga 20) */
    long generations;       /* at most this many, the first is the initial one (50) */
    long patience;          /* stop after this many generations without improvement (5; 0 = never) */
    long patience_evals;    /* ... and at least this many evaluations (0: the strategy's own;
                               -1: none, as checkpoints written before it) */
    double epsilon;         /* an improvement must exceed this (1e-4) */
    long max_evals;         /* evaluations budget (0 = none) */
    double time;            /* seconds (wall clock, from the first generation on; 0 = none) */
    size_t elite;           /* best distinct individuals copied unchanged (2) */
    enum cet_select select; /* parent selection (tournament) */
    enum cet_cross crossover; /* recombination (uniform) */
    size_t tournament;      /* tournament size (3) */
    double truncation;      /* truncation: the best fraction that may be parents (0.5) */
    double crossover_rate;  /* chance a child is recombined from two parents, else mutated (0.5) */
    double mutation_rate;   /* chance each gene of a mutated child changes (0 = 1/genes) */
    double mutation_sigma;  /* Gaussian mutation spread, fraction of the range (0.1) */
    int adaptive;           /* widen mutation_sigma while the run stagnates (0) */
    double adapt_factor;    /* mutation_sigma times this per stagnant generation, up to 0.5 (1.5) */
    double resolution;      /* float grid, fraction of the range (1e-4; 0 = exact doubles) */
    uint64_t seed;          /* the run seed (1) */
    struct cet_goal goal;   /* what is optimised: objective, constraint, pareto (objective.h) */
    int race;               /* race new individuals against the incumbent (race.c; 0) */
    size_t race_first;      /* documents before the first test (20) */
    size_t race_block;      /* documents between tests (10) */
    double race_alpha;      /* significance level of each test (0.2) */
    double race_weak;       /* pages where the incumbent's F1 is below this are scored
                               first, before the blocks (0.5; 0: none) */
};

/* ---- the search options' table (options.c) ---- */

enum cet_option_type {
    CET_OPT_SIZE,       /* size_t */
    CET_OPT_LONG,       /* long */
    CET_OPT_DOUBLE,     /* double */
    CET_OPT_SECONDS,    /* double: seconds, or a number with s, m or h */
    CET_OPT_FLAG,       /* int 0/1: a flag without argument, a JSON boolean */
    CET_OPT_SEED,       /* uint64_t: a JSON string of digits (doubles cannot hold 2^64) */
    CET_OPT_ENUM,       /* an enum: one of values */
    CET_OPT_OBJECTIVE,  /* struct cet_goal's objective */
    CET_OPT_CONSTRAINT, /* struct cet_goal's constraints: repeatable, a JSON array */
    CET_OPT_PARETO,     /* struct cet_goal's Pareto objectives: "a,b[,c]", a JSON array */
};
enum {
    CET_OPT_OPEN_MIN = 1, /* min itself is outside the range */
    CET_OPT_LATER = 2,    /* added after the first checkpoints: when absent it reads as `absent` */
    CET_OPT_ZERO_OWN = 4, /* 0, outside the range, is the strategy's own choice */
};
struct cet_option {
    const char *name;   /* the field, the run.json and checkpoint key; the flag with '-' */
    const char *arg;    /* the argument's name in help ("N"); NULL for flags and enums */
    enum cet_option_type type;
    size_t off;         /* offsetof in struct cet_search_options */
    double def;         /* the default (an enum's index; unused by the goal's rows) */
    double min, max;    /* the range of numbers */
    const char *const *values; /* CET_OPT_ENUM: the names, NULL-terminated */
    unsigned strategies;/* 1 << enum cet_strategy_kind for each strategy that reads it */
    unsigned flags;     /* CET_OPT_OPEN_MIN, CET_OPT_LATER */
    double absent;      /* CET_OPT_LATER: the value of a checkpoint without it */
    const char *old_name; /* its key in checkpoints written before the table, or NULL */
    const char *def_text; /* the default in words, where the number does not say it */
    const char *help;   /* one line */
};
/* Every search option, ending with a row whose name is NULL. */
extern const struct cet_option cet_search_options[];
/* The row called name (its key, or its flag without "--"), or NULL. */
const struct cet_option *cet_search_option_find(const char *name);
/* The row's command-line flag, "--" and its name with '-' for '_'. */
void cet_option_flag(const struct cet_option *row, char *buf, size_t size);
/* Parses arg (NULL for a flag) as the row's value into the options o,
 * checked against its range; a constraint is added to those before.
 * 0, or -1 with err naming the flag and what it expects. */
int cet_option_parse(const struct cet_option *row, struct cet_search_options *o, const char *arg,
                     struct cet_error *err);
/* The command-line words that set every search option of o to its value
 * (numbers exact), for cet_option_parse or `cetune evolve`: a flag is
 * given only when set, a constraint once per constraint, the Pareto
 * objectives only when there are some, pop only when not 0.  The caller
 * frees each word and *argv.  0 or -1 (out of memory). */
int cet_search_options_argv(const struct cet_search_options *o, char ***argv, size_t *n,
                            struct cet_error *err);

/* Computes mean F1, precision and recall of k full parameter vectors
 * (k x ex->nparams); returns 0 or -1 with err filled.  Every value must be
 * finite (a NaN or infinity fails the generation). */
typedef int (*cet_search_eval_fn)(void *ctx, const double *params, size_t k, double *f1, double *p,
                              double *r, struct cet_error *err);
/* Measures k full parameter vectors under the options' goal into m[0..k)
 * (cet_goal_measure); returns 0 or -1 with err filled.  Used instead of
 * cet_search_eval_fn when given to cet_search_set_measure. */
typedef int (*cet_search_measure_fn)(void *ctx, const double *params, size_t k,
                                 struct cet_measures *m, struct cet_error *err);
/* Racing: scores k full parameter vectors on the training documents
 * docs[0..n) (indices of the training sample) into scores[j*n + i];
 * returns 0 or -1 with err filled.  Results must not depend on threads. */
typedef int (*cet_search_score_fn)(void *ctx, const double *params, size_t k, const uint32_t *docs,
                               size_t n, struct cet_score *scores, struct cet_error *err);
/* Polled between evaluation chunks (racing: between blocks): non-zero
 * abandons the generation (racing: pauses it, see cet_search_generation). */
typedef int (*cet_search_cancel_fn)(void *ctx);

/* One generation's statistics (a row of generations.csv). */
struct cet_search_stats {
    long generation;
    long evaluations;           /* total so far */
    double best, mean, worst, std;
    double diversity;           /* mean over genes of the spread of normalised values */
    double seconds;             /* wall clock since generation 0 began (not reproducible) */
    long doc_evaluations;       /* (individual, document) evaluations so far */
};

/* The search engine (its definition is private: src/search/search_internal.h).
 * Read it with the functions below. */
struct cet_search;

/* Where a search stands after its last complete generation. */
struct cet_search_status {
    long gen;           /* last complete generation, -1 before the first */
    long evals;         /* evaluations so far */
    long doc_evals;     /* (individual, document) evaluations so far */
    size_t ndocs;       /* documents of a full evaluation */
    size_t narch;       /* individuals evaluated so far (the archive) */
    size_t ncomplete;   /* of those, the ones of complete generations (all but a
                           paused raced generation's) */
    double elapsed;     /* wall-clock seconds of complete generations, across resumes */
    enum cet_stop stop; /* CET_STOP_NONE while it goes on */
    /* Racing: a generation paused between blocks (a checkpoint resumes
     * it), with race_done of race_ndocs documents in racing order scored. */
    int race_pending;
    size_t race_done, race_ndocs;
};
/* One evaluated individual (an archive entry), in the engine's memory: valid
 * until the next generation. */
struct cet_individual {
    const double *genes;  /* ngenes normalised values (cet_search_desc(engine)->genes) */
    double fit;           /* the objective (--pareto: mean F1) */
    double prec, rec, f1; /* means over the documents it was evaluated on */
    double words;         /* mean extracted words */
    double viol;          /* constraint violation (0: feasible) */
    const double *obj;    /* CET_MAX_PARETO Pareto objectives */
    long born;            /* generation of its evaluation */
    uint32_t ndone;       /* documents it was evaluated on */
    int raced;            /* 1: raced out (its means are over ndone documents) */
};

void cet_search_status(const struct cet_search *engine, struct cet_search_status *st);
/* Archive entry i (i < narch), in evaluation order. */
void cet_search_individual(const struct cet_search *engine, size_t i, struct cet_individual *ind);
/* Shortcuts of cet_search_individual: archive entry i's genes, fitness and
 * CET_MAX_PARETO Pareto objectives. */
const double *cet_search_genes(const struct cet_search *engine, size_t i);
double cet_search_fitness(const struct cet_search *engine, size_t i);
const double *cet_search_objectives(const struct cet_search *engine, size_t i);
/* The current population: *n archive indices, best first (--pareto: in
 * NSGA-II's crowded order). */
const size_t *cet_search_population(const struct cet_search *engine, size_t *n);
/* Racing: the training documents in racing order, *n of them; NULL
 * without racing. */
const uint32_t *cet_search_race_order(const struct cet_search *engine, size_t *n);
/* One row per complete generation, *n rows. */
const struct cet_search_stats *cet_search_history(const struct cet_search *engine, size_t *n);
const struct cet_search_options *cet_search_opts(const struct cet_search *engine);
const struct cet_params_desc *cet_search_desc(const struct cet_search *engine);

/* Fills o with the defaults listed above. */
void cet_search_default_options(struct cet_search_options *o);
/* Creates a search of desc (which must outlive it) with default options. */
int cet_search_new(struct cet_search **out, const struct cet_params_desc *desc, struct cet_error *err);
/* Replaces the options (before cet_search_setup). */
void cet_search_set_options(struct cet_search *engine, const struct cet_search_options *o);
/* The number of documents of a full evaluation (before cet_search_setup; it is
 * only counted, and racing orders that many). */
void cet_search_set_ndocs(struct cet_search *engine, size_t ndocs);
/* Adds an individual to the first generation (after the description's
 * seeds), from a full parameter vector; fails when a described value is
 * outside the description. */
int cet_search_add_seed(struct cet_search *engine, const double *full, struct cet_error *err);
/* The genome of seed k: the description's seeds first, then those of
 * cet_search_add_seed in order (kept in the checkpoint); NULL past the last. */
const double *cet_search_seed(const struct cet_search *engine, size_t k);
/* Checks the options (and the seeds against the population). */
int cet_search_check(const struct cet_search *engine, struct cet_error *err);
/* Checks the options and seeds the random stream.  eval computes fitness;
 * cancel (may be NULL) is polled during evaluation. */
int cet_search_setup(struct cet_search *engine, cet_search_eval_fn eval, cet_search_cancel_fn cancel, void *ctx,
                 struct cet_error *err);
/* Racing (opt.race): after cet_search_setup, gives the per-document scoring
 * function (called with setup's ctx) and the racing order of the ndocs
 * training documents (cet_race_order; copied).  A search restored from a
 * checkpoint keeps its stored order and ignores this one. */
int cet_search_race_setup(struct cet_search *engine, cet_search_score_fn score, const uint32_t *order,
                      struct cet_error *err);
/* Breeds, evaluates and ranks the next generation; then decides whether the
 * run stops (cet_search_status: stop).  Returns 0; CET_CANCELLED when cancel
 * asked to stop (the generation is abandoned and the search is left as before
 * the call; with racing the generation is paused instead, cet_search_status:
 * race_pending, and a
 * checkpoint written now resumes it at the next block); -1 on error. */
int cet_search_generation(struct cet_search *engine, struct cet_error *err);
void cet_search_free(struct cet_search *engine);
/* Evaluates with measure instead of setup's eval from now on (setup's ctx). */
void cet_search_set_measure(struct cet_search *engine, cet_search_measure_fn measure);

/* Human name of a stop reason ("patience", ...). */
const char *cet_search_stop_name(enum cet_stop s);
/* The best distinct individuals, at most max, best first: individuals with
 * exactly the same fitness, precision and recall behave alike on the sample
 * and count once (the first found stands for them).  Raced-out individuals
 * are never among them.  The caller frees *out. */
int cet_search_top(const struct cet_search *engine, size_t max, size_t **out, size_t *n);
/* The archive index of the best fully evaluated individual (--pareto: the
 * highest mean F1 on the front, cet_search_front) into *best: 0, CET_ENOTFOUND
 * before any evaluation, or CET_ERROR when out of memory (--pareto). */
int cet_search_best(const struct cet_search *engine, size_t *best);
/* --pareto: the archive's non-dominated individuals (constrained
 * domination on the Pareto objectives), one per distinct objective vector,
 * in evaluation order; the caller frees *out. */
int cet_search_front(const struct cet_search *engine, size_t **out, size_t *n);
/* The archive index of genome g into *at: 0, or CET_ENOTFOUND when g was
 * never evaluated. */
int cet_search_lookup(const struct cet_search *engine, const double *g, size_t *at);

/* ---- strategies and operators by name (strategy.c, select.c) ---- */

/* The search strategies' names, by enum cet_strategy_kind; NULL-terminated. */
extern const char *const cet_strategy_names[CET_STRATEGY_COUNT + 1];
/* The strategy that searches d best by the measurements of docs/cmaes.md:
 * cmaes for 10 or more genes that are all floats and unconditional, ga
 * otherwise. */
enum cet_strategy_kind cet_strategy_default(const struct cet_params_desc *d);
/* The selection schemes' names, by enum cet_select; NULL-terminated. */
extern const char *const cet_selection_names[CET_SELECT_COUNT + 1];
/* The crossover schemes' names, by enum cet_cross; NULL-terminated. */
extern const char *const cet_crossover_names[CET_CROSS_COUNT + 1];

/* ---- deprecated: the engine's names in 0.1.0, for one more release ----
 * Source compatibility only: the old names are not exported, so a program
 * built against 0.1.0 is rebuilt.  The library builds with
 * CETUNE_NO_DEPRECATED, so it uses none of them. */
#ifndef CETUNE_NO_DEPRECATED
#define cet_ga cet_search
#define cet_ga_add_seed cet_search_add_seed
#define cet_ga_best cet_search_best
#define cet_ga_cancel_fn cet_search_cancel_fn
#define cet_ga_check cet_search_check
#define cet_ga_default_options cet_search_default_options
#define cet_ga_desc cet_search_desc
#define cet_ga_eval_fn cet_search_eval_fn
#define cet_ga_fitness cet_search_fitness
#define cet_ga_free cet_search_free
#define cet_ga_front cet_search_front
#define cet_ga_generation cet_search_generation
#define cet_ga_genes cet_search_genes
#define cet_ga_history cet_search_history
#define cet_ga_individual cet_search_individual
#define cet_ga_lookup cet_search_lookup
#define cet_ga_measure_fn cet_search_measure_fn
#define cet_ga_new cet_search_new
#define cet_ga_objectives cet_search_objectives
#define cet_ga_options cet_search_options
#define cet_ga_opts cet_search_opts
#define cet_ga_population cet_search_population
#define cet_ga_race_order cet_search_race_order
#define cet_ga_race_setup cet_search_race_setup
#define cet_ga_score_fn cet_search_score_fn
#define cet_ga_seed cet_search_seed
#define cet_ga_set_measure cet_search_set_measure
#define cet_ga_set_ndocs cet_search_set_ndocs
#define cet_ga_set_options cet_search_set_options
#define cet_ga_setup cet_search_setup
#define cet_ga_stats cet_search_stats
#define cet_ga_status cet_search_status
#define cet_ga_stop_name cet_search_stop_name
#define cet_ga_top cet_search_top
#endif

CET_END_DECL

#endif
