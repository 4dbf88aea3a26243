/* A tuning run and its directory, end to end (docs/formats.md, "Run
 * directory"): the training sample, the search, the files written after every
 * generation, the checkpoint a run resumes from, validation.
 *
 * Lifecycle of a new run:
 *   cet_run_new (description + options) -> cet_search_add_seed on cet_run_search
 *   (optional) -> cet_run_check -> cet_run_claim (the directory) ->
 *   cet_run_start (the training sample) -> cet_run_step until
 *   cet_run_stopped -> cet_run_finish
 *   (or cet_run_interrupt) -> cet_run_validate (optional) -> cet_run_free.
 * A run on disk: cet_run_open -> cet_run_resume -> cet_run_step ... as above.
 *
 * Every file of a run directory is written atomically (cet_write_atomic),
 * so the directory is consistent whenever the process stops.  Nothing here
 * prints: the caller reports progress from cet_run_search and the skipped
 * documents from cet_run_train. */
#ifndef CETUNE_RUN_H
#define CETUNE_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/choice.h"
#include "cetune/common.h"
#include "cetune/corpus.h"
#include "cetune/error.h"
#include "cetune/eval.h"
#include "cetune/search.h"
#include "cetune/objective.h"
#include "cetune/rundir.h" /* the names of the run directory's files, its lock */

CET_BEGIN_DECL

/* ---- where the training sample is loaded and evaluated ---- */

/* Where the training sample is loaded and evaluated: struct cet_backend,
 * eval.h (this process by default; the MPI build's spreads the documents
 * over the ranks, src/mpi/cluster.h). */

/* ---- training samples (sample.c) ---- */

/* Draws n documents from the entries into want (1 = drawn): per package a
 * quota in proportion to its usable documents (largest remainders), or the
 * same share for every package when by_package; within a package a seeded
 * permutation of all its entries, taking the first usable ones.  usable may
 * be NULL (all usable).  *drawn receives the number drawn (less than n when
 * there are fewer usable documents). */
int cet_sample_draw(uint8_t *want, const struct cet_entries *e, const uint8_t *usable, size_t n,
                    uint64_t seed, int by_package, size_t *drawn, struct cet_error *err);
/* Appends the sample file of a loaded corpus: PACKAGE/NAME per document;
 * -1 when out of memory. */
int cet_sample_format(struct cet_buf *out, const struct cet_corpus *c);

/* Scans the corpora and loads a seeded sample of n documents: documents
 * without gold are never drawn, and one that fails to load is replaced by
 * the next of its package until the sample loads whole.  *drawn is the
 * sample's size (below n when the corpora have fewer usable documents),
 * *replaced the number of replacements; c->skips lists every document that
 * failed, over all the draws (c may end up empty: the caller decides).
 * flags: what to keep (CET_LOAD_*, doc.h), as for cet_corpus_load_dirs (eval.h). */
int cet_sample_load(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                    size_t ndirs, size_t n, uint64_t seed, int by_package, unsigned flags, int threads,
                    const struct cet_backend *be, size_t *drawn, size_t *replaced,
                    struct cet_error *err);
/* ---- what a run is (run.json and the checkpoint) ---- */

/* The significance level of the holdout choice of runs started before
 * cross-validation chose (resumed as they began: choose.c). */
#define CET_HOLDOUT_ALPHA 0.2

struct cet_run_file {
    char *path;
    char digest[17]; /* 16 hex digits of a 64-bit FNV-1a hash of its (gunzipped) bytes */
};

/* How a run chooses best.json (choose.c, docs/choice.md). */
enum cet_choose {
    CET_CHOOSE_SEARCH = 0, /* the search's best training fitness */
    CET_CHOOSE_CV,         /* cross-validation of the search against the start, and the rule
                              of choice.h: the start stays unless tuning gains beyond doubt */
    CET_CHOOSE_COUNT
};
/* Their names, by enum cet_choose ("search", "cv"); NULL-terminated. */
extern const char *const cet_choose_names[CET_CHOOSE_COUNT + 1];
/* The folds of a cross-validated choice on n documents by default: 5, or
 * leave-one-out below 5 documents (0 below 2: no cross-validation). */
long cet_choose_default_folds(size_t n);

struct cet_run_info {
    char *params_path;
    char **dirs;           /* training corpora (absolute) */
    size_t ndirs;
    char *sample_from;     /* the sample file the run was given, or NULL */
    long sample_size;      /* the size of a drawn sample, or -1 */
    long docs;             /* documents in the training sample */
    int by_package;
    size_t top;            /* distinct individuals in top.json and validation */
    char *command;         /* the command line that started the run */
    char **resumed;        /* the command lines that resumed it */
    size_t nresumed;
    char started[32];      /* UTC, ISO 8601 */
    char **validate;       /* validation corpora (absolute), scored at the end */
    size_t nvalidate;
    char adhosts[17];      /* digest of the ad-host list in use (cet_adhosts_digest); "" unknown */
    char *adhosts_file;    /* its file, or NULL (built in) */
    /* Every page and gold file the run trains on (ground-truth.json for
     * article JSON), with a digest of its content (cet_run_data_record):
     * a resume on changed data is refused, naming the first file that
     * differs.  data_recorded 0: a checkpoint from before they were. */
    struct cet_run_file *data;
    size_t ndata;
    int data_recorded;
    long folds;            /* --folds K, or 0 */
    char **template_refs;  /* --fitness template: the reference configurations (absolute);
                              NULL for gold fitness */
    size_t ntemplate_refs;
    int template_defaults; /* --fitness template: the description's defaults are a
                              reference too */
    char **fold_args;      /* the evolve options every fold run gets (with --folds) */
    size_t nfold_args;
    /* The final choice on a holdout (src/run/choose.c).  A tuned setting
     * replaces the defaults when its gain on the holdout's pages has a
     * sign-flip p-value below CET_HOLDOUT_ALPHA. */
    double holdout;        /* the share of the training documents kept out: the run had 1/holdout
                              folds, one of them the holdout (stored with the search options,
                              "holdout"; 0: none, as in every run cross-validation chooses for) */
    long holdout_docs;     /* training documents kept out of the search (holdout.txt); 0: none */
    int has_chosen;        /* 0: not (yet) chosen, best.json is the best training fitness */
    size_t chosen;         /* else the archive index of best.json, chosen on the holdout */
    size_t chosen_rank;    /* its place in the training ranking (1 = top); 0: the defaults */
    double chosen_holdout, defaults_holdout; /* mean F1 on the holdout: best.json, defaults */
    double defaults_train; /* the defaults' fitness on the documents the search used */
    /* The best of the top on the holdout, whether or not it became best.json
     * (the defaults may stay): so a run shows what its search found. */
    size_t top_rank;       /* its place in the training ranking; 0: unknown (older runs) */
    double top_train;      /* its fitness on the documents the search used */
    double top_holdout;    /* its mean F1 on the holdout */
    double top_pvalue;     /* the sign-flip p-value of its gain over the defaults there;
                              NaN: not tested (it is the defaults, or they were not evaluated) */
    /* The final choice by cross-validation (choose.c, folds.c). */
    int choose;            /* enum cet_choose */
    double confidence;     /* the rule's confidence level */
    double tolerance;      /* the loss on unseen pages it accepts (0: a gain beyond doubt,
                              the rule of runs started before it had a tolerance) */
    long fold_evals;       /* evaluations of each fold's search; 0: as the run's */
    double *start;         /* the start's normalised genome (ngenes), NULL before started */
    char *start_from;      /* the --seed-config file it came from (absolute); NULL: defaults */
    int has_estimate;      /* the folds are done: estimate holds the rule's decision */
    struct cet_choice estimate; /* tuning against the start on the held-out folds */
    double start_train;    /* the start's fitness on the training documents (NaN: unknown) */
    int start_outside;     /* best.json is the start, which the search never evaluated */
    /* Site rules (cetune/site.h): part of the tuning procedure, so the folds
     * learn them too and the estimate covers them. */
    int site_learn;        /* learn them from the training pages (checkpoint "site") */
    int guard;             /* their guard (cetune/site.h) too, for a run from a
                              --seed-config (checkpoint "guard") */
    struct cet_site *site; /* learned (once, when first written) as corrections of the
                              search's best (site.json); NULL: none or not yet */
    struct cet_site *site_start; /* learned as corrections of the start, when
                                    cross-validation kept the start's parameters */
    double site_fitness;   /* best.json with its rules on the training pages */
    int site_done;         /* site holds what learning gave (maybe nothing) */
    /* The start with site rules learned as corrections of it: the fallback
     * when the rule keeps the start's parameters (docs/choice.md).  Each
     * fold learns them from its training pages; they are scored on its
     * held-out pages against the start without them. */
    int has_site_estimate;
    struct cet_choice site_estimate;
    /* The start with site rules against the fold bests (candidate 0 the
     * tuned, 1 the start with rules), on the same pages: chosen when the
     * rules did better beyond doubt, which withdraws tuning (folds.c). */
    int has_site_vs_tuned;
    struct cet_choice site_vs_tuned;
};
/* 1 when best.json is the start with site rules: cross-validation kept
 * the start's parameters, and the start with the rules its folds learned
 * did not lose on their held-out pages on average. */
int cet_run_site_start(const struct cet_run_info *info);
/* The site rules best.json carries (NULL: none): site when best.json is
 * what the search found (--choose search, the folds' runs) or what the rule
 * adopted, site_start when cet_run_site_start. */
const struct cet_site *cet_run_best_site(const struct cet_run_info *info);
void cet_run_info_free(struct cet_run_info *info);

/* The cross-validated choice of a run in one sentence (cet_choice_sentence)
 * into buf, naming the weight of its regularisation toward the start when
 * the search of engine (the run's) had one (--shrink), and saying so when
 * the tuned best.json is the start's own parameters (the search on all
 * pages found nothing better: tuning added only site rules, or nothing):
 * 0, or -1 when the run has none (yet). */
int cet_run_choice_text(const struct cet_search *engine, const struct cet_run_info *info,
                        char *buf, size_t size);

/* ---- the run ---- */

struct cet_run;

/* What cet_run_start needs besides the search. */
struct cet_run_settings {
    const char *const *dirs;       /* training corpora, as given */
    size_t ndirs;
    const char *sample_from;       /* the sample file, or NULL */
    long sample_size;              /* the size of a drawn sample, or -1 */
    int by_package;
    const char *const *validate;   /* validation corpora, or NULL */
    size_t nvalidate;
    size_t top;                    /* 0 = 5 */
    const char *command;           /* how the run was started, for run.json */
    int threads;                   /* 0 = all cores */
    long folds;                    /* --folds K (the caller runs them), or 0 */
    const char *const *template_refs; /* --fitness template: the reference configurations
                                         the caller's entries got their pseudo-gold with
                                         (NULL: gold fitness) */
    size_t ntemplate_refs;
    int template_defaults;         /* ... and the description's defaults with them */
    char *const *fold_args;        /* the evolve options of every fold run (copied) */
    size_t nfold_args;
    int choose;                    /* enum cet_choose; CET_CHOOSE_CV needs folds >= 2 */
    double confidence;             /* the rule's level; 0: CET_CHOICE_LEVEL */
    double tolerance;              /* the loss on unseen pages it accepts (0: none, a gain
                                      beyond doubt; the CLI's default CET_CHOICE_TOLERANCE) */
    long fold_evals;               /* evaluations of each fold's search; 0: as the run's */
    int site;                      /* 1: learn site rules from the training pages for the
                                      tuned best.json (cetune/site.h; evolve's default) */
    int guard;                     /* 1: with them, the guard that holds the tuned
                                      parameters to the start where the training pages
                                      show no gold, when the start is a --seed-config
                                      (evolve's default) */
};

/* A run of the description in params_path with the given options (not yet
 * checked: add seeds, then cet_run_check). */
int cet_run_new(struct cet_run **out, const char *params_path,
                const struct cet_search_options *opt, struct cet_error *err);
/* Adds the configuration in path (e.g. an earlier run's best.json) to the
 * first generation; the first one added is the run's start (what the final
 * choice compares with; without one, the defaults).  Its extractor must be
 * the run's.  Parameters the
 * description does not evolve keep their fixed values: *ignored (allocated,
 * one flag per extractor parameter; the caller frees it) marks those where
 * the configuration differs from them. */
int cet_run_add_seed_config(struct cet_run *run, const char *path, uint8_t **ignored,
                            struct cet_error *err);
/* Checks the options and seeds (cet_search_check). */
int cet_run_check(const struct cet_run *run, struct cet_error *err);
/* The run's directory: given without trailing slashes, or by default
 * runs/EXTRACTOR-YYYYMMDD-HHMMSS (local time); allocated, NULL when out of
 * memory. */
char *cet_run_dir_name(const struct cet_run *run, const char *given);
/* Takes dir for the run: creates it when absent and locks it (run.lock,
 * rundir.h) for as long as the run lives; without force, a directory
 * holding files is refused with CET_EEXISTS.  Call it before loading
 * the training sample, so that a bad directory fails at once. */
int cet_run_claim(struct cet_run *run, const char *dir, int force, struct cet_error *err);
/* Starts the claimed run on the training sample train (taken over, with its
 * entries; both left empty): with force, removes the files of an earlier
 * run; writes sample.txt, run.json and the first checkpoint. */
int cet_run_start(struct cet_run *run, const struct cet_run_settings *s, struct cet_corpus *train,
                  struct cet_entries *entries, struct cet_error *err);
/* Locks the run in dir and reads it back from its checkpoint, to go on
 * with `threads` threads (0 = all cores); removes no file. */
int cet_run_open(struct cet_run **out, const char *dir, int threads, struct cet_error *err);
/* Goes on with an opened, unfinished run: refuses an ad-host list in use
 * (adhosts.h) other than the run's, removes dead temporaries, loads its
 * training sample (which must load whole), records command in run.json. */
int cet_run_resume(struct cet_run *run, const char *command, struct cet_error *err);
/* Loads and evaluates the training sample with be (copied; NULL: this
 * process): call it before cet_run_start or cet_run_resume, and load the
 * training sample given to cet_run_start with the same backend. */
void cet_run_set_backend(struct cet_run *run, const struct cet_backend *be);
/* Loads the training sample again with the run's backend and binds the
 * extractor to it, after another run used the same backend (evolve
 * --folds); nothing to do without a backend. */
int cet_run_rebind(struct cet_run *run, struct cet_error *err);
/* cancel (may be NULL) is polled during evaluation; non-zero abandons the
 * generation in progress. */
void cet_run_set_cancel(struct cet_run *run, cet_search_cancel_fn cancel, void *ctx);
/* progress (may be NULL) is told after every generation of the fold runs
 * of cet_run_folds, with the fold run's search (the CLI's progress line). */
typedef void (*cet_run_progress_fn)(void *ctx, const struct cet_search *engine);
void cet_run_set_progress(struct cet_run *run, cet_run_progress_fn progress, void *ctx);
/* One generation: breeds, evaluates, writes the results and the
 * checkpoint.  0, CET_CANCELLED (the run is as before the call), -1 on
 * error (the last checkpoint on disk still resumes). */
int cet_run_step(struct cet_run *run, struct cet_error *err);
/* 1 once the search has stopped (cet_search_status: stop). */
int cet_run_stopped(const struct cet_run *run);
/* Records a cancelled run: checkpoint of the last complete generation and
 * run.json "interrupted". */
int cet_run_interrupt(struct cet_run *run, struct cet_error *err);
/* Records a stopped run: run.json "finished". */
int cet_run_finish(struct cet_run *run, struct cet_error *err);
void cet_run_free(struct cet_run *run);

/* The archive index of what best.json holds into *i: 0, CET_ENOTFOUND
 * before any evaluation or when it is the start, which the search never
 * evaluated (cet_run_info: start_outside), CET_ERROR when out of memory. */
int cet_run_best(const struct cet_run *run, size_t *i);
struct cet_search *cet_run_search(const struct cet_run *run);
#ifndef CETUNE_NO_DEPRECATED
#define cet_run_ga cet_run_search /* its name in 0.1.0 (deprecated, cetune/search.h) */
#endif
const struct cet_run_info *cet_run_info(const struct cet_run *run);
const char *cet_run_dir(const struct cet_run *run);
/* The training sample (empty for an opened run not resumed). */
const struct cet_corpus *cet_run_train(const struct cet_run *run);

/* The described defaults' training fitness: from the archive when they were
 * evaluated, else evaluated once on the training sample (not counted as an
 * evaluation of the run); NAN when unknown.  g (ngenes values) receives
 * their normalised genome. */
double cet_run_defaults_fitness(struct cet_run *run, double *g);

/* ---- cross-validation (folds.c): evolve --folds K ---- */

/* The evolve options every fold run gets, as words (run.json keeps them):
 * the run's own, without its sample, directory, validation, threads and
 * folds; paths absolute.  *args (nargs words, each allocated) is freed with
 * cet_run_fold_args_free. */
int cet_run_fold_args(char ***args, size_t *nargs, const char *params, const char *const *dirs,
                      size_t ndirs, const char *const *seed_configs, size_t nseed_configs,
                      const struct cet_search_options *o, long top, struct cet_error *err);
void cet_run_fold_args_free(char **args, size_t nargs);

/* One fold's line of folds.csv. */
struct cet_fold {
    size_t train_docs, heldout_docs;
    double train_fitness;       /* the fold best's objective on its training folds (NAN: unknown) */
    double heldout_f1;          /* its mean word F1 on the held-out fold */
    double heldout_f1_start;    /* the start's (the defaults or the first --seed-config) */
    double heldout_f1_start_site; /* the start's with the site rules learned from the fold's
                                     training folds as corrections of it (NAN: --no-site) */
};
/* Told before fold k (0-based) of K runs in its directory fdir; f holds its
 * document counts. */
typedef void (*cet_fold_fn)(void *ctx, size_t k, size_t K, const struct cet_fold *f,
                            const char *fdir);
/* Runs or resumes the cet_run_info(run)->folds fold GAs of a started or
 * resumed run in DIR/folds/k on its training documents, before the run's
 * own search; writes DIR/folds.csv and DIR/heldout.csv (every held-out page's
 * F1 with the start and with its fold's best) and puts the rule's decision
 * on them into the run's estimate (choice.h); on_fold (may be NULL) is told of each
 * fold.  Polls the run's cancel callback (cet_run_set_cancel).  Returns 0
 * with *out the K folds (free() it), CET_CANCELLED (each fold keeps its
 * checkpoint; the caller records the run as interrupted), or -1. */
int cet_run_folds(struct cet_run *run, cet_fold_fn on_fold, void *ctx, struct cet_fold **out,
                  struct cet_error *err);
/* ---- validation (validate.c) ---- */

/* The best distinct individuals and the defaults of a finished run, scored
 * on validation corpora: validation.csv.  Rows are the best distinct
 * individuals (at most info->top, best first), then best.json when it is
 * none of them nor the defaults (the start of --seed-config), then the
 * described defaults. */
struct cet_validation {
    size_t n;            /* rows; the last one is the defaults */
    size_t ngenes;
    double *genomes;     /* n x ngenes */
    double *train;       /* fitness on the training sample (NAN when unknown) */
    double *fit;         /* the same measure (the run's --objective; F1 in a Pareto run)
                          * on the validation documents: gap = train - fit */
    double *f1, *p, *r;  /* means over the validation documents, as fitness */
    double *macro_f1;    /* mean over packages of their mean F1, as evaluate's tables */
    size_t docs, npkgs;  /* the validation corpus */
    size_t shared;       /* validation documents that are also in the training sample */
    size_t best;         /* the row best.json holds (SIZE_MAX: none, before it is known) */
    size_t extra;        /* 1: row n - 2 is best.json, the start, outside the best */
};
/* Row k's label: its rank, "start" (the extra row) or "defaults". */
void cet_validation_label(const struct cet_validation *v, size_t k, char *buf, size_t size);

/* 1 when the run has validation corpora but no validation.csv yet. */
int cet_run_needs_validation(const struct cet_run *run);
/* Scores the rows on the loaded validation corpus vc (its corpora are
 * cet_run_info(run)->validate) and writes validation.csv.  The caller frees
 * v with cet_validation_free. */
int cet_run_validate(struct cet_run *run, const struct cet_corpus *vc, struct cet_validation *v,
                     struct cet_error *err);
void cet_validation_free(struct cet_validation *v);

CET_END_DECL

#endif
