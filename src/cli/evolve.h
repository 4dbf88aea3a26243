/* cetune evolve beyond its options (cmd_evolve.c): driving a run to its
 * end, resuming one and printing its folds (evolve_run.c; the folds
 * themselves are src/run/folds.c). */
#ifndef CETUNE_CLI_EVOLVE_H
#define CETUNE_CLI_EVOLVE_H

#include <stddef.h>

#include "cetune/run.h"
#include "cli.h"

/* What the command line asked for (cmd_evolve.c's option table fills it). */
struct evolve_args {
    const char *params, *sample, *out, *resume;
    struct cli_list dirs, seed_configs, validate, template_refs;
    long sample_size, threads, top, folds, fold_evals;
    long holdout_folds;  /* the folds the deprecated --holdout maps to (capped at the documents) */
    int by_package, force, no_race, fitness, quiet, no_template_defaults;
    int no_site;         /* --no-site: best.json without site rules */
    int no_guard;        /* --no-guard: site rules without their guard */
    int choose;          /* enum cet_choose; -1: not given (cv where it can work) */
    double progress, confidence, tolerance, holdout;
    struct cet_search_options opt;
};

/* Steps a started or resumed run until the engine stops or a signal arrives,
 * with the progress line on a terminal; then records the run as finished
 * and prints its tables and validation, or as interrupted and says how to
 * resume it.  Returns 0 or an exit status (128 + signal when interrupted). */
int evolve_run_loop(struct cet_run *run, int threads);
/* cetune evolve --resume DIR: opens the run in dir and goes on with it (a
 * finished run prints its tables again and completes its validation);
 * command is the command line, for run.json.  Returns 0 or an exit status. */
int evolve_resume(const char *dir, const char *command, int threads);

/* Runs or resumes the folds of the run (cet_run_folds) before its own GA,
 * printing each fold's line, the per-fold table and the estimate.  On a
 * signal, records the run as interrupted and says how to resume it.
 * Returns 0 or an exit status (128 + signal when interrupted). */
int evolve_folds(struct cet_run *run);

/* Adds the --seed-config files to the run's first generation, warning of
 * their parameters the run does not evolve (evolve_start.c).  0 or an exit
 * status. */
int evolve_seed_configs(struct cet_run *run, const struct cli_list *files);
/* --folds K needs a training document per fold: checked on the corpora's
 * listing and the sample before the run directory is made.  0 or an exit
 * status. */
int evolve_check_folds(long folds, const struct cli_list *dirs, const char *sample,
                       long sample_size);
/* The run directory dir is inside no training or validation corpus and
 * holds none of their files (cetune/guard.h).  0 or an exit status. */
int evolve_guard_dir(const struct cli_list *dirs, const struct cli_list *validate, const char *dir);

/* The final choice's options (docs/choice.md): the deprecated --holdout
 * mapped to cross-validation, --choose cv kept to what it can judge, and a
 * warning for an option given that cannot apply.  0 or an exit status. */
int evolve_choice_options(struct evolve_args *a);
/* Makes the run from the options, checking the description, the seeds and
 * the validation corpora (only scanned).  0 or an exit status. */
int evolve_new_run(struct cet_run **run, const struct evolve_args *a);

#endif
