/* The fallback chain of the block scorer (score.c): what replaces an
 * extraction that came back empty, or tiny against the page's text. */
#ifndef CETUNE_EXTRACT_FALLBACK_H
#define CETUNE_EXTRACT_FALLBACK_H

#include <stdint.h>

#include "cetune/extractor.h"

/* The page's blocks as the chain sees them (score.c fills it only when the
 * chain runs): per block its words, its score, and whether it belongs to the
 * second candidate (Readability's main subtree without hidden and all-link
 * blocks). */
struct cet_fallback_blocks {
    uint32_t n;
    const uint32_t *words;
    const float *score;
    const uint8_t *second;
};

/* The chain's settings (parameters of score, docs/extractors.md). */
struct cet_fallback_opts {
    double min_words; /* fewer words kept than this: the chain runs (0: never for this rule) */
    double min_share; /* fewer than this share of the page's words kept: it runs too */
    double margin;    /* second candidate: the blocks scoring at least best - margin
                       * (0: Readability's subtree instead) */
    double region;    /* best contiguous region of blocks scoring above best - region (0: off) */
    double jsonld;    /* 1: the page's JSON-LD articleBody may replace the extraction */
    double noscript;  /* 1: the text of a <noscript> or <template> may */
    double alt_words; /* the fewest words of such an alternate (struct cet_alt) */
};

/* The words an extraction is measured against: the page's, less `aside`
 * (shown text that is no candidate for the article: a signed comment
 * thread, signatures.h, or a teaser list, teasers.h), or those of the
 * longest alternate the chain may take when it has more (a page built by
 * scripts shows little and carries its article). */
uint64_t cet_fallback_page_words(const struct cet_fallback_opts *o, const struct cet_doc *doc,
                                 uint64_t aside);

/* Whether an extraction of `kept` words out of the page's `page_words` is
 * too little: empty, or under either minimum. */
int cet_fallback_needed(const struct cet_fallback_opts *o, uint64_t kept, uint64_t page_words);

/* Runs the chain on keep[0..b->n) (the blocks kept, `kept` words): each
 * step replaces the extraction only when it brings more words, and the next
 * step runs only while the extraction is still too little.  `best` is the
 * best score of a block with words; classify(t) keeps the blocks as the
 * scorer's own rule does at threshold t (its context rule included) and
 * returns their words.  When an alternate of doc replaces the blocks, *alt
 * is its index (else CET_NONE) and keep[] no longer counts.  Returns the
 * words kept in the end. */
uint64_t cet_fallback_run(const struct cet_fallback_opts *o, const struct cet_fallback_blocks *b,
                          float best, uint64_t kept, uint64_t page_words, uint8_t *keep,
                          uint8_t *scratch,
                          uint64_t (*classify)(void *ctx, double t, uint8_t *keep), void *ctx,
                          const struct cet_doc *doc, uint32_t *alt);

/* The extraction of alternate `alt` of doc: its text nodes as extras of sel
 * (the headline left out with drop_headline), nothing of the page kept. */
int cet_fallback_emit(const struct cet_doc *doc, uint32_t alt, int drop_headline,
                      struct cet_sel *sel);

#endif
