/* The run lifecycle (PGAPack style): cet_ga_new -> options ->
 * cet_ga_setup -> cet_ga_generation until ga->stop -> cet_ga_free.
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
#include "cetune/ga.h"
#include "ga_internal.h"
#include "options.h"
#include "strategy.h"
#include "util/array.h"

enum { CHUNK = 16 };

/* Options as given, with what the description decides filled in: the
 * strategy (CET_STRATEGY_AUTO: cet_strategy_default, but racing and Pareto
 * searches are the GA's), then the strategy's own defaults. */
static void resolve(struct cet_ga *ga)
{
    struct cet_ga_options *o = &ga->opt;
    if (o->strategy == CET_STRATEGY_AUTO)
        o->strategy = o->race || o->goal.npareto ? CET_STRATEGY_GA
                                                 : cet_strategy_default(ga->desc);
    if ((unsigned)o->strategy < CET_STRATEGY_COUNT && cet_strategies[o->strategy].defaults)
        cet_strategies[o->strategy].defaults(o, ga->desc->ngenes);
}

static int view_lookup(const struct cet_search_view *v, const double *g, size_t *at)
{
    return cet_ga_lookup(v->engine, g, at);
}

static int view_rank(const struct cet_search_view *v, size_t *idx, size_t n)
{
    return cet_ga_rank_sort(v->engine, idx, n);
}

void cet_ga_view(const struct cet_ga *ga, struct cet_search_view *v)
{
    *v = (struct cet_search_view){
        .desc = ga->desc, .opt = &ga->opt, .ngenes = ga->ngenes, .gen = ga->gen,
        .stagnant = ga->gen < 0 ? 0 : ga->gen - ga->last_improve, .seeds = ga->seeds,
        .nseeds = ga->nseeds, .pop = ga->pop, .npop = ga->npop, .narch = ga->narch,
        .genes = ga->genes, .fit = ga->fit, .viol = ga->viol, .obj = ga->obj,
        .raced = ga->raced, .lookup = view_lookup, .rank = view_rank, .engine = ga};
}

/* The population grows to what the strategy works with (IPOP's restarts
 * double CMA-ES's); 0 or -1 when out of memory. */
static int fit_population(struct cet_ga *ga)
{
    size_t want = cet_strategies[ga->opt.strategy].size(ga->strategy_state, &ga->opt);
    if (want <= ga->opt.pop && ga->pop)
        return 0;
    size_t n = want > ga->opt.pop ? want : ga->opt.pop;
    size_t *pop = realloc(ga->pop, (n ? n : 1) * sizeof *pop);
    if (!pop)
        return -1;
    ga->pop = pop;
    ga->opt.pop = n;
    return 0;
}

int cet_ga_new(struct cet_ga **out, const struct cet_params_desc *desc, struct cet_error *err)
{
    *out = NULL;
    struct cet_ga *ga = calloc(1, sizeof *ga);
    if (!ga)
        return cet_fail(err, "out of memory");
    cet_ga_default_options(&ga->opt);
    ga->desc = desc;
    resolve(ga);
    ga->ngenes = desc->ngenes;
    ga->nfull = desc->ex->nparams;
    ga->gen = -1;
    ga->seeds = malloc((desc->nseeds + 1) * desc->ngenes * sizeof *ga->seeds);
    if (!ga->seeds) {
        cet_ga_free(ga);
        return cet_fail(err, "out of memory");
    }
    memcpy(ga->seeds, desc->seeds, desc->nseeds * desc->ngenes * sizeof *ga->seeds);
    ga->nseeds = desc->nseeds;
    *out = ga;
    return 0;
}

void cet_ga_set_options(struct cet_ga *ga, const struct cet_ga_options *o)
{
    ga->opt = *o;
    resolve(ga);
}

void cet_ga_set_ndocs(struct cet_ga *ga, size_t ndocs)
{
    ga->ndocs = ndocs;
}

void cet_ga_status(const struct cet_ga *ga, struct cet_ga_status *st)
{
    *st = (struct cet_ga_status){
        .gen = ga->gen, .evals = ga->evals, .doc_evals = ga->doc_evals, .ndocs = ga->ndocs,
        .narch = ga->narch,
        .ncomplete = ga->race && ga->race->pending ? ga->race->first : ga->narch,
        .elapsed = ga->elapsed, .stop = ga->stop,
        .race_pending = ga->race && ga->race->pending,
        .race_done = ga->race ? ga->race->done : 0, .race_ndocs = ga->race ? ga->race->ndocs : 0};
}

void cet_ga_individual(const struct cet_ga *ga, size_t i, struct cet_individual *ind)
{
    *ind = (struct cet_individual){
        .genes = ga->genes + i * ga->ngenes, .fit = ga->fit[i], .prec = ga->prec[i],
        .rec = ga->rec[i], .f1 = ga->f1[i], .words = ga->words[i], .viol = ga->viol[i],
        .obj = ga->obj + i * CET_MAX_PARETO, .born = ga->born[i], .ndone = ga->ndone[i],
        .raced = ga->raced[i]};
}

const double *cet_ga_genes(const struct cet_ga *ga, size_t i)
{
    return cet_ga_genome(ga, i);
}

double cet_ga_fitness(const struct cet_ga *ga, size_t i)
{
    return ga->fit[i];
}

const double *cet_ga_objectives(const struct cet_ga *ga, size_t i)
{
    return ga->obj + i * CET_MAX_PARETO;
}

const size_t *cet_ga_population(const struct cet_ga *ga, size_t *n)
{
    *n = ga->npop;
    return ga->pop;
}

const uint32_t *cet_ga_race_order(const struct cet_ga *ga, size_t *n)
{
    *n = ga->race ? ga->race->ndocs : 0;
    return ga->race ? ga->race->order : NULL;
}

const struct cet_ga_stats *cet_ga_history(const struct cet_ga *ga, size_t *n)
{
    *n = ga->nhist;
    return ga->hist;
}

const struct cet_ga_options *cet_ga_opts(const struct cet_ga *ga)
{
    return &ga->opt;
}

const struct cet_params_desc *cet_ga_desc(const struct cet_ga *ga)
{
    return ga->desc;
}

int cet_ga_add_seed(struct cet_ga *ga, const double *full, struct cet_error *err)
{
    double *s = realloc(ga->seeds, (ga->nseeds + 1) * ga->ngenes * sizeof *s);
    if (!s)
        return cet_fail(err, "out of memory");
    ga->seeds = s;
    if (cet_params_genome(ga->desc, full, s + ga->nseeds * ga->ngenes, err))
        return -1;
    size_t f = cet_params_forbidden(ga->desc, s + ga->nseeds * ga->ngenes);
    if (f)
        return cet_fail(err, "the seed is forbidden by entry %zu of \"forbidden\" in %s", f,
                        ga->desc->path);
    ga->nseeds++;
    return 0;
}

const double *cet_ga_seed(const struct cet_ga *ga, size_t k)
{
    return k < ga->nseeds ? ga->seeds + k * ga->ngenes : NULL;
}

int cet_ga_check(const struct cet_ga *ga, struct cet_error *err)
{
    const struct cet_ga_options *o = &ga->opt;
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
    if (st->check(o, ga->nseeds, err))
        return -1;
    if (!o->generations && !o->patience && !o->max_evals && !o->time)
        return cet_fail(err, "without a limit on generations, stagnation, evaluations or time "
                             "the run would never stop");
    return 0;
}

int cet_ga_setup(struct cet_ga *ga, cet_ga_eval_fn eval, cet_ga_cancel_fn cancel, void *ctx,
                 struct cet_error *err)
{
    const struct cet_ga_options *o = &ga->opt;
    /* The default --shrink depends on the seeds, all added by now: a seed
     * beyond the description's is a --seed-config, the run's start. */
    cet_goal_resolve_shrink(&ga->opt.goal, o->race, ga->nseeds > ga->desc->nseeds);
    if (cet_ga_check(ga, err))
        return -1;
    if (!ga->rng) {
        ga->rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!ga->rng)
            return cet_fail(err, "out of memory");
        gsl_rng_set(ga->rng, (unsigned long)cet_seed_derive(o->seed, CET_STREAM_GA));
    }
    if (!ga->rng_saved && !(ga->rng_saved = gsl_rng_alloc(gsl_rng_mt19937)))
        return cet_fail(err, "out of memory");
    if (!ga->strategy_ready) {
        struct cet_search_view v;
        cet_ga_view(ga, &v);
        if (cet_strategies[o->strategy].create(&ga->strategy_state, &v, err))
            return -1;
        ga->strategy_ready = 1;
        /* A population the strategy sizes itself has room for the seeds. */
        if (!ga->opt.pop)
            ga->opt.pop = ga->nseeds;
    }
    if (fit_population(ga))
        return cet_fail(err, "out of memory");
    ga->eval = eval;
    ga->cancel = cancel;
    ga->ctx = ctx;
    ga->ready = 1;
    return 0;
}

void cet_ga_set_measure(struct cet_ga *ga, cet_ga_measure_fn measure)
{
    ga->measure = measure;
}

void cet_ga_free(struct cet_ga *ga)
{
    if (!ga)
        return;
    if (ga->strategy_ready)
        cet_strategies[ga->opt.strategy].destroy(ga->strategy_state);
    if (ga->rng)
        gsl_rng_free(ga->rng);
    if (ga->rng_saved)
        gsl_rng_free(ga->rng_saved);
    free(ga->seeds);
    free(ga->genes);
    free(ga->fit);
    free(ga->prec);
    free(ga->rec);
    free(ga->f1);
    free(ga->words);
    free(ga->viol);
    free(ga->obj);
    free(ga->born);
    free(ga->ndone);
    free(ga->raced);
    cet_race_free(ga->race);
    free(ga->slots);
    free(ga->pop);
    free(ga->hist);
    cet_buf_free(&ga->json_rows);
    free(ga);
}

/* ---- one generation ---- */

static void restore_state(struct cet_ga *ga, size_t narch)
{
    gsl_rng_memcpy(ga->rng, ga->rng_saved);
    cet_ga_archive_truncate(ga, narch);
}

/* Best, mean, worst and std over the fully evaluated members (a raced-out
 * fitness is a mean over other documents; all members if none is), the
 * diversity over all of them. */
static void statistics(struct cet_ga *ga, double *cand_genomes)
{
    struct cet_ga_stats s = {.generation = ga->gen, .evaluations = ga->evals,
                             .seconds = ga->elapsed, .doc_evaluations = ga->doc_evals};
    size_t n = ga->npop, m = 0;
    for (size_t k = 0; k < n; k++)
        m += !ga->raced[ga->pop[k]];
    int all = m == 0;
    if (n) {
        double sum = 0, sq = 0;
        s.best = -INFINITY;
        s.worst = INFINITY;
        for (size_t k = 0; k < n; k++) {
            memcpy(cand_genomes + k * ga->ngenes, cet_ga_genome(ga, ga->pop[k]),
                   ga->ngenes * sizeof *cand_genomes);
            if (!all && ga->raced[ga->pop[k]])
                continue;
            double f = ga->fit[ga->pop[k]];
            s.best = fmax(s.best, f);
            s.worst = fmin(s.worst, f);
            sum += f;
        }
        m = all ? n : m;
        s.mean = sum / (double)m;
        for (size_t k = 0; k < n; k++) {
            if (!all && ga->raced[ga->pop[k]])
                continue;
            double x = ga->fit[ga->pop[k]] - s.mean;
            sq += x * x;
        }
        s.std = sqrt(sq / (double)m);
        s.diversity = cet_genome_diversity(ga->desc, cand_genomes, n);
    }
    /* A Pareto search keeps its front, not the highest F1, in the population:
     * its best is best.json's, the highest F1 on the front of everything
     * evaluated so far, so that generations.csv, the plots and report.md
     * agree with best.json and never go down. */
    size_t b;
    if (ga->opt.goal.npareto && !cet_ga_best(ga, &b))
        s.best = ga->fit[b];
    ga->hist[ga->nhist++] = s;
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
static int propose(struct cet_ga *ga, struct gen *g, struct cet_error *err)
{
    size_t G = ga->ngenes;
    gsl_rng_memcpy(ga->rng_saved, ga->rng);
    g->narch0 = ga->narch;
    struct cet_search_view v;
    cet_ga_view(ga, &v);
    g->nc = cet_strategies[ga->opt.strategy].ask(ga->strategy_state, &v, ga->rng, g->cand);
    for (size_t k = 0; k < g->nc; k++) {
        if (cet_ga_lookup(ga, g->cand + k * G, &g->idx[k])) {
            if (cet_ga_archive_add(ga, g->cand + k * G, ga->gen + 1, &g->idx[k])) {
                restore_state(ga, g->narch0);
                return cet_fail(err, "out of memory");
            }
            g->fresh[g->nfresh++] = g->idx[k];
        }
    }
    g->budget = g->nfresh;
    /* The evaluations left, never negative: a resumed checkpoint may
     * already hold more evaluations than the limit. */
    if (ga->opt.max_evals > 0 && (long)g->nfresh > ga->opt.max_evals - ga->evals)
        g->budget = ga->evals < ga->opt.max_evals ? (size_t)(ga->opt.max_evals - ga->evals) : 0;
    if (ga->race) {
        size_t kept = 0;
        for (size_t k = 0; k < g->nc; k++)
            if (g->idx[k] < g->narch0 + g->budget)
                g->idx[kept++] = g->idx[k];
        g->nc = kept;
        g->nfresh = g->budget;
        cet_ga_archive_truncate(ga, g->narch0 + g->budget);
        cet_ga_race_begin(ga, g->idx, g->nc, g->narch0, g->budget);
    }
    return 0;
}

/* A raced generation paused by a cancel or restored from a checkpoint
 * goes on with its members. */
static void resume_raced(struct cet_ga *ga, struct gen *g)
{
    const struct cet_race *R = ga->race;
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
static int evaluate(struct cet_ga *ga, struct gen *g, struct cet_error *err)
{
    if (ga->race)
        return cet_ga_race_run(ga, err);
    size_t F = ga->nfull;
    double *full = malloc(CHUNK * (F ? F : 1) * sizeof *full);
    double *f = malloc(CHUNK * 3 * sizeof *f);
    struct cet_measures *m = malloc(CHUNK * sizeof *m);
    int rc = -1;
    if (!full || !f || !m) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (size_t c0 = 0; c0 < g->budget; c0 += CHUNK) {
        if (ga->cancel && ga->cancel(ga->ctx)) {
            rc = 1;
            goto done;
        }
        size_t k = g->budget - c0 < CHUNK ? g->budget - c0 : CHUNK;
        const size_t *fresh = g->fresh + c0;
        for (size_t j = 0; j < k; j++)
            cet_params_expand(ga->desc, cet_ga_genome(ga, fresh[j]), full + j * F);
        if (ga->measure ? ga->measure(ga->ctx, full, k, m, err)
                        : ga->eval(ga->ctx, full, k, f, f + CHUNK, f + 2 * CHUNK, err))
            goto done;
        /* A caller's fitness must be a number: NaN would order nothing and
         * could not be checkpointed. */
        for (size_t j = 0; j < k && !ga->measure; j++)
            for (int q = 0; q < 3; q++)
                if (!isfinite(f[q * CHUNK + j])) {
                    cet_fail(err, "the fitness function returned %g for a configuration",
                             f[q * CHUNK + j]);
                    goto done;
                }
        for (size_t j = 0; j < k && ga->measure; j++)
            cet_ga_archive_measures(ga, fresh[j], &m[j]);
        for (size_t j = 0; j < k && !ga->measure; j++) {
            ga->fit[fresh[j]] = ga->f1[fresh[j]] = f[j];
            ga->prec[fresh[j]] = f[CHUNK + j];
            ga->rec[fresh[j]] = f[2 * CHUNK + j];
        }
    }
    if (ga->cancel && ga->cancel(ga->ctx)) {
        rc = 1;
        goto done;
    }
    ga->doc_evals += (long)(g->budget * ga->ndocs);
    rc = 0;
done:
    if (rc)
        restore_state(ga, g->narch0);
    free(full);
    free(f);
    free(m);
    return rc;
}

/* Tell: the unevaluated tail (over budget) leaves the archive, and the
 * strategy learns from the evaluated generation.  With racing, the
 * candidates are the members, copied from the archive, so a paused and
 * resumed generation tells the same as one that ran through. */
static int learn(struct cet_ga *ga, struct gen *g, int *renewed, struct cet_error *err)
{
    size_t G = ga->ngenes;
    size_t keep_below = g->budget < g->nfresh ? g->fresh[g->budget] : ga->narch;
    for (size_t k = 0; k < g->nc; k++) {
        if (ga->race)
            memcpy(g->cand + k * G, cet_ga_genome(ga, g->idx[k]), G * sizeof *g->cand);
        g->evaluated[k] = g->idx[k] < keep_below;
    }
    cet_ga_archive_truncate(ga, keep_below);
    struct cet_search_view v;
    cet_ga_view(ga, &v);
    struct cet_search_told t = {.cand = g->cand, .idx = g->idx, .evaluated = g->evaluated,
                                .n = g->nc, .nfresh = g->budget};
    if (cet_strategies[ga->opt.strategy].tell(ga->strategy_state, &v, ga->rng, &t, ga->pop,
                                              &ga->npop, renewed, err))
        return -1;
    return fit_population(ga) ? cet_fail(err, "out of memory") : 0;
}

int cet_ga_generation(struct cet_ga *ga, struct cet_error *err)
{
    if (!ga->ready)
        return cet_fail(err, "cet_ga_setup was not called");
    if (ga->stop != CET_STOP_NONE)
        return cet_fail(err, "the run has stopped (%s)", cet_ga_stop_name(ga->stop));
    if (ga->opt.race && !(ga->race && ga->race->score))
        return cet_fail(err, "cet_ga_race_setup was not called");
    /* Time between generations (the caller writing files) counts too. */
    double t0 = ga->t_last > 0 ? ga->t_last : cet_now();
    size_t P = ga->opt.pop;
    struct gen g = {.cand = malloc(P * ga->ngenes * sizeof *g.cand),
                    .idx = malloc(P * sizeof *g.idx), .evaluated = malloc(P),
                    .fresh = malloc(P * sizeof *g.fresh)};
    int rc = -1;
    if (!g.cand || !g.idx || !g.evaluated || !g.fresh ||
        CET_GROW(ga->hist, ga->hist_cap, ga->nhist + 1, 64)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (ga->race && ga->race->pending)
        resume_raced(ga, &g);
    else if (propose(ga, &g, err))
        goto done;
    if ((rc = evaluate(ga, &g, err)) != 0)
        goto done; /* cancelled: undone, or racing: still pending, resumable at its last block */
    rc = -1;
    int renewed = 0;
    if (learn(ga, &g, &renewed, err))
        goto done;
    if (ga->race)
        cet_ga_race_end(ga);
    ga->gen++;
    ga->evals += (long)g.budget;
    ga->t_last = cet_now();
    ga->elapsed += ga->t_last - t0;
    statistics(ga, g.cand);
    cet_ga_check_stop(ga);
    if (ga->stop == CET_STOP_NONE && g.budget == 0 && !renewed)
        ga->stop = CET_STOP_EXHAUSTED;
    rc = 0;
done:
    free(g.cand);
    free(g.idx);
    free(g.evaluated);
    free(g.fresh);
    return rc;
}
