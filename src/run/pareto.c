/* The result of a Pareto search (--pareto), rewritten with the other
 * results after every generation:
 * - pareto.csv: the non-dominated settings of the whole archive
 *   (cet_search_front), best first by the first objective: point (1, 2, ...),
 *   one column per described parameter, f1, precision, recall, words,
 *   violation, then each Pareto objective that is none of the first three
 *   (fbeta:B, macro-f1) under its name;
 * - pareto/K.json: point K's configuration (docs/formats.md, "Configurations", fitness =
 *   mean F1, plus its measures), for evaluate -c and extract -c.  Files of
 *   points that left the front are removed.
 * The archive's front rather than the last population's: every evaluated
 * setting counts, and the front never loses a point that crowding pushed
 * out of the population. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_internal.h"

/* Front members by the first objective, highest first, then evaluation order. */
static void sort_front(const struct cet_search *engine, size_t *v, size_t n)
{
    for (size_t a = 1; a < n; a++) { /* insertion sort: fronts are small */
        size_t x = v[a], k = a;
        while (k > 0 && cet_search_objectives(engine, v[k - 1])[0] < cet_search_objectives(engine, x)[0])
            v[k] = v[k - 1], k--;
        v[k] = x;
    }
}

/* 1 when Pareto objective k is not already a column (f1, precision, recall). */
static int own_column(const struct cet_objective *o)
{
    return o->m != CET_MEASURE_F1 && o->m != CET_MEASURE_PRECISION &&
           o->m != CET_MEASURE_RECALL;
}

/* Removes DIR/pareto/K.json for K > n (points that left the front). */
static int remove_stale(const char *pdir, size_t n, struct cet_error *err)
{
    DIR *d = opendir(pdir);
    if (!d)
        return cet_fail(err, "%s: %s", pdir, strerror(errno));
    struct dirent *de;
    int rc = 0;
    while (!rc && (de = readdir(d))) {
        char *end, *path;
        unsigned long k = strtoul(de->d_name, &end, 10);
        if (end == de->d_name || strcmp(end, ".json") || k <= n)
            continue;
        if (!(path = cet_run_path(pdir, de->d_name)))
            rc = cet_fail(err, "%s: out of memory", pdir);
        else
            rc = cet_remove_file(path, err);
        free(path);
    }
    closedir(d);
    return rc;
}

int cet_run_write_pareto(const struct cet_search *engine, const struct cet_run_info *run,
                         const char *dir, struct cet_error *err)
{
    const struct cet_goal *g = &cet_search_opts(engine)->goal;
    const struct cet_params_desc *d = cet_search_desc(engine);
    struct cet_buf b = {0};
    struct cet_individual in;
    size_t *front = NULL, n = 0, nfull = d->ex->nparams;
    double *full = malloc((nfull + 1) * sizeof *full + nfull);
    char *path = cet_run_path(dir, CET_RUN_PARETO), *pdir = cet_run_path(dir, CET_RUN_PARETO_DIR);
    int rc = -1;
    if (!full || !path || !pdir || cet_search_front(engine, &front, &n))
        goto oom;
    sort_front(engine, front, n);
    int bad = cet_buf_puts(&b, "point");
    for (size_t k = 0; k < d->ngenes && !bad; k++)
        bad = cet_buf_printf(&b, ",%s", d->genes[k].name);
    bad = bad || cet_buf_puts(&b, ",f1,precision,recall,words,violation");
    for (size_t k = 0; k < g->npareto && !bad; k++) {
        char name[64];
        cet_objective_name(&g->pareto[k], name, sizeof name);
        bad = own_column(&g->pareto[k]) && cet_buf_printf(&b, ",%s", name);
    }
    bad = bad || cet_buf_puts(&b, "\n");
    for (size_t p = 0; p < n && !bad; p++) {
        cet_search_individual(engine, front[p], &in);
        bad = cet_buf_printf(&b, "%zu", p + 1) || cet_genome_cells(&b, d, in.genes, ",%s") ||
              cet_buf_printf(&b, ",%.6f,%.6f,%.6f,%.2f,%.6f", in.f1, in.prec, in.rec, in.words,
                             in.viol);
        for (size_t k = 0; k < g->npareto && !bad; k++)
            bad = own_column(&g->pareto[k]) && cet_buf_printf(&b, ",%.6f", in.obj[k]);
        bad = bad || cet_buf_puts(&b, "\n");
    }
    if (bad)
        goto oom;
    if (cet_write_atomic(path, b.p, b.len, err))
        goto done;
    if (cet_mkdirs(pdir)) {
        cet_fail(err, "%s: cannot create: %s", pdir, strerror(errno));
        goto done;
    }
    for (size_t p = 0; p < n; p++) {
        char name[32];
        snprintf(name, sizeof name, "%zu.json", p + 1);
        b.len = 0;
        if (cet_run_config_json(engine, run, front[p], 1, full, &b) || cet_buf_puts(&b, "\n"))
            goto oom;
        if (cet_run_write_file(pdir, name, b.p, b.len, err))
            goto done;
    }
    rc = remove_stale(pdir, n, err);
    goto done;
oom:
    cet_fail(err, "%s: out of memory writing the Pareto front", dir);
done:
    cet_buf_free(&b);
    free(front);
    free(full);
    free(path);
    free(pdir);
    return rc;
}
