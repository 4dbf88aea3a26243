/* How a run evaluates (run_internal.h): on its training sample or through
 * its backend, the search's documents (all but a holdout) or any others,
 * mean F1 or another goal; and the defaults' fitness, which the holdout
 * choice (choose.c), validation and the report compare with. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run_internal.h"

int cet_run_eval_docs(struct cet_run *run, const double *params, size_t k, const uint32_t *docs,
                      size_t n, struct cet_score *scores, double *f, double *p, double *r,
                      struct cet_error *err)
{
    if (run->be.evaluate)
        return run->be.evaluate(run->be.ctx, params, k, docs, n, scores, f, p, r, err);
    return cet_evaluate(run->ev, params, k, docs, n, scores, f, p, r, err);
}

int cet_run_train_eval(struct cet_run *run, const double *params, size_t k,
                       struct cet_score *scores, double *f, double *p, double *r,
                       struct cet_error *err)
{
    return cet_run_eval_docs(run, params, k, run->search, run->nsearch, scores, f, p, r, err);
}

/* --shrink: each measured setting's fitness minus W/n times its distance
 * to the start (objective.h), n the documents the search sees.  The start
 * is the first --seed-config, the first seed after the description's own
 * (cet_search_seed, so a resumed run has it from its checkpoint), else the
 * description's defaults. */
static int shrink(struct cet_run *run, const double *params, size_t k, struct cet_measures *m,
                  struct cet_error *err)
{
    const struct cet_goal *g = &cet_search_opts(run->engine)->goal;
    const struct cet_params_desc *d = &run->desc;
    size_t np = d->ex->nparams, n = run->nsearch ? run->nsearch : run->train.ndocs;
    if (!(g->shrink > 0) || !n)
        return 0;
    double *start = malloc((np + 1) * sizeof *start);
    if (!start)
        return cet_fail(err, "out of memory during evaluation");
    const double *first = cet_search_seed(run->engine, d->nseeds);
    if (first)
        cet_params_expand(d, first, start);
    else
        memcpy(start, d->base, np * sizeof *start);
    for (size_t j = 0; j < k; j++)
        m[j].fit -= g->shrink / (double)n * cet_goal_shrink_distance(d, params + j * np, start);
    free(start);
    return 0;
}

int cet_run_measure(struct cet_run *run, const double *params, size_t k, struct cet_measures *m,
                    struct cet_error *err)
{
    if (run->be.measure) {
        int rc = run->be.measure(run->be.ctx, params, k, &cet_search_opts(run->engine)->goal, m, err);
        return rc ? rc : shrink(run, params, k, m, err);
    }
    size_t n = run->train.ndocs;
    struct cet_score *sc = malloc((k * n + 1) * sizeof *sc);
    if (!sc)
        return cet_fail(err, "out of memory during evaluation");
    int rc = cet_run_train_eval(run, params, k, sc, NULL, NULL, NULL, err);
    for (size_t j = 0; j < k && !rc; j++)
        cet_goal_measure(&cet_search_opts(run->engine)->goal, &run->train, sc + j * n, &m[j]);
    if (!rc)
        rc = shrink(run, params, k, m, err);
    free(sc);
    return rc;
}

int cet_run_full_index(const struct cet_search *engine, const double *g, size_t *at)
{
    struct cet_individual in;
    if (cet_search_lookup(engine, g, at))
        return CET_ENOTFOUND;
    cet_search_individual(engine, *at, &in);
    return in.raced ? CET_ENOTFOUND : 0;
}

double cet_run_defaults_fitness(struct cet_run *run, double *g)
{
    cet_params_default_genome(&run->desc, g);
    cet_genome_normalise(&run->desc, cet_search_opts(run->engine)->resolution, g);
    return cet_run_genome_fitness(run, g);
}

double cet_run_genome_fitness(struct cet_run *run, const double *g)
{
    const struct cet_search *engine = run->engine;
    const struct cet_search_options *o = cet_search_opts(engine);
    size_t i;
    if (!cet_run_full_index(engine, g, &i))
        return cet_search_fitness(engine, i);
    double f = NAN, *full = malloc((run->desc.ex->nparams + 1) * sizeof *full);
    struct cet_error err;
    if (full && run->bound) {
        struct cet_measures m;
        cet_params_expand(&run->desc, g, full);
        if (!cet_goal_is_default(&o->goal)
                ? cet_run_measure(run, full, 1, &m, &err)
                : cet_run_train_eval(run, full, 1, NULL, &m.fit, NULL, NULL, &err))
            f = NAN;
        else
            f = o->goal.npareto ? m.f1 : m.fit;
    }
    free(full);
    return f;
}
