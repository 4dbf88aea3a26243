/* CMA-ES on a parameter description (cmaes.h; docs/cmaes.md, docs/papers.md).
 *
 * The search space:
 * - float and int genes are the continuous part, one coordinate each in
 *   [0, 1] of the gene's range (of its logarithm on a log scale), searched
 *   by the (mu/mu_w, lambda)-CMA-ES of Hansen's tutorial (2016, with its
 *   negative weights for the covariance);
 * - an int gene's integers sit at points of [0, 1] (the middles of K equal
 *   cells, or their logarithms' positions), a sample takes the nearest, and
 *   the margin of CMA-ES with margin (Hamano et al. 2022) keeps every
 *   integer's neighbours reachable: after each update the mean and a
 *   per-coordinate scale A are corrected so that the chance of leaving the
 *   mean's integer is at least alpha/2 on each side (alpha = 1/(n lambda));
 * - enum and bool genes are the categorical part: one distribution over its
 *   values per gene, updated from the ranking by CatCMA's natural gradient
 *   with its adaptive step (Hamano et al. 2024, from ASNG) and its margin
 *   (no value's probability below (1 - 0.73^(1/genes))/(K - 1)).
 * Bounds: a float sample outside [0, 1] is drawn again, up to 100 times,
 * then clipped; the update reads the sample it evaluated (as the `cmaes`
 * library that Optuna uses).  The int coordinates are unbounded: the
 * nearest integer is always in range and the margin keeps the mean close.
 * Conditional genes: every coordinate is sampled whatever the genome
 * activates; an inactive gene is then set to its default by normalisation,
 * so its coordinate had no say in the fitness and is selection-neutral.
 * Restarts (IPOP, Auger and Hansen 2005): when the search has converged
 * (every float coordinate's spread below a tenth of the grid, the best
 * fitness flat for 10 + 30n/lambda iterations, or C ill-conditioned) it
 * starts again from a uniformly random mean with twice the samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_randist.h>

#include "cetune/search.h"
#include "cmaes.h"
#include "util/json.h"

enum { RESAMPLE = 100, RETRIES = 20, MAX_DOUBLINGS = 9 };
#define SIGMA_MAX 1e32
#define MAX_LAMBDA 10000

struct cet_cmaes {
    const struct cet_params_desc *d;
    struct cet_cmaes_settings set;
    size_t nco, nca;  /* continuous (float, int) and categorical (enum, bool) genes */
    size_t *co, *ca;  /* their gene indices */
    size_t *K;        /* values per categorical gene */
    size_t kmax, nq;  /* most values; sum of K */
    size_t *qoff;     /* each categorical gene's first entry in q */

    /* The state (saved): */
    size_t lambda0, lambda;
    long g, restarts; /* iterations of this restart; restarts so far */
    double sigma;
    double *m, *C, *ps, *pc, *A; /* nco, nco x nco, nco, nco, nco */
    double *q;                   /* nq: each categorical gene's distribution */
    double Delta, gamma;         /* ASNG's step adaptation (CatCMA) */
    double *sv;                  /* its accumulated gradient: nq - nca */
    double *hist;                /* best fitness of the last nhist iterations (ring) */
    size_t nhist;

    /* Derived from C (cet_cmaes_restore recomputes them, bit for bit): */
    double *B, *D; /* C = B diag(D^2) B^T, B's columns the eigenvectors */

    /* Scratch, not state: the last ask's samples, which tell reads. */
    double *raw; /* lambda x (nco + nca): coordinates, then category indices */
    size_t nraw;
};

void cet_cmaes_default_settings(struct cet_cmaes_settings *set)
{
    *set = (struct cet_cmaes_settings){
        .lambda = 0, .sigma0 = 0.1, .resolution = 1e-4, .seed_weight = 0.5, .restarts = 1};
}

/* ---- genes <-> coordinates ---- */

static size_t int_count(const struct cet_gene *ge)
{
    return (size_t)(ge->max - ge->min) + 1;
}

/* The point of an int gene's k-th integer in [0, 1]. */
static double int_pos(const struct cet_gene *ge, size_t k)
{
    size_t K = int_count(ge);
    if (ge->log && K > 1)
        return (log(ge->min + (double)k) - log(ge->min)) / (log(ge->max) - log(ge->min));
    return ((double)k + 0.5) / (double)K;
}

/* The boundary between integers k and k + 1. */
static double int_limit(const struct cet_gene *ge, size_t k)
{
    return (int_pos(ge, k) + int_pos(ge, k + 1)) / 2;
}

/* The nearest integer's index (the lower one on a tie). */
static size_t int_nearest(const struct cet_gene *ge, double x)
{
    size_t lo = 0, hi = int_count(ge) - 1; /* answer in [lo, hi] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x <= int_limit(ge, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static double float_value(const struct cet_gene *ge, double u)
{
    if (ge->log)
        return exp(log(ge->min) + u * (log(ge->max) - log(ge->min)));
    return ge->min + u * (ge->max - ge->min);
}

/* A continuous gene's coordinate for value v. */
static double coord(const struct cet_gene *ge, double v)
{
    if (ge->type == CET_P_INT)
        return int_pos(ge, (size_t)(fmin(fmax(v, ge->min), ge->max) - ge->min));
    if (ge->max <= ge->min)
        return 0.5;
    if (ge->log)
        return (log(v) - log(ge->min)) / (log(ge->max) - log(ge->min));
    return (v - ge->min) / (ge->max - ge->min);
}

static size_t category(const struct cet_gene *ge, double v)
{
    if (ge->type == CET_P_BOOL)
        return v != 0;
    size_t a = 0;
    while (a + 1 < ge->nvalues && ge->values[a] != v)
        a++;
    return a;
}

static double category_value(const struct cet_gene *ge, size_t a)
{
    return ge->type == CET_P_BOOL ? (double)a : ge->values[a];
}

/* ---- the learning rates of Hansen's tutorial (its table 1) ---- */

struct rates {
    size_t mu;
    double mueff, c1, cmu, cs, ds, cc, chin, wsum;
};

/* The weights w[0..lambda) (positive for the best mu, negative after,
 * eq. 49-53) and the rates for n coordinates. */
static void rates(size_t n, size_t lambda, double *w, struct rates *r)
{
    double nn = (double)(n ? n : 1), pos = 0, neg = 0, sq = 0, negsq = 0;
    r->mu = lambda / 2;
    for (size_t i = 0; i < lambda; i++) {
        w[i] = log(((double)lambda + 1) / 2) - log((double)i + 1);
        if (i < r->mu) {
            pos += w[i];
            sq += w[i] * w[i];
        } else {
            neg -= w[i];
            negsq += w[i] * w[i];
        }
    }
    r->mueff = pos * pos / sq;
    double mueff_neg = negsq > 0 ? neg * neg / negsq : 0;
    r->c1 = 2 / ((nn + 1.3) * (nn + 1.3) + r->mueff);
    r->cmu = fmin(1 - r->c1 - 1e-8,
                  2 * (r->mueff - 2 + 1 / r->mueff) / ((nn + 2) * (nn + 2) + r->mueff));
    double amin = fmin(1 + r->c1 / r->cmu, 1 + 2 * mueff_neg / (r->mueff + 2));
    amin = fmin(amin, (1 - r->c1 - r->cmu) / (nn * r->cmu));
    r->wsum = 0;
    for (size_t i = 0; i < lambda; i++) {
        w[i] = i < r->mu ? w[i] / pos : (neg > 0 ? amin * w[i] / neg : 0);
        r->wsum += w[i];
    }
    r->cs = (r->mueff + 2) / (nn + r->mueff + 5);
    r->ds = 1 + 2 * fmax(0, sqrt((r->mueff - 1) / (nn + 1)) - 1) + r->cs;
    r->cc = (4 + r->mueff / nn) / (nn + 4 + 2 * r->mueff / nn);
    r->chin = sqrt(nn) * (1 - 1 / (4 * nn) + 1 / (21 * nn * nn));
}

static size_t hist_len(const struct cet_cmaes *s)
{
    return 10 + (size_t)ceil(30.0 * (double)s->nco / (double)s->lambda);
}

/* ---- allocation ---- */

static void free_state(struct cet_cmaes *s)
{
    free(s->co);
    free(s->ca);
    free(s->K);
    free(s->qoff);
    free(s->m);
    free(s->C);
    free(s->ps);
    free(s->pc);
    free(s->A);
    free(s->q);
    free(s->sv);
    free(s->hist);
    free(s->B);
    free(s->D);
    free(s->raw);
}

void cet_cmaes_free(struct cet_cmaes *s)
{
    if (!s)
        return;
    free_state(s);
    free(s);
}

/* The parts fixed by the description, and room for the rest. */
static int alloc_state(struct cet_cmaes **out, const struct cet_params_desc *d,
                       const struct cet_cmaes_settings *set, struct cet_error *err)
{
    struct cet_cmaes *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return cet_fail(err, "out of memory");
    s->d = d;
    s->set = *set;
    size_t G = d->ngenes ? d->ngenes : 1;
    s->co = malloc(G * sizeof *s->co);
    s->ca = malloc(G * sizeof *s->ca);
    s->K = malloc(G * sizeof *s->K);
    s->qoff = malloc(G * sizeof *s->qoff);
    if (!s->co || !s->ca || !s->K || !s->qoff)
        return cet_fail(err, "out of memory");
    for (size_t i = 0; i < d->ngenes; i++) {
        const struct cet_gene *ge = &d->genes[i];
        size_t K = ge->type == CET_P_BOOL ? 2 : ge->type == CET_P_ENUM ? ge->nvalues : 0;
        if (ge->type == CET_P_INT || ge->type == CET_P_FLOAT) {
            s->co[s->nco++] = i;
        } else if (K > 1) { /* an enum of one value is no choice */
            s->qoff[s->nca] = s->nq;
            s->K[s->nca] = K;
            s->ca[s->nca++] = i;
            s->nq += K;
            s->kmax = K > s->kmax ? K : s->kmax;
        }
    }
    size_t n = s->nco ? s->nco : 1, nq = s->nq ? s->nq : 1;
    s->m = malloc(n * sizeof *s->m);
    s->C = malloc(n * n * sizeof *s->C);
    s->B = malloc(n * n * sizeof *s->B);
    s->D = malloc(n * sizeof *s->D);
    s->ps = malloc(n * sizeof *s->ps);
    s->pc = malloc(n * sizeof *s->pc);
    s->A = malloc(n * sizeof *s->A);
    s->q = malloc(nq * sizeof *s->q);
    s->sv = malloc(nq * sizeof *s->sv);
    if (!s->m || !s->C || !s->B || !s->D || !s->ps || !s->pc || !s->A || !s->q || !s->sv)
        return cet_fail(err, "out of memory");
    return 0;
}

/* Room for lambda samples and the fitness history (after lambda changes). */
static int size_buffers(struct cet_cmaes *s)
{
    size_t dim = s->nco + s->nca ? s->nco + s->nca : 1;
    double *raw = realloc(s->raw, s->lambda * dim * sizeof *raw);
    if (!raw)
        return -1;
    s->raw = raw;
    double *h = realloc(s->hist, hist_len(s) * sizeof *h);
    if (!h)
        return -1;
    s->hist = h;
    return 0;
}

/* C = B diag(D^2) B^T by gsl_eigen_symmv; eigenvalues below 1e-20 of the
 * largest are raised to it, so C^-1/2 stays finite.  -1 when out of memory. */
static int decompose(struct cet_cmaes *s)
{
    size_t n = s->nco;
    if (!n)
        return 0;
    gsl_matrix *a = gsl_matrix_alloc(n, n), *v = gsl_matrix_alloc(n, n);
    gsl_vector *e = gsl_vector_alloc(n);
    gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(n);
    int rc = -1;
    if (a && v && e && w) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                gsl_matrix_set(a, i, j, s->C[i * n + j]);
        gsl_eigen_symmv(a, e, v, w);
        gsl_eigen_symmv_sort(e, v, GSL_EIGEN_SORT_VAL_ASC);
        double top = fmax(gsl_vector_get(e, n - 1), 0);
        for (size_t k = 0; k < n; k++) {
            double ev = gsl_vector_get(e, k);
            s->D[k] = sqrt(isfinite(ev) && ev > 1e-20 * top && ev > 0 ? ev : fmax(1e-20 * top, 1e-300));
            for (size_t i = 0; i < n; i++)
                s->B[i * n + k] = gsl_matrix_get(v, i, k);
        }
        rc = 0;
    }
    gsl_matrix_free(a);
    gsl_matrix_free(v);
    gsl_vector_free(e);
    if (w)
        gsl_eigen_symmv_free(w);
    return rc;
}

/* A fresh distribution (a start or a restart) at mean m (s->m set). */
static int reset(struct cet_cmaes *s)
{
    size_t n = s->nco;
    s->sigma = s->set.sigma0;
    s->g = 0;
    s->nhist = 0;
    for (size_t i = 0; i < n; i++) {
        s->ps[i] = s->pc[i] = 0;
        s->A[i] = 1;
        for (size_t j = 0; j < n; j++)
            s->C[i * n + j] = i == j;
    }
    for (size_t c = 0; c < s->nca; c++)
        for (size_t k = 0; k < s->K[c]; k++)
            s->q[s->qoff[c] + k] = 1.0 / (double)s->K[c];
    for (size_t k = 0; k + s->nca < s->nq; k++)
        s->sv[k] = 0;
    s->Delta = 1;
    s->gamma = 0;
    return size_buffers(s) || decompose(s) ? -1 : 0;
}

static size_t default_lambda(const struct cet_cmaes *s)
{
    double n = (double)(s->nco + s->nca ? s->nco + s->nca : 1);
    return 4 + (size_t)floor(3 * log(n));
}

int cet_cmaes_create(struct cet_cmaes **out, const struct cet_params_desc *d,
                     const struct cet_cmaes_settings *set, const double *g,
                     struct cet_error *err)
{
    struct cet_cmaes *s;
    if (!(set->sigma0 > 0 && set->sigma0 <= 1))
        return cet_fail(err, "the CMA-ES step size must be in (0, 1]");
    if (set->lambda == 1 || set->lambda > MAX_LAMBDA)
        return cet_fail(err, "CMA-ES needs from 2 to %d samples per iteration", MAX_LAMBDA);
    if (alloc_state(&s, d, set, err)) {
        cet_cmaes_free(s);
        *out = NULL;
        return -1;
    }
    s->lambda0 = s->lambda = set->lambda ? set->lambda : default_lambda(s);
    for (size_t i = 0; i < s->nco; i++)
        s->m[i] = g ? coord(&d->genes[s->co[i]], g[s->co[i]]) : 0.5;
    if (reset(s)) {
        cet_cmaes_free(s);
        *out = NULL;
        return cet_fail(err, "out of memory");
    }
    if (g)
        cet_cmaes_start(s, g);
    *out = s;
    return 0;
}

size_t cet_cmaes_lambda(const struct cet_cmaes *s)
{
    return s->lambda;
}

long cet_cmaes_iterations(const struct cet_cmaes *s)
{
    return s->g;
}

long cet_cmaes_restarts(const struct cet_cmaes *s)
{
    return s->restarts;
}

double cet_cmaes_sigma(const struct cet_cmaes *s)
{
    return s->sigma;
}

/* The genome of sample x (nco coordinates, then nca category indices). */
static void decode(const struct cet_cmaes *s, const double *x, double *g)
{
    const struct cet_params_desc *d = s->d;
    cet_params_default_genome(d, g);
    for (size_t i = 0; i < s->nco; i++) {
        const struct cet_gene *ge = &d->genes[s->co[i]];
        if (ge->type == CET_P_INT) /* the margin's scale widens the int coordinates */
            g[s->co[i]] = ge->min + (double)int_nearest(ge, (x[i] - s->m[i]) * s->A[i] + s->m[i]);
        else
            g[s->co[i]] = float_value(ge, fmin(fmax(x[i], 0), 1));
    }
    for (size_t c = 0; c < s->nca; c++)
        g[s->ca[c]] = category_value(&d->genes[s->ca[c]], (size_t)x[s->nco + c]);
    cet_genome_normalise(d, s->set.resolution, g);
}

void cet_cmaes_mean(const struct cet_cmaes *s, double *g)
{
    double x[CET_MAX_GENES];
    memcpy(x, s->m, s->nco * sizeof *x);
    for (size_t c = 0; c < s->nca; c++) { /* the likeliest category */
        size_t best = 0;
        for (size_t k = 1; k < s->K[c]; k++)
            if (s->q[s->qoff[c] + k] > s->q[s->qoff[c] + best])
                best = k;
        x[s->nco + c] = (double)best;
    }
    decode(s, x, g);
}

/* One sample x: m + sigma B D z, floats drawn again while out of [0, 1]
 * (then clipped); a category from each distribution. */
static void sample(const struct cet_cmaes *s, gsl_rng *rng, double *x)
{
    size_t n = s->nco;
    double z[CET_MAX_GENES];
    for (int t = 0; t <= RESAMPLE; t++) {
        for (size_t k = 0; k < n; k++)
            z[k] = s->D[k] * gsl_ran_gaussian_ziggurat(rng, 1.0);
        int inside = 1;
        for (size_t i = 0; i < n; i++) {
            double y = 0;
            for (size_t k = 0; k < n; k++)
                y += s->B[i * n + k] * z[k];
            x[i] = s->m[i] + s->sigma * y;
            if (s->d->genes[s->co[i]].type == CET_P_FLOAT && !(x[i] >= 0 && x[i] <= 1))
                inside = 0;
        }
        if (inside)
            break;
    }
    for (size_t i = 0; i < n; i++)
        if (s->d->genes[s->co[i]].type == CET_P_FLOAT)
            x[i] = fmin(fmax(x[i], 0), 1);
    for (size_t c = 0; c < s->nca; c++) {
        double u = gsl_rng_uniform(rng), cum = 0;
        size_t k = 0;
        for (; k + 1 < s->K[c]; k++) {
            cum += s->q[s->qoff[c] + k];
            if (u < cum)
                break;
        }
        x[n + c] = (double)k;
    }
}

size_t cet_cmaes_ask(const struct cet_cmaes *s, gsl_rng *rng, double *cand)
{
    size_t dim = s->nco + s->nca, G = s->d->ngenes, nc = 0;
    for (size_t k = 0; k < s->lambda; k++) {
        double *x = s->raw + nc * dim, *g = cand + nc * G;
        int t = 0;
        do
            sample(s, rng, x), decode(s, x, g);
        while (cet_params_forbidden(s->d, g) && ++t < RETRIES);
        nc += !cet_params_forbidden(s->d, g);
    }
    ((struct cet_cmaes *)s)->nraw = nc; /* scratch: see struct cet_cmaes */
    return nc;
}

void cet_cmaes_start(struct cet_cmaes *s, const double *g)
{
    const struct cet_params_desc *d = s->d;
    for (size_t i = 0; i < s->nco; i++)
        s->m[i] = coord(&d->genes[s->co[i]], g[s->co[i]]);
    double b = s->set.seed_weight;
    for (size_t c = 0; c < s->nca; c++) {
        size_t a = category(&d->genes[s->ca[c]], g[s->ca[c]]);
        for (size_t k = 0; k < s->K[c]; k++)
            s->q[s->qoff[c] + k] = (1 - b) / (double)s->K[c] + (k == a ? b : 0);
    }
}

/* ---- the update ---- */

/* y = C^-1/2 x = B diag(1/D) B^T x. */
static void invsqrt(const struct cet_cmaes *s, const double *x, double *y)
{
    size_t n = s->nco;
    double t[CET_MAX_GENES];
    for (size_t k = 0; k < n; k++) {
        double v = 0;
        for (size_t i = 0; i < n; i++)
            v += s->B[i * n + k] * x[i];
        t[k] = v / s->D[k];
    }
    for (size_t i = 0; i < n; i++) {
        double v = 0;
        for (size_t k = 0; k < n; k++)
            v += s->B[i * n + k] * t[k];
        y[i] = v;
    }
}

static double norm(const double *v, size_t n)
{
    double sq = 0;
    for (size_t i = 0; i < n; i++)
        sq += v[i] * v[i];
    return sqrt(sq);
}

/* Mean, step size and covariance (the tutorial's eq. 39-47) from the n
 * ranked samples x[order[r]]. */
static void update_continuous(struct cet_cmaes *s, const double *w, const struct rates *r,
                              const size_t *order, size_t nr)
{
    size_t n = s->nco, dim = s->nco + s->nca;
    double *y = malloc(nr * n * sizeof *y), yw[CET_MAX_GENES] = {0}, z[CET_MAX_GENES];
    if (!y)
        return; /* caught by the caller's own allocation check */
    for (size_t k = 0; k < nr; k++)
        for (size_t i = 0; i < n; i++) {
            y[k * n + i] = (s->raw[order[k] * dim + i] - s->m[i]) / s->sigma;
            if (k < r->mu)
                yw[i] += w[k] * y[k * n + i];
        }
    for (size_t i = 0; i < n; i++)
        s->m[i] += s->sigma * yw[i];
    invsqrt(s, yw, z);
    double a = sqrt(r->cs * (2 - r->cs) * r->mueff);
    for (size_t i = 0; i < n; i++)
        s->ps[i] = (1 - r->cs) * s->ps[i] + a * z[i];
    double nps = norm(s->ps, n);
    s->sigma = fmin(s->sigma * exp(r->cs / r->ds * (nps / r->chin - 1)), SIGMA_MAX);
    double left = nps / sqrt(1 - pow(1 - r->cs, 2.0 * (double)(s->g + 1)));
    int hs = left < (1.4 + 2 / ((double)n + 1)) * r->chin;
    double ac = hs ? sqrt(r->cc * (2 - r->cc) * r->mueff) : 0;
    for (size_t i = 0; i < n; i++)
        s->pc[i] = (1 - r->cc) * s->pc[i] + ac * yw[i];
    /* Negative weights are scaled by n / |C^-1/2 y|^2 (eq. 46). */
    double wo[CET_MAX_GENES * 4];
    double *wk = nr <= sizeof wo / sizeof *wo ? wo : malloc(nr * sizeof *wk);
    if (!wk) {
        free(y);
        return;
    }
    for (size_t k = 0; k < nr; k++) {
        wk[k] = w[k];
        if (w[k] < 0) {
            invsqrt(s, y + k * n, z);
            double nz = norm(z, n);
            wk[k] = w[k] * (double)n / (nz * nz + 1e-8);
        }
    }
    double dh = (1 - hs) * r->cc * (2 - r->cc);
    double keep = 1 + r->c1 * dh - r->c1 - r->cmu * r->wsum;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++) {
            double rm = 0;
            for (size_t k = 0; k < nr; k++)
                rm += wk[k] * y[k * n + i] * y[k * n + j];
            double v = keep * s->C[i * n + j] + r->c1 * s->pc[i] * s->pc[j] + r->cmu * rm;
            s->C[i * n + j] = s->C[j * n + i] = v;
        }
    if (wk != wo)
        free(wk);
    free(y);
}

/* CMA-ES with margin (Hamano et al. 2022, as the `cmaes` library's CMAwM):
 * each int coordinate keeps at least alpha/2 of probability beyond each
 * boundary of its mean's integer, by moving the mean (at the ends of the
 * range) or widening A (between two boundaries). */
static void margin(struct cet_cmaes *s, double alpha)
{
    size_t n = s->nco;
    for (size_t i = 0; i < n; i++) {
        const struct cet_gene *ge = &s->d->genes[s->co[i]];
        size_t K = ge->type == CET_P_INT ? int_count(ge) : 0;
        if (K < 2)
            continue;
        double m = s->m[i], sd = sqrt(s->C[i * n + i]);
        size_t p = int_nearest(ge, m);
        double lo = int_limit(ge, p > 0 ? (p - 1 < K - 2 ? p - 1 : K - 2) : 0);
        double up = int_limit(ge, p < K - 2 ? p : K - 2);
        double scale = s->sigma * s->A[i] * sd;
        double lcdf = gsl_cdf_gaussian_P(lo - m, scale), ucdf = gsl_cdf_gaussian_Q(up - m, scale);
        double mcdf = 1 - (lcdf + ucdf);
        if (fmax(lcdf, ucdf) > 0.5) { /* an end of the range */
            if (fmin(lcdf, ucdf) < alpha) {
                double sign = m > up ? 1 : m < up ? -1 : 0;
                double dist = s->sigma * s->A[i] * gsl_cdf_ugaussian_Qinv(alpha) * sd;
                s->m[i] = up + sign * dist;
            }
            continue;
        }
        lcdf = fmax(lcdf, alpha / 2);
        ucdf = fmax(ucdf, alpha / 2);
        double den = lcdf + mcdf + ucdf - 3 * alpha / 2, extra = 1 - lcdf - ucdf - mcdf;
        double ml = lcdf + extra * (lcdf - alpha / 2) / den;
        double mu = ucdf + extra * (ucdf - alpha / 2) / den;
        ml = fmin(fmax(ml, 1e-10), 0.5 - 1e-10);
        mu = fmin(fmax(mu, 1e-10), 0.5 - 1e-10);
        double chil = gsl_cdf_ugaussian_Qinv(ml), chiu = gsl_cdf_ugaussian_Qinv(mu);
        s->A[i] = (up - lo) / ((chil + chiu) * s->sigma * sd);
        s->m[i] = (lo * chiu + up * chil) / (chil + chiu);
    }
}

/* CatCMA's categorical update (the `cmaes` library's CatCMA): the natural
 * gradient of the ranked samples' categories with the positive weights,
 * scaled by ASNG's adaptive step, then the margin. */
static void update_categorical(struct cet_cmaes *s, const double *w, const struct rates *r,
                               const size_t *order)
{
    size_t dim = s->nco + s->nca, nq = s->nq, ns = s->nq - s->nca;
    double *ng = calloc(nq, sizeof *ng), *sq = malloc((ns ? ns : 1) * sizeof *sq);
    if (!ng || !sq) {
        free(ng);
        free(sq);
        return;
    }
    for (size_t c = 0; c < s->nca; c++)
        for (size_t k = 0; k < r->mu; k++) {
            size_t a = (size_t)s->raw[order[k] * dim + s->nco + c];
            for (size_t v = 0; v < s->K[c]; v++)
                ng[s->qoff[c] + v] += w[k] * ((v == a) - s->q[s->qoff[c] + v]);
        }
    /* The square root of the Fisher information (Akimoto et al. 2019, app. B). */
    size_t t = 0;
    for (size_t c = 0; c < s->nca; c++) {
        const double *q = s->q + s->qoff[c], *gr = ng + s->qoff[c];
        size_t K = s->K[c];
        double sum = 0;
        for (size_t v = 0; v + 1 < K; v++)
            sum += gr[v];
        for (size_t v = 0; v + 1 < K; v++)
            sq[t++] = gr[v] / sqrt(q[v]) + sqrt(q[v]) * sum / (q[K - 1] + sqrt(q[K - 1]));
    }
    double pn = norm(sq, ns) + 1e-30, delta = 1 / s->Delta;
    for (size_t k = 0; k < nq; k++)
        s->q[k] += delta / pn * ng[k];
    double beta = delta / sqrt((double)ns), ss = 0;
    for (size_t k = 0; k < ns; k++) {
        s->sv[k] = (1 - beta) * s->sv[k] + sqrt(beta * (2 - beta)) * sq[k] / pn;
        ss += s->sv[k] * s->sv[k];
    }
    s->gamma = (1 - beta) * (1 - beta) * s->gamma + beta * (2 - beta);
    s->Delta *= exp(beta * (s->gamma - ss / 1.5));
    for (size_t c = 0; c < s->nca; c++) {
        double *q = s->q + s->qoff[c], K = (double)s->K[c];
        double qmin = (1 - pow(0.73, 1 / (double)s->nca)) / (K - 1), sum = 0;
        for (size_t v = 0; v < s->K[c]; v++)
            sum += q[v] = fmax(q[v], qmin);
        double tmp = sum - qmin * K, tot = 0;
        for (size_t v = 0; v < s->K[c]; v++)
            tot += q[v] -= tmp > 0 ? (sum - 1) * (q[v] - qmin) / tmp : 0;
        for (size_t v = 0; v < s->K[c]; v++)
            q[v] /= tot;
    }
    free(ng);
    free(sq);
}

static int finite_state(const struct cet_cmaes *s)
{
    if (!isfinite(s->sigma) || !(s->sigma > 0))
        return 0;
    for (size_t i = 0; i < s->nco * s->nco; i++)
        if (!isfinite(s->C[i]))
            return 0;
    for (size_t i = 0; i < s->nco; i++)
        if (!isfinite(s->m[i]) || !isfinite(s->A[i]))
            return 0;
    return 1;
}

/* IPOP's test: has this restart converged? */
static int converged(const struct cet_cmaes *s, const double *fit, size_t n)
{
    size_t n_ = s->nco, nf = 0, small = 0;
    double tolx = fmax(s->set.resolution, 1e-11) / 10;
    for (size_t i = 0; i < n_; i++)
        if (s->d->genes[s->co[i]].type == CET_P_FLOAT) {
            nf++;
            small += s->sigma * sqrt(s->C[i * n_ + i]) < tolx && s->sigma * fabs(s->pc[i]) < tolx;
        }
    if (nf && small == nf)
        return 1;
    if (n_ && s->D[n_ - 1] / s->D[0] > 1e7) /* condition of C above 1e14 */
        return 1;
    size_t L = hist_len(s);
    if (s->nhist < L || !n)
        return 0;
    double lo = fit[n - 1], hi = fit[0];
    for (size_t k = 0; k < L; k++) {
        lo = fmin(lo, s->hist[k]);
        hi = fmax(hi, s->hist[k]);
    }
    return hi - lo < 1e-12;
}

int cet_cmaes_tell(struct cet_cmaes *s, gsl_rng *rng, const size_t *order, const double *fit,
                   size_t n, int stale, int *restarted, struct cet_error *err)
{
    if (restarted)
        *restarted = 0;
    double *w = malloc((n ? n : 1) * sizeof *w);
    if (!w)
        return cet_fail(err, "out of memory");
    if (n >= 2) { /* the rates follow how many were ranked (normally lambda) */
        struct rates r; /* the weights do not depend on the dimension */
        rates(s->nco, n, w, &r);
        if (s->nco)
            update_continuous(s, w, &r, order, n);
        if (s->nca)
            update_categorical(s, w, &r, order);
        s->g++;
        if (finite_state(s))
            margin(s, 1 / ((double)(s->nco + s->nca) * (double)s->lambda));
    }
    free(w);
    if (n)
        s->hist[s->nhist++ % hist_len(s)] = fit[0];
    int restart = !finite_state(s);
    if (!restart && decompose(s))
        return cet_fail(err, "out of memory");
    if (restart || (s->set.restarts && ((stale && s->g >= 2) || converged(s, fit, n)))) {
        if (restarted)
            *restarted = 1;
        if (s->restarts < MAX_DOUBLINGS && s->lambda * 2 <= MAX_LAMBDA)
            s->lambda *= 2;
        s->restarts++;
        for (size_t i = 0; i < s->nco; i++)
            s->m[i] = gsl_rng_uniform(rng);
        if (reset(s))
            return cet_fail(err, "out of memory");
    }
    return 0;
}

/* ---- save and restore ---- */

static int add_array(cJSON *j, const char *name, const double *v, size_t n)
{
    cJSON *a = cJSON_AddArrayToObject(j, name);
    for (size_t i = 0; a && i < n; i++) {
        cJSON *x = cet_json_exact(v[i]);
        if (!x || !cJSON_AddItemToArray(a, x)) {
            cJSON_Delete(x);
            return -1;
        }
    }
    return a ? 0 : -1;
}

static int add_number(cJSON *j, const char *name, double v)
{
    cJSON *x = cet_json_exact(v);
    if (!x || !cJSON_AddItemToObject(j, name, x)) {
        cJSON_Delete(x);
        return -1;
    }
    return 0;
}

cJSON *cet_cmaes_save(const struct cet_cmaes *s)
{
    cJSON *j = cJSON_CreateObject();
    size_t L = hist_len(s), nh = s->nhist < L ? s->nhist : L;
    double nums[] = {(double)s->set.lambda, s->set.sigma0, s->set.resolution,
                     s->set.seed_weight, (double)s->set.restarts, (double)s->lambda0,
                     (double)s->lambda, (double)s->g, (double)s->restarts, s->sigma,
                     s->Delta, s->gamma, (double)s->nhist};
    static const char *const names[] = {"lambda_set", "sigma0", "resolution", "seed_weight",
                                        "ipop", "lambda0", "lambda", "iterations",
                                        "restarts", "sigma", "Delta", "gamma", "nhist"};
    int bad = !j;
    for (size_t k = 0; k < sizeof nums / sizeof *nums && !bad; k++)
        bad = add_number(j, names[k], nums[k]);
    bad = bad || add_array(j, "m", s->m, s->nco) || add_array(j, "C", s->C, s->nco * s->nco) ||
          add_array(j, "ps", s->ps, s->nco) || add_array(j, "pc", s->pc, s->nco) ||
          add_array(j, "A", s->A, s->nco) || add_array(j, "q", s->q, s->nq) ||
          add_array(j, "s", s->sv, s->nq - s->nca) || add_array(j, "hist", s->hist, nh);
    if (bad) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* A member of j that must be an array of n finite numbers. */
static int get_array(struct cet_json_reader *r, const cJSON *j, const char *name, size_t n,
                     double *v)
{
    const cJSON *a = cet_jr_member(r, j, name, cJSON_Array);
    if (cet_jr_numbers(r, a, v, n))
        return -1;
    for (size_t k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return cet_jr_fail(r, a, "\"%s\" must hold finite numbers", name);
    return 0;
}

static int restore_into(struct cet_cmaes *s, struct cet_json_reader *r, const cJSON *j)
{
    s->set = (struct cet_cmaes_settings){
        .lambda = (size_t)cet_jr_whole(r, j, "lambda_set", 0, MAX_LAMBDA),
        .sigma0 = cet_jr_within(r, j, "sigma0", 1e-300, 1),
        .resolution = cet_jr_within(r, j, "resolution", 0, 0.1),
        .seed_weight = cet_jr_within(r, j, "seed_weight", 0, 1),
        .restarts = (int)cet_jr_whole(r, j, "ipop", 0, 1)};
    s->lambda0 = (size_t)cet_jr_whole(r, j, "lambda0", 2, MAX_LAMBDA);
    s->lambda = (size_t)cet_jr_whole(r, j, "lambda", 2, MAX_LAMBDA);
    s->g = (long)cet_jr_whole(r, j, "iterations", 0, 1e15);
    s->restarts = (long)cet_jr_whole(r, j, "restarts", 0, 1e15);
    s->sigma = cet_jr_within(r, j, "sigma", 1e-300, SIGMA_MAX);
    s->Delta = cet_jr_within(r, j, "Delta", 1e-300, 1e300);
    s->gamma = cet_jr_within(r, j, "gamma", 0, 1e300);
    s->nhist = (size_t)cet_jr_whole(r, j, "nhist", 0, 1e15);
    if (r->failed)
        return -1;
    if (size_buffers(s))
        return cet_fail(r->err, "out of memory");
    size_t n = s->nco, L = hist_len(s);
    if (get_array(r, j, "m", n, s->m) || get_array(r, j, "C", n * n, s->C) ||
        get_array(r, j, "ps", n, s->ps) || get_array(r, j, "pc", n, s->pc) ||
        get_array(r, j, "A", n, s->A) || get_array(r, j, "q", s->nq, s->q) ||
        get_array(r, j, "s", s->nq - s->nca, s->sv) ||
        get_array(r, j, "hist", s->nhist < L ? s->nhist : L, s->hist))
        return -1;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++)
            if (s->C[i * n + k] != s->C[k * n + i] || (i == k && !(s->C[i * n + i] > 0)))
                return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(j, "C"),
                                   "\"C\" must be symmetric with a positive diagonal");
    for (size_t i = 0; i < n; i++)
        if (!(s->A[i] > 0))
            return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(j, "A"),
                               "\"A\" must be positive");
    for (size_t c = 0; c < s->nca; c++) {
        double sum = 0;
        for (size_t k = 0; k < s->K[c]; k++) {
            double p = s->q[s->qoff[c] + k];
            if (!(p > 0 && p <= 1))
                return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(j, "q"),
                                   "\"q\" must hold probabilities");
            sum += p;
        }
        if (fabs(sum - 1) > 1e-6)
            return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(j, "q"),
                               "\"q\" must sum to 1 per gene");
    }
    if (decompose(s))
        return cet_fail(r->err, "out of memory");
    return 0;
}

int cet_cmaes_restore(struct cet_cmaes **out, const struct cet_params_desc *d,
                      const struct cet_json *doc, const cJSON *j, struct cet_error *err)
{
    struct cet_json_reader r = {.j = doc, .err = err, .what = "checkpoint"};
    struct cet_cmaes_settings set;
    cet_cmaes_default_settings(&set);
    *out = NULL;
    if (!cJSON_IsObject(j))
        return cet_jr_fail(&r, j, "the cmaes state must be an object");
    struct cet_cmaes *s;
    if (alloc_state(&s, d, &set, err) || restore_into(s, &r, j)) {
        cet_cmaes_free(s);
        return -1;
    }
    *out = s;
    return 0;
}
