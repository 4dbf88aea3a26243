/* Training samples: "a representative random sample of documents from the
 * different large evaluation packages" (Gottron 2008, section 4).
 *
 * Choices:
 * - Stratified by package: package k gets n * u_k / U documents (u_k its
 *   usable documents, U all usable ones), rounded down, and the documents
 *   left over go to the largest remainders (earlier packages win ties).
 *   With by_package every package gets the same share instead (n / packages,
 *   capped at its size, the rest spread over packages with room), for
 *   corpora whose packages differ much in size.
 * - Within a package: a seeded Fisher-Yates permutation of all its entries,
 *   taking the first usable ones (cet_split_make, src/space/split.c).  Marking a document unusable (it failed
 *   to load) therefore only brings in the next one of the permutation and
 *   leaves the rest of the sample as it was.
 * - The stream is cet_seed_derive(seed, CET_STREAM_SAMPLE): `cetune sample
 *   --seed S` and `cetune evolve --sample-size N --seed S` draw the same
 *   documents, and the GA's own stream is independent of it.
 * - A drawn document that fails to load leaves the draw, and the draw is
 *   made again: its package takes the next one of its permutation, so
 *   `cetune sample` and `cetune evolve --sample-size` load the same sample
 *   whatever they skip. */
#include <stdlib.h>
#include <string.h>

#include "cetune/run.h"
#include "space/space.h"

/* Quotas q[k] for packages of sizes u[k]: proportional or equal shares. */
static void quotas(size_t *q, const size_t *u, size_t npk, size_t n, int by_package)
{
    size_t total = 0;
    for (size_t k = 0; k < npk; k++)
        total += u[k];
    if (n >= total) {
        memcpy(q, u, npk * sizeof *q);
        return;
    }
    size_t given = 0;
    if (by_package) {
        memset(q, 0, npk * sizeof *q);
        /* Round robin in package order until n are given: equal shares,
         * packages that run out drop out. */
        while (given < n)
            for (size_t k = 0; k < npk && given < n; k++)
                if (q[k] < u[k]) {
                    q[k]++;
                    given++;
                }
        return;
    }
    for (size_t k = 0; k < npk; k++) {
        q[k] = (size_t)((unsigned long long)n * u[k] / total);
        given += q[k];
    }
    /* Each floor is below its package size (n < total), so the leftover
     * (fewer than npk) goes one each to the largest remainders. */
    while (given < n) {
        size_t best = npk;
        unsigned long long bestrem = 0;
        for (size_t k = 0; k < npk; k++) {
            unsigned long long rem = (unsigned long long)n * u[k] % total;
            int bumped = q[k] > (size_t)((unsigned long long)n * u[k] / total);
            if (!bumped && (best == npk || rem > bestrem)) {
                best = k;
                bestrem = rem;
            }
        }
        q[best]++;
        given++;
    }
}

int cet_sample_draw(uint8_t *want, const struct cet_entries *e, const uint8_t *usable, size_t n,
                    uint64_t seed, int by_package, size_t *drawn, struct cet_error *err)
{
    memset(want, 0, e->n);
    *drawn = 0;
    size_t npk = 0;
    for (size_t i = 0; i < e->n; i++)
        if (!i || strcmp(e->v[i].package, e->v[i - 1].package))
            npk++;
    size_t *first = calloc(npk + 1, sizeof *first);
    size_t *u = calloc(npk + 1, sizeof *u);
    size_t *q = calloc(npk + 1, sizeof *q);
    uint32_t *taken = malloc((e->n ? e->n : 1) * sizeof *taken);
    int rc = -1;
    if (!first || !u || !q || !taken) {
        cet_fail(err, "out of memory");
        goto done;
    }
    size_t k = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (i && strcmp(e->v[i].package, e->v[i - 1].package))
            first[++k] = i;
        u[k] += !usable || usable[i];
    }
    first[npk] = e->n;
    quotas(q, u, npk, n, by_package);
    struct cet_split s = {.kind = CET_SPLIT_SAMPLE, .first = first, .npkgs = npk, .seed = seed,
                          .quota = q, .usable = usable};
    if (cet_split_make(&s, taken, err))
        goto done;
    for (size_t i = 0; i < e->n; i++) {
        want[i] = (uint8_t)taken[i];
        *drawn += taken[i];
    }
    rc = 0;
done:
    free(first);
    free(u);
    free(q);
    free(taken);
    return rc;
}

int cet_sample_format(struct cet_buf *out, const struct cet_corpus *c)
{
    for (size_t i = 0; i < c->ndocs; i++)
        if (cet_sample_line(out, c->docs[i]->package, c->docs[i]->name))
            return -1;
    return 0;
}

/* Moves c's skips to the end of *all (n of them so far). */
static int keep_skips(struct cet_skip **all, size_t *n, struct cet_corpus *c)
{
    struct cet_skip *v = realloc(*all, (*n + c->nskips + 1) * sizeof *v);
    if (!v)
        return -1;
    memcpy(v + *n, c->skips, c->nskips * sizeof *v);
    *all = v;
    *n += c->nskips;
    c->nskips = 0;
    return 0;
}

int cet_sample_load(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                    size_t ndirs, size_t n, uint64_t seed, int by_package, unsigned flags, int threads,
                    const struct cet_backend *be, size_t *drawn, size_t *replaced,
                    struct cet_error *err)
{
    memset(c, 0, sizeof *c);
    *drawn = *replaced = 0;
    if (!(flags & CET_LOAD_SCANNED) && cet_corpus_scan(e, dirs, ndirs, err))
        return -1;
    uint8_t *want = malloc(e->n ? e->n : 1), *usable = malloc(e->n ? e->n : 1);
    struct cet_skip *skips = NULL;
    size_t nskips = 0;
    int rc = -1;
    if (!want || !usable) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < e->n; i++)
        usable[i] = !e->v[i].gold_missing;
    for (;;) {
        if (cet_sample_draw(want, e, usable, n, seed, by_package, drawn, err) ||
            cet_backend_load(be, c, e, want, flags, threads, err))
            goto done;
        /* Unusable documents leave the draw; their packages take the next ones. */
        size_t marked = 0;
        for (size_t k = 0; k < c->nskips; k++)
            for (size_t i = 0; i < e->n; i++)
                if (want[i] && usable[i] && !strcmp(e->v[i].html_path, c->skips[k].path)) {
                    usable[i] = 0;
                    marked++;
                }
        if (!marked)
            break;
        *replaced += marked;
        if (keep_skips(&skips, &nskips, c)) {
            cet_fail(err, "out of memory");
            goto done;
        }
        cet_corpus_free(c);
    }
    if (nskips) { /* the earlier draws' skips first */
        if (keep_skips(&skips, &nskips, c)) {
            cet_fail(err, "out of memory");
            goto done;
        }
        free(c->skips);
        c->skips = skips;
        c->nskips = nskips;
        skips = NULL;
        nskips = 0;
    }
    rc = 0;
done:
    for (size_t k = 0; k < nskips; k++) {
        free(skips[k].path);
        free(skips[k].reason);
    }
    free(skips);
    free(want);
    free(usable);
    if (rc)
        cet_corpus_free(c);
    return rc;
}
