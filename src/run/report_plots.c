/* cetune report (report.h): a run directory's plots.
 *
 * The plots are drawn by gnuplot from report.gp, which reads data files
 * written here (report-generations.dat, report-explored.dat,
 * report-population.dat); nothing here draws pixels.  Choices:
 * - report.gp uses pngcairo when gnuplot has it, else the libgd png
 *   terminal, and plain text labels (parameter names have underscores);
 * - in the explored-parameter plots the colour scale runs from the 10th
 *   percentile of the fitness to the best, so the few very bad individuals
 *   do not squeeze every good one into one colour (worse ones take the
 *   lowest colour); the best individual is ringed, the defaults crossed,
 *   and points are drawn worst first so the best stay on top;
 * - bool and enum parameters are axes of categories, and their points (and
 *   those of integers with at most 10 values) are jittered by a seeded
 *   random offset of at most 0.2, as they would otherwise hide each other;
 * - the final population's histograms span each parameter's whole range
 *   (20 bins; one per value for integers with at most 40 values, enum and
 *   bool), so they show both where the population is and how narrow;
 * - a conditional parameter is drawn only where it is active: explored
 *   points where it is inactive are left out, its histogram counts the
 *   individuals where it is active, and report.md leaves its cell empty. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "util/json.h"
#include "util/sort.h"
#include "report_internal.h"

/* Most parameters whose pairs are drawn: more pairs are not worth looking at
 * (6 parameters give 15 plots); numeric parameters go first. */
enum { CET_REPORT_MAX_PAIR_GENES = 6 };

enum { BINS = 20, MAX_INT_BINS = 40, MAX_JITTER_VALUES = 10 };

static const char *const file_gp = CET_RUN_REPORT_GP, *const file_gen = CET_RUN_REPORT_GENERATIONS,
                         *const file_explored = CET_RUN_REPORT_EXPLORED,
                         *const file_pop = CET_RUN_REPORT_POPULATION,
                         *const file_pareto = CET_RUN_REPORT_PARETO;

/* Colours: best blue, mean orange, worst red, the best individual red, a
 * reversed viridis palette (bad = light yellow, good = dark purple, so good
 * points stand out on white). */
static const char *const palette =
    "set palette defined (0 '#fde725', 0.25 '#5ec962', 0.5 '#21918c', 0.75 '#3b528b', "
    "1 '#440154')\n";

/* ---- genes as plot axes ---- */

static int categorical(const struct cet_gene *g)
{
    return g->type == CET_P_BOOL || g->type == CET_P_ENUM;
}

static size_t ncategories(const struct cet_gene *g)
{
    return g->type == CET_P_BOOL ? 2 : g->nvalues;
}

/* The extractor's value of category k. */
static double category_value(const struct cet_gene *g, size_t k)
{
    return g->type == CET_P_BOOL ? (double)k : g->values[k];
}

/* Where value v goes on the gene's axis: itself, or its category's index. */
static double axis_pos(const struct cet_gene *g, double v)
{
    if (!categorical(g))
        return v;
    for (size_t k = 0; k < ncategories(g); k++)
        if (category_value(g, k) == v)
            return (double)k;
    return 0;
}

static int jittered(const struct cet_gene *g)
{
    return categorical(g) || (g->type == CET_P_INT && g->max - g->min < MAX_JITTER_VALUES);
}

/* A gnuplot string literal: single quotes, doubled inside. */
static int gp_str(struct cet_buf *b, const char *s)
{
    int rc = cet_buf_puts(b, "'");
    for (; *s && !rc; s++)
        rc = *s == '\'' ? cet_buf_puts(b, "''") : cet_buf_add(b, s, 1);
    return rc || cet_buf_puts(b, "'");
}

/* cmd, then a printf-formatted title as a gnuplot string literal, whatever
 * its length (titles hold parameter names). */
__attribute__((format(printf, 3, 4)))
static int gp_title(struct cet_buf *b, const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!s)
        return -1;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int rc = cet_buf_puts(b, cmd) || gp_str(b, s);
    free(s);
    return rc;
}

/* set xrange/xtics/logscale for gene g on axis ("x" or "y"). */
static int gp_axis(struct cet_buf *b, const struct cet_params_desc *d, const struct cet_gene *g,
                   const char *axis)
{
    int rc = cet_buf_printf(b, "set %slabel ", axis) || gp_str(b, g->name) || cet_buf_puts(b, "\n");
    if (categorical(g)) {
        size_t n = ncategories(g);
        rc = rc || cet_buf_printf(b, "set %srange [-0.5:%g]\nset %stics (", axis, (double)n - 0.5,
                                  axis);
        for (size_t k = 0; k < n && !rc; k++) {
            char v[64];
            cet_param_format(d->ex, g->index, category_value(g, k), 0, v, sizeof v);
            rc = cet_buf_puts(b, k ? ", " : "") || gp_str(b, v) || cet_buf_printf(b, " %zu", k);
        }
        return rc || cet_buf_puts(b, ")\n");
    }
    double lo = g->min, hi = g->max;
    if (g->log) {
        double f = pow(hi / lo, 0.02);
        return rc || cet_buf_printf(b, "set logscale %s\nset %srange [%.17g:%.17g]\n", axis, axis,
                                    lo / f, hi * f);
    }
    double pad = hi > lo ? (hi - lo) * 0.02 : 0.5;
    return rc || cet_buf_printf(b, "set %srange [%.17g:%.17g]\n", axis, lo - pad, hi + pad);
}

/* ---- data files ---- */

static int write_file(const char *dir, const char *name, struct cet_buf *b, struct cet_error *err)
{
    return cet_run_write_file(dir, name, b->p, b->len, err);
}

static int generations_dat(const struct cet_search *engine, struct cet_buf *b)
{
    size_t nhist;
    const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
    int rc = cet_buf_puts(b, "# generation best mean worst (from checkpoint.json)\n");
    for (size_t h = 0; h < nhist && !rc; h++)
        rc = cet_buf_printf(b, "%ld %.6f %.6f %.6f\n", hist[h].generation, hist[h].best,
                            hist[h].mean, hist[h].worst);
    return rc;
}

struct by_fit {
    double fit;
    size_t i;
};

static int cmp_fit_asc(const void *a, const void *b)
{
    const struct by_fit *x = a, *y = b;
    if (x->fit != y->fit)
        return x->fit < y->fit ? -1 : 1;
    return x->i < y->i ? 1 : x->i > y->i ? -1 : 0; /* of equals, the earliest on top */
}

/* One row of report-explored.dat: the genes' axis positions (NaN where
 * inactive, which gnuplot leaves out of the plots of that gene), fitness,
 * generation. */
static int explored_row(struct cet_buf *b, const struct cet_params_desc *d, const double *g,
                        double fit, long born, gsl_rng *rng)
{
    uint8_t active[CET_MAX_GENES];
    cet_params_active(d, g, active);
    int rc = 0;
    for (size_t k = 0; k < d->ngenes && !rc; k++) {
        if (!active[k]) {
            rc = cet_buf_puts(b, "NaN ");
            continue;
        }
        double v = axis_pos(&d->genes[k], g[k]);
        if (rng && jittered(&d->genes[k]))
            v += 0.4 * (gsl_rng_uniform(rng) - 0.5);
        rc = cet_buf_printf(b, "%.10g ", v);
    }
    return rc || cet_buf_printf(b, "%.6f %ld\n", fit, born);
}

/* Blocks (gnuplot index): 0 every evaluated individual, worst first; 1 the
 * best; 2 the defaults (fitness NaN when never evaluated). */
static int explored_dat(const struct cet_search *engine, size_t best, const double *defaults,
                        struct cet_buf *b)
{
    const struct cet_params_desc *d = cet_search_desc(engine);
    struct cet_search_status st;
    struct cet_individual in;
    cet_search_status(engine, &st);
    struct by_fit *order = malloc((st.narch + 1) * sizeof *order);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = !order || !rng;
    if (!rc) {
        gsl_rng_set(rng, (unsigned long)cet_search_opts(engine)->seed);
        for (size_t i = 0; i < st.narch; i++)
            order[i] = (struct by_fit){cet_search_fitness(engine, i), i};
        qsort(order, st.narch, sizeof *order, cmp_fit_asc);
        rc = cet_buf_puts(b, "# every evaluated individual, worst first: parameters (enum and "
                             "bool as category indices, some jittered), fitness, generation\n");
        for (size_t k = 0; k < st.narch && !rc; k++) {
            cet_search_individual(engine, order[k].i, &in);
            rc = explored_row(b, d, in.genes, order[k].fit, in.born, rng);
        }
        cet_search_individual(engine, best, &in);
        rc = rc || cet_buf_puts(b, "\n\n# the best individual\n") ||
             explored_row(b, d, in.genes, in.fit, in.born, NULL);
        size_t di;
        int known = !cet_run_full_index(engine, defaults, &di);
        if (known)
            cet_search_individual(engine, di, &in);
        rc = rc || cet_buf_puts(b, "\n\n# the defaults\n") ||
             explored_row(b, d, defaults, known ? in.fit : NAN, known ? in.born : -1, NULL);
    }
    free(order);
    if (rng)
        gsl_rng_free(rng);
    return rc;
}

/* The numeric bins of gene g: n edges + 1 into edges (n at most BINS or
 * MAX_INT_BINS). */
static size_t bins(const struct cet_gene *g, double *edges)
{
    size_t n = BINS;
    if (g->type == CET_P_INT && g->max - g->min + 1 <= MAX_INT_BINS) {
        n = (size_t)(g->max - g->min + 1);
        for (size_t k = 0; k <= n; k++)
            edges[k] = g->min - 0.5 + (double)k;
        return n;
    }
    for (size_t k = 0; k <= n; k++)
        edges[k] = g->log ? g->min * pow(g->max / g->min, (double)k / (double)n)
                          : g->min + (g->max - g->min) * (double)k / (double)n;
    return n;
}

/* Whether gene k is active in archive entry i. */
static int active_in(const struct cet_search *engine, size_t i, size_t k)
{
    uint8_t active[CET_MAX_GENES];
    cet_params_active(cet_search_desc(engine), cet_search_genes(engine, i), active);
    return active[k];
}

/* One block per gene of the final population's counts (of the individuals
 * where the gene is active): numeric genes as "low high count" (empty bins
 * left out), categorical ones as "index count label". */
static int population_dat(const struct cet_search *engine, struct cet_buf *b)
{
    const struct cet_params_desc *d = cet_search_desc(engine);
    struct cet_search_status st;
    size_t npop;
    const size_t *pop = cet_search_population(engine, &npop);
    cet_search_status(engine, &st);
    int rc = cet_buf_printf(b, "# the final population (generation %ld, %zu individuals): one "
                               "block per parameter\n", st.gen, npop);
    for (size_t k = 0; k < d->ngenes && !rc; k++) {
        const struct cet_gene *g = &d->genes[k];
        rc = cet_buf_printf(b, "%s# %s\n", k ? "\n\n" : "", g->name);
        if (categorical(g)) {
            for (size_t c = 0; c < ncategories(g) && !rc; c++) {
                size_t count = 0;
                for (size_t p = 0; p < npop; p++)
                    count += cet_search_genes(engine, pop[p])[k] == category_value(g, c) &&
                             active_in(engine, pop[p], k);
                char v[64];
                cet_param_format(d->ex, g->index, category_value(g, c), 0, v, sizeof v);
                rc = cet_buf_printf(b, "%zu %zu \"%s\"\n", c, count, v);
            }
            continue;
        }
        double edges[MAX_INT_BINS + 1];
        size_t n = bins(g, edges), count[MAX_INT_BINS] = {0};
        for (size_t p = 0; p < npop; p++) {
            double v = cet_search_genes(engine, pop[p])[k];
            size_t c = 0;
            if (!active_in(engine, pop[p], k))
                continue;
            while (c + 1 < n && v >= edges[c + 1])
                c++;
            count[c]++;
        }
        int any = 0;
        for (size_t c = 0; c < n && !rc; c++)
            if (count[c]) {
                rc = cet_buf_printf(b, "%.10g %.10g %zu\n", edges[c], edges[c + 1], count[c]);
                any = 1;
            }
        if (!any && !rc) /* gnuplot refuses an empty block */
            rc = cet_buf_printf(b, "%.10g %.10g 0\n", edges[0], edges[1]);
    }
    return rc;
}

/* --pareto: blocks 0 every evaluated individual, 1 the front (by the first
 * objective), 2 the defaults when evaluated (def_known: archive entry di);
 * the first two objectives. */
static int pareto_dat(const struct cet_search *engine, int def_known, size_t di, struct cet_buf *b)
{
    size_t *front = NULL, n = 0;
    int rc = cet_search_front(engine, &front, &n) || cet_buf_puts(b, "# objective1 objective2\n");
    struct cet_search_status st;
    cet_search_status(engine, &st);
    for (size_t i = 0; i < st.narch && !rc; i++)
        rc = cet_buf_printf(b, "%.6f %.6f\n", cet_search_objectives(engine, i)[0], cet_search_objectives(engine, i)[1]);
    rc = rc || cet_buf_puts(b, "\n\n");
    for (size_t a = 1; a < n && !rc; a++) /* insertion sort by the first objective */
        for (size_t k = a;
             k > 0 && cet_search_objectives(engine, front[k - 1])[0] > cet_search_objectives(engine, front[k])[0];
             k--) {
            size_t t = front[k];
            front[k] = front[k - 1];
            front[k - 1] = t;
        }
    for (size_t k = 0; k < n && !rc; k++)
        rc = cet_buf_printf(b, "%.6f %.6f\n", cet_search_objectives(engine, front[k])[0],
                            cet_search_objectives(engine, front[k])[1]);
    rc = rc || cet_buf_puts(b, "\n\n");
    if (def_known)
        rc = rc || cet_buf_printf(b, "%.6f %.6f\n", cet_search_objectives(engine, di)[0],
                                  cet_search_objectives(engine, di)[1]);
    else
        rc = rc || cet_buf_puts(b, "NaN NaN\n");
    free(front);
    return rc;
}

/* ---- the gnuplot script ---- */

static int add_plot(struct cet_report *r, const char *name)
{
    char **v = realloc(r->plots, (r->nplots + 1) * sizeof *v);
    if (!v)
        return -1;
    r->plots = v;
    return (r->plots[r->nplots] = strdup(name)) ? (r->nplots++, 0) : -1;
}

static int gp_png(struct cet_buf *b, const char *name, int w, int h)
{
    return cet_buf_printf(b, "reset\neval png(%d, %d)\nset output ", w, h) || gp_str(b, name) ||
           cet_buf_puts(b, "\n");
}

/* Fitness range [lo, hi] of the history's column (best when worst is 0),
 * widened to the defaults' fitness unless NAN, padded by 6%. */
static void fitness_range(const struct cet_search *engine, int worst, double def_fit, double *lo,
                          double *hi)
{
    size_t nhist;
    const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t h = 0; h < nhist; h++) {
        *lo = fmin(*lo, worst ? hist[h].worst : hist[h].best);
        *hi = fmax(*hi, hist[h].best);
    }
    if (!isnan(def_fit)) {
        *lo = fmin(*lo, def_fit);
        *hi = fmax(*hi, def_fit);
    }
    double pad = *hi > *lo ? (*hi - *lo) * 0.06 : 0.005;
    *lo -= pad;
    *hi += pad;
}

/* Two panels: best, mean, worst and the defaults; below, the best alone on
 * its own scale, since its gains are often too small to see next to the
 * worst. */
static int gp_convergence(struct cet_report *r, struct cet_buf *b, double def_fit)
{
    const struct cet_search *engine = r->engine;
    double lo, hi, blo, bhi;
    size_t nhist;
    cet_search_history(engine, &nhist);
    fitness_range(engine, 1, def_fit, &lo, &hi);
    fitness_range(engine, 0, NAN, &blo, &bhi);
    return add_plot(r, CET_RUN_PLOT_CONVERGENCE) || gp_png(b, CET_RUN_PLOT_CONVERGENCE, 960, 780) ||
           gp_title(b, "set multiplot title ",
                    "%s: fitness per generation (training sample of %ld documents)",
                    r->desc.ex->name, r->run.docs - r->run.holdout_docs) || /* what fitness read */
           /* The key above the panel, in one row: inside it would cover the
            * worst curve, which runs along the bottom. */
           cet_buf_printf(b, "\nset lmargin at screen 0.09\nset rmargin at screen 0.97\n"
                             "set tmargin at screen 0.88\nset bmargin at screen 0.40\n"
                             "set xrange [%g:%g]\nset yrange [%.6f:%.6f]\n"
                             "set ylabel 'fitness (mean word F1, training sample)'\n"
                             "set grid lc rgb '#dddddd'\n"
                             "set key horizontal at screen 0.53, screen 0.935 center center box\n"
                             "set xtics nomirror%s\n",
                          -0.5, (double)nhist - 0.5, lo, hi,
                          nhist <= 15 ? " 1" : "\nset mxtics") || /* whole generations */
           cet_buf_printf(b, "plot '%s' using 1:4:2 with filledcurves lc rgb '#e3ebf5' title "
                             "'worst to best', \\\n"
                             "     '' using 1:2 with linespoints lw 2.5 pt 7 ps 0.7 lc rgb "
                             "'#1f4e99' title 'best', \\\n"
                             "     '' using 1:3 with linespoints lw 2 pt 5 ps 0.5 lc rgb "
                             "'#e07b00' title 'mean', \\\n"
                             "     '' using 1:4 with linespoints lw 1.5 pt 9 ps 0.7 lc rgb "
                             "'#b2182b' title 'worst'",
                          file_gen) ||
           (!isnan(def_fit) &&
            cet_buf_printf(b, ", \\\n     %.6f with lines dt 2 lw 1.5 lc rgb '#333333' title "
                              "'defaults (%.4f)'", def_fit, def_fit)) ||
           cet_buf_puts(b, "\n") ||
           cet_buf_printf(b, "set tmargin at screen 0.31\nset bmargin at screen 0.07\n"
                             "set yrange [%.6f:%.6f]\nset xlabel 'generation'\n"
                             "set ylabel 'best (zoomed)'\nunset key\n"
                             "plot '%s' using 1:2 with linespoints lw 2.5 pt 7 ps 0.7 lc rgb "
                             "'#1f4e99' title 'best'\nunset multiplot\n",
                          blo, bhi, file_gen);
}

/* The genes whose pairs are drawn, at most CET_REPORT_MAX_PAIR_GENES:
 * numeric ones first, and among those the ones active in most evaluated
 * individuals first (description order otherwise); never-active ones not
 * at all. */
static size_t pair_genes(const struct cet_search *engine, const struct cet_params_desc *d, size_t *out)
{
    size_t count[CET_MAX_GENES] = {0}, n = 0;
    uint8_t active[CET_MAX_GENES];
    struct cet_search_status st;
    cet_search_status(engine, &st);
    for (size_t i = 0; i < st.narch; i++) {
        cet_params_active(d, cet_search_genes(engine, i), active);
        for (size_t k = 0; k < d->ngenes; k++)
            count[k] += active[k];
    }
    for (int pass = 0; pass < 2; pass++)
        for (size_t c = st.narch; c > 0 && n < CET_REPORT_MAX_PAIR_GENES; c--)
            for (size_t k = 0; k < d->ngenes && n < CET_REPORT_MAX_PAIR_GENES; k++)
                if (categorical(&d->genes[k]) == pass && count[k] == c)
                    out[n++] = k;
    return n;
}

/* The parameter name as part of a file name (other characters become _),
 * allocated; NULL when out of memory. */
static char *file_part(const char *name)
{
    char *s = strdup(name);
    for (char *p = s; p && *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", *p))
            *p = '_';
    return s;
}

static int gp_explored(struct cet_report *r, struct cet_buf *b)
{
    const struct cet_search *engine = r->engine;
    const struct cet_params_desc *d = &r->desc;
    size_t G = d->ngenes;
    double best_fit = cet_search_fitness(engine, r->best);
    struct cet_search_status st;
    cet_search_status(engine, &st);
    int rc = 0;
    if (G == 1) {
        /* One parameter: it against fitness, coloured by generation. */
        const struct cet_gene *g = &d->genes[0];
        rc = add_plot(r, CET_RUN_PLOT_EXPLORED) || gp_png(b, CET_RUN_PLOT_EXPLORED, 960, 640) ||
             gp_title(b, "set title ", "%s: %s of the %zu evaluated individuals", d->ex->name,
                      g->name, st.narch) ||
             cet_buf_puts(b, "\n") ||
             gp_axis(b, d, g, "x") ||
             cet_buf_printf(b, "set ylabel 'fitness (mean word F1 on the training sample)'\n"
                               "set cblabel 'generation evaluated'\nset cbrange [0:%ld]\n"
                               "set grid lc rgb '#dddddd'\n"
                               "set key outside below center horizontal box opaque\n"
                               "set bmargin 6\n%s"
                               "plot '%s' index 0 using 1:2:3 with points pt 7 ps 1 "
                               "lc palette notitle, \\\n"
                               "     '' index 2 using 1:2 with points pt 2 ps 2.5 lw 2.5 "
                               "lc rgb 'black' title 'defaults', \\\n"
                               "     '' index 1 using 1:2 with points pt 6 ps 3 lw 2.5 "
                               "lc rgb '#d62728' title 'best (%.4f)'\n",
                            st.gen > 0 ? st.gen : 1, palette, file_explored, best_fit);
        return rc;
    }
    double *fit = malloc((st.narch + 1) * sizeof *fit);
    if (!fit)
        return -1;
    for (size_t i = 0; i < st.narch; i++)
        fit[i] = cet_search_fitness(engine, i);
    qsort(fit, st.narch, sizeof *fit, cet_cmp_double);
    double hi = fit[st.narch - 1], lo = fit[st.narch / 10];
    free(fit);
    if (hi - lo < 1e-4)
        lo = hi - 1e-4;
    size_t sel[CET_REPORT_MAX_PAIR_GENES];
    r->pair_genes = pair_genes(engine, d, sel);
    for (size_t i = 0; i < r->pair_genes && !rc; i++)
        for (size_t j = i + 1; j < r->pair_genes && !rc; j++) {
            const struct cet_gene *x = &d->genes[sel[i]], *y = &d->genes[sel[j]];
            char *px = file_part(x->name), *py = file_part(y->name);
            struct cet_buf name = {0};
            rc = !px || !py || cet_buf_printf(&name, CET_RUN_PLOT_PAIR, px, py);
            free(px);
            free(py);
            size_t both = 0; /* individuals where both are active, the points drawn */
            for (size_t a = 0; a < st.narch; a++)
                both += active_in(engine, a, sel[i]) && active_in(engine, a, sel[j]);
            rc = rc || add_plot(r, name.p) || gp_png(b, name.p, 900, 720) ||
                 gp_title(b, "set title ", "%s: %s and %s of the %zu evaluated individuals%s",
                          d->ex->name, x->name, y->name, both,
                          both < st.narch ? " where both are active" : "") ||
                 cet_buf_puts(b, "\n") || gp_axis(b, d, x, "x") ||
                 gp_axis(b, d, y, "y") ||
                 cet_buf_printf(b, "set cblabel 'fitness (training; the lowest colour is the "
                                   "10th percentile and below)'\nset cbrange [%.6f:%.6f]\n"
                                   "set grid lc rgb '#dddddd'\n"
                                   "set key outside below center horizontal box opaque\n"
                                   "set bmargin 6\n%s"
                                   "plot '%s' index 0 using %zu:%zu:%zu with points pt 7 ps 0.9 "
                                   "lc palette notitle, \\\n"
                                   "     '' index 2 using %zu:%zu with points pt 2 ps 2.5 lw 2.5 "
                                   "lc rgb 'black' title 'defaults', \\\n"
                                   "     '' index 1 using %zu:%zu with points pt 6 ps 3 lw 2.5 "
                                   "lc rgb '#d62728' title 'best (%.4f)'\n",
                                lo, hi, palette, file_explored, sel[i] + 1, sel[j] + 1, G + 1,
                                sel[i] + 1, sel[j] + 1, sel[i] + 1, sel[j] + 1, best_fit);
            cet_buf_free(&name);
        }
    return rc;
}

static int gp_distribution(struct cet_report *r, struct cet_buf *b, const double *defaults)
{
    const struct cet_search *engine = r->engine;
    const struct cet_params_desc *d = &r->desc;
    struct cet_search_status st;
    size_t npop;
    cet_search_status(engine, &st);
    const size_t *pop = cet_search_population(engine, &npop);
    /* A panel for each parameter active in some member of the final
     * population: a pipeline's stage parameters of extractors no member
     * uses would be empty panels (72 of them, 6520 pixels high). */
    uint8_t shown[CET_MAX_GENES] = {0}, on[CET_MAX_GENES];
    size_t G = 0;
    for (size_t m = 0; m < npop; m++) {
        cet_params_active(d, cet_search_genes(engine, pop[m]), on);
        for (size_t k = 0; k < d->ngenes; k++)
            shown[k] |= on[k];
    }
    for (size_t k = 0; k < d->ngenes; k++)
        G += shown[k];
    if (!G) /* nothing active (cannot happen: a gene without "when" always is) */
        for (size_t k = 0; k < d->ngenes; k++)
            G += shown[k] = 1;
    size_t cols = G < 3 ? G : G <= 9 ? 3 : 4, rows = (G + cols - 1) / cols;
    const double *best = cet_search_genes(engine, r->best);
    uint8_t best_on[CET_MAX_GENES], def_on[CET_MAX_GENES];
    cet_params_active(d, best, best_on);
    cet_params_active(d, defaults, def_on);
    int rc = add_plot(r, CET_RUN_PLOT_DISTRIBUTION) ||
             gp_png(b, CET_RUN_PLOT_DISTRIBUTION, (int)(cols * 480), (int)(rows * 360 + 40)) ||
             cet_buf_printf(b, "set multiplot layout %zu,%zu", rows, cols) ||
             gp_title(b, " title ", "%s: the final population (generation %ld, %zu individuals)",
                      d->ex->name, st.gen, npop) ||
             cet_buf_printf(b, "\nset style fill solid 0.85 border lc rgb '#1f4e99'\n"
                               "set ylabel 'individuals'\nset yrange [0:%zu]\n"
                               "set grid ytics lc rgb '#dddddd'\nset key top right opaque\n",
                            npop + (npop + 4) / 5);
    for (size_t k = 0; k < d->ngenes && !rc; k++) {
        const struct cet_gene *g = &d->genes[k];
        if (!shown[k])
            continue;
        double dp = axis_pos(g, defaults[k]), bp = axis_pos(g, best[k]);
        rc = cet_buf_puts(b, "unset logscale x\nunset xtics\nset xtics\nset title ") ||
             gp_str(b, g->name) || cet_buf_puts(b, "\n") || gp_axis(b, d, g, "x") ||
             cet_buf_puts(b, "unset xlabel\n"); /* the panel's title names it */
        /* Many enum values side by side overlap: slanted, they fit. */
        if (categorical(g) && ncategories(g) > 4)
            rc = rc || cet_buf_puts(b, "set xtics rotate by -35 left font ',9'\n");
        /* The default last, so its dashes show on the best's line when they
         * meet; neither where the gene is inactive. */
        if (best_on[k])
            rc = rc || cet_buf_printf(b, "set arrow 1 from %.17g, graph 0 to %.17g, graph 1 "
                                         "nohead lw 2 lc rgb '#d62728' front\n", bp, bp);
        if (def_on[k])
            rc = rc || cet_buf_printf(b, "set arrow 2 from %.17g, graph 0 to %.17g, graph 1 "
                                         "nohead dt 2 lw 2 lc rgb '#333333' front\n", dp, dp);
        if (categorical(g))
            rc = rc || cet_buf_printf(b, "plot '%s' index %zu using 1:2:(0.6) with boxes "
                                         "lc rgb '#4a7ab5' notitle", file_pop, k);
        else
            rc = rc || cet_buf_printf(b, "plot '%s' index %zu using (($1+$2)/2):($3/2):1:2:(0):3 "
                                         "with boxxyerror lc rgb '#4a7ab5' notitle", file_pop, k);
        rc = rc || cet_buf_puts(b, ", \\\n     NaN with lines dt 2 lw 2 lc rgb '#333333' "
                                   "title 'default', \\\n     NaN with lines lw 2 lc rgb "
                                   "'#d62728' title 'best'\nunset arrow\n");
    }
    return rc || cet_buf_puts(b, "unset multiplot\n");
}

/* --pareto: the front over every evaluated setting, the defaults marked. */
static int gp_pareto(struct cet_report *r, struct cet_buf *b)
{
    const struct cet_goal *g = &cet_search_opts(r->engine)->goal;
    char x[64], y[64]; /* objective names: "macro-precision", "fbeta:B" */
    if (!g->npareto)
        return 0;
    cet_objective_name(&g->pareto[0], x, sizeof x);
    cet_objective_name(&g->pareto[1], y, sizeof y);
    return add_plot(r, CET_RUN_PLOT_PARETO) || gp_png(b, CET_RUN_PLOT_PARETO, 900, 760) ||
           gp_title(b, "set title ", "%s: Pareto front of %s and %s%s (training sample of %ld "
                    "documents)", r->desc.ex->name, x, y,
                    g->npareto > 2 ? ", seen from above" : "", r->run.docs) ||
           cet_buf_printf(b, "\nset xlabel '%s'\nset ylabel '%s'\nset grid lc rgb '#dddddd'\n"
                             "set key bottom left box opaque\n"
                             "plot '%s' index 0 using 1:2 with points pt 7 ps 0.5 lc rgb "
                             "'#bbbbbb' title 'evaluated', \\\n"
                             "     '' index 1 using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb "
                             "'#1f4e99' title 'non-dominated (pareto.csv)', \\\n"
                             "     '' index 2 using 1:2 with points pt 2 ps 2.5 lw 3 lc rgb "
                             "'#000000' title 'defaults'\n",
                          x, y, file_pareto);
}

int cet_report_write_plots(struct cet_report *r, struct cet_error *err)
{
    const struct cet_search *engine = r->engine;
    struct cet_buf b = {0};
    double *defaults = malloc((r->desc.ngenes + 1) * sizeof *defaults);
    struct cet_search_status st;
    size_t nhist, npop;
    cet_search_status(engine, &st);
    cet_search_history(engine, &nhist);
    cet_search_population(engine, &npop);
    int rc = -1;
    if (!defaults)
        goto oom;
    cet_params_default_genome(&r->desc, defaults);
    cet_genome_normalise(&r->desc, cet_search_opts(engine)->resolution, defaults);
    size_t di;
    int def_known = !cet_run_full_index(engine, defaults, &di);
    double def_fit = def_known ? cet_search_fitness(engine, di) : NAN;

    if (!nhist || !st.narch || !npop) { /* nothing complete to draw yet */
        rc = 0;
        goto done;
    }
    if (generations_dat(engine, &b))
        goto oom;
    if (write_file(r->dir, file_gen, &b, err))
        goto done;
    b.len = 0;
    if (explored_dat(engine, r->best, defaults, &b))
        goto oom;
    if (write_file(r->dir, file_explored, &b, err))
        goto done;
    b.len = 0;
    if (population_dat(engine, &b))
        goto oom;
    if (write_file(r->dir, file_pop, &b, err))
        goto done;
    b.len = 0;
    if (cet_search_opts(engine)->goal.npareto) {
        if (pareto_dat(engine, def_known, di, &b))
            goto oom;
        if (write_file(r->dir, file_pareto, &b, err))
            goto done;
        b.len = 0;
    }
    if (cet_buf_puts(&b, "# Drawn by 'cetune report'; to draw again: cd RUN_DIRECTORY && gnuplot "
                         "report.gp\n"
                         "# pngcairo when this gnuplot has it, else the libgd png terminal.\n"
                         "cairo = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0\n"
                         "png(w, h) = cairo ? sprintf(\"set terminal pngcairo size %d,%d "
                         "font 'sans,11' noenhanced\", w, h) : sprintf(\"set terminal png size "
                         "%d,%d noenhanced\", w, h)\n\n") ||
        gp_convergence(r, &b, def_fit) || gp_explored(r, &b) ||
        gp_distribution(r, &b, defaults) || gp_pareto(r, &b) ||
        cet_buf_puts(&b, "unset output\n"))
        goto oom;
    if (write_file(r->dir, file_gp, &b, err))
        goto done;
    for (size_t i = 0; i < r->nplots; i++) {
        char *path = cet_run_path(r->dir, r->plots[i]);
        if (!path)
            goto oom;
        if (cet_remove_file(path, err)) {
            free(path);
            goto done;
        }
        free(path);
    }
    rc = 0;
    goto done;
oom:
    cet_fail(err, "%s: out of memory writing the plot script", r->dir);
done:
    free(defaults);
    cet_buf_free(&b);
    return rc;
}
