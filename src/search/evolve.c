/* The run lifecycle (PGAPack style): cet_search_new -> options ->
 * cet_search_setup -> cet_search_generation until engine->stop -> cet_search_free.
 *
 * One generation, in phases (Gottron 2008, section 4, figure 3):
 * - ask: the search strategy (strategy.h; the GA's is strategy_ga.c)
 *   proposes the candidates;
 * - archive: each is looked up in the archive (archive.c), or added, so no
 *   genome is evaluated twice;
 * - evaluate: the new genomes, in chunks so that a cancel request is
 *   noticed quickly (with racing, block by block: race.c); a generation
 *   that would exceed --max-evals evaluates only what the budget allows and
 *   drops the rest;
 * - tell: the strategy learns from the results and sets the population;
 * - statistics (a row of the history) and the stop rule (stop.c).
 * All random draws happen on the calling thread, in a fixed order; only the
 * evaluation callback runs in parallel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cetune/clock.h"
#include "cetune/search.h"
#include "search_internal.h"
#include "options.h"
#include "strategy.h"
#include "util/array.h"

enum { CHUNK = 16 };

/* Options as given, with what the description decides filled in: the
 * strategy (CET_STRATEGY_AUTO: cet_strategy_default, but racing and Pareto
 * searches are the GA's), then the strategy's own defaults. */
static void resolve(struct cet_search *engine)
{
    struct cet_search_options *o = &engine->opt;
    if (o->strategy == CET_STRATEGY_AUTO)
        o->strategy = o->race || o->goal.npareto ? CET_STRATEGY_GA
                                                 : cet_strategy_default(engine->desc);
    if ((unsigned)o->strategy < CET_STRATEGY_COUNT && cet_strategies[o->strategy].defaults)
        cet_strategies[o->strategy].defaults(o, engine->desc->ngenes);
}

static int view_lookup(const struct cet_search_view *v, const double *g, size_t *at)
{
    return cet_search_lookup(v->engine, g, at);
}

static int view_rank(const struct cet_search_view *v, size_t *idx, size_t n)
{
    return cet_search_rank_sort(v->engine, idx, n);
}

void cet_search_view(const struct cet_search *engine, struct cet_search_view *v)
{
    *v = (struct cet_search_view){
        .desc = engine->desc, .opt = &engine->opt, .ngenes = engine->ngenes, .gen = engine->gen,
        .stagnant = engine->gen < 0 ? 0 : engine->gen - engine->last_improve, .seeds = engine->seeds,
        .nseeds = engine->nseeds, .pop = engine->pop, .npop = engine->npop, .narch = engine->narch,
        .genes = engine->genes, .fit = engine->fit, .viol = engine->viol, .obj = engine->obj,
        .raced = engine->raced, .lookup = view_lookup, .rank = view_rank, .engine = engine};
}

/* The population grows to what the strategy works with (IPOP's restarts
 * double CMA-ES's); 0 or -1 when out of memory. */
static int fit_population(struct cet_search *engine)
{
    size_t want = cet_strategies[engine->opt.strategy].size(engine->strategy_state, &engine->opt);
    if (want <= engine->opt.pop && engine->pop)
        return 0;
    size_t n = want > engine->opt.pop ? want : engine->opt.pop;
    size_t *pop = realloc(engine->pop, (n ? n : 1) * sizeof *pop);
    if (!pop)
        return -1;
    engine->pop = pop;
    engine->opt.pop = n;
    return 0;
}

int cet_search_new(struct cet_search **out, const struct cet_params_desc *desc, struct cet_error *err)
{
    *out = NULL;
    struct cet_search *engine = calloc(1, sizeof *engine);
    if (!engine)
        return cet_fail(err, "out of memory");
    cet_search_default_options(&engine->opt);
    engine->desc = desc;
    resolve(engine);
    engine->ngenes = desc->ngenes;
    engine->nfull = desc->ex->nparams;
    engine->gen = -1;
    engine->seeds = malloc((desc->nseeds + 1) * desc->ngenes * sizeof *engine->seeds);
    if (!engine->seeds) {
        cet_search_free(engine);
        return cet_fail(err, "out of memory");
    }
    memcpy(engine->seeds, desc->seeds, desc->nseeds * desc->ngenes * sizeof *engine->seeds);
    engine->nseeds = desc->nseeds;
    *out = engine;
    return 0;
}

void cet_search_set_options(struct cet_search *engine, const struct cet_search_options *o)
{
    engine->opt = *o;
    resolve(engine);
}

void cet_search_set_ndocs(struct cet_search *engine, size_t ndocs)
{
    engine->ndocs = ndocs;
}

void cet_search_status(const struct cet_search *engine, struct cet_search_status *st)
{
    *st = (struct cet_search_status){
        .gen = engine->gen, .evals = engine->evals, .doc_evals = engine->doc_evals, .ndocs = engine->ndocs,
        .narch = engine->narch,
        .ncomplete = engine->race && engine->race->pending ? engine->race->first : engine->narch,
        .elapsed = engine->elapsed, .stop = engine->stop,
        .race_pending = engine->race && engine->race->pending,
        .race_done = engine->race ? engine->race->done : 0, .race_ndocs = engine->race ? engine->race->ndocs : 0};
}

void cet_search_individual(const struct cet_search *engine, size_t i, struct cet_individual *ind)
{
    *ind = (struct cet_individual){
        .genes = engine->genes + i * engine->ngenes, .fit = engine->fit[i], .prec = engine->prec[i],
        .rec = engine->rec[i], .f1 = engine->f1[i], .words = engine->words[i], .viol = engine->viol[i],
        .obj = engine->obj + i * CET_MAX_PARETO, .born = engine->born[i], .ndone = engine->ndone[i],
        .raced = engine->raced[i]};
}

const double *cet_search_genes(const struct cet_search *engine, size_t i)
{
    return cet_search_genome(engine, i);
}

double cet_search_fitness(const struct cet_search *engine, size_t i)
{
    return engine->fit[i];
}

const double *cet_search_objectives(const struct cet_search *engine, size_t i)
{
    return engine->obj + i * CET_MAX_PARETO;
}

const size_t *cet_search_population(const struct cet_search *engine, size_t *n)
{
    *n = engine->npop;
    return engine->pop;
}

const uint32_t *cet_search_race_order(const struct cet_search *engine, size_t *n)
{
    *n = engine->race ? engine->race->ndocs : 0;
    return engine->race ? engine->race->order : NULL;
}

const struct cet_search_stats *cet_search_history(const struct cet_search *engine, size_t *n)
{
    *n = engine->nhist;
    return engine->hist;
}

const struct cet_search_options *cet_search_opts(const struct cet_search *engine)
{
    return &engine->opt;
}

const struct cet_params_desc *cet_search_desc(const struct cet_search *engine)
{
    return engine->desc;
}

int cet_search_add_seed(struct cet_search *engine, const double *full, struct cet_error *err)
{
    double *s = realloc(engine->seeds, (engine->nseeds + 1) * engine->ngenes * sizeof *s);
    if (!s)
        return cet_fail(err, "out of memory");
    engine->seeds = s;
    if (cet_params_genome(engine->desc, full, s + engine->nseeds * engine->ngenes, err))
        return -1;
    size_t f = cet_params_forbidden(engine->desc, s + engine->nseeds * engine->ngenes);
    if (f)
        return cet_fail(err, "the seed is forbidden by entry %zu of \"forbidden\" in %s", f,
                        engine->desc->path);
    engine->nseeds++;
    return 0;
}

const double *cet_search_seed(const struct cet_search *engine, size_t k)
{
    return k < engine->nseeds ? engine->seeds + k * engine->ngenes : NULL;
}

int cet_search_check(const struct cet_search *engine, struct cet_error *err)
{
    const struct cet_search_options *o = &engine->opt;
    if ((unsigned)o->strategy >= CET_STRATEGY_COUNT)
        return cet_fail(err, "unknown search strategy");
    if (cet_search_options_check(o, err))
        return -1;
    const struct cet_strategy *st = &cet_strategies[o->strategy];
    if (!st->create)
        return cet_fail(err, "the search strategy %s is not built yet", st->name);
    /* Racing's test compares mean F1 per document. */
    if (o->race && !cet_goal_is_default(&o->goal))
        return cet_fail(err, "--race works with the default objective (mean F1) only, not with "
                             "--objective, --constraint or --pareto");
    if (o->goal.npareto && o->goal.objective.m != CET_MEASURE_F1)
        return cet_fail(err, "--pareto searches its own objectives; leave out --objective");
    if (st->check(o, engine->nseeds, err))
        return -1;
    if (!o->generations && !o->patience && !o->max_evals && !o->time)
        return cet_fail(err, "without a limit on generations, stagnation, evaluations or time "
                             "the run would never stop");
    return 0;
}

int cet_search_setup(struct cet_search *engine, cet_search_eval_fn eval, cet_search_cancel_fn cancel, void *ctx,
                 struct cet_error *err)
{
    const struct cet_search_options *o = &engine->opt;
    /* The default --shrink depends on the seeds, all added by now: a seed
     * beyond the description's is a --seed-config, the run's start. */
    cet_goal_resolve_shrink(&engine->opt.goal, o->race, engine->nseeds > engine->desc->nseeds);
    if (cet_search_check(engine, err))
        return -1;
    if (!engine->rng) {
        engine->rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!engine->rng)
            return cet_fail(err, "out of memory");
        gsl_rng_set(engine->rng, (unsigned long)cet_seed_derive(o->seed, CET_STREAM_GA));
    }
    if (!engine->rng_saved && !(engine->rng_saved = gsl_rng_alloc(gsl_rng_mt19937)))
        return cet_fail(err, "out of memory");
    if (!engine->strategy_ready) {
        struct cet_search_view v;
        cet_search_view(engine, &v);
        if (cet_strategies[o->strategy].create(&engine->strategy_state, &v, err))
            return -1;
        engine->strategy_ready = 1;
        /* A population the strategy sizes itself has room for the seeds. */
        if (!engine->opt.pop)
            engine->opt.pop = engine->nseeds;
    }
    if (fit_population(engine))
        return cet_fail(err, "out of memory");
    engine->eval = eval;
    engine->cancel = cancel;
    engine->ctx = ctx;
    engine->ready = 1;
    return 0;
}

void cet_search_set_measure(struct cet_search *engine, cet_search_measure_fn measure)
{
    engine->measure = measure;
}

void cet_search_free(struct cet_search *engine)
{
    if (!engine)
        return;
    if (engine->strategy_ready)
        cet_strategies[engine->opt.strategy].destroy(engine->strategy_state);
    if (engine->rng)
        gsl_rng_free(engine->rng);
    if (engine->rng_saved)
        gsl_rng_free(engine->rng_saved);
    free(engine->seeds);
    free(engine->genes);
    free(engine->fit);
    free(engine->prec);
    free(engine->rec);
    free(engine->f1);
    free(engine->words);
    free(engine->viol);
    free(engine->obj);
    free(engine->born);
    free(engine->ndone);
    free(engine->raced);
    cet_race_free(engine->race);
    free(engine->slots);
    free(engine->pop);
    free(engine->hist);
    cet_buf_free(&engine->json_rows);
    free(engine);
}

/* ---- one generation ---- */

static void restore_state(struct cet_search *engine, size_t narch)
{
    gsl_rng_memcpy(engine->rng, engine->rng_saved);
    cet_search_archive_truncate(engine, narch);
}

/* Best, mean, worst and std over the fully evaluated members (a raced-out
 * fitness is a mean over other documents; all members if none is), the
 * diversity over all of them. */
static void statistics(struct cet_search *engine, double *cand_genomes)
{
    struct cet_search_stats s = {.generation = engine->gen, .evaluations = engine->evals,
                             .seconds = engine->elapsed, .doc_evaluations = engine->doc_evals};
    size_t n = engine->npop, m = 0;
    for (size_t k = 0; k < n; k++)
        m += !engine->raced[engine->pop[k]];
    int all = m == 0;
    if (n) {
        double sum = 0, sq = 0;
        s.best = -INFINITY;
        s.worst = INFINITY;
        for (size_t k = 0; k < n; k++) {
            memcpy(cand_genomes + k * engine->ngenes, cet_search_genome(engine, engine->pop[k]),
                   engine->ngenes * sizeof *cand_genomes);
            if (!all && engine->raced[engine->pop[k]])
                continue;
            double f = engine->fit[engine->pop[k]];
            s.best = fmax(s.best, f);
            s.worst = fmin(s.worst, f);
            sum += f;
        }
        m = all ? n : m;
        s.mean = sum / (double)m;
        for (size_t k = 0; k < n; k++) {
            if (!all && engine->raced[engine->pop[k]])
                continue;
            double x = engine->fit[engine->pop[k]] - s.mean;
            sq += x * x;
        }
        s.std = sqrt(sq / (double)m);
        s.diversity = cet_genome_diversity(engine->desc, cand_genomes, n);
    }
    /* A Pareto search keeps its front, not the highest F1, in the population:
     * its best is best.json's, the highest F1 on the front of everything
     * evaluated so far, so that generations.csv, the plots and report.md
     * agree with best.json and never go down. */
    size_t b;
    if (engine->opt.goal.npareto && !cet_search_best(engine, &b))
        s.best = engine->fit[b];
    engine->hist[engine->nhist++] = s;
}

/* A generation in progress. */
struct gen {
    double *cand;  /* the candidates (room for the population), then scratch */
    size_t *idx;   /* the archive index of each candidate */
    uint8_t *evaluated; /* learn: 1 where the candidate was evaluated (within the budget) */
    size_t nc;
    size_t *fresh; /* the candidates' new archive entries, in order */
    size_t nfresh;
    size_t budget; /* how many of them are evaluated (--max-evals) */
    size_t narch0; /* the archive before the generation */
};

/* Ask and archive: the strategy proposes the candidates; each is looked up
 * in the archive or added to it.  With racing, the candidates over the
 * budget leave at once (a paused raced generation holds only what it
 * evaluates) and racing begins. */
static int propose(struct cet_search *engine, struct gen *g, struct cet_error *err)
{
    size_t G = engine->ngenes;
    gsl_rng_memcpy(engine->rng_saved, engine->rng);
    g->narch0 = engine->narch;
    struct cet_search_view v;
    cet_search_view(engine, &v);
    g->nc = cet_strategies[engine->opt.strategy].ask(engine->strategy_state, &v, engine->rng, g->cand);
    for (size_t k = 0; k < g->nc; k++) {
        if (cet_search_lookup(engine, g->cand + k * G, &g->idx[k])) {
            if (cet_search_archive_add(engine, g->cand + k * G, engine->gen + 1, &g->idx[k])) {
                restore_state(engine, g->narch0);
                return cet_fail(err, "out of memory");
            }
            g->fresh[g->nfresh++] = g->idx[k];
        }
    }
    g->budget = g->nfresh;
    /* The evaluations left, never negative: a resumed checkpoint may
     * already hold more evaluations than the limit. */
    if (engine->opt.max_evals > 0 && (long)g->nfresh > engine->opt.max_evals - engine->evals)
        g->budget = engine->evals < engine->opt.max_evals ? (size_t)(engine->opt.max_evals - engine->evals) : 0;
    if (engine->race) {
        size_t kept = 0;
        for (size_t k = 0; k < g->nc; k++)
            if (g->idx[k] < g->narch0 + g->budget)
                g->idx[kept++] = g->idx[k];
        g->nc = kept;
        g->nfresh = g->budget;
        cet_search_archive_truncate(engine, g->narch0 + g->budget);
        cet_search_race_begin(engine, g->idx, g->nc, g->narch0, g->budget);
    }
    return 0;
}

/* A raced generation paused by a cancel or restored from a checkpoint
 * goes on with its members. */
static void resume_raced(struct cet_search *engine, struct gen *g)
{
    const struct cet_race *R = engine->race;
    g->nc = R->nmembers;
    memcpy(g->idx, R->members, g->nc * sizeof *g->idx);
    g->narch0 = R->first;
    for (g->nfresh = 0; g->nfresh < R->n; g->nfresh++)
        g->fresh[g->nfresh] = g->narch0 + g->nfresh;
    g->budget = g->nfresh;
}

/* Evaluates the first budget new entries, in chunks so that a cancel
 * request is noticed quickly (racing: block by block, race.c).  0, 1 when
 * cancelled (the generation is undone; racing: paused), -1 on error. */
static int evaluate(struct cet_search *engine, struct gen *g, struct cet_error *err)
{
    if (engine->race)
        return cet_search_race_run(engine, err);
    size_t F = engine->nfull;
    double *full = malloc(CHUNK * (F ? F : 1) * sizeof *full);
    double *f = malloc(CHUNK * 3 * sizeof *f);
    struct cet_measures *m = malloc(CHUNK * sizeof *m);
    int rc = -1;
    if (!full || !f || !m) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (size_t c0 = 0; c0 < g->budget; c0 += CHUNK) {
        if (engine->cancel && engine->cancel(engine->ctx)) {
            rc = 1;
            goto done;
        }
        size_t k = g->budget - c0 < CHUNK ? g->budget - c0 : CHUNK;
        const size_t *fresh = g->fresh + c0;
        for (size_t j = 0; j < k; j++)
            cet_params_expand(engine->desc, cet_search_genome(engine, fresh[j]), full + j * F);
        if (engine->measure ? engine->measure(engine->ctx, full, k, m, err)
                        : engine->eval(engine->ctx, full, k, f, f + CHUNK, f + 2 * CHUNK, err))
            goto done;
        /* A caller's fitness must be a number: NaN would order nothing and
         * could not be checkpointed. */
        for (size_t j = 0; j < k && !engine->measure; j++)
            for (int q = 0; q < 3; q++)
                if (!isfinite(f[q * CHUNK + j])) {
                    cet_fail(err, "the fitness function returned %g for a configuration",
                             f[q * CHUNK + j]);
                    goto done;
                }
        for (size_t j = 0; j < k && engine->measure; j++)
            cet_search_archive_measures(engine, fresh[j], &m[j]);
        for (size_t j = 0; j < k && !engine->measure; j++) {
            engine->fit[fresh[j]] = engine->f1[fresh[j]] = f[j];
            engine->prec[fresh[j]] = f[CHUNK + j];
            engine->rec[fresh[j]] = f[2 * CHUNK + j];
        }
    }
    if (engine->cancel && engine->cancel(engine->ctx)) {
        rc = 1;
        goto done;
    }
    engine->doc_evals += (long)(g->budget * engine->ndocs);
    rc = 0;
done:
    if (rc)
        restore_state(engine, g->narch0);
    free(full);
    free(f);
    free(m);
    return rc;
}

/* Tell: the unevaluated tail (over budget) leaves the archive, and the
 * strategy learns from the evaluated generation.  With racing, the
 * candidates are the members, copied from the archive, so a paused and
 * resumed generation tells the same as one that ran through. */
static int learn(struct cet_search *engine, struct gen *g, int *renewed, struct cet_error *err)
{
    size_t G = engine->ngenes;
    size_t keep_below = g->budget < g->nfresh ? g->fresh[g->budget] : engine->narch;
    for (size_t k = 0; k < g->nc; k++) {
        if (engine->race)
            memcpy(g->cand + k * G, cet_search_genome(engine, g->idx[k]), G * sizeof *g->cand);
        g->evaluated[k] = g->idx[k] < keep_below;
    }
    cet_search_archive_truncate(engine, keep_below);
    struct cet_search_view v;
    cet_search_view(engine, &v);
    struct cet_search_told t = {.cand = g->cand, .idx = g->idx, .evaluated = g->evaluated,
                                .n = g->nc, .nfresh = g->budget};
    if (cet_strategies[engine->opt.strategy].tell(engine->strategy_state, &v, engine->rng, &t, engine->pop,
                                              &engine->npop, renewed, err))
        return -1;
    return fit_population(engine) ? cet_fail(err, "out of memory") : 0;
}

int cet_search_generation(struct cet_search *engine, struct cet_error *err)
{
    if (!engine->ready)
        return cet_fail(err, "cet_search_setup was not called");
    if (engine->stop != CET_STOP_NONE)
        return cet_fail(err, "the run has stopped (%s)", cet_search_stop_name(engine->stop));
    if ((engine->opt.race || engine->race) && !(engine->race && engine->race->score))
        return cet_fail(err, "cet_search_race_setup was not called");
    /* Time between generations (the caller writing files) counts too. */
    double t0 = engine->t_last > 0 ? engine->t_last : cet_now();
    size_t P = engine->opt.pop;
    struct gen g = {.cand = malloc(P * engine->ngenes * sizeof *g.cand),
                    .idx = malloc(P * sizeof *g.idx), .evaluated = malloc(P),
                    .fresh = malloc(P * sizeof *g.fresh)};
    int rc = -1;
    if (!g.cand || !g.idx || !g.evaluated || !g.fresh ||
        CET_GROW(engine->hist, engine->hist_cap, engine->nhist + 1, 64)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (engine->race && engine->race->pending)
        resume_raced(engine, &g);
    else if (propose(engine, &g, err))
        goto done;
    if ((rc = evaluate(engine, &g, err)) != 0)
        goto done; /* cancelled: undone, or racing: still pending, resumable at its last block */
    rc = -1;
    int renewed = 0;
    if (learn(engine, &g, &renewed, err))
        goto done;
    if (engine->race)
        cet_search_race_end(engine);
    engine->gen++;
    engine->evals += (long)g.budget;
    engine->t_last = cet_now();
    engine->elapsed += engine->t_last - t0;
    statistics(engine, g.cand);
    cet_search_check_stop(engine);
    if (engine->stop == CET_STOP_NONE && g.budget == 0 && !renewed)
        engine->stop = CET_STOP_EXHAUSTED;
    rc = 0;
done:
    free(g.cand);
    free(g.idx);
    free(g.evaluated);
    free(g.fresh);
    return rc;
}
