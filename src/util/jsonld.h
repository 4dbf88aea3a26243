/* schema.org JSON-LD blocks (<script type="application/ld+json">), shared by
 * the metadata reader (src/page/meta.c) and the document model's article
 * bodies (src/doc/alt.c). */
#ifndef CETUNE_UTIL_JSONLD_H
#define CETUNE_UTIL_JSONLD_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* The schema.org types of an article: Article and its subtypes, Report,
 * Review, Recipe, HowTo... (NULL-terminated). */
extern const char *const cet_jsonld_article_types[];

/* Parses one block s[0..n), after white space and the <!-- -->, CDATA or
 * comment-wrapped CDATA markers some pages put around it; NULL when it is
 * not JSON (skipped, as by browsers' and search engines' readers). */
cJSON *cet_jsonld_parse(const char *s, size_t n);

/* All objects of a JSON-LD value into *list (grown with *cap): itself,
 * array members, @graph members, to a bounded depth, in document order.
 * Returns 0, or -1 when out of memory. */
int cet_jsonld_objects(const cJSON *v, const cJSON ***list, size_t *n, size_t *cap);

/* Whether the @type of o (a string or an array of them, with or without the
 * schema.org prefix) names one of types. */
int cet_jsonld_is_type(const cJSON *o, const char *const *types);

/* The string member key of o, or NULL. */
const char *cet_jsonld_str(const cJSON *o, const char *key);

#endif
