/* Mutation: "random deviations of the parameter values" (Gottron 2008, section 4).
 * Each gene changes with probability rate; when none was picked, one gene
 * chosen uniformly changes, so a mutated child always differs in intent.
 * - int and float: a Gaussian step with standard deviation sigma x range
 *   (on a log scale, sigma x the range of the logarithms), then clamped and
 *   rounded.  An integer whose step rounds to no change moves one unit in
 *   the step's direction (or the other way at a bound), otherwise narrow
 *   integer ranges would barely mutate.
 * - bool: flipped (so booleans flip with probability rate).
 * - enum: another allowed value, uniformly.
 * Only active genes (src/space/conditions.c) mutate, and the default rate counts only
 * them.  Genes are visited parents first, so a child a mutated parent has
 * just switched on may mutate too; one it switched off reverts to its
 * default on normalisation.
 * Adaptive mutation (the paper's "adapt the mutation rate depending on the
 * current developments in the individuals' fitness") multiplies sigma by
 * adapt_factor for every stagnant generation, up to half the range, and
 * falls back to sigma on the next improvement. */
#include <math.h>

#include <gsl/gsl_randist.h>

#include "cetune/search.h"
#include "operators.h"

static void mutate_gene(const struct cet_gene *ge, gsl_rng *rng, double sigma, double *v)
{
    switch (ge->type) {
    case CET_P_BOOL:
        *v = *v != 0 ? 0 : 1;
        return;
    case CET_P_ENUM: {
        if (ge->nvalues < 2)
            return;
        size_t cur = 0;
        while (cur + 1 < ge->nvalues && ge->values[cur] != *v)
            cur++;
        size_t k = (size_t)gsl_rng_uniform_int(rng, ge->nvalues - 1);
        *v = ge->values[k >= cur ? k + 1 : k];
        return;
    }
    case CET_P_INT:
    case CET_P_FLOAT: {
        if (ge->max <= ge->min)
            return;
        double step;
        double nv;
        if (ge->log) {
            step = gsl_ran_gaussian(rng, sigma * (log(ge->max) - log(ge->min)));
            nv = exp(log(*v) + step);
        } else {
            step = gsl_ran_gaussian(rng, sigma * (ge->max - ge->min));
            nv = *v + step;
        }
        nv = fmin(fmax(nv, ge->min), ge->max);
        if (ge->type == CET_P_INT) {
            nv = round(nv);
            if (nv == *v) {
                nv = *v + (step < 0 ? -1 : 1);
                if (nv < ge->min || nv > ge->max)
                    nv = *v + (step < 0 ? 1 : -1);
            }
        }
        *v = nv;
        return;
    }
    }
}

void cet_mutate(const struct cet_params_desc *d, double resolution, gsl_rng *rng, double rate,
                double sigma, double *g)
{
    uint8_t active[CET_MAX_GENES];
    size_t nactive = cet_params_active(d, g, active);
    if (rate <= 0)
        rate = 1.0 / (double)nactive;
    int any = 0;
    for (size_t k = 0; k < d->ngenes; k++) {
        size_t i = cet_params_gene_at(d, k);
        active[i] = (uint8_t)cet_params_gene_active(d, i, g, active);
        if (active[i] && gsl_rng_uniform(rng) < rate) {
            mutate_gene(&d->genes[i], rng, sigma, &g[i]);
            any = 1;
        }
    }
    if (!any) { /* nothing changed, so active still holds the flags of g */
        size_t k = (size_t)gsl_rng_uniform_int(rng, nactive), i = 0;
        for (;; i++)
            if (active[i] && !k--)
                break;
        mutate_gene(&d->genes[i], rng, sigma, &g[i]);
    }
    cet_genome_normalise(d, resolution, g);
}

void cet_repair(const struct cet_params_desc *d, double resolution, gsl_rng *rng, double sigma,
                double *g)
{
    size_t f = cet_params_forbidden(d, g);
    if (!f)
        return;
    const struct cet_forbid *fb = &d->forbidden[f - 1];
    size_t k = fb->n > 1 ? (size_t)gsl_rng_uniform_int(rng, fb->n) : 0;
    mutate_gene(&d->genes[fb->genes[k]], rng, sigma, &g[fb->genes[k]]);
    cet_genome_normalise(d, resolution, g);
}

double cet_sigma_adapted(const struct cet_search_options *o, long stagnant)
{
    double s = o->mutation_sigma;
    if (!o->adaptive)
        return s;
    for (long k = 0; k < stagnant && s < 0.5; k++)
        s *= o->adapt_factor;
    return fmin(s, fmax(0.5, o->mutation_sigma));
}
