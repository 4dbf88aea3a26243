/* Lists of teasers for other stories ("Today's Top Stories": a linked
 * headline, a byline or date, a sentence of the story), for the block
 * scorer (score.c): a teaser's sentence holds no link and reads as prose,
 * so every other feature calls it the article's. */
#ifndef CETUNE_EXTRACT_TEASERS_H
#define CETUNE_EXTRACT_TEASERS_H

#include <stdint.h>

#include "cetune/doc.h"

#define CET_TEASER_MIN_ITEMS 3     /* teasers that make a list */
#define CET_TEASER_SUMMARY_WORDS 50 /* a teaser's sentence has at most this many words */

/* Sets text_listed[k] to 1 for every text node k (doc->texts order) in a
 * teaser list, and in_list[b] to 1 for every block b (numbered as
 * text_block[] numbers the text nodes, in order of their first text node;
 * nb of them) whose words lie mostly in lists; the others to 0.  Returns
 * 0, or -1 when out of memory. */
int cet_teaser_lists(const struct cet_doc *doc, const uint32_t *text_block, uint32_t nb,
                     uint8_t *in_list, uint8_t *text_listed);

#endif
