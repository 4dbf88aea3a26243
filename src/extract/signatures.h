/* Comment threads recognised by their signatures ("Posted by: NAME on
 * DATE"), for the block scorer (score.c): a thread whose markup names no
 * comment region is otherwise the article's own paragraphs, by every other
 * feature. */
#ifndef CETUNE_EXTRACT_SIGNATURES_H
#define CETUNE_EXTRACT_SIGNATURES_H

#include <stdint.h>

#include "cetune/doc.h"

#define CET_THREAD_MIN_SIGNATURES 3 /* signatures that make a thread */
#define CET_THREAD_GAP_WORDS 1000   /* words between two signatures of one thread, at most */
#define CET_THREAD_SHORT_WORDS 300  /* a first gap up to this long is a comment, whatever */

/* Sets in_thread[b] to 1 for every block b (numbered as text_block[] numbers
 * the text nodes, in order of their first text node; nb of them) from the
 * first to the last signature of each thread, both included. */
void cet_signed_threads(const struct cet_doc *doc, const uint32_t *text_block, uint32_t nb,
                        uint8_t *in_thread);

#endif
