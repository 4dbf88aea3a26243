/* cetune report: a run directory (search.h) read back and turned into plots
 * (a gnuplot script with its data; the CLI runs gnuplot) and report.md.
 *
 * Everything comes from the run's own files: checkpoint.json (the archive
 * of evaluated individuals, the final population, the history), run.json
 * (the settings), validation.csv when the run was validated and folds.csv
 * when it was cross-validated.  The
 * plots, all drawn by gnuplot from report.gp, are
 * - convergence.png: best, mean and worst fitness per generation;
 * - explored-A-B.png: every evaluated individual at its values of A and B,
 *   coloured by fitness (figure 4 of Gottron 2008), for each pair of evolved
 *   parameters; explored-A.png (A against fitness, coloured by generation)
 *   when only one parameter is evolved;
 * - distribution.png: a histogram per parameter of the final population. */
#ifndef CETUNE_REPORT_H
#define CETUNE_REPORT_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

/* A run directory read back (its definition is private: src/run/report.c). */
struct cet_report;

/* Reads DIR's checkpoint.json, run.json, validation.csv and folds.csv (the
 * last two if any) into *out, freed with cet_report_free. */
int cet_report_load(struct cet_report **out, const char *dir, struct cet_error *err);
/* Writes DIR/report.gp and its data (report-*.dat) and removes the PNG
 * files it draws, so a failed drawing leaves none stale; fills r->plots
 * (none before the first complete generation). */
int cet_report_write_plots(struct cet_report *r, struct cet_error *err);
/* The PNG files report.gp draws (names in the run directory), in report
 * order, after cet_report_write_plots; returns how many. */
size_t cet_report_plots(const struct cet_report *r, const char *const **names);
/* Writes DIR/report.md; no_plots says why there are no plots (NULL: they
 * were drawn). */
int cet_report_write_md(const struct cet_report *r, const char *no_plots, struct cet_error *err);
/* Frees r (NULL: nothing). */
void cet_report_free(struct cet_report *r);

CET_END_DECL

#endif
