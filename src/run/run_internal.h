/* The run module's shared pieces (src/run), not part of the public API:
 * the run object and the writers and readers of the run directory's files.
 * Tests include it to check the files byte for byte. */
#ifndef CETUNE_RUN_INTERNAL_H
#define CETUNE_RUN_INTERNAL_H

#include <cjson/cJSON.h>

#include "cetune/buf.h"
#include "cetune/search.h"
#include "cetune/params.h"
#include "cetune/run.h"

/* individuals.csv's rows formatted so far, kept so that each generation
 * formats only its own (rows of complete generations never change). */
struct cet_run_rows {
    struct cet_buf buf;
    size_t n;
};

struct cet_run {
    char *dir;                   /* NULL until locked or opened */
    int lock, created;           /* cet_rundir_lock's descriptor (-1: none); dir was made */
    int wrote;                   /* something was written into dir */
    int force;                   /* clear an earlier run's files (cet_run_claim) */
    struct cet_params_desc desc;
    struct cet_search *engine;
    struct cet_run_info info;
    struct cet_corpus train;     /* the training sample */
    struct cet_entries entries;
    struct cet_evaluator *ev;    /* on train; NULL until started or resumed */
    struct cet_backend be;       /* be.load NULL: train is here, evaluated by ev */
    int bound;                   /* the extractor is bound to train (ev or be) */
    int threads;
    cet_search_cancel_fn cancel;
    void *cancel_ctx;
    struct cet_run_rows rows;    /* individuals.csv's (cet_run_write_results) */
    cet_run_progress_fn progress; /* of the fold runs (cet_run_set_progress) */
    void *progress_ctx;
    /* With a holdout (choose.c): indices into train of the documents the
     * search evaluates and of those kept out for the final choice; NULL:
     * the search sees every document. */
    uint32_t *search, *hold;
    size_t nsearch, nhold;
};

/* run.c: the training pages here, with an evaluator bound to them: the
 * run's own, or (when a backend holds the pages elsewhere) a copy loaded
 * from the sample, checked to hold the run's documents in its order. */
struct cet_run_local {
    const struct cet_corpus *train;
    struct cet_evaluator *ev;
    struct cet_corpus own; /* the copy's */
    struct cet_entries e;
    struct cet_evaluator *own_ev;
};
int cet_run_local_open(struct cet_run *run, struct cet_run_local *l, struct cet_error *err);
void cet_run_local_close(struct cet_run_local *l);
/* What full parameters params keep of each training page:
 * (*kept)[i][k] for text node train->docs[i]->texts[k] (cet_site_learn's
 * input).  Free with cet_run_kept_free(*kept, train->ndocs). */
int cet_run_local_kept(struct cet_run_local *l, const double *params, uint8_t ***kept,
                       struct cet_error *err);
void cet_run_kept_free(uint8_t **kept, size_t n);
/* On pseudo-gold (--fitness template), which documents of c (the run's
 * training pages or their local copy) have gold of their own, into *out
 * (c->ndocs flags); on gold *out is NULL: all do. */
int cet_run_labelled(const struct cet_run *run, const struct cet_corpus *c, uint8_t **out,
                     struct cet_error *err);
/* Site rules from the documents of c marked in use (NULL: all) as
 * corrections of what kept (cet_run_local_kept) keeps, with a guard to the
 * start's full parameters guard (nguard of them; NULL: none), into *out
 * (NULL: none). */
int cet_run_learn_rules(const struct cet_corpus *c, uint8_t *const *kept, const uint8_t *use,
                        const double *guard, size_t nguard,
                        struct cet_site **out, struct cet_error *err);

/* fitness.c: evaluates k full parameter vectors on train's documents
 * docs[0..n) (NULL: all), here or with the backend, as cet_evaluate. */
int cet_run_eval_docs(struct cet_run *run, const double *params, size_t k, const uint32_t *docs,
                      size_t n, struct cet_score *scores, double *f, double *p, double *r,
                      struct cet_error *err);
/* fitness.c: cet_run_eval_docs on the training documents the search sees
 * (all but a holdout). */
int cet_run_train_eval(struct cet_run *run, const double *params, size_t k,
                       struct cet_score *scores, double *f, double *p, double *r,
                       struct cet_error *err);
/* fitness.c: measures k full parameter vectors under the search's goal (a goal
 * other than mean F1, objective.h) from their per-document scores on the
 * whole training sample, or by the backend when it can. */
int cet_run_measure(struct cet_run *run, const double *params, size_t k, struct cet_measures *m,
                    struct cet_error *err);

/* data.c: records in run->info the digest of every page and gold file of
 * the loaded training sample (a new run). */
int cet_run_data_record(struct cet_run *run, struct cet_error *err);
/* data.c: refuses (-1, naming the first) a recorded file that changed or
 * is gone (a resumed run); nothing to check for an old checkpoint. */
int cet_run_data_check(const struct cet_run *run, struct cet_error *err);

/* fitness.c: the training fitness of normalised genome g, from the archive
 * when it was fully evaluated, else evaluated once on the documents the
 * search sees (not counted as an evaluation of the run); NAN when unknown. */
double cet_run_genome_fitness(struct cet_run *run, const double *g);
/* choose.c: a resumed run that began with a holdout (before cross-
 * validation chose) splits its training sample again into the documents
 * the search sees and the holdout, and checks the split; nothing for
 * other runs. */
int cet_run_holdout_split(struct cet_run *run, int resumed, struct cet_error *err);
/* choose.c: once the search has stopped, records best.json's choice in
 * run->info: by the cross-validated rule (the search's best or the start),
 * or for a run with a holdout, on it; nothing otherwise. */
int cet_run_choose(struct cet_run *run, struct cet_error *err);
/* choose.c: the archive index of best.json (the choice, else cet_search_best)
 * into *best: 0, CET_ENOTFOUND when best.json is the start outside the
 * archive (info->start_outside), or as cet_search_best. */
int cet_run_info_best(const struct cet_search *engine, const struct cet_run_info *info, size_t *best);
/* fitness.c: the archive index of genome g into *at when g was fully
 * evaluated: 0, or CET_ENOTFOUND when it never was or was raced out (its
 * fitness is then partial).  The defaults' fitness (cet_run_defaults_fitness)
 * and report.md's defaults row read it. */
int cet_run_full_index(const struct cet_search *engine, const double *g, size_t *at);

/* The run directory's lock (rundir.c). */
/* Creates dir and its missing parents if needed, and takes its lock
 * (DIR/run.lock, with the PID of the holder inside) for as long as *fd is
 * open; *created says whether dir was made.  With need_empty, a directory
 * holding anything but the lock is refused.  Returns 0 with *fd set, 1 when
 * need_empty and dir is not empty (nothing is kept or made), or -1 with err
 * filled: dir cannot be created or written, or another process holds the
 * lock (the message names it). */
int cet_rundir_lock(int *fd, int *created, const char *dir, int need_empty,
                    struct cet_error *err);
/* Releases the lock (fd < 0: nothing); with remove_dir (a run that wrote
 * nothing in the directory it created), also removes the lock file and the
 * directory when it is empty. */
void cet_rundir_unlock(int fd, const char *remove_dir);

/* Writes data into DIR/NAME atomically. */
int cet_run_write_file(const char *dir, const char *name, const char *data, size_t len,
                       struct cet_error *err);

/* checkpoint.c: writes DIR/checkpoint.json (the run record, then the engine's
 * whole state: cet_search_save, src/search/state.h). */
int cet_run_checkpoint(struct cet_search *engine, const struct cet_run_info *info, const char *dir,
                       struct cet_error *err);
/* Reads DIR/checkpoint.json back: a new search (with *desc, owned by the
 * caller, rebuilt from the stored description; find as in
 * cet_params_parse) in the state of the checkpoint, not yet set up for
 * evaluation (cet_search_setup keeps the restored random state). */
int cet_run_restore(struct cet_search **out, struct cet_params_desc *desc, struct cet_run_info *info,
                    const char *dir, cet_extractor_finder find, struct cet_error *err);

/* output.c: appends one cell per gene of g to b: cell, a printf format with
 * one %s, given the value, or "" for an inactive gene (",%s" for CSV rows);
 * 0 or -1. */
int cet_genome_cells(struct cet_buf *b, const struct cet_params_desc *d, const double *g,
                     const char *cell);
/* Writes DIR/individuals.csv, generations.csv, best.json and
 * top.json (the last two once something was evaluated). */
int cet_run_write_results(const struct cet_search *engine, const struct cet_run_info *info,
                          struct cet_run_rows *rows, const char *dir, struct cet_error *err);
/* pareto.c: --pareto's DIR/pareto.csv and DIR/pareto/K.json, after
 * cet_run_write_results once something was evaluated. */
int cet_run_write_pareto(const struct cet_search *engine, const struct cet_run_info *info,
                         const char *dir, struct cet_error *err);
/* output.c: archive entry i as a configuration (docs/formats.md); extra
 * adds its measures and generation (top.json's rows). */
int cet_run_config_json(const struct cet_search *engine, const struct cet_run_info *info, size_t i,
                        int extra, double *full, struct cet_buf *b);
/* Writes DIR/run.json: command lines, seed, settings, corpus, sample,
 * library versions, times; status is "running", "interrupted" or
 * "finished"; ended may be NULL. */
int cet_run_write_info(const struct cet_search *engine, const struct cet_run_info *info, const char *dir,
                       const char *status, const char *ended, int threads,
                       struct cet_error *err);

/* validate.c: scores the rows with ev, an evaluator of the search's extractor
 * on the validation corpus vc.  defaults_train is the defaults' training
 * fitness (NAN when unknown); train, the training corpus, may be NULL (then
 * v->shared is 0). */
int cet_validation_compute(struct cet_validation *v, const struct cet_search *engine,
                           const struct cet_run_info *info, struct cet_evaluator *ev,
                           const struct cet_corpus *vc, double defaults_train,
                           const struct cet_corpus *train, struct cet_error *err);
/* Writes DIR/validation.csv: rank (or "defaults"), one column per described
 * parameter (empty where inactive), train_fitness, valid_fitness (the same
 * measure on the validation documents), valid_f1, valid_macro_f1,
 * valid_precision, valid_recall, gap (train_fitness - valid_fitness; empty
 * when unknown). */
int cet_validation_write(const struct cet_validation *v, const struct cet_search *engine, const char *dir,
                         struct cet_error *err);

#endif
