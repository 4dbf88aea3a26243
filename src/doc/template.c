/* A pseudo-gold from a site family's repetition (include/cetune/template.h,
 * docs/template.md).
 *
 * Each page is reduced to its blocks: runs of text nodes with the same
 * nearest block element.  A block's slot hashes the path from the root to
 * that element, each step its tag, id and classes with digits dropped
 * ("story-1234" and "story-99" are one class; class order does not count),
 * and its text hashes its words with its slot.  Over the family we count,
 * by sorting, on how many pages each slot and each (slot, text) pair occur
 * (pages, not occurrences: every paragraph of one article shares a slot),
 * and per slot how many of its blocks have text no other page has there. */
#include "cetune/template.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/fnv.h"

void cet_template_default(struct cet_template_opts *o)
{
    o->min_pages = 6;
    o->repeat = 2;
    o->repeat_share = 0.25;
    o->common = 0.5;
    o->place = 0.8;
    o->number_share = 0.3;
    o->link_share = 0.5;
    o->short_share = 0.25;
    o->unsure = 0;
    o->place_overrules = 0;
}

/* splitmix64's finaliser: FNV alone mixes its last bytes poorly. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* An id or class attribute without digits, lower case; classes as the XOR
 * of their tokens' hashes, which ignores their order. */
static uint64_t add_names(uint64_t h, const char *v, int tokens)
{
    if (!v)
        return mix(h ^ 1);
    uint64_t acc = 0, tok = CET_FNV_BASIS;
    int in = 0;
    for (const char *p = v;; p++) {
        int end = !*p || isspace((unsigned char)*p);
        if (end && in && tokens) {
            acc ^= mix(tok);
            tok = CET_FNV_BASIS;
            in = 0;
        } else if (!end && !isdigit((unsigned char)*p)) {
            char c = (char)tolower((unsigned char)*p);
            tok = cet_fnv(tok, &c, 1);
            in = 1;
        }
        if (!*p)
            break;
    }
    return mix(h ^ (tokens ? acc : mix(tok)));
}

/* One block of text of a page. */
struct block {
    uint64_t slot, text;   /* where it stands, and what it says there */
    uint32_t node;         /* its block element (CET_NONE: text outside any) */
    uint32_t first, last;  /* its text nodes: d->texts[first .. last] */
    uint32_t words, links; /* its words, and those inside links */
    uint32_t numbers;      /* its words that are numbers */
};

struct page {
    struct block *b;
    size_t n;
};

/* The page's blocks in document order; a block interrupted by a nested
 * block goes on as another block at the same slot. */
static int page_blocks(const struct cet_doc *d, struct page *pg)
{
    uint64_t *slot = malloc((d->nnodes ? d->nnodes : 1) * sizeof *slot);
    pg->b = malloc((d->ntexts ? d->ntexts : 1) * sizeof *pg->b);
    pg->n = 0;
    if (!slot || !pg->b) {
        free(slot);
        return -1;
    }
    /* Preorder: a parent's slot is known before its children's. */
    for (uint32_t i = 0; i < d->nnodes; i++) {
        const struct cet_node *nd = &d->nodes[i];
        if (nd->kind != CET_ELEMENT)
            continue;
        uint64_t h = nd->parent == CET_NONE ? CET_FNV_BASIS : slot[nd->parent];
        h = cet_fnv(h, cet_node_str(d, i), nd->len);
        h = add_names(h, cet_node_attr(d, i, "id"), 0);
        slot[i] = add_names(h, cet_node_attr(d, i, "class"), 1);
    }
    for (uint32_t k = 0; k < d->ntexts; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        if (t->w1 == t->w0)
            continue;
        struct block *b = pg->n ? &pg->b[pg->n - 1] : NULL;
        if (!b || b->node != t->block || b->last + 1 != k) {
            b = &pg->b[pg->n++];
            b->node = t->block;
            b->slot = t->block == CET_NONE ? 0 : slot[t->block];
            b->text = CET_FNV_BASIS;
            b->first = k;
            b->words = b->links = b->numbers = 0;
        }
        b->last = k;
        for (uint32_t w = t->w0; w < t->w1; w++) {
            const char *s = cet_word_str(d, d->words[w]);
            b->text = cet_fnv(b->text, s, strlen(s) + 1); /* the NUL parts words */
            b->numbers += isdigit((unsigned char)s[0]) != 0;
        }
        b->words += t->w1 - t->w0;
        if (t->flags & CET_NF_ANCHOR)
            b->links += t->w1 - t->w0;
    }
    for (size_t i = 0; i < pg->n; i++)
        pg->b[i].text = mix(pg->b[i].text ^ mix(pg->b[i].slot));
    free(slot);
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Keys counted by pages: each page's distinct keys, all pages together,
 * sorted; a key's count is the length of its run. */
struct counts {
    uint64_t *k;
    size_t n;
};

/* The first of n sorted elements of `size` bytes, each starting with its
 * uint64_t key, whose key is not below key (n when none). */
static size_t lower_bound(const void *v, size_t n, size_t size, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t k;
        memcpy(&k, (const char *)v + mid * size, sizeof k);
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t count_of(const struct counts *c, uint64_t key)
{
    size_t lo = lower_bound(c->k, c->n, sizeof *c->k, key), end = lo;
    while (end < c->n && c->k[end] == key)
        end++;
    return end - lo;
}

/* by_text 0: slots; 1: (slot, text) pairs. */
static int count_pages(const struct page *pages, size_t n, int by_text, struct counts *c)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += pages[i].n;
    c->n = 0;
    if (!(c->k = malloc((total ? total : 1) * sizeof *c->k)))
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t start = c->n, m = start;
        for (size_t j = 0; j < pages[i].n; j++)
            c->k[c->n++] = by_text ? pages[i].b[j].text : pages[i].b[j].slot;
        qsort(c->k + start, c->n - start, sizeof *c->k, cmp_u64);
        for (size_t j = start; j < c->n; j++)
            if (j == start || c->k[j] != c->k[j - 1])
                c->k[m++] = c->k[j];
        c->n = m;
    }
    qsort(c->k, c->n, sizeof *c->k, cmp_u64);
    return 0;
}

/* Per slot: its blocks over the family, and those whose text is particular
 * to their page (at that slot). */
struct slot_stat {
    uint64_t slot;
    size_t blocks, unique;
};

static int cmp_slot(const void *a, const void *b)
{
    return cmp_u64(&((const struct slot_stat *)a)->slot, &((const struct slot_stat *)b)->slot);
}

static int slot_stats(const struct page *pages, size_t n, const struct counts *pairs,
                      struct slot_stat **out, size_t *nout)
{
    size_t total = 0, m = 0;
    for (size_t i = 0; i < n; i++)
        total += pages[i].n;
    struct slot_stat *v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < pages[i].n; j++)
            v[m++] = (struct slot_stat){pages[i].b[j].slot, 1,
                                        count_of(pairs, pages[i].b[j].text) == 1};
    qsort(v, m, sizeof *v, cmp_slot);
    size_t u = 0;
    for (size_t j = 0; j < m; j++) {
        if (u && v[u - 1].slot == v[j].slot) {
            v[u - 1].blocks += v[j].blocks;
            v[u - 1].unique += v[j].unique;
        } else {
            v[u++] = v[j];
        }
    }
    *out = v;
    *nout = u;
    return 0;
}

/* Every block's slot is in v. */
static const struct slot_stat *slot_find(const struct slot_stat *v, size_t n, uint64_t slot)
{
    return &v[lower_bound(v, n, sizeof *v, slot)];
}

/* How many of the nref references keep block b: more than half its words. */
static size_t block_keeps(const struct cet_doc *d, const struct block *b, const uint8_t *ref,
                          size_t nref)
{
    uint32_t kept[CET_TEMPLATE_MAX_REFS] = {0};
    for (uint32_t k = b->first; k <= b->last; k++)
        for (size_t r = 0; r < nref; r++)
            if (ref[k] >> r & 1)
                kept[r] += d->nodes[d->texts[k]].w1 - d->nodes[d->texts[k]].w0;
    size_t keeps = 0;
    for (size_t r = 0; r < nref; r++)
        keeps += 2 * kept[r] > b->words;
    return keeps;
}

/* Marks page i's content; returns its content and unsure words (what might
 * be content) in *words and those at common slots in *common_words. */
static void mark_page(const struct cet_doc *d, const struct page *pg, const uint8_t *ref,
                      size_t nref, const struct counts *slots, const struct counts *pairs,
                      const struct slot_stat *stats, size_t nstats, size_t n, double repeat,
                      const struct cet_template_opts *o, uint8_t *marks, double *words,
                      double *common_words)
{
    memset(marks, CET_TEMPLATE_OUT, d->ntexts);
    *words = *common_words = 0;
    for (size_t j = 0; j < pg->n; j++) {
        const struct block *b = &pg->b[j];
        const struct slot_stat *st = slot_find(stats, nstats, b->slot);
        double presence = (double)count_of(slots, b->slot) / (double)n;
        /* Template, link lists and text outside any block are never content. */
        if (b->node == CET_NONE || (double)count_of(pairs, b->text) >= repeat ||
            (double)b->links >= o->link_share * (double)b->words)
            continue;
        /* A content place the reference missed adds prose, not a dateline. */
        int place = presence >= o->place && (double)st->unique >= o->place * (double)st->blocks &&
                    (double)b->numbers < o->number_share * (double)b->words;
        size_t keeps = block_keeps(d, b, ref, nref);
        uint8_t mark;
        if (keeps == nref || (place && (keeps || o->place_overrules)))
            mark = CET_TEMPLATE_CONTENT; /* the references agree, or the family breaks a tie */
        else if (keeps == 0)
            mark = place ? CET_TEMPLATE_UNSURE : CET_TEMPLATE_OUT; /* family against references */
        else if (o->unsure)
            mark = CET_TEMPLATE_UNSURE;
        else
            mark = block_keeps(d, b, ref, 1) ? CET_TEMPLATE_CONTENT : CET_TEMPLATE_OUT;
        memset(marks + b->first, mark, b->last - b->first + 1);
        if (mark == CET_TEMPLATE_OUT)
            continue;
        *words += b->words;
        if (presence >= o->common)
            *common_words += b->words;
    }
}

int cet_template_marks(struct cet_doc *const *docs, size_t n, const char *family,
                       const struct cet_template_opts *o, const uint8_t *const *ref,
                       size_t nref, uint8_t **marks, struct cet_error *err)
{
    if (nref == 0 || nref > CET_TEMPLATE_MAX_REFS)
        return cet_fail(err, "a pseudo-gold needs 1 to %d references, not %zu",
                        CET_TEMPLATE_MAX_REFS, nref);
    if (n < o->min_pages || n == 0)
        return cet_fail(err,
                        "package %s has %zu usable page%s: a site family's repetition needs at "
                        "least %zu",
                        family, n, n == 1 ? "" : "s", o->min_pages ? o->min_pages : 1);
    struct page *pages = calloc(n, sizeof *pages);
    struct counts slots = {0}, pairs = {0};
    struct slot_stat *stats = NULL;
    size_t nstats = 0;
    double *words = malloc(3 * n * sizeof *words); /* content, at common slots; sorted */
    int rc = -1;
    if (!pages || !words)
        goto done;
    for (size_t i = 0; i < n; i++)
        if (page_blocks(docs[i], &pages[i]))
            goto done;
    if (count_pages(pages, n, 0, &slots) || count_pages(pages, n, 1, &pairs) ||
        slot_stats(pages, n, &pairs, &stats, &nstats))
        goto done;
    double repeat = ceil(o->repeat_share * (double)n);
    if (repeat < (double)o->repeat)
        repeat = (double)o->repeat;
    for (size_t i = 0; i < n; i++)
        mark_page(docs[i], &pages[i], ref[i], nref, &slots, &pairs, stats, nstats, n, repeat, o,
                  marks[i], &words[i], &words[n + i]);
    /* Another kind of page: little content, most of it at uncommon slots. */
    memcpy(words + 2 * n, words, n * sizeof *words);
    qsort(words + 2 * n, n, sizeof *words, cet_cmp_double);
    double median = n % 2 ? words[2 * n + n / 2] : (words[2 * n + n / 2 - 1] + words[2 * n + n / 2]) / 2;
    for (size_t i = 0; i < n; i++)
        if (2 * words[n + i] < words[i] && words[i] < o->short_share * median)
            memset(marks[i], CET_TEMPLATE_OUT, docs[i]->ntexts);
    rc = 0;
done:
    if (rc)
        cet_fail(err, "out of memory");
    for (size_t i = 0; pages && i < n; i++)
        free(pages[i].b);
    free(pages);
    free(slots.k);
    free(pairs.k);
    free(stats);
    free(words);
    return rc;
}

int cet_template_text(const struct cet_doc *d, const uint8_t *marks, struct cet_buf *out)
{
    uint32_t block = CET_NONE;
    int open = 0; /* a word was written */
    out->len = 0;
    if (cet_buf_add(out, "", 0))
        return -1;
    for (uint32_t k = 0; k < d->ntexts; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        if (marks[k] != CET_TEMPLATE_CONTENT || t->w1 == t->w0)
            continue;
        for (uint32_t w = t->w0; w < t->w1; w++) {
            const char *sep = !open ? "" : w == t->w0 && t->block != block ? "\n" : " ";
            if (cet_buf_printf(out, "%s%s", sep, cet_word_str(d, d->words[w])))
                return -1;
            open = 1;
        }
        block = t->block;
    }
    return open ? cet_buf_add(out, "\n", 1) : 0;
}
