/* The one-sided sign-flip (Fisher-Pitman) randomization test of
 * signflip.h, shared by racing (src/search/race.c, whose header comment says
 * why this test) and the final choice of a run (src/run/choose.c). */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "signflip.h"

static int by_size_desc(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

/* The sign patterns of the EXACT largest differences are
 * enumerated; the others' sum is normal (their sign-flip sum has mean 0
 * and variance sum d^2, and is a sum of many small terms). */
enum { EXACT = 12 };

double cet_signflip_pvalue(double *d, size_t n)
{
    size_t k = 0;
    double obs = 0, scale = 0;
    for (size_t i = 0; i < n; i++)
        if (d[i] != 0) {
            obs += d[i];
            scale += fabs(d[i]);
            d[k++] = fabs(d[i]);
        }
    qsort(d, k, sizeof *d, by_size_desc);
    size_t e = k < EXACT ? k : EXACT;
    double var = 0;
    for (size_t i = e; i < k; i++)
        var += d[i] * d[i];
    /* The observed signs are one of the patterns; summed in another order
     * it may differ in the last bits, so it must still count as <= obs. */
    double sd = sqrt(var), at = obs + 1e-9 * scale, p = 0;
    for (size_t pat = 0; pat < ((size_t)1 << e); pat++) {
        double s = 0;
        for (size_t i = 0; i < e; i++)
            s += pat >> i & 1 ? -d[i] : d[i];
        p += sd > 0 ? gsl_cdf_ugaussian_P((at - s) / sd) : s <= at;
    }
    return p / (double)((size_t)1 << e);
}
