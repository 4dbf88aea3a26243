/* Longest common subsequence, bit-parallel (Hyyrö 2004) on 64-bit words. */
#ifndef CETUNE_LCS_H
#define CETUNE_LCS_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"

CET_BEGIN_DECL

/* Match table of a pattern b[0..m) over an alphabet of ids [0, nsym), in
 * blocks of 64 positions: row[id] is CET_NONE for a symbol not in b, else
 * its row r, the blocks words bits[r * blocks ..] with bit j set where
 * b[j] == id.  (Dense: distinct symbols times blocks, which grows with the
 * square of the pattern; a table of only the blocks where a symbol occurs
 * took a sixth of the memory but made the LCS about 1.5 times slower.) */
struct cet_peq {
    uint32_t *row;
    uint64_t *bits;
    uint32_t blocks, nrows, nsym, m;
};
int cet_peq_build(struct cet_peq *t, const uint32_t *b, uint32_t m, uint32_t nsym);
void cet_peq_free(struct cet_peq *t);
/* Bytes the table holds. */
size_t cet_peq_bytes(const struct cet_peq *t);

/* A match table that holds one pattern at a time, in memory reused from
 * pattern to pattern (a thread's, say), so that no pattern's table is
 * kept.  The pattern comes as rows: b[j] is the row of position j, the
 * distinct symbols of the pattern numbered 0 .. nrows-1 (any order), so
 * that setting a pattern's bits costs O(m), and so does clearing them for
 * the next one (the table is zero outside the loaded pattern's bits; a
 * small table is cleared whole, a large sparse one through its positions).
 *
 * A table larger than max_bytes is never built whole: cet_lcs_slot then
 * runs the recurrence over strips of blocks, one after the other, each
 * step's carry out of one strip stored for the same step of the next (the
 * additions are the same, so is the result).  The slot's memory stays at
 * about max_bytes, whatever the pattern. */
struct cet_peq_slot {
    size_t max_bytes;    /* 0: CET_PEQ_MAX_BYTES; set before the first load */
    struct cet_peq t;    /* whole: the loaded pattern's table (t.row NULL: feed rows) */
    int whole;           /* t holds the whole table, else strips of `width` blocks */
    uint32_t width;
    size_t cap;          /* 64-bit words at t.bits */
    const uint32_t *b;   /* the loaded pattern (the caller's), NULL for none */
    unsigned char *carry; /* strips: per step, the carry into the next strip */
    size_t carry_cap;
};
#define CET_PEQ_MAX_BYTES ((size_t)512 << 10)
/* Loads b[0..m) over nrows rows into s, unless s holds it already (the
 * same b, m and nrows).  b must stay valid and unchanged while it is
 * loaded: the next load (or cet_peq_unload) clears the table through it.
 * Returns 0, or -1 when out of memory (s then holds no pattern). */
int cet_peq_load(struct cet_peq_slot *s, const uint32_t *b, uint32_t m, uint32_t nrows);
/* LCS length of the rows a[0..n) (symbols absent from the pattern left
 * out) against the pattern loaded in s, whole or in strips; v is scratch
 * of (m + 63) / 64 words.  -1 (as uint32_t) when out of memory. */
uint32_t cet_lcs_slot(struct cet_peq_slot *s, const uint32_t *a, size_t n, uint64_t *v);
/* Clears s of its pattern, before that pattern changes or is freed while
 * s is still to be used. */
void cet_peq_unload(struct cet_peq_slot *s);
void cet_peq_slot_free(struct cet_peq_slot *s);

/* LCS length of a[0..n) against the pattern of t; v is scratch of
 * t->blocks words.  Symbols without a row cannot match and are skipped,
 * which is exact for this recurrence. */
uint32_t cet_lcs_bits(const struct cet_peq *t, const uint32_t *a, size_t n, uint64_t *v);

/* Streaming form: feed symbols one run at a time, then read the length. */
void cet_lcs_start(uint64_t *v, uint32_t blocks);
void cet_lcs_feed(uint64_t *v, const struct cet_peq *t, const uint32_t *a, size_t n);
/* The same for symbols already mapped to their rows, non-matching ones left
 * out (the document model keeps its words that way, see cet_doc.mrows). */
void cet_lcs_feed_rows(uint64_t *v, const struct cet_peq *t, const uint32_t *rows, size_t n);
uint32_t cet_lcs_result(const uint64_t *v, uint32_t blocks, uint32_t m);

/* One longest common subsequence of a[0..n) and b[0..m) (symbols below
 * nsym), as the metric counts it: matched[i] = 1 for each a[i] in it.
 * Of the two extreme optimal alignments, each b[j] at the last a[i] one
 * allows (the article rather than the navigation above it) and each at the
 * first, it takes between the pairs both share the one whose matches more
 * often stand next to each other in a and b, the last on a tie: a gold
 * headline matches the page's headline, not the same words scattered over
 * the related links below it.  Two passes, each keeping the bit vector
 * after each a[i] found in b: about n * m / 8 bytes.
 * Returns -1 when out of memory. */
int cet_lcs_align(uint8_t *matched, const uint32_t *a, size_t n, const uint32_t *b, uint32_t m,
                  uint32_t nsym);

/* The same, knowing the unit (block) of each a[i], below nunits, or
 * CET_NONE: where the page repeats a run's first or last words right
 * next to the match of the gold word before or after it, they move there
 * when that leaves fewer units partly matched (a gold headline split
 * between the <h1> and a shorter copy of it comes together at the <h1>).
 * unit NULL: cet_lcs_align. */
int cet_lcs_align_in(uint8_t *matched, const uint32_t *a, size_t n, const uint32_t *b, uint32_t m,
                     uint32_t nsym, const uint32_t *unit, uint32_t nunits);

/* Textbook O(nm) dynamic programming; the oracle in tests and the baseline in bench. */
uint32_t cet_lcs_dp(const uint32_t *a, size_t n, const uint32_t *b, size_t m);

CET_END_DECL

#endif
