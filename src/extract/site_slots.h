/* How site rules name a place of a template (src/extract/site.c), shared
 * with their learning (src/eval/site_learn.c).  Not a public API. */
#ifndef CETUNE_EXTRACT_SITE_SLOTS_H
#define CETUNE_EXTRACT_SITE_SLOTS_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/site.h"

/* A step's tag, id and classes are cut at this many bytes, when learning
 * and when applying alike, so a cut step still names one place. */
#define CET_SITE_STEP_MAX 512

/* The tokens of an attribute value (v may be NULL), lowercase and without
 * digits, into tok[] (pointers into buf of size bytes); at most max.  '/',
 * '#', '.' and '%' are written as %2f, %23, %2e and %25. */
size_t cet_site_tokens(const char *v, char *buf, size_t size, char **tok, size_t max);
uint64_t cet_site_token_hash(const char *t);
/* 1 for <html> and <body>, whose names describe the page, not a place. */
int cet_site_page_element(const struct cet_doc *d, uint32_t i);
/* Element i's step under the names of s (all names when s is NULL) into
 * out (CET_SITE_STEP_MAX bytes); returns its length. */
size_t cet_site_step(const struct cet_doc *d, uint32_t i, const struct cet_site *s, char *out);
/* Element i's slot written out (depth 0: the whole path; else its last
 * depth steps, without a suffix rule's CET_SITE_SUFFIX); NULL when out of memory. */
char *cet_site_path_of(const struct cet_doc *d, uint32_t i, const struct cet_site *s, size_t depth);
/* cet_site_slots with the last depth steps of each block's path (0: the
 * whole path); a suffix that names no id or class is no slot (0). */
int cet_site_slots_at(const struct cet_site *s, const struct cet_doc *d, size_t depth,
                      uint64_t *slots);
/* Adds the texts v[0..n) to drop, written as cet_site_text writes them,
 * to s, which takes them over (freed on failure); a repeat is refused. */
int cet_site_take_texts(struct cet_site *s, char **v, size_t n, struct cet_error *err);
/* Sets s's names to v[0..n), which it takes over (repeats are freed). */
int cet_site_set_names(struct cet_site *s, char **v, size_t n);

#endif
