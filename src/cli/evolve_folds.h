/* evolve --folds K (evolve_folds.c), called by cmd_evolve.c. */
#ifndef CETUNE_CLI_EVOLVE_FOLDS_H
#define CETUNE_CLI_EVOLVE_FOLDS_H

#include <stdint.h>

#include "cetune/corpus.h"
#include "cetune/run.h"
#include "cetune/params.h"

/* Set while cmd_evolve runs one fold: it prints no table and no resume hint. */
extern int cli_evolve_fold;

/* Runs or resumes the run->folds fold GAs of run directory dir on the
 * training documents, writes DIR/folds.csv and prints the per-fold table
 * and the estimate; returns 0 or an exit status (128 + signal when
 * interrupted). */
int evolve_folds(const char *dir, const struct cet_run_info *run, const struct cet_params_desc *desc,
                 const struct cet_corpus *train, uint64_t seed, int threads);

#endif
