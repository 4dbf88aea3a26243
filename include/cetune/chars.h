/* The character metrics of Arias et al. (2009): `chars` is the LCS of the
 * characters, `lcstring` the longest common substring.  Text is NFC
 * normalised and every white-space character removed; case is kept. */
#ifndef CETUNE_CHARS_H
#define CETUNE_CHARS_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/doc.h"
#include "cetune/error.h"

CET_BEGIN_DECL

/* Per-document character data, built once: each text node's characters and
 * the gold's, as ids of the gold's alphabet (characters absent from the gold
 * share the id nsym, which never matches). */
struct cet_chars;

struct cet_chars *cet_chars_prepare(const struct cet_doc *doc, struct cet_error *err);
void cet_chars_free(struct cet_chars *c);

/* Scratch for one thread. */
struct cet_chars_scratch {
    uint32_t *seq;
    size_t seq_cap;
    uint64_t *v;
    size_t v_cap;
};
void cet_chars_scratch_free(struct cet_chars_scratch *s);

/* Characters of the extraction (kept text nodes in document order, then the
 * extra nodes) and of the gold, and their LCS (lcstring = 0) or longest
 * common substring (lcstring = 1).  Returns -1 when out of memory. */
int cet_chars_overlap(const struct cet_chars *c, const struct cet_doc *doc, const uint8_t *keep,
                      const uint32_t *extra, uint32_t nextra, int lcstring,
                      struct cet_chars_scratch *s, uint32_t *n_extract, uint32_t *n_gold,
                      uint32_t *overlap);

/* Longest common substring of a[0..n) and b[0..m) over ids below nsym (ids
 * >= nsym never match), with a suffix automaton of b: O(n + m) expected. */
uint32_t cet_lcstring(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint32_t nsym);

/* Characters of UTF-8 s after NFC and white-space removal, as code points
 * appended to *out (grown as needed).  Returns -1 when out of memory. */
int cet_chars_codepoints(const char *s, size_t len, int32_t **out, size_t *n, size_t *cap);

CET_END_DECL

#endif
