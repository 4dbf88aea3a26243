/* A pseudo-gold from a site family's repetition (evolve --fitness template;
 * docs/template.md).
 *
 * Pages of one site share their template.  After the site style tree of
 * Yi, Liu and Li (2003), each block of text is placed at its slot: the path
 * of tags, ids and classes from the root to its block element, which names
 * the same place of the template on every page of the family.  Counting
 * over the family's pages tells
 *   - template: text that stands at its slot on several pages;
 *   - the family's content places: slots on most pages whose text is
 *     particular to each page (headline, article body);
 *   - another kind of page (a section index among articles): little text,
 *     and most of it at slots few pages have.
 * These correct a reference extraction (the shipped configuration by
 * default): the pseudo-gold of a page is the reference's blocks that are not
 * template, plus the family's content places that the reference missed, and
 * nothing on another kind of page.  So the family's repetition labels what
 * one page alone cannot show, and the reference decides what repetition
 * cannot (which unique text is an article).  With several references
 * (evolve puts the description's defaults, the search's start, before the
 * shipped configuration), the first decides a block they disagree on; the
 * family breaks the tie at a content place.  Where the family and every
 * reference disagree (a content place no reference keeps), the block is
 * *unsure*: left out of the fitness, of the extract as of the gold, rather
 * than forced either way. */
#ifndef CETUNE_TEMPLATE_H
#define CETUNE_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/error.h"

CET_BEGIN_DECL

/* The rule's settings (cet_template_default gives the defaults in brackets). */
struct cet_template_opts {
    size_t min_pages;    /* a family with fewer pages cannot show repetition (6) */
    size_t repeat;       /* text at one slot on this many pages or more is template (2) */
    double repeat_share; /* ... or on this share of the pages, when that is more (0.25) */
    double common;       /* a slot on this share of the pages is common (0.5) */
    double place;        /* a content place: a slot on this share of the pages, with text
                            particular to the page in this share of its blocks (0.8) */
    double number_share; /* a content place adds no block whose words are this share
                            numbers: datelines (0.3) */
    double link_share;   /* a block whose words are this share link text is a link
                            list, not content (0.5) */
    double short_share;  /* a page with most of its content at slots that are not common
                            and fewer content words than this share of the family's
                            median is another kind of page: no content (0.25) */
    int unsure;          /* 1: a block the references disagree on (and the family does
                            not decide) is unsure, left out of the fitness; 0: the
                            first reference decides it (0) */
    int place_overrules; /* 1: a block at a content place is content even where every
                            reference drops it; 0: it is unsure then (0) */
};

/* A text node's mark (cet_template_marks). */
enum { CET_TEMPLATE_OUT = 0, CET_TEMPLATE_CONTENT = 1, CET_TEMPLATE_UNSURE = 2 };
/* References of one pseudo-gold at most: one bit each in a page's ref bytes. */
#define CET_TEMPLATE_MAX_REFS 8

void cet_template_default(struct cet_template_opts *o);

/* Marks the content of the n pages of one family (package `family`): bit r
 * of ref[i][k] is 1 when reference r (of nref, 1 to CET_TEMPLATE_MAX_REFS)
 * keeps text node k of page i (docs[i]->texts[k]); marks[i][k] is its
 * CET_TEMPLATE_* mark.  Each holds docs[i]->ntexts bytes.  Fails when
 * n < o->min_pages (naming the family), on a bad nref, or out of memory. */
int cet_template_marks(struct cet_doc *const *docs, size_t n, const char *family,
                       const struct cet_template_opts *o, const uint8_t *const *ref,
                       size_t nref, uint8_t **marks, struct cet_error *err);

/* The words of the text nodes marked content into out (emptied first):
 * words part with a space, blocks with a line break.  What the word metric
 * reads of it is exactly those words. */
int cet_template_text(const struct cet_doc *d, const uint8_t *marks, struct cet_buf *out);

CET_END_DECL

#endif
