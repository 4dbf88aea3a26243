/* The text of a selection as a browser lays it out (docs/formats.md,
 * "Text"): the one place that decides what separates the kept text nodes,
 * for every renderer (text, HTML, Markdown) to share. */
#ifndef CETUNE_LAYOUT_H
#define CETUNE_LAYOUT_H

#include <stdint.h>

#include "cetune/common.h"
#include "cetune/doc.h"

CET_BEGIN_DECL

/* Called for each text node printed, with the separator before it
 * (CET_SEP_NONE for the first).  Returns 0 to go on, non-zero to stop the
 * walk with that value. */
typedef int (*cet_layout_fn)(void *ctx, uint32_t node, enum cet_sep sep);

/* Walks the text nodes keep[] marks, in document order, then the text nodes
 * extra[0..nextra) (each on a line of its own; an alternate's, struct
 * cet_alt, with the breaks between its paragraphs).  Between two kept nodes the
 * separator is the strongest the page has between them, at least a space
 * when text between them was left out, so the words of the joined text are
 * exactly the words of the nodes (the word metric's count).  Returns 0 or
 * fn's first non-zero value. */
int cet_layout_walk(const struct cet_doc *doc, const uint8_t *keep, const uint32_t *extra,
                    uint32_t nextra, cet_layout_fn fn, void *ctx);

/* The characters of a separator: "", " ", "\t", "\n" or "\n\n". */
const char *cet_sep_str(enum cet_sep sep);

CET_END_DECL

#endif
