/* Character metrics (Arias et al. 2009): LCS of characters, bit-parallel like the word
 * metric, and the longest common substring with a suffix automaton of the
 * gold.  Each text node's characters are prepared once per document; NFC is
 * applied per text node, which differs from NFC over the joined text only
 * when a node starts with a combining mark. */
#include "cetune/chars.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "cetune/lcs.h"
#include "util/array.h"
#include "util/sort.h"

/* Unicode White_Space. */
static int is_space(int32_t cp)
{
    return (cp >= 9 && cp <= 13) || cp == 32 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000;
}

static int push_cp(int32_t cp, int32_t **out, size_t *n, size_t *cap)
{
    if (CET_GROW(*out, *cap, *n + 1, 256))
        return -1;
    (*out)[(*n)++] = cp;
    return 0;
}

int cet_chars_codepoints(const char *s, size_t len, int32_t **out, size_t *n, size_t *cap)
{
    size_t i = 0;
    while (i < len && (unsigned char)s[i] < 0x80)
        i++;
    utf8proc_uint8_t *norm = NULL;
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s, *end = p + len;
    if (i < len) { /* not pure ASCII: NFC first */
        utf8proc_ssize_t nl = utf8proc_map(p, (utf8proc_ssize_t)len, &norm,
                                           UTF8PROC_STABLE | UTF8PROC_COMPOSE);
        if (nl == UTF8PROC_ERROR_NOMEM)
            return -1;
        if (nl >= 0) {
            p = norm;
            end = norm + nl;
        }
    }
    int rc = 0;
    while (p < end && rc == 0) {
        int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(p, end - p, &cp);
        if (k <= 0) { /* invalid byte: it still is a character */
            cp = 0xFFFD;
            k = 1;
        }
        p += k;
        if (!is_space(cp))
            rc = push_cp(cp, out, n, cap);
    }
    free(norm);
    return rc;
}

/* ---- suffix automaton ---- */

struct sam {
    int32_t *link;
    uint32_t *len;
    int32_t *head; /* first edge of each state, -1 if none */
    uint32_t nstates;
    uint32_t *esym;
    int32_t *eto, *enext;
    size_t nedges, ecap;
};

static int32_t sam_get(const struct sam *a, int32_t st, uint32_t sym)
{
    for (int32_t e = a->head[st]; e >= 0; e = a->enext[e])
        if (a->esym[e] == sym)
            return a->eto[e];
    return -1;
}

static int sam_edge(struct sam *a, int32_t st, uint32_t sym, int32_t to)
{
    for (int32_t e = a->head[st]; e >= 0; e = a->enext[e])
        if (a->esym[e] == sym) {
            a->eto[e] = to;
            return 0;
        }
    size_t cs = a->ecap, ct = a->ecap, cn = a->ecap; /* one capacity for the three */
    if (CET_GROW(a->esym, cs, a->nedges + 1, 256) || CET_GROW(a->eto, ct, a->nedges + 1, 256) ||
        CET_GROW(a->enext, cn, a->nedges + 1, 256))
        return -1;
    a->ecap = cs;
    a->esym[a->nedges] = sym;
    a->eto[a->nedges] = to;
    a->enext[a->nedges] = a->head[st];
    a->head[st] = (int32_t)a->nedges++;
    return 0;
}

static void sam_free(struct sam *a)
{
    free(a->link);
    free(a->len);
    free(a->head);
    free(a->esym);
    free(a->eto);
    free(a->enext);
    memset(a, 0, sizeof *a);
}

/* Blumer et al.'s online construction; at most 2m states. */
static int sam_build(struct sam *a, const uint32_t *b, size_t m)
{
    memset(a, 0, sizeof *a);
    size_t cap = 2 * m + 2;
    a->link = malloc(cap * sizeof *a->link);
    a->len = malloc(cap * sizeof *a->len);
    a->head = malloc(cap * sizeof *a->head);
    if (!a->link || !a->len || !a->head)
        goto oom;
    a->link[0] = -1;
    a->len[0] = 0;
    a->head[0] = -1;
    a->nstates = 1;
    int32_t last = 0;
    for (size_t i = 0; i < m; i++) {
        uint32_t c = b[i];
        int32_t cur = (int32_t)a->nstates++;
        a->len[cur] = a->len[last] + 1;
        a->head[cur] = -1;
        int32_t p = last;
        while (p != -1 && sam_get(a, p, c) < 0) {
            if (sam_edge(a, p, c, cur))
                goto oom;
            p = a->link[p];
        }
        if (p == -1) {
            a->link[cur] = 0;
        } else {
            int32_t q = sam_get(a, p, c);
            if (a->len[p] + 1 == a->len[q]) {
                a->link[cur] = q;
            } else {
                int32_t clone = (int32_t)a->nstates++;
                a->len[clone] = a->len[p] + 1;
                a->link[clone] = a->link[q];
                a->head[clone] = -1;
                for (int32_t e = a->head[q]; e >= 0; e = a->enext[e])
                    if (sam_edge(a, clone, a->esym[e], a->eto[e]))
                        goto oom;
                while (p != -1 && sam_get(a, p, c) == q) {
                    if (sam_edge(a, p, c, clone))
                        goto oom;
                    p = a->link[p];
                }
                a->link[q] = a->link[cur] = clone;
            }
        }
        last = cur;
    }
    return 0;
oom:
    sam_free(a);
    return -1;
}

static uint32_t sam_match(const struct sam *a, const uint32_t *s, size_t n, uint32_t nsym)
{
    int32_t v = 0;
    uint32_t l = 0, best = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = s[i];
        if (c >= nsym) {
            v = 0;
            l = 0;
            continue;
        }
        while (v != 0 && sam_get(a, v, c) < 0) {
            v = a->link[v];
            l = a->len[v];
        }
        int32_t t = sam_get(a, v, c);
        if (t >= 0) {
            v = t;
            l++;
        } else {
            v = 0;
            l = 0;
        }
        if (l > best)
            best = l;
    }
    return best;
}

uint32_t cet_lcstring(const uint32_t *a, size_t n, const uint32_t *b, size_t m, uint32_t nsym)
{
    struct sam s;
    if (m == 0 || n == 0 || sam_build(&s, b, m))
        return 0;
    uint32_t r = sam_match(&s, a, n, nsym);
    sam_free(&s);
    return r;
}

/* ---- per-document preparation ---- */

struct cet_chars {
    int32_t *alpha;   /* sorted distinct gold code points; id = index */
    uint32_t nsym;
    uint32_t *gold;   /* gold ids */
    uint32_t ngold;
    struct cet_peq peq;
    struct sam sam;
    uint32_t *ids;    /* text nodes' ids, node k at ids[off[k] .. off[k+1]) */
    uint32_t *off;
};

static int cmp_cp(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t sym_of(const struct cet_chars *c, int32_t cp)
{
    const int32_t *f = bsearch(&cp, c->alpha, c->nsym, sizeof *c->alpha, cmp_cp);
    return f ? (uint32_t)(f - c->alpha) : c->nsym;
}

void cet_chars_free(struct cet_chars *c)
{
    if (!c)
        return;
    free(c->alpha);
    free(c->gold);
    cet_peq_free(&c->peq);
    sam_free(&c->sam);
    free(c->ids);
    free(c->off);
    free(c);
}

struct cet_chars *cet_chars_prepare(const struct cet_doc *doc, struct cet_error *err)
{
    struct cet_chars *c = calloc(1, sizeof *c);
    int32_t *cps = NULL;
    size_t n = 0, cap = 0;
    if (!c)
        goto oom;
    if (doc->gold_text && cet_chars_codepoints(doc->gold_text, doc->gold_text_len, &cps, &n, &cap))
        goto oom;
    c->ngold = (uint32_t)n;
    c->gold = malloc((n ? n : 1) * sizeof *c->gold);
    c->alpha = malloc((n ? n : 1) * sizeof *c->alpha);
    if (!c->gold || !c->alpha)
        goto oom;
    if (n)
        memcpy(c->alpha, cps, n * sizeof *cps);
    qsort(c->alpha, n, sizeof *c->alpha, cmp_cp);
    for (size_t i = 0; i < n; i++)
        if (c->nsym == 0 || c->alpha[c->nsym - 1] != c->alpha[i])
            c->alpha[c->nsym++] = c->alpha[i];
    for (size_t i = 0; i < n; i++)
        c->gold[i] = sym_of(c, cps[i]);
    if (cet_peq_build(&c->peq, c->gold, c->ngold, c->nsym + 1) || sam_build(&c->sam, c->gold, c->ngold))
        goto oom;
    uint32_t ntexts = cet_doc_all_texts(doc); /* the alternates' too, for extras */
    c->off = malloc(((size_t)ntexts + 1) * sizeof *c->off);
    if (!c->off)
        goto oom;
    n = 0;
    for (uint32_t k = 0; k < ntexts; k++) {
        c->off[k] = (uint32_t)n;
        uint32_t i = doc->texts[k];
        if (cet_chars_codepoints(cet_node_str(doc, i), doc->nodes[i].len, &cps, &n, &cap))
            goto oom;
    }
    c->off[ntexts] = (uint32_t)n;
    c->ids = malloc((n ? n : 1) * sizeof *c->ids);
    if (!c->ids)
        goto oom;
    for (size_t i = 0; i < n; i++)
        c->ids[i] = sym_of(c, cps[i]);
    free(cps);
    return c;
oom:
    free(cps);
    cet_chars_free(c);
    cet_fail(err, "out of memory");
    return NULL;
}

void cet_chars_scratch_free(struct cet_chars_scratch *s)
{
    free(s->seq);
    free(s->v);
    memset(s, 0, sizeof *s);
}

static int append(struct cet_chars_scratch *s, size_t *n, const uint32_t *ids, size_t k)
{
    if (*n + k > s->seq_cap) {
        size_t c = s->seq_cap ? s->seq_cap : 1024;
        while (c < *n + k)
            c *= 2;
        uint32_t *q = realloc(s->seq, c * sizeof *q);
        if (!q)
            return -1;
        s->seq = q;
        s->seq_cap = c;
    }
    memcpy(s->seq + *n, ids, k * sizeof *ids);
    *n += k;
    return 0;
}

int cet_chars_overlap(const struct cet_chars *c, const struct cet_doc *doc, const uint8_t *keep,
                      const uint32_t *extra, uint32_t nextra, int lcstring,
                      struct cet_chars_scratch *s, uint32_t *n_extract, uint32_t *n_gold,
                      uint32_t *overlap)
{
    size_t n = 0;
    for (uint32_t k = 0; k < doc->ntexts; k++)
        if (keep[doc->texts[k]] && append(s, &n, c->ids + c->off[k], c->off[k + 1] - c->off[k]))
            return -1;
    for (uint32_t j = 0; j < nextra; j++) {
        const uint32_t *f = bsearch(&extra[j], doc->texts, cet_doc_all_texts(doc),
                                    sizeof *doc->texts, cet_cmp_u32);
        if (!f)
            continue;
        size_t k = (size_t)(f - doc->texts);
        if (append(s, &n, c->ids + c->off[k], c->off[k + 1] - c->off[k]))
            return -1;
    }
    *n_extract = (uint32_t)n;
    *n_gold = c->ngold;
    if (!n || !c->ngold) {
        *overlap = 0;
        return 0;
    }
    if (lcstring) {
        *overlap = sam_match(&c->sam, s->seq, n, c->nsym);
        return 0;
    }
    if (s->v_cap < c->peq.blocks) {
        uint64_t *v = realloc(s->v, c->peq.blocks * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->v_cap = c->peq.blocks;
    }
    *overlap = cet_lcs_bits(&c->peq, s->seq, n, s->v);
    return 0;
}
