/* A page's metadata: URL, title, author, date, site name, language and
 * canonical URL, read from the markup as trafilatura and Readability.js do:
 * JSON-LD (schema.org Article types), <meta> tags (Open Graph, Twitter,
 * Dublin Core, article:*), microdata (itemprop), <title>, <h1>, <time
 * datetime>, <html lang>, <link rel=canonical> and bylines.  The rules, and
 * which source wins, are in docs/formats.md ("Metadata"). */
#ifndef CETUNE_META_H
#define CETUNE_META_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

enum cet_meta_field {
    CET_META_URL,       /* the URL given by the caller, else the canonical URL */
    CET_META_TITLE,
    CET_META_AUTHOR,    /* several authors are joined with "; " */
    CET_META_DATE,      /* the publication date, ISO 8601 YYYY-MM-DD */
    CET_META_SITENAME,
    CET_META_LANGUAGE,  /* as the page declares it, e.g. "en" or "en-US" */
    CET_META_CANONICAL, /* absolute when the page or the caller's URL gives a base */
    CET_META_N
};

/* Each field is a NUL-terminated UTF-8 string with white space collapsed,
 * or NULL when the page does not give it. */
struct cet_meta {
    char *v[CET_META_N];
};

/* The key of a field in JSON answers: "url", "title", "author", "date",
 * "sitename", "language", "canonical". */
const char *cet_meta_key(enum cet_meta_field f);

/* Reads the metadata of the page bytes[0..len) (any charset; charset is the
 * one the transport declared, or NULL, as in cet_decode_page); url is the
 * page's URL when known (or NULL), the base of a relative canonical link.
 * Fills *m (the caller frees it with cet_meta_free, also after a failure).
 * Returns 0, or -1 with the reason in err (out of memory, undecodable). */
int cet_meta_read(struct cet_meta *m, const char *bytes, size_t len, const char *charset,
                  const char *url, struct cet_error *err);
void cet_meta_free(struct cet_meta *m);

CET_END_DECL

#endif
