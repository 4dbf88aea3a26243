/* The run directory: the names of the files a run and its report write, in
 * one place (the lock that gives a directory to one run at a time is
 * taken by cet_run_claim and cet_run_open, run.h).
 *
 * Every writer names its file with these macros, and cet_rundir_clear
 * (evolve --force) removes exactly what cet_run_files lists: a new file
 * gets a macro here and a row in cet_run_files (rundir.c). */
#ifndef CETUNE_RUNDIR_H
#define CETUNE_RUNDIR_H

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

#define CET_RUN_INFO "run.json"
#define CET_RUN_GENERATIONS "generations.csv"
#define CET_RUN_INDIVIDUALS "individuals.csv"
#define CET_RUN_TOP "top.json"
#define CET_RUN_BEST "best.json"
#define CET_RUN_SITE "site.json" /* the site rules learned, whether or not best.json carries them */
#define CET_RUN_SAMPLE "sample.txt"
#define CET_RUN_CHECKPOINT "checkpoint.json"
#define CET_RUN_VALIDATION "validation.csv"
#define CET_RUN_PARETO "pareto.csv"
#define CET_RUN_PARETO_DIR "pareto" /* K.json per point of the front */
#define CET_RUN_FOLDS "folds.csv"
#define CET_RUN_HELDOUT_PAGES "heldout.csv" /* every held-out page of the folds: the choice's data */
#define CET_RUN_FOLDS_DIR "folds" /* one run directory per fold: folds/1, folds/2, ... */
#define CET_RUN_HOLDOUT "holdout.txt" /* the training documents kept out of the search */
#define CET_FOLD_TRAIN "train.txt"     /* in a fold's directory: its training documents */
#define CET_FOLD_HELDOUT "heldout.txt" /* and its held-out ones */
/* cetune report */
#define CET_RUN_REPORT "report.md"
#define CET_RUN_REPORT_GP "report.gp"
#define CET_RUN_REPORT_GENERATIONS "report-generations.dat"
#define CET_RUN_REPORT_EXPLORED "report-explored.dat"
#define CET_RUN_REPORT_POPULATION "report-population.dat"
#define CET_RUN_REPORT_PARETO "report-pareto.dat"
#define CET_RUN_PLOT_CONVERGENCE "convergence.png"
#define CET_RUN_PLOT_EXPLORED "explored.png"
#define CET_RUN_PLOT_PAIR "explored-%s-%s.png" /* two parameters' names */
#define CET_RUN_PLOT_DISTRIBUTION "distribution.png"
#define CET_RUN_PLOT_PARETO "pareto.png"
/* Held (flock) by the process that runs in the directory; never removed. */
#define CET_RUN_LOCK "run.lock"

/* Shell patterns (fnmatch) of every file above but the lock; NULL-terminated. */
extern const char *const cet_run_files[];
/* Subdirectories a run writes (their files match "*.json"); NULL-terminated. */
extern const char *const cet_run_dirs[];

/* DIR/NAME, allocated; NULL when out of memory. */
char *cet_run_path(const char *dir, const char *name);

/* The corpus and validation directories that DIR's run.json records, as
 * *n allocated strings (free each and the array); none when it has no
 * run.json or records none.  Fails when run.json is malformed. */
int cet_run_corpora(char ***dirs, size_t *n, const char *dir, struct cet_error *err);

/* 1 while a process holds DIR's run lock (a run or a resume is going on in
 * it), 0 otherwise: a run.json that says "running" without a holder is a
 * run that was killed before it could record its end. */
int cet_rundir_alive(const char *dir);

/* Removes every file of cet_run_files and the temporaries that dead
 * processes left (NAME.tmp.PID, cet_write_atomic); call with the lock held.
 * Returns 0 or -1 with err filled. */
int cet_rundir_clear(const char *dir, struct cet_error *err);
/* Removes only the temporaries of dead processes. */
void cet_rundir_remove_temporaries(const char *dir);

CET_END_DECL

#endif
