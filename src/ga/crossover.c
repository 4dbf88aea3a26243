/* Recombination: each gene comes from one parent or the other with equal
 * chance (the paper's "randomly combining the values of two of the better
 * individuals"), except for correlated groups, which are blended as the
 * paper's future work proposes ("calculating the mean value"): one weight
 * w ~ U(0,1) per group gives w a + (1-w) b for every gene of the group, so
 * the child lies on the segment between its parents and keeps their
 * relation.  Log-scale genes blend their logarithms.  Group weights are
 * drawn first, in group order, then one draw per ungrouped gene, so the
 * stream is consumed the same way every time. */
#include <math.h>
#include <stdlib.h>

#include "cetune/ga.h"

void cet_crossover(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                   const double *a, const double *b, double *child)
{
    double wbuf[16], *w = d->ngroups <= 16 ? wbuf : malloc(d->ngroups * sizeof *w);
    if (!w) { /* out of memory: fall back to uniform recombination for groups too */
        for (size_t i = 0; i < d->ngenes; i++)
            child[i] = gsl_rng_uniform(rng) < 0.5 ? a[i] : b[i];
        cet_genome_normalise(d, resolution, child);
        return;
    }
    for (size_t k = 0; k < d->ngroups; k++)
        w[k] = gsl_rng_uniform(rng);
    for (size_t i = 0; i < d->ngenes; i++) {
        const struct cet_gene *ge = &d->genes[i];
        if (ge->group < 0) {
            child[i] = gsl_rng_uniform(rng) < 0.5 ? a[i] : b[i];
            continue;
        }
        double wk = w[ge->group];
        if (ge->log)
            child[i] = exp(wk * log(a[i]) + (1 - wk) * log(b[i]));
        else
            child[i] = wk * a[i] + (1 - wk) * b[i];
    }
    if (w != wbuf)
        free(w);
    cet_genome_normalise(d, resolution, child);
}
