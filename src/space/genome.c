/* Genomes: one double per described parameter.  Normalisation is what makes
 * "never evaluate the same genome twice" work: after it, two genomes that
 * configure the extractor identically are bit-identical.
 *
 * Choices:
 * - Floats are rounded to a power-of-ten grid no coarser than resolution x
 *   range (1e-4 by default: 0.27314 becomes 0.2731 on [0, 1]), computed as
 *   round(v * 10^k) / 10^k so the stored double is exactly the one the
 *   short decimal reads back as.  On a log scale the grid is relative: as
 *   many significant digits as resolution has zeros (4 for 1e-4).  Finer
 *   differences barely move an F1 mean and would defeat the cache.
 * - Values outside the bounds are clamped, which keeps boundary values
 *   reachable (many thresholds work best at an end of their range).
 * - Log-uniform integers are drawn as round(exp(U(log min, log max))).
 * - An inactive gene (conditions.c) holds its normalised default, so the
 *   archive's key ignores it; random genomes draw every gene (a fixed use
 *   of the stream) and normalisation then resets the inactive ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cetune/params.h"
#include "space.h"

/* splitmix64 of the seed and the stream number. */
uint64_t cet_seed_derive(uint64_t seed, uint64_t stream)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double quantise(double v, double step_exp)
{
    int e = (int)step_exp;
    if (e < -300 || e > 300)
        return v;
    if (e < 0) {
        double s = pow(10.0, -e);
        return round(v * s) / s;
    }
    double s = pow(10.0, e);
    return round(v / s) * s;
}

static double normalise_gene(const struct cet_gene *ge, double resolution, double v)
{
    if (isnan(v))
        v = ge->def;
    switch (ge->type) {
    case CET_P_BOOL:
        return v >= 0.5 ? 1 : 0;
    case CET_P_ENUM: {
        /* The nearest allowed index (operators only produce allowed ones). */
        double best = ge->values[0];
        for (size_t a = 1; a < ge->nvalues; a++)
            if (fabs(ge->values[a] - v) < fabs(best - v))
                best = ge->values[a];
        return best;
    }
    case CET_P_INT:
        v = round(v);
        break;
    case CET_P_FLOAT:
        if (resolution > 0 && ge->max > ge->min && v > 0 && ge->log)
            v = quantise(v, floor(log10(v)) + floor(log10(resolution)) + 1);
        else if (resolution > 0 && ge->max > ge->min && !ge->log)
            v = quantise(v, floor(log10((ge->max - ge->min) * resolution)));
        break;
    }
    v = fmin(fmax(v, ge->min), ge->max);
    return v == 0 ? 0 : v; /* no -0.0: the cache compares bits */
}

void cet_genome_normalise(const struct cet_params_desc *d, double resolution, double *g)
{
    uint8_t active[CET_MAX_GENES];
    for (size_t k = 0; k < d->ngenes; k++) {
        size_t i = cet_params_gene_at(d, k);
        const struct cet_gene *ge = &d->genes[i];
        /* Parents come first in this order, so theirs are already normalised. */
        active[i] = (uint8_t)cet_params_gene_active(d, i, g, active);
        g[i] = normalise_gene(ge, resolution, active[i] ? g[i] : ge->def);
    }
}

void cet_genome_random(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                       double *g)
{
    for (size_t i = 0; i < d->ngenes; i++) {
        const struct cet_gene *ge = &d->genes[i];
        double u = gsl_rng_uniform(rng);
        switch (ge->type) {
        case CET_P_BOOL:
            g[i] = u < 0.5;
            break;
        case CET_P_ENUM:
            g[i] = ge->values[(size_t)(u * (double)ge->nvalues)];
            break;
        case CET_P_INT:
            if (ge->log)
                g[i] = exp(log(ge->min) + u * (log(ge->max) - log(ge->min)));
            else /* every integer of [min, max] equally likely */
                g[i] = floor(ge->min + u * (ge->max - ge->min + 1));
            break;
        case CET_P_FLOAT:
            if (ge->log)
                g[i] = exp(log(ge->min) + u * (log(ge->max) - log(ge->min)));
            else
                g[i] = ge->min + u * (ge->max - ge->min);
            break;
        }
    }
    cet_genome_normalise(d, resolution, g);
}

/* Position of gene value v in [0, 1] of its range (log scale where set). */
static double gene_unit(const struct cet_gene *ge, double v)
{
    if (ge->type == CET_P_ENUM) {
        size_t a = 0;
        while (a + 1 < ge->nvalues && ge->values[a] != v)
            a++;
        return ge->nvalues > 1 ? (double)a / (double)(ge->nvalues - 1) : 0;
    }
    if (ge->max <= ge->min)
        return 0;
    if (ge->log)
        return (log(v) - log(ge->min)) / (log(ge->max) - log(ge->min));
    return (v - ge->min) / (ge->max - ge->min);
}

double cet_genome_diversity(const struct cet_params_desc *d, const double *genomes, size_t n)
{
    size_t G = d->ngenes, counted = 0;
    if (!n || !G)
        return 0;
    /* Per gene, over the genomes where it is active: the mean, then the
     * squared deviations, each summed in genome order.  A gene counts only
     * when it is active in some genome.  No allocation, so no failure. */
    double mean[CET_MAX_GENES] = {0}, sq[CET_MAX_GENES] = {0}, m[CET_MAX_GENES] = {0};
    uint8_t act[CET_MAX_GENES];
    for (size_t k = 0; k < n; k++) {
        cet_params_active(d, genomes + k * G, act);
        for (size_t i = 0; i < G; i++)
            if (act[i]) {
                mean[i] += gene_unit(&d->genes[i], genomes[k * G + i]);
                m[i]++;
            }
    }
    for (size_t i = 0; i < G; i++)
        if (m[i])
            mean[i] /= m[i];
    for (size_t k = 0; k < n; k++) {
        cet_params_active(d, genomes + k * G, act);
        for (size_t i = 0; i < G; i++)
            if (act[i]) {
                double x = gene_unit(&d->genes[i], genomes[k * G + i]) - mean[i];
                sq[i] += x * x;
            }
    }
    double sum = 0;
    for (size_t i = 0; i < G; i++)
        if (m[i]) {
            sum += sqrt(sq[i] / m[i]);
            counted++;
        }
    return sum / (double)counted;
}
