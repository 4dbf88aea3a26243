/* The archive: every evaluated genome once, in evaluation order, with its
 * results, and an open-addressing hash table (linear probing, at most half
 * full) from the genome's bits to its index, so a genome is looked up in
 * constant time and never evaluated twice.  Genomes are normalised before
 * they get here, so equal settings have equal bits. */
#include <stdlib.h>
#include <string.h>

#include "cetune/ga.h"
#include "ga_internal.h"

static uint64_t hash_genome(const double *g, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *p = (const unsigned char *)g;
    for (size_t i = 0; i < n * sizeof *g; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

int cet_ga_lookup(const struct cet_ga *ga, const double *g, size_t *at)
{
    if (!ga->nslots)
        return CET_ENOTFOUND;
    size_t mask = ga->nslots - 1;
    for (size_t s = hash_genome(g, ga->ngenes) & mask;; s = (s + 1) & mask) {
        if (!ga->slots[s])
            return CET_ENOTFOUND;
        size_t i = ga->slots[s] - 1;
        if (!memcmp(cet_ga_genome(ga, i), g, ga->ngenes * sizeof *g)) {
            *at = i;
            return 0;
        }
    }
}

static void slot_insert(struct cet_ga *ga, size_t i)
{
    size_t mask = ga->nslots - 1;
    size_t s = hash_genome(cet_ga_genome(ga, i), ga->ngenes) & mask;
    while (ga->slots[s])
        s = (s + 1) & mask;
    ga->slots[s] = (uint32_t)(i + 1);
}

static int rehash(struct cet_ga *ga, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    free(ga->slots);
    ga->slots = slots;
    ga->nslots = nslots;
    for (size_t i = 0; i < ga->narch; i++)
        slot_insert(ga, i);
    return 0;
}

int cet_ga_archive_add(struct cet_ga *ga, const double *g, long born, size_t *at)
{
    if (ga->narch == ga->cap) {
        size_t cap = ga->cap ? ga->cap * 2 : 256;
        void *q;
        int ok = 1;
/* Reallocates array p to n elements; ok = 0 (p kept) when out of memory. */
#define GROW(p, n) ok &= (q = realloc((p), (n) * sizeof *(p))) ? ((p) = q, 1) : 0
        GROW(ga->genes, cap * ga->ngenes);
        GROW(ga->fit, cap);
        GROW(ga->prec, cap);
        GROW(ga->rec, cap);
        GROW(ga->born, cap);
        GROW(ga->f1, cap);
        GROW(ga->words, cap);
        GROW(ga->viol, cap);
        GROW(ga->obj, cap * CET_MAX_PARETO);
        GROW(ga->ndone, cap);
        GROW(ga->raced, cap);
#undef GROW
        if (!ok)
            return -1;
        ga->cap = cap;
    }
    if ((ga->narch + 1) * 2 > ga->nslots && rehash(ga, ga->nslots ? ga->nslots * 2 : 1024))
        return -1;
    size_t i = ga->narch++;
    memcpy(ga->genes + i * ga->ngenes, g, ga->ngenes * sizeof *g);
    ga->fit[i] = ga->prec[i] = ga->rec[i] = ga->f1[i] = ga->words[i] = ga->viol[i] = 0;
    for (size_t k = 0; k < CET_MAX_PARETO; k++)
        ga->obj[i * CET_MAX_PARETO + k] = 0;
    ga->born[i] = born;
    ga->ndone[i] = (uint32_t)ga->ndocs;
    ga->raced[i] = 0;
    slot_insert(ga, i);
    *at = i;
    return 0;
}

int cet_ga_archive_put(struct cet_ga *ga, const double *g, long born, double f, double p,
                        double r)
{
    size_t i;
    if (cet_ga_archive_add(ga, g, born, &i))
        return -1;
    ga->fit[i] = ga->f1[i] = f;
    ga->prec[i] = p;
    ga->rec[i] = r;
    return 0;
}

void cet_ga_archive_measures(struct cet_ga *ga, size_t i, const struct cet_measures *m)
{
    /* A Pareto search has no single objective: its individuals rank by F1. */
    ga->fit[i] = ga->opt.goal.npareto ? m->f1 : m->fit;
    ga->f1[i] = m->f1;
    ga->prec[i] = m->p;
    ga->rec[i] = m->r;
    ga->words[i] = m->words;
    ga->viol[i] = m->viol;
    memcpy(ga->obj + i * CET_MAX_PARETO, m->obj, sizeof m->obj);
}

void cet_ga_archive_truncate(struct cet_ga *ga, size_t narch)
{
    if (ga->narch == narch)
        return;
    ga->narch = narch;
    memset(ga->slots, 0, ga->nslots * sizeof *ga->slots);
    for (size_t i = 0; i < ga->narch; i++)
        slot_insert(ga, i);
}
