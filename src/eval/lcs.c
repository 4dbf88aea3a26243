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
    t->bits = calloc((size_t)t->nrows * t->blocks + 1, sizeof *t->bits);
    if (!t->bits) {
        cet_peq_free(t);
        return -1;
    }
    for (uint32_t j = 0; j < m; j++)
        t->bits[(size_t)t->row[b[j]] * t->blocks + j / 64] |= 1ull << (j % 64);
    return 0;
}

void cet_peq_free(struct cet_peq *t)
{
    free(t->row);
    free(t->bits);
    memset(t, 0, sizeof *t);
}

size_t cet_peq_bytes(const struct cet_peq *t)
{
    if (!t->row)
        return 0;
    return (size_t)(t->nsym ? t->nsym : 1) * sizeof *t->row +
           ((size_t)t->nrows * t->blocks + 1) * sizeof *t->bits;
}

void cet_lcs_start(uint64_t *v, uint32_t blocks)
{
    memset(v, 0xff, (size_t)blocks * sizeof *v);
}

/* x + y + c with the carry out in *c. */
static inline uint64_t add_carry(unsigned char *c, uint64_t x, uint64_t y)
{
#if defined(__x86_64__)
    /* The add-with-carry chain is the critical path: the intrinsic keeps
     * the carry in the flag (about 30% faster than a 128-bit sum here). */
    unsigned long long s;
    *c = _addcarry_u64(*c, x, y, &s);
    return s;
#else
    unsigned __int128 s = (unsigned __int128)x + y + *c;
    *c = (unsigned char)(s >> 64);
    return (uint64_t)s;
#endif
}

static inline void step1(uint64_t *v, uint64_t m)
{
    uint64_t x = v[0], u = x & m;
    v[0] = (x + u) | (x & ~m);
}

/* One step of the recurrence over blocks: the add-with-carry chain, from
 * carry c into the first block; returns the carry out of the last. */
static inline unsigned char stepn(uint64_t *v, uint32_t blocks, const uint64_t *m, unsigned char c)
{
    for (uint32_t k = 0; k < blocks; k++) {
        uint64_t x = v[k];
        v[k] = add_carry(&c, x, x & m[k]) | (x & ~m[k]);
    }
    return c;
}

void cet_lcs_feed(uint64_t *v, const struct cet_peq *t, const uint32_t *a, size_t n)
{
    if (t->blocks == 1) {
        for (size_t i = 0; i < n; i++) {
            uint32_t r = t->row[a[i]];
            if (r != CET_NONE)
                step1(v, t->bits[r]);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t r = t->row[a[i]];
        if (r != CET_NONE)
            stepn(v, t->blocks, t->bits + (size_t)r * t->blocks, 0);
    }
}

void cet_lcs_feed_rows(uint64_t *v, const struct cet_peq *t, const uint32_t *rows, size_t n)
{
    if (t->blocks == 1) {
        for (size_t i = 0; i < n; i++)
            step1(v, t->bits[rows[i]]);
        return;
    }
    for (size_t i = 0; i < n; i++)
        stepn(v, t->blocks, t->bits + (size_t)rows[i] * t->blocks, 0);
}

uint32_t cet_lcs_result(const uint64_t *v, uint32_t blocks, uint32_t m)
{
    /* Bits at and above m are never cleared, so zeros are all below m. */
    uint64_t ones = 0;
    for (uint32_t k = 0; k < blocks; k++)
        ones += (uint64_t)__builtin_popcountll(v[k]);
    return (uint32_t)((uint64_t)blocks * 64 - ones) <= m ? (uint32_t)((uint64_t)blocks * 64 - ones) : m;
}

/* LCS of the first i symbols of a and the first j of b, from V after those
 * i: the zero bits of V below j. */
static uint32_t prefix_lcs(const uint64_t *v, uint32_t j)
{
    uint32_t ones = 0, k = 0;
    for (; (k + 1) * 64 <= j; k++)
        ones += (uint32_t)__builtin_popcountll(v[k]);
    if (j % 64)
        ones += (uint32_t)__builtin_popcountll(v[k] & ((1ull << (j % 64)) - 1));
    return j - ones;
}

/* One optimal alignment traced back from the end: pj[i] is the b index a[i]
 * matches, or CET_NONE; each b[j] takes the last a[i] an optimal alignment
 * allows.  0, or -1 when out of memory. */
static int trace_last(uint32_t *pj, const uint32_t *a, size_t n, const uint32_t *b, uint32_t m,
                      uint32_t nsym)
{
    for (size_t i = 0; i < n; i++)
        pj[i] = CET_NONE;
    struct cet_peq t;
    if (cet_peq_build(&t, b, m, nsym))
        return -1;
    size_t found = 0, blocks = t.blocks;
    for (size_t i = 0; i < n; i++)
        found += t.row[a[i]] != CET_NONE;
    /* snap[k]: V after the first k symbols of a that occur in b; the others
     * leave V as it was. */
    uint64_t *snap = malloc((found + 1) * blocks * sizeof *snap);
    if (!snap) {
        cet_peq_free(&t);
        return -1;
    }
    cet_lcs_start(snap, t.blocks);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (t.row[a[i]] != CET_NONE) {
            memcpy(snap + (k + 1) * blocks, snap + k * blocks, blocks * sizeof *snap);
            k++;
            cet_lcs_feed(snap + k * blocks, &t, a + i, 1);
        }
    /* Back from (n, m): L(i, j) is prefix_lcs of V after a[0..i). */
    size_t i = n;
    uint32_t j = m, len = prefix_lcs(snap + k * blocks, m);
    while (i > 0 && j > 0 && len > 0) {
        int in_b = t.row[a[i - 1]] != CET_NONE;
        if (a[i - 1] == b[j - 1]) { /* L(i, j) = L(i-1, j-1) + 1 */
            pj[i - 1] = j - 1;
            len--;
            j--;
            i--;
            k -= (size_t)in_b;
        } else if (!in_b || prefix_lcs(snap + (k - 1) * blocks, j) == len) {
            i--; /* a[i-1] is not needed */
            k -= (size_t)in_b;
        } else {
            j--; /* b[j-1] is not needed: L(i, j-1) = L(i, j) */
        }
    }
    free(snap);
    cet_peq_free(&t);
    return 0;
}

/* Matched pairs of alignment pj in a[i0..i1) that follow the one before
 * them in both sequences (i+1, j+1): how much of it runs together. */
static size_t runs_together(const uint32_t *pj, size_t i0, size_t i1)
{
    size_t adj = 0, prev = (size_t)-1;
    for (size_t i = i0; i < i1; i++) {
        if (pj[i] == CET_NONE)
            continue;
        adj += prev != (size_t)-1 && prev + 1 == i && pj[prev] + 1 == pj[i];
        prev = i;
    }
    return adj;
}

/* Units with some but not all of their words matched, among the units of
 * the page places in at[0..k) (each counted once; seen: a scratch mark per
 * unit, left clear). */
static size_t partials(const uint32_t *unit, const uint32_t *cnt, const uint32_t *size,
                       const size_t *at, size_t k, uint8_t *seen)
{
    size_t p = 0;
    for (size_t t = 0; t < k; t++) {
        uint32_t u = unit[at[t]];
        if (u != CET_NONE && !seen[u]) {
            seen[u] = 1;
            p += cnt[u] && cnt[u] < size[u];
        }
    }
    for (size_t t = 0; t < k; t++)
        if (unit[at[t]] != CET_NONE)
            seen[unit[at[t]]] = 0;
    return p;
}

struct units {
    const uint32_t *unit;  /* the unit of each page place, or CET_NONE */
    uint32_t *cnt, *size;  /* per unit: matched places, places */
    size_t *at;            /* scratch: the places a move touches */
    uint8_t *seen;
};

/* The units' matched counts after q matches go from page places from.. to
 * places to.. */
static void shift_counts(struct units *u, size_t from, size_t to, size_t q)
{
    for (size_t t = 0; t < q; t++) {
        if (u->unit[from + t] != CET_NONE)
            u->cnt[u->unit[from + t]]--;
        if (u->unit[to + t] != CET_NONE)
            u->cnt[u->unit[to + t]]++;
    }
}

/* Moves the q matches at page places from.. (gold words g..) to places
 * to.. when that leaves fewer units partly matched; 1 when it did. */
static int move_if_whole(uint32_t *al, struct units *u, size_t from, size_t to, uint32_t g, size_t q)
{
    for (size_t t = 0; t < q; t++) {
        u->at[t] = from + t;
        u->at[q + t] = to + t;
    }
    size_t before = partials(u->unit, u->cnt, u->size, u->at, 2 * q, u->seen);
    shift_counts(u, from, to, q);
    if (partials(u->unit, u->cnt, u->size, u->at, 2 * q, u->seen) >= before) {
        shift_counts(u, to, from, q); /* undo */
        return 0;
    }
    for (size_t t = 0; t < q; t++)
        al[from + t] = CET_NONE;
    for (size_t t = 0; t < q; t++)
        al[to + t] = g + (uint32_t)t;
    return 1;
}

/* One pass over the runs of matches (al[i]: the gold word at page place i;
 * a run: places and gold words both consecutive).  Where the page repeats
 * the first words of a run right after the match of the gold word before
 * it, they move there when that leaves fewer units (blocks) partly
 * matched.  A gold headline matched half at the <h1> and half at a shorter
 * copy above the story (foxnews.com 2005: "Angelina Jolie Film About Slain
 * Reporter" at the <h1>, "Daniel Pearl Filmmaking of Highest Order" at
 * "Jolie Film About Daniel Pearl ...", whose words run on into the story)
 * comes together at the <h1>: the adjacency count ties there, and neither
 * extreme alignment has it whole.  A teaser repeating a story's first
 * sentence after the headline stays unmatched, since the move would split
 * the story's paragraph.  The matched words and their order stay, so the
 * alignment is still a longest common subsequence.  Returns the moves. */
static size_t pull_runs(uint32_t *al, struct units *u, const uint32_t *a, size_t n,
                        const uint32_t *b)
{
    size_t moved = 0, prev = (size_t)-1;
    for (size_t i = 0; i < n;) {
        if (al[i] == CET_NONE) {
            i++;
            continue;
        }
        size_t r = 1, q = 0;
        while (i + r < n && al[i + r] != CET_NONE && al[i + r] == al[i] + r)
            r++;
        if (prev != (size_t)-1 && prev + 1 < i && al[prev] + 1 == al[i])
            while (q < r && prev + 1 + q < i && a[prev + 1 + q] == b[al[i] + q])
                q++;
        if (q && move_if_whole(al, u, i, prev + 1, al[prev] + 1, q)) {
            moved++;
            prev += q;
            i += q; /* the rest of the run, if any, follows */
            continue;
        }
        prev = i + r - 1;
        i += r;
    }
    return moved;
}

/* The same toward the match after a run, for its last words: a headline's
 * first words matched in a menu join the rest at the <h1>. */
static size_t push_runs(uint32_t *al, struct units *u, const uint32_t *a, size_t n,
                        const uint32_t *b)
{
    size_t moved = 0, next = (size_t)-1;
    for (size_t e = n; e-- > 0;) { /* e: the last place of a run */
        if (al[e] == CET_NONE)
            continue;
        size_t s = e, q = 0;
        while (s > 0 && al[s - 1] != CET_NONE && al[s - 1] + 1 == al[s])
            s--;
        if (next != (size_t)-1 && e + 1 < next && al[e] + 1 == al[next])
            while (q < e - s + 1 && next - 1 - q > e && a[next - 1 - q] == b[al[e] - q])
                q++;
        if (q && move_if_whole(al, u, e + 1 - q, next - q, al[e] + 1 - (uint32_t)q, q)) {
            moved++;
            next -= q;
            e = e + 1 - q; /* the rest of the run, if any, ends just before */
            continue;
        }
        next = s;
        e = s;
    }
    return moved;
}

int cet_lcs_align(uint8_t *matched, const uint32_t *a, size_t n, const uint32_t *b, uint32_t m,
                  uint32_t nsym)
{
    return cet_lcs_align_in(matched, a, n, b, m, nsym, NULL, 0);
}

int cet_lcs_align_in(uint8_t *matched, const uint32_t *a, size_t n, const uint32_t *b, uint32_t m,
                     uint32_t nsym, const uint32_t *unit, uint32_t nunits)
{
    memset(matched, 0, n);
    if (!n || !m)
        return 0;
    uint32_t *last = malloc(n * sizeof *last), *first = malloc(n * sizeof *first);
    uint32_t *ra = malloc(n * sizeof *ra), *rb = malloc(m * sizeof *rb);
    int rc = -1;
    if (!last || !first || !ra || !rb)
        goto done;
    /* The first places: the last ones of the reversed sequences. */
    for (size_t i = 0; i < n; i++)
        ra[i] = a[n - 1 - i];
    for (uint32_t j = 0; j < m; j++)
        rb[j] = b[m - 1 - j];
    if (trace_last(last, a, n, b, m, nsym) || trace_last(first, ra, n, rb, m, nsym))
        goto done;
    for (size_t i = 0; i < n; i++) /* first holds the reversed pairs */
        ra[n - 1 - i] = first[i] == CET_NONE ? CET_NONE : m - 1 - first[i];
    memcpy(first, ra, n * sizeof *first);
    /* Both are optimal and pass through the pairs they share, so between two
     * shared pairs either one's stretch is an optimal alignment of what lies
     * between, and the stretches can be chosen one by one. */
    for (size_t i0 = 0, end; i0 < n; i0 = end) {
        size_t i1 = i0;
        while (i1 < n && !(last[i1] != CET_NONE && last[i1] == first[i1]))
            i1++;
        end = i1 < n ? i1 + 1 : n;     /* the shared pair closes the stretch */
        size_t from = i0 ? i0 - 1 : 0; /* and the one before opens it */
        const uint32_t *pick =
            runs_together(first, from, end) > runs_together(last, from, end) ? first : last;
        for (size_t i = i0; i < end; i++)
            ra[i] = pick[i];
    }
    if (unit && nunits) {
        /* Each move leaves fewer units partly matched: the passes end. */
        struct units u = {unit, calloc(nunits, sizeof *u.cnt), calloc(nunits, sizeof *u.size),
                          malloc(2 * (m < n ? m : n) * sizeof *u.at), calloc(nunits, 1)};
        int ok = u.cnt && u.size && u.at && u.seen;
        for (size_t i = 0; ok && i < n; i++)
            if (unit[i] != CET_NONE) {
                u.size[unit[i]]++;
                u.cnt[unit[i]] += ra[i] != CET_NONE;
            }
        while (ok && pull_runs(ra, &u, a, n, b) + push_runs(ra, &u, a, n, b))
            ;
        free(u.cnt);
        free(u.size);
        free(u.at);
        free(u.seen);
        if (!ok)
            goto done;
    }
    for (size_t i = 0; i < n; i++)
        matched[i] = ra[i] != CET_NONE;
    rc = 0;
done:
    free(last);
    free(first);
    free(ra);
    free(rb);
    return rc;
}

uint32_t cet_lcs_bits(const struct cet_peq *t, const uint32_t *a, size_t n, uint64_t *v)
{
    if (t->m == 0 || n == 0)
        return 0;
    cet_lcs_start(v, t->blocks);
    cet_lcs_feed(v, t, a, n);
    return cet_lcs_result(v, t->blocks, t->m);
}

/* Toggles the bits of positions [j0, j1) of pattern b in a table of rows of
 * `width` blocks from block k0 on: sets them in a zero table, clears them
 * again (bit j of a row belongs to b[j] alone). */
static void toggle(uint64_t *bits, const uint32_t *b, uint32_t j0, uint32_t j1, uint32_t k0,
                   uint32_t width)
{
    for (uint32_t j = j0; j < j1; j++)
        bits[(size_t)b[j] * width + (j / 64 - k0)] ^= 1ull << (j % 64);
}

/* At least `need` zeroed words at s->t.bits (the old ones are zero again). */
static int reserve(struct cet_peq_slot *s, size_t need)
{
    if (need <= s->cap)
        return 0;
    free(s->t.bits);
    s->cap = 0;
    if (!(s->t.bits = calloc(need, sizeof *s->t.bits)))
        return -1;
    s->cap = need;
    return 0;
}

int cet_peq_load(struct cet_peq_slot *s, const uint32_t *b, uint32_t m, uint32_t nrows)
{
    struct cet_peq *t = &s->t;
    if (s->b == b && t->m == m && t->nrows == nrows)
        return 0;
    cet_peq_unload(s);
    size_t max = s->max_bytes ? s->max_bytes : CET_PEQ_MAX_BYTES;
    uint32_t blocks = (m + 63) / 64;
    size_t row = (size_t)(nrows ? nrows : 1) * sizeof *t->bits; /* a block of every row */
    s->width = row * blocks <= max ? blocks : max / row ? (uint32_t)(max / row) : 1;
    s->whole = s->width == blocks;
    if (reserve(s, (size_t)nrows * s->width))
        return -1;
    t->m = m;
    t->nrows = t->nsym = nrows;
    t->blocks = blocks;
    if (s->whole)
        toggle(t->bits, b, 0, m, 0, blocks);
    s->b = b;
    return 0;
}

uint32_t cet_lcs_slot(struct cet_peq_slot *s, const uint32_t *a, size_t n, uint64_t *v)
{
    const struct cet_peq *t = &s->t;
    if (t->m == 0 || n == 0)
        return 0;
    cet_lcs_start(v, t->blocks);
    if (s->whole) {
        cet_lcs_feed_rows(v, t, a, n);
        return cet_lcs_result(v, t->blocks, t->m);
    }
    if (s->carry_cap < n) {
        unsigned char *c = realloc(s->carry, n);
        if (!c)
            return (uint32_t)-1;
        s->carry = c;
        s->carry_cap = n;
    }
    for (uint32_t k0 = 0; k0 < t->blocks; k0 += s->width) {
        uint32_t w = t->blocks - k0 < s->width ? t->blocks - k0 : s->width;
        uint32_t j0 = k0 * 64, j1 = (k0 + w) * 64 < t->m ? (k0 + w) * 64 : t->m;
        toggle(t->bits, s->b, j0, j1, k0, w);
        for (size_t i = 0; i < n; i++)
            s->carry[i] = stepn(v + k0, w, t->bits + (size_t)a[i] * w, k0 ? s->carry[i] : 0);
        toggle(t->bits, s->b, j0, j1, k0, w);
    }
    return cet_lcs_result(v, t->blocks, t->m);
}

void cet_peq_unload(struct cet_peq_slot *s)
{
    const struct cet_peq *t = &s->t;
    /* A table of few words per position is cleared faster whole (memset
     * writes a cache line at a time, toggling is a read and a write per
     * position); a large sparse one through its positions. */
    size_t words = (size_t)t->nrows * t->blocks;
    if (!words) /* an empty gold: no table (bits may be NULL) */
        ;
    else if (s->b && s->whole && words <= 4 * (size_t)t->m)
        memset(t->bits, 0, words * sizeof *t->bits);
    else if (s->b && s->whole)
        toggle(t->bits, s->b, 0, t->m, 0, t->blocks);
    s->b = NULL;
}

void cet_peq_slot_free(struct cet_peq_slot *s)
{
    free(s->t.bits);
    free(s->carry);
    size_t max = s->max_bytes;
    memset(s, 0, sizeof *s);
    s->max_bytes = max;
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
