/* Longest common subsequence, bit-parallel (Hyyrö 2004) on 64-bit words. */
#ifndef CETUNE_LCS_H
#define CETUNE_LCS_H

#include <stddef.h>
#include <stdint.h>

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

/* Textbook O(nm) dynamic programming; the oracle in tests and the baseline in bench. */
uint32_t cet_lcs_dp(const uint32_t *a, size_t n, const uint32_t *b, size_t m);

#endif
