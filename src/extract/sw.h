/* The stop-word filter's measurements (src/extract/sw.c), shared with the
 * block scorer (score.c); not a public API. */
#ifndef CETUNE_EXTRACT_SW_H
#define CETUNE_EXTRACT_SW_H

#include <stdint.h>

#include "cetune/doc.h"
#include "cetune/error.h"
#include "cetune/extractor.h"

extern const struct cet_extractor cet_extractor_sw;

/* The page's language into *lang (the index of its parameter t_XX in
 * cet_extractor_sw), and per node the share of stop words of that language
 * among the words of its block (lqf's blocks).  Returns a malloc'd array of
 * doc->nnodes doubles (at least one), or NULL with err filled. */
double *cet_sw_block_ratios(const struct cet_doc *doc, uint32_t *lang, struct cet_error *err);

#endif
