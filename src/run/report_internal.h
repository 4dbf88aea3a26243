/* Internal to src/run: a run directory read back for `cetune report`
 * (report.c loads it, report_plots.c and report_md.c write from it). */
#ifndef CETUNE_RUN_REPORT_INTERNAL_H
#define CETUNE_RUN_REPORT_INTERNAL_H

#include "cetune/report.h"
#include "run_internal.h"

struct cet_report {
    char *dir;
    struct cet_params_desc desc;
    struct cet_run_info run;
    struct cet_search *engine;          /* as of the checkpoint, not set up */
    size_t best;                /* cet_search_best, once a generation is complete (the plots
                                   and tables that show it are drawn only then) */
    struct cet_json info;       /* run.json */
    char *validation;           /* validation.csv, or NULL */
    char *folds;                /* folds.csv (evolve --folds), or NULL */
    char **plots;               /* PNG file names report.gp draws, in report order */
    size_t nplots;
    size_t pair_genes;          /* parameters whose pairs are drawn */
};


#endif
