/* The metadata reader fed by a parse it does not run: cet_page_extract
 * attaches it to the parse that builds the document model (doc/sax.h), so
 * the page is parsed once for both; cet_meta_read runs it alone.  Inside
 * the library only. */
#ifndef CETUNE_META_READER_H
#define CETUNE_META_READER_H

#include "cetune/meta.h"
#include "doc/sax.h"

struct cet_meta_reader;

/* A reader into *m (zeroed here) for a page whose URL is url (or NULL,
 * kept until cet_meta_finish); *sax gets its event handlers.  Returns 0, or
 * -1 when out of memory. */
int cet_meta_begin(struct cet_meta_reader **r, struct cet_meta *m, const char *url,
                   struct cet_sax *sax);
/* After the parse (complete or not): settles *m from what was gathered
 * (elements left open, JSON-LD, the canonical URL) and frees r.  Returns 0,
 * or -1 with the reason in err (out of memory; *m is then freed). */
int cet_meta_finish(struct cet_meta_reader *r, struct cet_error *err);

#endif
