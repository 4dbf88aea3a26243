/* The archive: every evaluated genome once, in evaluation order, with its
 * results, and an open-addressing hash table (linear probing, at most half
 * full) from the genome's bits to its index, so a genome is looked up in
 * constant time and never evaluated twice.  Genomes are normalised before
 * they get here, so equal settings have equal bits. */
#include <stdlib.h>
#include <string.h>

#include "cetune/search.h"
#include "search_internal.h"

static uint64_t hash_genome(const double *g, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *p = (const unsigned char *)g;
    for (size_t i = 0; i < n * sizeof *g; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

int cet_search_lookup(const struct cet_search *engine, const double *g, size_t *at)
{
    if (!engine->nslots)
        return CET_ENOTFOUND;
    size_t mask = engine->nslots - 1;
    for (size_t s = hash_genome(g, engine->ngenes) & mask;; s = (s + 1) & mask) {
        if (!engine->slots[s])
            return CET_ENOTFOUND;
        size_t i = engine->slots[s] - 1;
        if (!memcmp(cet_search_genome(engine, i), g, engine->ngenes * sizeof *g)) {
            *at = i;
            return 0;
        }
    }
}

static void slot_insert(struct cet_search *engine, size_t i)
{
    size_t mask = engine->nslots - 1;
    size_t s = hash_genome(cet_search_genome(engine, i), engine->ngenes) & mask;
    while (engine->slots[s])
        s = (s + 1) & mask;
    engine->slots[s] = (uint32_t)(i + 1);
}

static int rehash(struct cet_search *engine, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    free(engine->slots);
    engine->slots = slots;
    engine->nslots = nslots;
    for (size_t i = 0; i < engine->narch; i++)
        slot_insert(engine, i);
    return 0;
}

int cet_search_archive_add(struct cet_search *engine, const double *g, long born, size_t *at)
{
    if (engine->narch == engine->cap) {
        size_t cap = engine->cap ? engine->cap * 2 : 256;
        void *q;
        int ok = 1;
/* Reallocates array p to n elements; ok = 0 (p kept) when out of memory. */
#define GROW(p, n) ok &= (q = realloc((p), (n) * sizeof *(p))) ? ((p) = q, 1) : 0
        GROW(engine->genes, cap * engine->ngenes);
        GROW(engine->fit, cap);
        GROW(engine->prec, cap);
        GROW(engine->rec, cap);
        GROW(engine->born, cap);
        GROW(engine->f1, cap);
        GROW(engine->words, cap);
        GROW(engine->viol, cap);
        GROW(engine->obj, cap * CET_MAX_PARETO);
        GROW(engine->ndone, cap);
        GROW(engine->raced, cap);
#undef GROW
        if (!ok)
            return -1;
        engine->cap = cap;
    }
    if ((engine->narch + 1) * 2 > engine->nslots && rehash(engine, engine->nslots ? engine->nslots * 2 : 1024))
        return -1;
    size_t i = engine->narch++;
    memcpy(engine->genes + i * engine->ngenes, g, engine->ngenes * sizeof *g);
    engine->fit[i] = engine->prec[i] = engine->rec[i] = engine->f1[i] = engine->words[i] = engine->viol[i] = 0;
    for (size_t k = 0; k < CET_MAX_PARETO; k++)
        engine->obj[i * CET_MAX_PARETO + k] = 0;
    engine->born[i] = born;
    engine->ndone[i] = (uint32_t)engine->ndocs;
    engine->raced[i] = 0;
    slot_insert(engine, i);
    *at = i;
    return 0;
}

int cet_search_archive_put(struct cet_search *engine, const double *g, long born, double f, double p,
                        double r)
{
    size_t i;
    if (cet_search_archive_add(engine, g, born, &i))
        return -1;
    engine->fit[i] = engine->f1[i] = f;
    engine->prec[i] = p;
    engine->rec[i] = r;
    return 0;
}

void cet_search_archive_measures(struct cet_search *engine, size_t i, const struct cet_measures *m)
{
    /* A Pareto search has no single objective: its individuals rank by F1. */
    engine->fit[i] = engine->opt.goal.npareto ? m->f1 : m->fit;
    engine->f1[i] = m->f1;
    engine->prec[i] = m->p;
    engine->rec[i] = m->r;
    engine->words[i] = m->words;
    engine->viol[i] = m->viol;
    memcpy(engine->obj + i * CET_MAX_PARETO, m->obj, sizeof m->obj);
}

void cet_search_archive_truncate(struct cet_search *engine, size_t narch)
{
    if (engine->narch == narch)
        return;
    engine->narch = narch;
    memset(engine->slots, 0, engine->nslots * sizeof *engine->slots);
    for (size_t i = 0; i < engine->narch; i++)
        slot_insert(engine, i);
}
