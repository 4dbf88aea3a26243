/* Recombination: each gene comes from one parent or the other with equal
 * chance (the paper's "randomly combining the values of two of the better
 * individuals"), except for correlated groups, which are blended as the
 * paper's future work proposes ("calculating the mean value"): one weight
 * w ~ U(0,1) per group gives w a + (1-w) b for every gene of the group, so
 * the child lies on the segment between its parents and keeps their
 * relation.  Log-scale genes blend their logarithms.  Group weights are
 * drawn first, in group order, then one draw per ungrouped gene, so the
 * stream is consumed the same way every time.
 *
 * Conditions (src/space/conditions.c): genes are visited parents first.  A gene the
 * child's own values leave inactive takes its default; an active one comes
 * from the parents where it is active too (recombined when both, copied
 * from the one, the default when neither), so an inactive gene never
 * passes on and costs no draw. */
#include <math.h>

#include "cetune/search.h"
#include "operators.h"

void cet_crossover(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                   const double *a, const double *b, double *child)
{
    double w[CET_MAX_GENES / 2]; /* a group holds at least two genes */
    uint8_t in_a[CET_MAX_GENES], in_b[CET_MAX_GENES], in_child[CET_MAX_GENES];
    cet_params_active(d, a, in_a);
    cet_params_active(d, b, in_b);
    for (size_t k = 0; k < d->ngroups; k++)
        w[k] = gsl_rng_uniform(rng);
    for (size_t k = 0; k < d->ngenes; k++) {
        size_t i = cet_params_gene_at(d, k);
        const struct cet_gene *ge = &d->genes[i];
        in_child[i] = (uint8_t)cet_params_gene_active(d, i, child, in_child);
        if (!in_child[i] || !in_a[i] || !in_b[i]) {
            child[i] = in_child[i] && in_a[i] ? a[i] : in_child[i] && in_b[i] ? b[i] : ge->def;
            continue;
        }
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
    cet_genome_normalise(d, resolution, child);
}

const struct cet_crossover cet_crossovers[CET_CROSS_COUNT] = {
    [CET_CROSS_UNIFORM] = {"uniform", "crossover_rate", cet_crossover},
};
const char *const cet_crossover_names[CET_CROSS_COUNT + 1] = {[CET_CROSS_UNIFORM] = "uniform"};
