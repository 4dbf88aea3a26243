/* Ad-server host lists: a hash set of lowercase host names, matched against
 * the host of a URL and each of its parent domains. */
#include "cetune/adhosts.h"

#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "cetune/doc.h"
#include "adhosts_builtin.h"

#define MAX_HOST 253 /* longest DNS name */

struct cet_adhosts {
    char *pool;       /* the hosts, NUL-terminated, one after another */
    size_t pool_len;
    uint32_t *slots;  /* open addressing: pool offset + 1, 0 = empty */
    size_t nslots;    /* a power of two, at least twice count */
    size_t count;
    uint64_t digest;  /* FNV-1a of the text it was parsed from: its identity */
    char *source;     /* the file it was read from, or NULL (built-in, or text) */
};

static uint64_t hash(const char *s, size_t n)
{
    return cet_hash64(s, n);
}

/* The slot holding host s[0..n), or the empty slot where it would go. */
static uint32_t *find_slot(const struct cet_adhosts *h, const char *s, size_t n)
{
    size_t mask = h->nslots - 1;
    for (size_t k = (size_t)hash(s, n) & mask;; k = (k + 1) & mask) {
        uint32_t off = h->slots[k];
        if (!off)
            return &h->slots[k];
        const char *e = h->pool + off - 1;
        if (!strncmp(e, s, n) && e[n] == 0)
            return &h->slots[k];
    }
}

static int is_host_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* An address field of a hosts-file line: digits, dots, colons and hex. */
static int is_address(const char *s, size_t n)
{
    int dot_or_colon = 0;
    for (size_t i = 0; i < n; i++) {
        char c = lower(s[i]);
        if (c == '.' || c == ':')
            dot_or_colon = 1;
        else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return 0;
    }
    return dot_or_colon;
}

/* Splits one line into at most three white-space separated fields before a '#'. */
static size_t fields(const char *s, size_t n, const char *f[3], size_t fl[3])
{
    size_t k = 0, i = 0;
    while (i < n && s[i] != '#') {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i >= n || s[i] == '#')
            break;
        size_t start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '#')
            i++;
        if (k < 3) {
            f[k] = s + start;
            fl[k] = i - start;
        }
        k++;
    }
    return k;
}

int cet_adhosts_parse(struct cet_adhosts **out, const char *text, size_t len, const char *name,
                      struct cet_error *err)
{
    *out = NULL;
    struct cet_adhosts *h = calloc(1, sizeof *h);
    struct cet_buf pool = {0};
    if (!h)
        return cet_fail(err, "out of memory");
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    h->nslots = 16;
    while (h->nslots < 2 * lines)
        h->nslots *= 2;
    h->slots = calloc(h->nslots, sizeof *h->slots);
    if (!h->slots || cet_buf_reserve(&pool, len + 1))
        goto oom;
    h->pool = pool.p;
    size_t lineno = 0;
    for (size_t i = 0; i < len;) {
        const char *line = text + i;
        const char *nl = memchr(line, '\n', len - i);
        size_t n = nl ? (size_t)(nl - line) : len - i;
        i += n + 1;
        lineno++;
        const char *f[3];
        size_t fl[3], nf = fields(line, n, f, fl);
        if (!nf)
            continue;
        const char *host = f[0];
        size_t hl = fl[0];
        if (nf == 2 && is_address(f[0], fl[0])) {
            host = f[1];
            hl = fl[1];
        } else if (nf != 1) {
            cet_fail(err, "%s:%zu:%zu: expected one host per line, got '%.*s'", name, lineno,
                     (size_t)(f[1] - line) + 1, (int)(n > 200 ? 200 : n), line);
            goto fail;
        }
        /* "*.example.com" and ".example.com" mean the domain with its subdomains,
         * which is what every entry means. */
        if (hl >= 2 && host[0] == '*' && host[1] == '.') {
            host += 2;
            hl -= 2;
        }
        while (hl && host[0] == '.') {
            host++;
            hl--;
        }
        while (hl && host[hl - 1] == '.')
            hl--;
        char low[MAX_HOST + 1];
        int ok = hl > 0 && hl <= MAX_HOST;
        size_t k = 0;
        /* Letters, digits, '-', '_', and dots between non-empty labels. */
        for (; ok && k < hl; k++) {
            low[k] = lower(host[k]);
            ok = is_host_char(low[k]) && !(low[k] == '.' && k && low[k - 1] == '.');
        }
        if (!ok) {
            size_t shown = (size_t)(f[nf - 1] + fl[nf - 1] - host);
            cet_fail(err, "%s:%zu:%zu: '%.*s' is not a host name", name, lineno,
                     (size_t)(host - line) + (k ? k : 1), (int)(shown > 200 ? 200 : shown), host);
            goto fail;
        }
        uint32_t *slot = find_slot(h, low, hl);
        if (*slot)
            continue;
        *slot = (uint32_t)pool.len + 1;
        if (cet_buf_add(&pool, low, hl) || cet_buf_add(&pool, "", 1))
            goto oom;
        h->pool = pool.p; /* slots hold offsets, so growing the pool is safe */
        h->count++;
    }
    h->pool = pool.p;
    h->pool_len = pool.len;
    h->digest = hash(text, len);
    *out = h;
    return 0;
oom:
    cet_fail(err, "out of memory");
fail:
    cet_buf_free(&pool);
    free(h->slots);
    free(h);
    return -1;
}

int cet_adhosts_load(struct cet_adhosts **out, const char *path, struct cet_error *err)
{
    struct cet_buf b = {0};
    *out = NULL;
    int rc = cet_read_file(&b, path, (size_t)64 << 20, err);
    if (rc == 0)
        rc = cet_adhosts_parse(out, b.p, b.len, path, err);
    cet_buf_free(&b);
    if (rc == 0 && !((*out)->source = strdup(path))) {
        cet_adhosts_free(*out);
        *out = NULL;
        return cet_fail(err, "out of memory");
    }
    return rc;
}

void cet_adhosts_free(struct cet_adhosts *h)
{
    if (!h)
        return;
    free(h->pool);
    free(h->slots);
    free(h->source);
    free(h);
}

void cet_adhosts_digest(const struct cet_adhosts *h, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)h->digest);
}

const char *cet_adhosts_source(const struct cet_adhosts *h)
{
    return h->source;
}

size_t cet_adhosts_count(const struct cet_adhosts *h)
{
    return h->count;
}

int cet_adhosts_match_url(const struct cet_adhosts *h, const char *url)
{
    size_t n;
    const char *s = cet_url_authority(url, &n);
    if (!s)
        return 0;
    const char *at = memchr(s, '@', n);
    while (at) { /* user information ends at the last '@' of the authority */
        n -= (size_t)(at + 1 - s);
        s = at + 1;
        at = memchr(s, '@', n);
    }
    const char *colon = memchr(s, ':', n);
    if (colon)
        n = (size_t)(colon - s);
    while (n && s[n - 1] == '.')
        n--;
    if (!n || n > MAX_HOST)
        return 0;
    char low[MAX_HOST + 1];
    for (size_t k = 0; k < n; k++)
        low[k] = lower(s[k]);
    /* The host itself, then each parent domain. */
    for (size_t k = 0; k < n; k++) {
        if (k && low[k - 1] != '.')
            continue;
        if (*find_slot(h, low + k, n - k))
            return 1;
    }
    return 0;
}

/* ---- the list in use ----
 * Set by cet_adhosts_use_file before the first extraction, else the
 * built-in list; it never changes once handed out (a list being read by
 * another thread is never freed), and the lock makes the first use and a
 * replacement safe from any thread. */

static struct cet_adhosts *current;
static struct cet_error current_err;
static int current_failed, handed_out;
static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;

const struct cet_adhosts *cet_adhosts_current(struct cet_error *err)
{
    pthread_mutex_lock(&current_lock);
    if (!current && !current_failed)
        current_failed = cet_adhosts_parse(&current, cet_adhosts_builtin, cet_adhosts_builtin_len,
                                           "built-in adhosts.txt", &current_err) != 0;
    handed_out = 1;
    const struct cet_adhosts *h = current;
    if (!h && err)
        *err = current_err;
    pthread_mutex_unlock(&current_lock);
    return h;
}

int cet_adhosts_use_file(const char *path, struct cet_error *err)
{
    struct cet_adhosts *h;
    if (cet_adhosts_load(&h, path, err))
        return -1;
    pthread_mutex_lock(&current_lock);
    int late = handed_out;
    if (!late) {
        cet_adhosts_free(current);
        current = h;
        current_failed = 0;
    }
    pthread_mutex_unlock(&current_lock);
    if (late) {
        cet_adhosts_free(h);
        return cet_fail(err, "%s: the ad-host list cannot change once extraction has begun", path);
    }
    return 0;
}
