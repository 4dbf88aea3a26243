/* Every seeded, package-stratified split of documents (space.h): training
 * samples (src/run/sample.c), cross-validation folds and the holdout
 * (cet_folds_split: src/run/folds.c, src/run/choose.c) and racing's
 * document order (cet_race_order: src/run/run.c).  All start from one
 * seeded random order of each package's documents; they differ only in
 * what they make of it.
 *
 * Each kind has its own stream of the run seed, so a sample, the folds
 * and the racing order never share draws.  The sample shuffles each
 * package forwards (position j swaps with one of j .. m-1), the others
 * with gsl_ran_shuffle (backwards): both are uniform, and each is kept
 * because the samples, folds and racing orders of runs made before must
 * stay the same documents for the same seed. */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "cetune/split.h"
#include "space.h"

static uint64_t stream_of(enum cet_split_kind kind)
{
    return kind == CET_SPLIT_SAMPLE  ? CET_STREAM_SAMPLE
           : kind == CET_SPLIT_FOLDS ? CET_STREAM_FOLDS
                                     : CET_STREAM_RACE;
}

/* perm[0..m) becomes a seeded random order of first .. first+m-1. */
static void package_order(gsl_rng *rng, enum cet_split_kind kind, uint32_t *perm, size_t first,
                          size_t m)
{
    for (size_t j = 0; j < m; j++)
        perm[j] = (uint32_t)(first + j);
    if (kind != CET_SPLIT_SAMPLE) {
        gsl_ran_shuffle(rng, perm, m, sizeof *perm);
        return;
    }
    for (size_t j = 0; j + 1 < m; j++) {
        size_t r = j + (size_t)gsl_rng_uniform_int(rng, m - j);
        uint32_t t = perm[j];
        perm[j] = perm[r];
        perm[r] = t;
    }
}

struct keyed {
    double key; /* (place in its package + 0.5) / package size */
    uint32_t pkg;
    uint32_t doc;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->pkg < y->pkg ? -1 : x->pkg > y->pkg;
}

int cet_split_make(const struct cet_split *s, uint32_t *out, struct cet_error *err)
{
    size_t n = s->first[s->npkgs];
    uint32_t *perm = malloc((n ? n : 1) * sizeof *perm);
    struct keyed *k = s->kind == CET_SPLIT_RACE ? malloc((n ? n : 1) * sizeof *k) : NULL;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!perm || !rng || (s->kind == CET_SPLIT_RACE && !k)) {
        free(perm);
        free(k);
        if (rng)
            gsl_rng_free(rng);
        return cet_fail(err, "out of memory");
    }
    gsl_rng_set(rng, (unsigned long)cet_seed_derive(s->seed, stream_of(s->kind)));
    if (s->kind == CET_SPLIT_SAMPLE)
        memset(out, 0, n * sizeof *out);
    size_t deal = 0;
    for (size_t p = 0; p < s->npkgs; p++) {
        size_t first = s->first[p], m = s->first[p + 1] - first;
        uint32_t *o = perm + first;
        package_order(rng, s->kind, o, first, m);
        if (s->kind == CET_SPLIT_SAMPLE) {
            for (size_t j = 0, take = s->quota[p]; j < m && take; j++)
                if (!s->usable || s->usable[o[j]]) {
                    out[o[j]] = 1;
                    take--;
                }
        } else if (s->kind == CET_SPLIT_FOLDS) {
            for (size_t j = 0; j < m; j++)
                out[o[j]] = !s->usable || s->usable[o[j]] ? (uint32_t)(deal++ % s->folds)
                                                          : CET_NONE;
        } else {
            for (size_t j = 0; j < m; j++)
                k[first + j] = (struct keyed){((double)j + 0.5) / (double)m, (uint32_t)p, o[j]};
        }
    }
    if (s->kind == CET_SPLIT_RACE) {
        qsort(k, n, sizeof *k, cmp_keyed);
        for (size_t i = 0; i < n; i++)
            out[i] = k[i].doc;
    }
    free(perm);
    free(k);
    gsl_rng_free(rng);
    return 0;
}

/* ---- the splits of a loaded corpus (cetune/split.h) ---- */

/* Makes kind's split of c's documents (c's packages cover docs[0 .. ndocs)). */
static int corpus_split(uint32_t *out, const struct cet_corpus *c, enum cet_split_kind kind,
                        size_t folds, const uint8_t *usable, uint64_t seed, struct cet_error *err)
{
    size_t *first = malloc((c->npkgs + 1) * sizeof *first);
    if (!first)
        return cet_fail(err, "out of memory");
    for (size_t p = 0; p < c->npkgs; p++)
        first[p] = c->pkgs[p].first;
    first[c->npkgs] = c->ndocs;
    struct cet_split s = {.kind = kind, .first = first, .npkgs = c->npkgs, .seed = seed,
                          .folds = folds, .usable = usable};
    int rc = cet_split_make(&s, out, err);
    free(first);
    return rc;
}

int cet_folds_split(uint32_t *fold, const struct cet_corpus *c, size_t k, uint64_t seed,
                    struct cet_error *err)
{
    return cet_folds_split_held(fold, c, NULL, k, seed, err);
}

int cet_folds_split_held(uint32_t *fold, const struct cet_corpus *c, const uint8_t *held,
                         size_t k, uint64_t seed, struct cet_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < c->ndocs; i++)
        n += !held || held[i];
    if (k < 2 || k > n)
        return cet_fail(err, "%zu folds need at least 2 folds and a %straining document per "
                             "fold; there are %zu %sdocuments", k, held ? "labelled " : "", n,
                        held ? "labelled " : "");
    return corpus_split(fold, c, CET_SPLIT_FOLDS, k, held, seed, err);
}

int cet_race_order(uint32_t *order, const struct cet_corpus *c, uint64_t seed,
                   struct cet_error *err)
{
    return corpus_split(order, c, CET_SPLIT_RACE, 0, NULL, seed, err);
}
