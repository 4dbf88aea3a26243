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
    struct cet_ga *ga;          /* as of the checkpoint, not set up */
    struct cet_json info;       /* run.json */
    char *validation;           /* validation.csv, or NULL */
    char *folds;                /* folds.csv (evolve --folds), or NULL */
    char **plots;               /* PNG file names report.gp draws, in report order */
    size_t nplots;
    size_t pair_genes;          /* parameters whose pairs are drawn */
};

/* Archive index of the defaults' genome g, or CET_NPOS when they were
 * never fully evaluated (a raced-out fitness is partial). */
size_t cet_report_defaults_index(const struct cet_ga *ga, const double *g);

#endif
