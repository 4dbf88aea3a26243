/* The page as HTML with every text node of the model marked (cetune
 * label): the parser that builds the model (doc.c) writes the page again as
 * it goes, each piece of text in <span data-cet="NODE" data-b="BLOCK">, so a
 * label given in the browser names exactly the text node whose words the
 * metric reads.  Script-like elements (script, noscript, iframe, object,
 * embed, template), <base>, the page's charset and refresh declarations and
 * event-handler attributes are left out; style sheets and the rest stay. */
#ifndef CETUNE_DOC_MARK_H
#define CETUNE_DOC_MARK_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/tags.h"

struct cet_mark {
    struct cet_buf *out;
    int failed;       /* out of memory: the parse fails */
    size_t depth;     /* open elements */
    size_t skip_from; /* depth of the open element whose content is left out, 0: none */
};

/* The parser's events, in document order (doc.c). */
void cet_mark_start(struct cet_mark *m, const char *name, const char *const *atts,
                    enum cet_tag tag);
void cet_mark_end(struct cet_mark *m, const char *name, enum cet_tag tag);
/* Character data of an element whose content is not text (a style sheet,
 * the title); parent is that element's tag. */
void cet_mark_chars(struct cet_mark *m, const char *s, size_t n, enum cet_tag parent);
/* s[0..n) of text node `node` (in block element `block`, CET_NONE for
 * none), inside an element of tag parent. */
void cet_mark_text(struct cet_mark *m, const char *s, size_t n, uint32_t node, uint32_t block,
                   enum cet_tag parent);
/* White space between texts. */
void cet_mark_space(struct cet_mark *m);

/* Parses the page as cet_doc_parse does (without gold: the same nodes, in
 * the same order, as a corpus load of it) and writes the marked page, UTF-8,
 * into marked.  Returns 0, or -1 with the reason in err. */
int cet_doc_parse_marked(struct cet_doc **out, const char *html, size_t len,
                         struct cet_buf *marked, struct cet_error *err);

#endif
