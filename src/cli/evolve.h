/* cetune evolve beyond its options (cmd_evolve.c): driving a run to its
 * end and resuming one (evolve_run.c), --folds K (evolve_folds.c). */
#ifndef CETUNE_CLI_EVOLVE_H
#define CETUNE_CLI_EVOLVE_H

#include <stddef.h>

#include "cetune/run.h"
#include "cli.h"

/* Set while cmd_evolve runs one fold: it prints no table and no resume hint. */
extern int cli_evolve_fold;

/* Steps a started or resumed run until the GA stops or a signal arrives,
 * with the progress line on a terminal; then records the run as finished
 * and prints its tables and validation, or as interrupted and says how to
 * resume it.  Returns 0 or an exit status (128 + signal when interrupted). */
int evolve_run_loop(struct cet_run *run, int threads);
/* cetune evolve --resume DIR: opens the run in dir and goes on with it (a
 * finished run prints its tables again and completes its validation);
 * command is the command line, for run.json.  Returns 0 or an exit status. */
int evolve_resume(const char *dir, const char *command, int threads);

/* The evolve options every fold run gets (run.json keeps them): the run's
 * own, without its sample, directory, validation, threads and folds; paths
 * absolute.  *args (nargs words, each allocated) is freed with
 * evolve_fold_args_free.  Returns 0, or an exit code after printing. */
int evolve_fold_args(char ***args, size_t *nargs, const char *params, const struct cli_list *dirs,
                     const struct cli_list *seed_configs, const struct cet_ga_options *o, long top);
void evolve_fold_args_free(char **args, size_t nargs);
/* Runs or resumes the cet_run_info(run)->folds fold GAs in the run's
 * directory on its training documents before the run's own GA, writes
 * DIR/folds.csv and prints the per-fold table and the estimate.  On a
 * signal, records the run as interrupted and says how to resume it.
 * Returns 0 or an exit status (128 + signal when interrupted). */
int evolve_folds(struct cet_run *run, int threads);

#endif
