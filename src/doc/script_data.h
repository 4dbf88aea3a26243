/* Where a page's scripts end as a browser reads them, made plain to
 * libxml2 before it parses the page (doc.c, ready_for_parser).  Inside
 * src/doc only. */
#ifndef CETUNE_DOC_SCRIPT_DATA_H
#define CETUNE_DOC_SCRIPT_DATA_H

#include <stddef.h>

/* Masks in place, at the same length, every "</script" inside a script
 * that a browser does not end the script at but libxml2 would: one not
 * followed by white space, "/" or ">" (document.write('</SCRIPT\>')), and
 * one of the "<!-- ... <script>...</script> ... -->" a script writes out
 * (the HTML standard's double-escaped script data).  Its "/" becomes a
 * space, so libxml2 reads it as the script's text, which is never text of
 * the page.  Returns how many it masked. */
size_t cet_mask_script_ends(char *s, size_t len);

#endif
