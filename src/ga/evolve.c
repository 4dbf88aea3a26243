/* The run lifecycle (PGAPack style): cet_ga_create -> options ->
 * cet_ga_setup -> cet_ga_generation until ga->stop -> cet_ga_destroy.
 *
 * One generation (Gottron 2008, section 4, figure 3):
 * - generation 0: the description's seeds and --seed-config individuals,
 *   then random individuals up to the population size;
 * - later generations: the best `elite` distinct individuals unchanged,
 *   then children: a parent is selected; with probability crossover_rate a
 *   second parent is selected and the child recombined from both, otherwise
 *   the child is a mutated copy of the first ("either by randomly combining
 *   the values of two of the better individuals, or by mutating the values
 *   of such an individual").  A child that repeats a genome already
 *   evaluated or already in the generation is mutated again, up to
 *   RETRIES times, so evaluations go to new settings; after that it is kept
 *   and costs nothing (its fitness comes from the archive).
 * - a child matching a forbidden combination is never evaluated: it is
 *   repaired (one gene of the combination changes), else redrawn at random,
 *   else dropped (see settle); all with the run's random stream.
 * - all new genomes of the generation are evaluated together (in chunks, so
 *   a cancel request is noticed quickly); a generation that would exceed
 *   --max-evals evaluates only what the budget allows and drops the rest.
 * All random draws happen here, on the calling thread, in a fixed order;
 * only the evaluation callback runs in parallel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "cetune/ga.h"
#include "ga_internal.h"
#include "nsga2.h"
#include "util/sort.h"

enum { RETRIES = 20, CHUNK = 16 };

void cet_ga_default_options(struct cet_ga_options *o)
{
    *o = (struct cet_ga_options){
        .pop = 20, .generations = 50, .patience = 5, .epsilon = 1e-4, .max_evals = 0,
        .time_limit = 0, .elite = 2, .select = CET_SELECT_TOURNAMENT, .tournament = 3,
        .truncation = 0.5, .crossover_rate = 0.5, .mutation_rate = 0, .sigma = 0.1,
        .adaptive = 0, .adapt_factor = 1.5, .resolution = 1e-4, .seed = 1, .race = 0,
        .race_first = 20, .race_block = 10, .race_alpha = 0.2, .race_weak = 0.5};
}

int cet_ga_create(struct cet_ga **out, const struct cet_params_desc *desc, struct cet_error *err)
{
    *out = NULL;
    struct cet_ga *ga = calloc(1, sizeof *ga);
    if (!ga)
        return cet_fail(err, "out of memory");
    cet_ga_default_options(&ga->opt);
    ga->desc = desc;
    ga->ngenes = desc->ngenes;
    ga->nfull = desc->ex->nparams;
    ga->gen = -1;
    ga->seeds = malloc((desc->nseeds + 1) * desc->ngenes * sizeof *ga->seeds);
    if (!ga->seeds) {
        cet_ga_destroy(ga);
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
}

void cet_ga_set_ndocs(struct cet_ga *ga, size_t ndocs)
{
    ga->ndocs = ndocs;
}

void cet_ga_status(const struct cet_ga *ga, struct cet_ga_status *st)
{
    *st = (struct cet_ga_status){
        .gen = ga->gen, .evals = ga->evals, .doc_evals = ga->doc_evals, .ndocs = ga->ndocs,
        .narch = ga->narch, .elapsed = ga->elapsed, .stop = ga->stop,
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

int cet_ga_check(const struct cet_ga *ga, struct cet_error *err)
{
    const struct cet_ga_options *o = &ga->opt;
    if ((unsigned)o->select >= CET_SELECT_COUNT || (unsigned)o->cross >= CET_CROSS_COUNT)
        return cet_fail(err, "unknown selection or crossover scheme");
    if (o->pop < 2)
        return cet_fail(err, "the population needs at least 2 individuals");
    if (o->elite >= o->pop)
        return cet_fail(err, "an elite of %zu leaves no room for children in a population of %zu",
                        o->elite, o->pop);
    if (ga->nseeds > o->pop)
        return cet_fail(err, "%zu seed individuals do not fit in a population of %zu",
                        ga->nseeds, o->pop);
    if (o->tournament < 1)
        return cet_fail(err, "the tournament size must be at least 1");
    if (!(o->truncation > 0 && o->truncation <= 1))
        return cet_fail(err, "the truncation fraction must be in (0, 1]");
    if (!(o->crossover_rate >= 0 && o->crossover_rate <= 1))
        return cet_fail(err, "the crossover rate must be in [0, 1]");
    if (!(o->mutation_rate >= 0 && o->mutation_rate <= 1))
        return cet_fail(err, "the mutation rate must be in [0, 1]");
    if (!(o->sigma > 0 && o->sigma <= 1))
        return cet_fail(err, "the mutation sigma must be in (0, 1]");
    if (!(o->adapt_factor >= 1 && o->adapt_factor <= 10))
        return cet_fail(err, "the adaptation factor must be in [1, 10]");
    if (!(o->resolution >= 0 && o->resolution <= 0.1))
        return cet_fail(err, "the resolution must be in [0, 0.1]");
    if (!(o->epsilon >= 0))
        return cet_fail(err, "epsilon must not be negative");
    if (o->generations < 0 || o->patience < 0 || o->max_evals < 0 || !(o->time_limit >= 0))
        return cet_fail(err, "limits must not be negative");
    if (!o->generations && !o->patience && !o->max_evals && !o->time_limit)
        return cet_fail(err, "without a limit on generations, stagnation, evaluations or time "
                             "the run would never stop");
    return 0;
}

int cet_ga_setup(struct cet_ga *ga, cet_ga_eval_fn eval, cet_ga_cancel_fn cancel, void *ctx,
                 struct cet_error *err)
{
    const struct cet_ga_options *o = &ga->opt;
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
    if (!ga->pop && !(ga->pop = calloc(o->pop, sizeof *ga->pop)))
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

void cet_ga_destroy(struct cet_ga *ga)
{
    if (!ga)
        return;
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
    cet_buf_free(&ga->csv_rows);
    cet_buf_free(&ga->json_rows);
    free(ga);
}

/* ---- the archive: every evaluated genome, hashed on its bits ---- */

static uint64_t hash_genome(const double *g, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *p = (const unsigned char *)g;
    for (size_t i = 0; i < n * sizeof *g; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static const double *arch_genome(const struct cet_ga *ga, size_t i)
{
    return ga->genes + i * ga->ngenes;
}

size_t cet_ga_lookup(const struct cet_ga *ga, const double *g)
{
    if (!ga->nslots)
        return (size_t)-1;
    size_t mask = ga->nslots - 1;
    for (size_t s = hash_genome(g, ga->ngenes) & mask;; s = (s + 1) & mask) {
        if (!ga->slots[s])
            return (size_t)-1;
        size_t i = ga->slots[s] - 1;
        if (!memcmp(arch_genome(ga, i), g, ga->ngenes * sizeof *g))
            return i;
    }
}

static void slot_insert(struct cet_ga *ga, size_t i)
{
    size_t mask = ga->nslots - 1;
    size_t s = hash_genome(arch_genome(ga, i), ga->ngenes) & mask;
    while (ga->slots[s])
        s = (s + 1) & mask;
    ga->slots[s] = (uint32_t)(i + 1);
}

static int rehash(struct cet_ga *ga, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    free(ga->slots);
    ga->slots = slots;
    ga->nslots = nslots;
    for (size_t i = 0; i < ga->narch; i++)
        slot_insert(ga, i);
    return 0;
}

/* Appends genome g (not yet evaluated) to the archive; returns its index or
 * (size_t)-1 when out of memory. */
static size_t arch_add(struct cet_ga *ga, const double *g, long born)
{
    if (ga->narch == ga->cap) {
        size_t cap = ga->cap ? ga->cap * 2 : 256;
        void *q;
        int ok = 1;
/* Reallocates array p to n elements; ok = 0 (p kept) when out of memory. */
#define GROW(p, n) ok &= (q = realloc((p), (n) * sizeof *(p))) ? ((p) = q, 1) : 0
        GROW(ga->genes, cap * ga->ngenes);
        GROW(ga->fit, cap);
        GROW(ga->prec, cap);
        GROW(ga->rec, cap);
        GROW(ga->born, cap);
        GROW(ga->f1, cap);
        GROW(ga->words, cap);
        GROW(ga->viol, cap);
        GROW(ga->obj, cap * CET_MAX_PARETO);
        GROW(ga->ndone, cap);
        GROW(ga->raced, cap);
#undef GROW
        if (!ok)
            return (size_t)-1;
        ga->cap = cap;
    }
    if ((ga->narch + 1) * 2 > ga->nslots && rehash(ga, ga->nslots ? ga->nslots * 2 : 1024))
        return (size_t)-1;
    size_t i = ga->narch++;
    memcpy(ga->genes + i * ga->ngenes, g, ga->ngenes * sizeof *g);
    ga->fit[i] = ga->prec[i] = ga->rec[i] = ga->f1[i] = ga->words[i] = ga->viol[i] = 0;
    for (size_t k = 0; k < CET_MAX_PARETO; k++)
        ga->obj[i * CET_MAX_PARETO + k] = 0;
    ga->born[i] = born;
    ga->ndone[i] = (uint32_t)ga->ndocs;
    ga->raced[i] = 0;
    slot_insert(ga, i);
    return i;
}

int cet_ga_archive_put(struct cet_ga *ga, const double *g, long born, double f, double p,
                        double r)
{
    size_t i = arch_add(ga, g, born);
    if (i == (size_t)-1)
        return -1;
    ga->fit[i] = ga->f1[i] = f;
    ga->prec[i] = p;
    ga->rec[i] = r;
    return 0;
}

void cet_ga_archive_measures(struct cet_ga *ga, size_t i, const struct cet_measures *m)
{
    /* A Pareto search has no single objective: its individuals rank by F1. */
    ga->fit[i] = ga->opt.goal.npareto ? m->f1 : m->fit;
    ga->f1[i] = m->f1;
    ga->prec[i] = m->p;
    ga->rec[i] = m->r;
    ga->words[i] = m->words;
    ga->viol[i] = m->viol;
    memcpy(ga->obj + i * CET_MAX_PARETO, m->obj, sizeof m->obj);
}

/* ---- ranking ---- */

/* Better (Deb's rules): feasible before infeasible, smaller violation
 * first, then higher fitness, then earlier evaluation (a stable, total
 * order). */
static int better(const struct cet_ga *ga, size_t a, size_t b)
{
    /* Racing (race.c): raced-out individuals (fitness over fewer
     * documents) after every fully evaluated one. */
    if (ga->raced[a] != ga->raced[b])
        return !ga->raced[a];
    if (ga->viol[a] != ga->viol[b])
        return ga->viol[a] < ga->viol[b];
    if (ga->fit[a] != ga->fit[b])
        return ga->fit[a] > ga->fit[b];
    return a < b;
}

static int before(const void *ctx, size_t a, size_t b)
{
    return better(ctx, a, b);
}

static int sort_indices(const struct cet_ga *ga, size_t *v, size_t n)
{
    return cet_sort_indices(v, n, before, ga);
}

/* Archive indices sorted best first (Deb's rules: feasible before
 * infeasible, smaller violation first, then fitness, then evaluation
 * order; with racing, raced-out individuals last); the caller frees
 * *out.  -1 when out of memory. */
static int ranking(const struct cet_ga *ga, size_t **out, size_t *n)
{
    *out = malloc((ga->narch ? ga->narch : 1) * sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < ga->narch; i++)
        (*out)[i] = i;
    *n = ga->narch;
    if (sort_indices(ga, *out, ga->narch)) {
        free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

int cet_ga_top(const struct cet_ga *ga, size_t max, size_t **out, size_t *n)
{
    size_t *rank, nr, k = 0;
    if (ranking(ga, &rank, &nr))
        return -1;
    for (size_t r = 0; r < nr && k < max; r++) {
        size_t i = rank[r];
        if (ga->raced[i])
            break; /* ranked last: only raced-out ones follow */
        int same = 0;
        for (size_t j = 0; j < k && !same; j++)
            same = ga->fit[rank[j]] == ga->fit[i] && ga->prec[rank[j]] == ga->prec[i] &&
                   ga->rec[rank[j]] == ga->rec[i];
        if (!same)
            rank[k++] = i;
    }
    *out = rank;
    *n = k;
    return 0;
}

int cet_ga_front(const struct cet_ga *ga, size_t **out, size_t *n)
{
    size_t nobj = ga->opt.goal.npareto, k = 0;
    *n = 0;
    if (!(*out = malloc((ga->narch ? ga->narch : 1) * sizeof **out)))
        return -1;
    for (size_t a = 0; a < ga->narch; a++) {
        const double *oa = ga->obj + a * CET_MAX_PARETO;
        int out_of = 0;
        for (size_t b = 0; b < ga->narch && !out_of; b++) {
            const double *ob = ga->obj + b * CET_MAX_PARETO;
            out_of = cet_dominates(ob, oa, nobj, ga->viol[b], ga->viol[a]) ||
                     (b < a && ga->viol[b] == ga->viol[a] &&
                      !memcmp(oa, ob, nobj * sizeof *oa)); /* the same point, found earlier */
        }
        if (!out_of)
            (*out)[k++] = a;
    }
    *n = k;
    return 0;
}

size_t cet_ga_best(const struct cet_ga *ga)
{
    size_t best = (size_t)-1, *front = NULL, n = ga->narch;
    if (ga->opt.goal.npareto && cet_ga_front(ga, &front, &n))
        return (size_t)-1;
    for (size_t k = 0; k < n; k++) {
        size_t i = front ? front[k] : k;
        if (!ga->raced[i] && (best == (size_t)-1 || better(ga, i, best)))
            best = i;
    }
    free(front);
    return best;
}

/* ---- one generation ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 1 when g was evaluated before or is among the first n candidates. */
static int known(const struct cet_ga *ga, const double *g, const double *cand, size_t n)
{
    if (cet_ga_lookup(ga, g) != (size_t)-1)
        return 1;
    for (size_t k = 0; k < n; k++)
        if (!memcmp(cand + k * ga->ngenes, g, ga->ngenes * sizeof *g))
            return 1;
    return 0;
}

static size_t select_parent(struct cet_ga *ga, size_t n)
{
    if (ga->opt.goal.npareto) /* crowded binary tournament: pop is in crowded order */
        return cet_select_tournament(ga->rng, n, 2);
    return cet_selections[ga->opt.select].pick(ga->rng, n, &ga->opt);
}

/* Settles a new child: one that is forbidden is repaired (cet_repair), one
 * that repeats a genome already evaluated or already among the first n
 * candidates is mutated again, up to RETRIES changes in all; one still
 * forbidden is then redrawn at random, up to RETRIES times.  Returns 1 when
 * the child is allowed, 0 when it must be dropped. */
static int settle(struct cet_ga *ga, double *child, const double *cand, size_t n, double sigma)
{
    const struct cet_params_desc *d = ga->desc;
    double res = ga->opt.resolution;
    for (int t = 0; t < RETRIES; t++) {
        if (cet_params_forbidden(d, child))
            cet_repair(d, res, ga->rng, sigma, child);
        else if (known(ga, child, cand, n))
            cet_mutate(d, res, ga->rng, ga->opt.mutation_rate, sigma, child);
        else
            return 1;
    }
    for (int t = 0; t < RETRIES && cet_params_forbidden(d, child); t++)
        cet_genome_random(d, res, ga->rng, child);
    return !cet_params_forbidden(d, child);
}

/* Fills cand with the genomes of the next generation; returns how many
 * (fewer than the population only when forbidden combinations leave too
 * little room). */
static size_t breed(struct cet_ga *ga, double *cand)
{
    const struct cet_params_desc *d = ga->desc;
    size_t G = ga->ngenes, P = ga->opt.pop, nc = 0;
    double res = ga->opt.resolution;
    if (ga->gen < 0 || !ga->npop) {
        for (size_t s = 0; ga->gen < 0 && s < ga->nseeds && nc < P; s++, nc++) {
            memcpy(cand + nc * G, ga->seeds + s * G, G * sizeof *cand);
            cet_genome_normalise(d, res, cand + nc * G);
        }
        for (size_t slot = nc; slot < P; slot++) {
            double *g = cand + nc * G;
            for (int t = 0; t <= RETRIES; t++) {
                cet_genome_random(d, res, ga->rng, g);
                if (!known(ga, g, cand, nc) && !cet_params_forbidden(d, g))
                    break;
            }
            nc += !cet_params_forbidden(d, g);
        }
        return nc;
    }
    /* ga->pop is ranked best first (see the end of cet_ga_generation). */
    size_t n = ga->npop, nfull = 0;
    /* Racing: parents come from the fully evaluated members, ranked first
     * and exactly.  A raced-out member's partial mean is over a few other
     * documents, so a tournament among raced-out members picked parents
     * nearly at random (docs/racing.md).  With one fully evaluated member
     * crossover would have no partner, so then all may be parents. */
    while (nfull < n && !ga->raced[ga->pop[nfull]])
        nfull++;
    if (nfull >= 2)
        n = nfull;
    /* NSGA-II keeps its elite by merging parents and children (survive). */
    size_t elite = ga->opt.goal.npareto ? 0 : ga->opt.elite;
    for (size_t r = 0; r < n && nc < elite && !ga->raced[ga->pop[r]]; r++) {
        int dup = 0; /* the population may hold a genome twice; elites are distinct */
        for (size_t k = 0; k < r && !dup; k++)
            dup = ga->pop[k] == ga->pop[r];
        if (!dup)
            memcpy(cand + nc++ * G, arch_genome(ga, ga->pop[r]), G * sizeof *cand);
    }
    double sigma = cet_ga_sigma(ga);
    for (size_t slot = nc; slot < P; slot++) {
        double *child = cand + nc * G;
        size_t a = select_parent(ga, n);
        const double *pa = arch_genome(ga, ga->pop[a]);
        int crossed = 0;
        if (gsl_rng_uniform(ga->rng) < ga->opt.crossover_rate) {
            size_t b = select_parent(ga, n);
            for (int t = 0; t < 4 && ga->pop[b] == ga->pop[a]; t++)
                b = select_parent(ga, n);
            cet_crossovers[ga->opt.cross].cross(d, res, ga->rng, pa, arch_genome(ga, ga->pop[b]), child);
            crossed = 1;
        } else {
            memcpy(child, pa, G * sizeof *child);
        }
        if (!crossed)
            cet_mutate(d, res, ga->rng, ga->opt.mutation_rate, sigma, child);
        nc += (size_t)settle(ga, child, cand, nc, sigma);
    }
    return nc;
}

/* Drops the archive entries from narch on, rebuilding the table in place
 * (no allocation, so it cannot fail). */
static void truncate_archive(struct cet_ga *ga, size_t narch)
{
    if (ga->narch == narch)
        return;
    ga->narch = narch;
    memset(ga->slots, 0, ga->nslots * sizeof *ga->slots);
    for (size_t i = 0; i < ga->narch; i++)
        slot_insert(ga, i);
}

static void restore_state(struct cet_ga *ga, size_t narch)
{
    gsl_rng_memcpy(ga->rng, ga->rng_saved);
    truncate_archive(ga, narch);
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
            memcpy(cand_genomes + k * ga->ngenes, arch_genome(ga, ga->pop[k]),
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
    ga->hist[ga->nhist++] = s;
}

int cet_ga_generation(struct cet_ga *ga, struct cet_error *err)
{
    if (!ga->ready)
        return cet_fail(err, "cet_ga_setup was not called");
    if (ga->stop != CET_STOP_NONE)
        return cet_fail(err, "the run has stopped (%s)", cet_ga_stop_name(ga->stop));
    if (ga->opt.race && !(ga->race && ga->race->score))
        return cet_fail(err, "cet_ga_race_setup was not called");
    struct cet_race *R = ga->race;
    /* Time between generations (the caller writing files) counts too. */
    double t0 = ga->t_last > 0 ? ga->t_last : now();
    size_t G = ga->ngenes, F = ga->nfull, P = ga->opt.pop;
    double *cand = malloc(P * G * sizeof *cand);
    size_t *idx = malloc(P * sizeof *idx);
    size_t *fresh = malloc(P * sizeof *fresh);
    double *full = malloc(CHUNK * (F ? F : 1) * sizeof *full);
    double *f = malloc(CHUNK * 3 * sizeof *f);
    struct cet_measures *m = malloc(CHUNK * sizeof *m);
    size_t *merged = malloc(2 * P * sizeof *merged);
    int rc = -1;
    if (ga->nhist == ga->hist_cap) {
        size_t cap = ga->hist_cap ? ga->hist_cap * 2 : 64;
        struct cet_ga_stats *h = realloc(ga->hist, cap * sizeof *h);
        if (h) {
            ga->hist = h;
            ga->hist_cap = cap;
        }
    }
    if (!cand || !idx || !fresh || !full || !f || !m || !merged || ga->nhist == ga->hist_cap) {
        cet_fail(err, "out of memory");
        goto done;
    }
    size_t narch0, nc, nfresh = 0, budget;
    if (R && R->pending) {
        /* A raced generation paused by a cancel or restored from a checkpoint. */
        nc = R->nmembers;
        memcpy(idx, R->members, nc * sizeof *idx);
        narch0 = R->first;
        for (nfresh = 0; nfresh < R->n; nfresh++)
            fresh[nfresh] = narch0 + nfresh;
        budget = nfresh;
    } else {
        gsl_rng_memcpy(ga->rng_saved, ga->rng);
        narch0 = ga->narch;
        nc = breed(ga, cand);
        for (size_t k = 0; k < nc; k++) {
            idx[k] = cet_ga_lookup(ga, cand + k * G);
            if (idx[k] == (size_t)-1) {
                idx[k] = arch_add(ga, cand + k * G, ga->gen + 1);
                if (idx[k] == (size_t)-1) {
                    restore_state(ga, narch0);
                    cet_fail(err, "out of memory");
                    goto done;
                }
                fresh[nfresh++] = idx[k];
            }
        }
        budget = nfresh;
        /* The evaluations left, never negative: a resumed checkpoint may
         * already hold more evaluations than the limit. */
        if (ga->opt.max_evals > 0 && (long)nfresh > ga->opt.max_evals - ga->evals)
            budget = ga->evals < ga->opt.max_evals ? (size_t)(ga->opt.max_evals - ga->evals) : 0;
        if (R) {
            /* Over budget, the tail leaves at once: a paused raced
             * generation holds only what it evaluates. */
            size_t kept = 0;
            for (size_t k = 0; k < nc; k++)
                if (idx[k] < narch0 + budget)
                    idx[kept++] = idx[k];
            nc = kept;
            nfresh = budget;
            truncate_archive(ga, narch0 + budget);
            cet_ga__race_begin(ga, idx, nc, narch0, budget);
        }
    }
    if (R) {
        int r = cet_ga__race_run(ga, err);
        if (r) {
            rc = r; /* still pending: resumable at its last block */
            goto done;
        }
    }
    for (size_t c0 = 0; !R && c0 < budget; c0 += CHUNK) {
        if (ga->cancel && ga->cancel(ga->ctx)) {
            restore_state(ga, narch0);
            rc = 1;
            goto done;
        }
        size_t k = budget - c0 < CHUNK ? budget - c0 : CHUNK;
        for (size_t j = 0; j < k; j++)
            cet_params_expand(ga->desc, arch_genome(ga, fresh[c0 + j]), full + j * F);
        if (ga->measure ? ga->measure(ga->ctx, full, k, m, err)
                        : ga->eval(ga->ctx, full, k, f, f + CHUNK, f + 2 * CHUNK, err)) {
            restore_state(ga, narch0);
            goto done;
        }
        /* A caller's fitness must be a number: NaN would order nothing and
         * could not be checkpointed. */
        for (size_t j = 0; j < k && !ga->measure; j++)
            for (int q = 0; q < 3; q++)
                if (!isfinite(f[q * CHUNK + j])) {
                    restore_state(ga, narch0);
                    cet_fail(err, "the fitness function returned %g for a configuration",
                             f[q * CHUNK + j]);
                    goto done;
                }
        for (size_t j = 0; j < k && ga->measure; j++)
            cet_ga_archive_measures(ga, fresh[c0 + j], &m[j]);
        for (size_t j = 0; j < k && !ga->measure; j++) {
            ga->fit[fresh[c0 + j]] = f[j];
            ga->prec[fresh[c0 + j]] = f[CHUNK + j];
            ga->rec[fresh[c0 + j]] = f[2 * CHUNK + j];
            ga->f1[fresh[c0 + j]] = f[j];
        }
    }
    if (!R && ga->cancel && ga->cancel(ga->ctx)) {
        restore_state(ga, narch0);
        rc = 1;
        goto done;
    }
    if (!R)
        ga->doc_evals += (long)(budget * ga->ndocs);
    /* Over budget: the unevaluated tail leaves the archive and the generation. */
    size_t keep_below = budget < nfresh ? fresh[budget] : ga->narch, nm = 0;
    /* NSGA-II's elitism: the parents compete with their children. */
    for (size_t k = 0; ga->opt.goal.npareto && k < ga->npop; k++)
        merged[nm++] = ga->pop[k];
    for (size_t k = 0; k < nc; k++) {
        int dup = 0;
        for (size_t q = 0; q < nm && !dup; q++)
            dup = merged[q] == idx[k];
        if (idx[k] < keep_below && !(ga->opt.goal.npareto && dup))
            merged[nm++] = idx[k];
    }
    truncate_archive(ga, keep_below);
    int bad = ga->opt.goal.npareto
                  ? cet_nsga2_survive(merged, nm, P, ga->obj, CET_MAX_PARETO, ga->viol)
                  : sort_indices(ga, merged, nm);
    ga->npop = nm < P ? nm : P;
    memcpy(ga->pop, merged, ga->npop * sizeof *ga->pop);
    if (bad) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (R)
        cet_ga__race_end(ga);
    ga->gen++;
    ga->evals += (long)budget;
    ga->t_last = now();
    ga->elapsed += ga->t_last - t0;
    statistics(ga, cand);
    cet_ga_check_stop(ga);
    if (ga->stop == CET_STOP_NONE && budget == 0)
        ga->stop = CET_STOP_EXHAUSTED;
    rc = 0;
done:
    free(cand);
    free(idx);
    free(fresh);
    free(full);
    free(f);
    free(m);
    free(merged);
    return rc;
}
