/* The decoded page read as the HTML standard's tokenizer reads it, where
 * libxml2 reads it otherwise, made plain to libxml2 before it parses the
 * page (doc.c, ready_for_parser).  Inside src/doc only. */
#ifndef CETUNE_DOC_PRESCAN_H
#define CETUNE_DOC_PRESCAN_H

#include <stddef.h>

/* Rewrites s[0..len) in place, at the same length:
 * - every "</script" inside a script that a browser does not end the
 *   script at but libxml2 would: one not followed by white space, "/" or
 *   ">" (document.write('</SCRIPT\>')), and one of the "<!-- ...
 *   <script>...</script> ... -->" a script writes out (the double-escaped
 *   script data).  Its "/" becomes a space, so libxml2 reads it as the
 *   script's text, which is never text of the page;
 * - every "&nbsp" without its ";" in the page's text (outside tags and
 *   scripts), which a browser decodes and libxml2 leaves as it is: it
 *   becomes U+00A0 and three spaces.
 * Returns how many it rewrote. */
size_t cet_prescan(char *s, size_t len);

#endif
