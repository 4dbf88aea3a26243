/* The alternates of a page (struct cet_alt, include/cetune/doc.h) as the
 * parser collects them: their text, before it becomes text nodes of the
 * model (doc.c).  Inside src/doc only. */
#ifndef CETUNE_DOC_ALT_H
#define CETUNE_DOC_ALT_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/buf.h"
#include "cetune/doc.h"

/* Texts collected in one parse: in text, each alternate's headline and body,
 * '\n' a line break and "\n\n" a paragraph, other white space any. */
struct cet_alt_texts {
    struct cet_buf text;
    struct cet_alt_text {
        uint8_t kind; /* enum cet_alt_kind */
        size_t head, head_len, body, body_len; /* offsets into text */
    } *v;
    size_t n, cap;
};

/* Adds a noscript or template element's text (laid out with '\n' marks). */
int cet_alt_add_text(struct cet_alt_texts *t, enum cet_alt_kind kind, const char *s, size_t n);
/* Adds the article bodies of one JSON-LD block json[0..n): of every object
 * of an article type with a string articleBody, that body and its headline,
 * HTML tags in them read as breaks, entities decoded.  A block that is not
 * JSON adds nothing.  Returns 0, or -1 when out of memory. */
int cet_alt_add_jsonld(struct cet_alt_texts *t, const char *json, size_t n);
void cet_alt_texts_free(struct cet_alt_texts *t);

/* Calls fn for each paragraph or line of s[0..n) (marked as above), its
 * white space collapsed, with what separates it from the one before
 * (CET_SEP_PARA for the first).  Returns 0 or fn's first non-zero value. */
typedef int (*cet_alt_para_fn)(void *ctx, const char *s, size_t n, enum cet_sep sep);
int cet_alt_paragraphs(const char *s, size_t n, cet_alt_para_fn fn, void *ctx);

/* Decodes the HTML entity at s (just after '&', s < end): returns its
 * length with the ';' and writes its UTF-8 (at most 4 bytes) to o and its
 * length to *olen, or returns 0 when it is not one (charset.c). */
size_t cet_entity_decode(const char *s, const char *end, char *o, size_t *olen);

#endif
