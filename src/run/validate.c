/* Validation (evolve --validate): the training sample is small, so a run
 * can over-fit it; scoring the best individuals and the defaults on other,
 * full corpora shows how much of the gain is real.  Fitness and the
 * validation fitness are the same measure (the run's objective: mean F1
 * over documents by default, the --objective otherwise, F1 in a Pareto
 * run), so their difference, the gap, is comparable across rows; mean F1,
 * precision and recall and the macro F1 over packages (what evaluate's
 * tables show, table 3) are added.
 * The rows are exactly top.json's individuals, then the defaults. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_internal.h"

void cet_validation_free(struct cet_validation *v)
{
    free(v->genomes);
    free(v->train); /* one block holds train, fit, f1, p, r and macro_f1 */
    memset(v, 0, sizeof *v);
}

/* Documents of vc that train holds too (same package and name). */
static size_t shared_docs(const struct cet_corpus *vc, const struct cet_corpus *train)
{
    size_t n = 0;
    for (size_t i = 0; train && i < vc->ndocs; i++)
        for (size_t j = 0; j < train->ndocs; j++)
            if (!strcmp(vc->docs[i]->name, train->docs[j]->name) &&
                !strcmp(vc->docs[i]->package, train->docs[j]->package)) {
                n++;
                break;
            }
    return n;
}

int cet_validation_compute(struct cet_validation *v, const struct cet_search *engine, const struct cet_run_info *run,
                    struct cet_evaluator *ev, const struct cet_corpus *vc, double defaults_train,
                    const struct cet_corpus *train, struct cet_error *err)
{
    const struct cet_params_desc *d = cet_search_desc(engine);
    size_t *rank = NULL, ntop = 0, G = d->ngenes, F = d->ex->nparams;
    double *full = NULL;
    struct cet_score *scores = NULL;
    struct cet_search_status st;
    cet_search_status(engine, &st);
    memset(v, 0, sizeof *v);
    if (!st.narch)
        return cet_fail(err, "nothing was evaluated, so there is nothing to validate");
    if (cet_search_top(engine, run->top ? run->top : 5, &rank, &ntop))
        goto oom;
    /* best.json's row: among the top, the defaults, or one more row (a
     * start outside the top) before the defaults. */
    double *def = malloc((G + 1) * sizeof *def);
    if (!def)
        goto oom;
    cet_params_default_genome(d, def);
    cet_genome_normalise(d, cet_search_opts(engine)->resolution, def);
    size_t best, di;
    int miss = cet_run_info_best(engine, run, &best); /* 0: found */
    int def_best = (run->has_chosen && run->start_outside &&
                    !memcmp(run->start, def, G * sizeof *def)) ||
                   (!miss && !cet_search_lookup(engine, def, &di) && di == best);
    v->best = SIZE_MAX;
    for (size_t k = 0; k < ntop && !miss; k++)
        if (rank[k] == best)
            v->best = k;
    int extra = !def_best && v->best == SIZE_MAX && !miss;
    free(def);
    size_t n = ntop + 1 + (size_t)extra;
    if (def_best)
        v->best = n - 1;
    else if (extra)
        v->best = ntop;
    v->n = n;
    v->ngenes = G;
    v->genomes = malloc(n * (G ? G : 1) * sizeof *v->genomes);
    v->train = malloc(6 * n * sizeof *v->train);
    full = malloc(n * (F ? F : 1) * sizeof *full);
    scores = malloc(n * (vc->ndocs ? vc->ndocs : 1) * sizeof *scores);
    if (!v->genomes || !v->train || !full || !scores)
        goto oom;
    v->fit = v->train + n;
    v->f1 = v->fit + n;
    v->p = v->f1 + n;
    v->r = v->p + n;
    v->macro_f1 = v->r + n;
    for (size_t k = 0; k < ntop; k++) {
        memcpy(v->genomes + k * G, cet_search_genes(engine, rank[k]), G * sizeof *v->genomes);
        v->train[k] = cet_search_fitness(engine, rank[k]);
    }
    if (extra) {
        memcpy(v->genomes + ntop * G, cet_search_genes(engine, best), G * sizeof *v->genomes);
        v->train[ntop] = cet_search_fitness(engine, best);
    }
    /* The defaults as the run would have normalised them. */
    cet_params_default_genome(d, v->genomes + (n - 1) * G);
    cet_genome_normalise(d, cet_search_opts(engine)->resolution, v->genomes + (n - 1) * G);
    v->train[n - 1] = defaults_train;
    v->extra = (size_t)extra;
    for (size_t k = 0; k < n; k++)
        cet_params_expand(d, v->genomes + k * G, full + k * F);
    if (cet_evaluate(ev, full, n, NULL, 0, scores, v->f1, v->p, v->r, err))
        goto fail;
    for (size_t k = 0; k < n; k++) {
        struct cet_score macro;
        struct cet_measures m;
        cet_score_macro(vc, scores + k * vc->ndocs, NULL, &macro);
        v->macro_f1[k] = macro.f1;
        cet_goal_measure(&cet_search_opts(engine)->goal, vc, scores + k * vc->ndocs, &m);
        v->fit[k] = cet_search_opts(engine)->goal.npareto ? m.f1 : m.fit; /* as the GA's fitness (evolve.c) */
    }
    v->docs = vc->ndocs;
    v->npkgs = vc->npkgs;
    v->shared = shared_docs(vc, train);
    free(rank);
    free(full);
    free(scores);
    return 0;
oom:
    cet_fail(err, "out of memory validating the run");
fail:
    free(rank);
    free(full);
    free(scores);
    cet_validation_free(v);
    return -1;
}

void cet_validation_label(const struct cet_validation *v, size_t k, char *buf, size_t size)
{
    if (k + 1 == v->n)
        snprintf(buf, size, "defaults");
    else if (v->extra && k + 2 == v->n)
        snprintf(buf, size, "start");
    else
        snprintf(buf, size, "%zu", k + 1);
}

int cet_validation_write(const struct cet_validation *v, const struct cet_search *engine, const char *dir,
                         struct cet_error *err)
{
    const struct cet_params_desc *d = cet_search_desc(engine);
    struct cet_buf b = {0};
    int rc = cet_buf_puts(&b, "rank");
    for (size_t g = 0; g < d->ngenes && !rc; g++)
        rc = cet_buf_printf(&b, ",%s", d->genes[g].name);
    rc = rc || cet_buf_puts(&b, ",train_fitness,valid_fitness,valid_f1,valid_macro_f1,"
                                "valid_precision,valid_recall,gap,best_json\n");
    for (size_t k = 0; k < v->n && !rc; k++) {
        rc = k + 1 < v->n ? cet_buf_printf(&b, "%zu", k + 1) : cet_buf_puts(&b, "defaults");
        rc = rc || cet_genome_cells(&b, d, v->genomes + k * v->ngenes, ",%s");
        if (isnan(v->train[k]))
            rc = rc || cet_buf_printf(&b, ",,%.6f,%.6f,%.6f,%.6f,%.6f,", v->fit[k], v->f1[k],
                                      v->macro_f1[k], v->p[k], v->r[k]);
        else
            rc = rc || cet_buf_printf(&b, ",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", v->train[k],
                                      v->fit[k], v->f1[k], v->macro_f1[k], v->p[k], v->r[k],
                                      v->train[k] - v->fit[k]);
        rc = rc || cet_buf_printf(&b, ",%d\n", k == v->best);
    }
    if (rc) {
        cet_buf_free(&b);
        return cet_fail(err, "%s: out of memory writing validation.csv", dir);
    }
    rc = cet_run_write_file(dir, CET_RUN_VALIDATION, b.p, b.len, err);
    cet_buf_free(&b);
    return rc;
}
