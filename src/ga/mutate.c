/* Mutation: "random deviations of the parameter values" (003 section 4).
 * Each gene changes with probability rate; when none was picked, one gene
 * chosen uniformly changes, so a mutated child always differs in intent.
 * - int and float: a Gaussian step with standard deviation sigma x range
 *   (on a log scale, sigma x the range of the logarithms), then clamped and
 *   rounded.  An integer whose step rounds to no change moves one unit in
 *   the step's direction (or the other way at a bound), otherwise narrow
 *   integer ranges would barely mutate.
 * - bool: flipped (so booleans flip with probability rate).
 * - enum: another allowed value, uniformly. */
#include <math.h>

#include <gsl/gsl_randist.h>

#include "cetune/ga.h"

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
    if (rate <= 0)
        rate = 1.0 / (double)d->ngenes;
    int any = 0;
    for (size_t i = 0; i < d->ngenes; i++)
        if (gsl_rng_uniform(rng) < rate) {
            mutate_gene(&d->genes[i], rng, sigma, &g[i]);
            any = 1;
        }
    if (!any) {
        size_t k = (size_t)gsl_rng_uniform_int(rng, d->ngenes);
        mutate_gene(&d->genes[k], rng, sigma, &g[k]);
    }
    cet_genome_normalise(d, resolution, g);
}
