/* Words as the metric defines them (README.md, "The metric"): Unicode NFKC, case fold, then
 * maximal runs of letters (L*) and numbers (N*). */
#ifndef CETUNE_TEXT_H
#define CETUNE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"

CET_BEGIN_DECL

/* Calls fn(word, len, ctx) for each normalised word of UTF-8 text s.  Invalid
 * UTF-8 bytes separate words.  Returns 0, or -1 when out of memory. */
typedef int (*cet_word_fn)(const char *word, size_t len, void *ctx);
int cet_words(const char *s, size_t len, cet_word_fn fn, void *ctx);

/* 1 if s[0..len) is valid UTF-8. */
int cet_utf8_valid(const char *s, size_t len);

/* Open-addressing string -> id table used to intern words. */
struct cet_intern {
    uint32_t *slots;   /* id+1, 0 = empty */
    size_t nslots;
    uint32_t n;        /* ids 0..n-1 */
    uint32_t *off;     /* id -> offset into pool */
    size_t off_cap;
    char *pool;
    size_t pool_len, pool_cap;
};
void cet_intern_init(struct cet_intern *t);
void cet_intern_free(struct cet_intern *t);
/* Id of s[0..len) (added if new), or UINT32_MAX when out of memory. */
uint32_t cet_intern(struct cet_intern *t, const char *s, size_t len);
/* Id of s[0..len) or UINT32_MAX when absent. */
uint32_t cet_intern_find(const struct cet_intern *t, const char *s, size_t len);

CET_END_DECL

#endif
