/* The fitness of the targets that breed generations (fuzz_params,
 * fuzz_checkpoint): cheap, and dependent on every parameter, so selection
 * has work.  ctx is the run's struct cet_params_desc. */
#ifndef CETUNE_FUZZ_FITNESS_H
#define CETUNE_FUZZ_FITNESS_H

#include <math.h>
#include <stddef.h>

#include "cetune/error.h"
#include "cetune/params.h"

static inline int fuzz_fitness(void *ctx, const double *params, size_t k, double *f, double *p,
                               double *r, struct cet_error *err)
{
    const struct cet_params_desc *d = ctx;
    (void)err;
    for (size_t i = 0; i < k; i++) {
        double s = 0;
        for (size_t x = 0; x < d->ex->nparams; x++)
            s += sin(params[i * d->ex->nparams + x] * (double)(x + 1));
        f[i] = p[i] = r[i] = 0.5 + 0.5 * sin(s);
    }
    return 0;
}

#endif
