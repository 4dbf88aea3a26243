/* The parser's events for a reader beside the document model, so that one
 * parse of a page feeds both: the metadata reader (src/page/meta.c) takes
 * them during the model's parse (cet_doc_parse_tap), or alone
 * (cet_html_scan).  Either way the reader sees the same events from the
 * same decoded UTF-8, so it gives the same results.  Inside the library only. */
#ifndef CETUNE_DOC_SAX_H
#define CETUNE_DOC_SAX_H

#include <stddef.h>

#include "cetune/doc.h"

struct cet_sax {
    void *ctx;
    /* tag: cet_tag_lookup(name); atts: name, value pairs (a value may be
     * NULL), NULL-terminated, or NULL. */
    void (*start)(void *ctx, const char *name, int tag, const char *const *atts);
    void (*end)(void *ctx, const char *name);
    /* Text and script bodies, not the white space libxml2 reports as
     * ignorable (between elements of <html> and <head>). */
    void (*text)(void *ctx, const char *s, size_t n);
};

/* cet_doc_parse_as (without gold), with every event also passed to tap. */
int cet_doc_parse_tap(struct cet_doc **out, const char *html, size_t len, const char *charset,
                      double deadline, const struct cet_sax *tap, struct cet_error *err);

/* The events of the page bytes[0..len) alone, decoded as cet_doc_parse_as
 * decodes it (charset as there), with no model: 0, or -1 with the reason in
 * err (an unknown declared charset, out of memory). */
int cet_html_scan(const char *html, size_t len, const char *charset, const struct cet_sax *tap,
                  struct cet_error *err);

#endif
