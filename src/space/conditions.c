/* Conditional parameters and forbidden combinations at run time: which
 * genes a genome activates, and whether it is forbidden.  Reading and
 * checking "when" and "forbidden" is in params.c; the GA operators
 * (genome.c, mutate.c, crossover.c), the archive and every output ask here.
 *
 * Activity is computed in d->order, where each gene comes after the genes
 * its conditions name (params.c sorts them and refuses cycles), so one pass
 * settles a whole chain: a gene is active when each of its conditions names
 * an active parent holding one of the listed values. */
#include <string.h>

#include "cetune/params.h"

static int cond_holds(const struct cet_cond *c, double v)
{
    for (size_t k = 0; k < c->nvalues; k++)
        if (c->values[k] == v)
            return 1;
    return 0;
}

int cet_params_gene_active(const struct cet_params_desc *d, size_t i, const double *genome,
                           const uint8_t *active)
{
    const struct cet_gene *ge = &d->genes[i];
    for (size_t c = 0; c < ge->nwhen; c++) {
        size_t p = ge->when[c].parent;
        if (!active[p] || !cond_holds(&ge->when[c], genome[p]))
            return 0;
    }
    return 1;
}

size_t cet_params_gene_at(const struct cet_params_desc *d, size_t k)
{
    return d->order ? d->order[k] : k;
}

size_t cet_params_active(const struct cet_params_desc *d, const double *genome, uint8_t *active)
{
    size_t n = 0;
    for (size_t k = 0; k < d->ngenes; k++) {
        size_t i = cet_params_gene_at(d, k);
        active[i] = (uint8_t)cet_params_gene_active(d, i, genome, active);
        n += active[i];
    }
    return n;
}

size_t cet_params_forbidden(const struct cet_params_desc *d, const double *genome)
{
    if (!d->nforbidden)
        return 0;
    uint8_t active[CET_MAX_GENES];
    cet_params_active(d, genome, active);
    for (size_t f = 0; f < d->nforbidden; f++) {
        const struct cet_forbid *fb = &d->forbidden[f];
        size_t k = 0;
        while (k < fb->n && active[fb->genes[k]] && genome[fb->genes[k]] == fb->values[k])
            k++;
        if (k == fb->n)
            return f + 1;
    }
    return 0;
}

void cet_params_full_active(const struct cet_params_desc *d, const double *genome,
                            uint8_t *full_active)
{
    uint8_t active[CET_MAX_GENES];
    memset(full_active, 1, d->ex->nparams);
    cet_params_active(d, genome, active);
    for (size_t g = 0; g < d->ngenes; g++)
        full_active[d->genes[g].index] = active[g];
}
