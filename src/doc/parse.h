/* The evaluation model of a page whose charset the transport declared (a
 * WARC's HTTP Content-Type): cet_doc_parse with a declared charset, for the
 * corpus reader (corpus.c).  Inside src/doc only. */
#ifndef CETUNE_DOC_PARSE_H
#define CETUNE_DOC_PARSE_H

#include <stddef.h>

#include "cetune/doc.h"

/* cet_doc_parse, with charset (or NULL) ranked as cet_decode_page ranks it. */
int cet_doc_parse_declared(struct cet_doc **out, const char *html, size_t len,
                           const char *charset, const char *gold, size_t gold_len,
                           struct cet_error *err);

#endif
