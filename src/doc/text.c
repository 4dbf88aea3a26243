/* Words as the metric defines them (README.md, "The metric"): NFKC, case fold, then maximal runs of
 * letters and numbers.  ASCII text, the common case, takes a fast path with
 * the same result as the Unicode path. */
#include "cetune/text.h"
#include "util/array.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

int cet_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        utf8proc_int32_t cp;
        utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &cp);
        if (n < 0)
            return 0;
        p += n;
    }
    return 1;
}

static int is_word_cp(utf8proc_int32_t cp)
{
    switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
        return 1;
    default:
        return 0;
    }
}

static int words_ascii(const char *s, size_t len, cet_word_fn fn, void *ctx)
{
    char small[256];
    char *w = small;
    size_t cap = sizeof small, n = 0;
    int rc = 0;
    for (size_t i = 0; i <= len && rc == 0; i++) {
        unsigned char c = i < len ? (unsigned char)s[i] : 0;
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (alnum) {
            if (n == cap) {
                char *nw = malloc(cap * 2);
                if (!nw) {
                    rc = -1;
                    break;
                }
                memcpy(nw, w, n);
                if (w != small)
                    free(w);
                w = nw;
                cap *= 2;
            }
            w[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        } else if (n) {
            rc = fn(w, n, ctx);
            n = 0;
        }
    }
    if (w != small)
        free(w);
    return rc;
}

int cet_words(const char *s, size_t len, cet_word_fn fn, void *ctx)
{
    size_t i = 0;
    while (i < len && (unsigned char)s[i] < 0x80)
        i++;
    if (i == len)
        return words_ascii(s, len, fn, ctx);

    /* Invalid bytes would make utf8proc reject the whole string: map them to
     * spaces, which separate words. */
    char *clean = NULL;
    if (!cet_utf8_valid(s, len)) {
        clean = malloc(len ? len : 1);
        if (!clean)
            return -1;
        const unsigned char *p = (const unsigned char *)s, *end = p + len;
        size_t o = 0;
        while (p < end) {
            utf8proc_int32_t cp;
            utf8proc_ssize_t n = *p < 0x80 ? 1 : utf8proc_iterate(p, end - p, &cp);
            if (n < 0) {
                clean[o++] = ' ';
                p++;
            } else {
                memcpy(clean + o, p, (size_t)n);
                o += (size_t)n;
                p += n;
            }
        }
        s = clean;
        len = o;
    }
    utf8proc_uint8_t *norm = NULL;
    utf8proc_ssize_t nlen = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len, &norm,
                                         UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT |
                                             UTF8PROC_CASEFOLD);
    free(clean);
    if (nlen < 0)
        return nlen == UTF8PROC_ERROR_NOMEM ? -1 : 0;
    int rc = 0;
    const utf8proc_uint8_t *p = norm, *end = norm + nlen, *start = NULL;
    while (rc == 0) {
        utf8proc_int32_t cp = 0;
        utf8proc_ssize_t n = p < end ? utf8proc_iterate(p, end - p, &cp) : 0;
        int in_word = n > 0 && is_word_cp(cp);
        if (in_word && !start)
            start = p;
        if (!in_word && start) {
            rc = fn((const char *)start, (size_t)(p - start), ctx);
            start = NULL;
        }
        if (n <= 0)
            break;
        p += n;
    }
    free(norm);
    return rc;
}

/* ---- interning ---- */

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

void cet_intern_init(struct cet_intern *t)
{
    memset(t, 0, sizeof *t);
}

void cet_intern_free(struct cet_intern *t)
{
    free(t->slots);
    free(t->off);
    free(t->pool);
    memset(t, 0, sizeof *t);
}

static int same(const struct cet_intern *t, uint32_t id, const char *s, size_t len)
{
    const char *w = t->pool + t->off[id];
    return strncmp(w, s, len) == 0 && w[len] == 0;
}

uint32_t cet_intern_find(const struct cet_intern *t, const char *s, size_t len)
{
    if (!t->nslots)
        return UINT32_MAX;
    size_t mask = t->nslots - 1;
    for (size_t i = hash_bytes(s, len) & mask;; i = (i + 1) & mask) {
        uint32_t v = t->slots[i];
        if (!v)
            return UINT32_MAX;
        if (same(t, v - 1, s, len))
            return v - 1;
    }
}

static int grow(struct cet_intern *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 256;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t id = 0; id < t->n; id++) {
        const char *w = t->pool + t->off[id];
        size_t i = hash_bytes(w, strlen(w)) & (n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    return 0;
}

uint32_t cet_intern(struct cet_intern *t, const char *s, size_t len)
{
    if ((t->n + 1) * 2 > t->nslots && grow(t))
        return UINT32_MAX;
    size_t mask = t->nslots - 1, i = hash_bytes(s, len) & mask;
    for (; t->slots[i]; i = (i + 1) & mask)
        if (same(t, t->slots[i] - 1, s, len))
            return t->slots[i] - 1;
    if (CET_GROW(t->off, t->off_cap, (size_t)t->n + 1, 256) ||
        CET_GROW(t->pool, t->pool_cap, t->pool_len + len + 1, 4096))
        return UINT32_MAX;
    memcpy(t->pool + t->pool_len, s, len);
    t->pool[t->pool_len + len] = 0;
    t->off[t->n] = (uint32_t)t->pool_len;
    t->pool_len += len + 1;
    t->slots[i] = t->n + 1;
    return t->n++;
}
