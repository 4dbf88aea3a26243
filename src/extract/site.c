/* Site rules (include/cetune/site.h, docs/site.md): a page's slots, the
 * rules applied after any extractor, and the configuration's "site"
 * member.  Learning them (it aligns gold as the metric does) is
 * src/eval/site_learn.c's. */
#include "cetune/site.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cetune/extractor.h"
#include "cetune/text.h"
#include "site_slots.h"
#include "util/array.h"
#include "util/fnv.h"

/* 0 stands for "no slot" (text outside any block). */
static uint64_t finish(uint64_t h)
{
    return h ? h : 1;
}

uint64_t cet_site_hash(const char *path)
{
    return finish(cet_fnv(CET_FNV_BASIS, path, strlen(path)));
}

/* The tokens of an attribute value, lowercase and without digits, into
 * tok[] (pointers into buf); returns how many (at most max).  The
 * characters a slot's syntax gives a meaning ('/' between steps, '#' and
 * '.' before names) and '%' are written as %2f, %23, %2e and %25, so a
 * name such as "col/" or "atbody.at.tbs" stays one name, apart from "col",
 * and a slot written out reads back as the same slot. */
size_t cet_site_tokens(const char *v, char *buf, size_t size, char **tok, size_t max)
{
    size_t n = 0, len = 0;
    int in = 0;
    for (const char *p = v; p && *p && n < max; p++) {
        unsigned char c = (unsigned char)*p;
        int esc = c == '/' || c == '#' || c == '.' || c == '%';
        if (isspace(c)) {
            if (in) {
                buf[len++] = 0;
                n++;
                in = 0;
            }
        } else if (!isdigit(c) && len + (esc ? 4 : 2) < size) {
            if (!in)
                tok[n] = buf + len;
            if (esc)
                len += (size_t)snprintf(buf + len, 4, "%%%02x", c);
            else
                buf[len++] = (char)tolower(c);
            in = 1;
        }
    }
    if (in && n < max) {
        buf[len] = 0;
        n++;
    }
    return n;
}

uint64_t cet_site_token_hash(const char *t)
{
    return cet_fnv(CET_FNV_BASIS, t, strlen(t));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A name the rules know (s->names); every name when s is NULL. */
static int known(const struct cet_site *s, const char *t)
{
    uint64_t h = cet_site_token_hash(t);
    return !s || bsearch(&h, s->hashes, s->nnames, sizeof h, cmp_u64) != NULL;
}

/* <html> and <body> carry names of the page (its category, its post id
 * with a slug), not of a place in the template. */
int cet_site_page_element(const struct cet_doc *d, uint32_t i)
{
    const char *t = cet_node_str(d, i);
    size_t n = d->nodes[i].len;
    return (n == 4 && (!memcmp(t, "html", 4) || !memcmp(t, "body", 4)));
}

/* Element i's step of a slot: its tag, "#id" and ".class" for each class,
 * sorted and without repeats; digits dropped, lowercase; only the names
 * the rules know (s; all when NULL), none for <html> and <body>.  Returns
 * its length in out (at most CET_SITE_STEP_MAX - 1). */
size_t cet_site_step(const struct cet_doc *d, uint32_t i, const struct cet_site *s, char *out)
{
    char buf[CET_SITE_STEP_MAX], *tok[64];
    size_t len = d->nodes[i].len < CET_SITE_STEP_MAX - 1 ? d->nodes[i].len : CET_SITE_STEP_MAX - 1;
    memcpy(out, cet_node_str(d, i), len);
    out[len] = 0;
    if (cet_site_page_element(d, i))
        return len;
    size_t nid = cet_site_tokens(cet_node_attr(d, i, "id"), buf, sizeof buf, tok, 1);
    for (size_t k = 0; k < nid; k++) {
        size_t n = strlen(tok[k]);
        if (len + 1 + n < CET_SITE_STEP_MAX && known(s, tok[k])) {
            out[len++] = '#';
            memcpy(out + len, tok[k], n);
            len += n;
        }
    }
    size_t nc = cet_site_tokens(cet_node_attr(d, i, "class"), buf, sizeof buf, tok, 64);
    for (size_t a = 1; a < nc; a++) /* insertion sort: a handful of classes */
        for (size_t b = a; b > 0 && strcmp(tok[b - 1], tok[b]) > 0; b--) {
            char *t = tok[b];
            tok[b] = tok[b - 1];
            tok[b - 1] = t;
        }
    for (size_t k = 0; k < nc; k++) {
        size_t n = strlen(tok[k]);
        if ((k && !strcmp(tok[k], tok[k - 1])) || len + 1 + n >= CET_SITE_STEP_MAX || !known(s, tok[k]))
            continue;
        out[len++] = '.';
        memcpy(out + len, tok[k], n);
        len += n;
    }
    out[len] = 0;
    return len;
}

/* The FNV state of every element's path (preorder: parents first). */
static uint64_t *path_states(const struct cet_doc *d, const struct cet_site *s)
{
    uint64_t *h = malloc((d->nnodes ? d->nnodes : 1) * sizeof *h);
    char buf[CET_SITE_STEP_MAX];
    for (uint32_t i = 0; h && i < d->nnodes; i++) {
        const struct cet_node *nd = &d->nodes[i];
        if (nd->kind != CET_ELEMENT)
            continue;
        uint64_t p = CET_FNV_BASIS;
        if (nd->parent != CET_NONE)
            p = cet_fnv(h[nd->parent], "/", 1);
        h[i] = cet_fnv(p, buf, cet_site_step(d, i, s, buf));
    }
    return h;
}

/* Suffix slots: each block's last depth steps written out, once per block.
 * A suffix without an id or a class ("table/tr/td") is a different place
 * from page to page: no slot. */
static int suffix_slots(const struct cet_site *s, const struct cet_doc *d, size_t depth,
                        uint64_t *slots)
{
    uint64_t *memo = calloc(d->nnodes ? d->nnodes : 1, sizeof *memo); /* 0: not yet */
    int rc = memo ? 0 : -1;
    for (uint32_t k = 0; k < d->ntexts && !rc; k++) {
        uint32_t b = d->nodes[d->texts[k]].block;
        if (b != CET_NONE && !memo[b]) {
            size_t steps = 0; /* a block this near the root has its whole path as slot */
            for (uint32_t a = b; a != CET_NONE && steps <= depth; a = d->nodes[a].parent)
                steps++;
            char *p = steps > depth ? cet_site_path_of(d, b, s, depth) : NULL;
            rc = steps > depth && !p;
            memo[b] = !p || !strpbrk(p, "#.") ? UINT64_MAX : cet_site_hash(p);
            free(p);
        }
        slots[k] = b == CET_NONE || memo[b] == UINT64_MAX ? 0 : memo[b];
    }
    free(memo);
    return rc;
}

int cet_site_slots_at(const struct cet_site *s, const struct cet_doc *d, size_t depth,
                      uint64_t *slots)
{
    return depth ? suffix_slots(s, d, depth, slots) : cet_site_slots(s, d, slots);
}

int cet_site_slots(const struct cet_site *s, const struct cet_doc *d, uint64_t *slots)
{
    uint64_t *h = path_states(d, s);
    if (!h)
        return -1;
    for (uint32_t k = 0; k < d->ntexts; k++) {
        uint32_t b = d->nodes[d->texts[k]].block;
        slots[k] = b == CET_NONE ? 0 : finish(h[b]);
    }
    free(h);
    return 0;
}

/* The slot of element i written out: its ancestors' steps (the last depth
 * of them when depth is not 0), then its own. */
char *cet_site_path_of(const struct cet_doc *d, uint32_t i, const struct cet_site *s, size_t depth)
{
    size_t n = 0, len = 0;
    for (uint32_t a = i; a != CET_NONE; a = d->nodes[a].parent)
        n++;
    uint32_t *chain = malloc(n * sizeof *chain);
    char *out = malloc(n * CET_SITE_STEP_MAX + 1);
    if (!chain || !out) {
        free(chain);
        free(out);
        return NULL;
    }
    size_t k = n;
    for (uint32_t a = i; a != CET_NONE; a = d->nodes[a].parent)
        chain[--k] = a;
    size_t from = depth && depth < n ? n - depth : 0;
    for (k = from; k < n; k++) {
        if (k > from)
            out[len++] = '/';
        len += cet_site_step(d, chain[k], s, out + len);
    }
    out[len] = 0;
    free(chain);
    return out;
}

/* ---- names ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sets s's names to v[0..n) (taken over, repeats freed): alphabetical, and
 * their hashes sorted. */
int cet_site_set_names(struct cet_site *s, char **v, size_t n)
{
    if (n) /* v may be NULL then, which qsort must not be given */
        qsort(v, n, sizeof *v, cmp_str);
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (m && !strcmp(v[m - 1], v[k]))
            free(v[k]);
        else
            v[m++] = v[k];
    }
    s->names = v;
    s->nnames = m;
    if (!(s->hashes = malloc((m ? m : 1) * sizeof *s->hashes)))
        return -1;
    for (size_t k = 0; k < m; k++)
        s->hashes[k] = cet_site_token_hash(v[k]);
    qsort(s->hashes, m, sizeof *s->hashes, cmp_u64);
    return 0;
}

/* ---- texts ---- */

/* A text rule reads a word without its ASCII digits, so that a year, a
 * date or a count does not make the same line of boilerplate another text.
 * Feeds word w[0..n) so folded to *h and appends it to b (either may be
 * NULL), after a space when *started; returns 0, or -1 when out of memory.
 * A word of digits alone is left out. */
static int fold_word(const char *w, size_t n, int *started, uint64_t *h, struct cet_buf *b)
{
    size_t keep = 0;
    for (size_t i = 0; i < n; i++)
        keep += !isdigit((unsigned char)w[i]);
    if (!keep)
        return 0;
    if (*started) {
        if (h)
            *h = cet_fnv(*h, " ", 1);
        if (b && cet_buf_add(b, " ", 1))
            return -1;
    }
    *started = 1;
    for (size_t i = 0, j; i < n; i = j + 1) {
        for (j = i; j < n && !isdigit((unsigned char)w[j]); j++)
            ;
        if (h)
            *h = cet_fnv(*h, w + i, j - i);
        if (b && j > i && cet_buf_add(b, w + i, j - i))
            return -1;
    }
    return 0;
}

char *cet_site_text(const struct cet_doc *d, uint32_t b)
{
    struct cet_buf t = {0};
    int started = 0, rc = cet_buf_add(&t, "", 0);
    for (uint32_t k = 0; k < d->ntexts && !rc; k++) {
        const struct cet_node *nd = &d->nodes[d->texts[k]];
        for (uint32_t w = nd->w0; nd->block == b && w < nd->w1 && !rc; w++) {
            const char *s = cet_word_str(d, d->words[w]);
            rc = fold_word(s, strlen(s), &started, NULL, &t);
        }
    }
    if (rc)
        cet_buf_free(&t);
    return rc ? NULL : t.p;
}

int cet_site_text_hashes(const struct cet_doc *d, uint64_t *h)
{
    uint32_t n = d->nnodes ? d->nnodes : 1;
    uint64_t *state = malloc(n * sizeof *state);
    int *started = calloc(n, sizeof *started);
    if (!state || !started) {
        free(state);
        free(started);
        return -1;
    }
    for (uint32_t k = 0; k < d->ntexts; k++) {
        const struct cet_node *nd = &d->nodes[d->texts[k]];
        if (nd->block == CET_NONE)
            continue;
        if (!started[nd->block])
            state[nd->block] = CET_FNV_BASIS;
        for (uint32_t w = nd->w0; w < nd->w1; w++) {
            const char *s = cet_word_str(d, d->words[w]);
            fold_word(s, strlen(s), &started[nd->block], &state[nd->block], NULL);
        }
    }
    for (uint32_t k = 0; k < d->ntexts; k++) {
        uint32_t b = d->nodes[d->texts[k]].block;
        h[k] = b == CET_NONE || !started[b] ? 0 : finish(state[b]);
    }
    free(state);
    free(started);
    return 0;
}

/* cet_words' callback state for a hand-written text: the words as the
 * metric reads them, folded as a text rule reads them (fold_word). */
struct fold {
    struct cet_buf b;
    int started;
};

static int fold_cb(const char *w, size_t n, void *ctx)
{
    struct fold *f = ctx;
    return fold_word(w, n, &f->started, NULL, &f->b);
}

/* Sorts s's texts and hashes them; a text given twice is refused. */
static int finish_texts(struct cet_site *s, struct cet_error *err)
{
    qsort(s->drop_texts, s->ndrop_texts, sizeof *s->drop_texts, cmp_str);
    for (size_t k = 0; k < s->ndrop_texts; k++) {
        if (k && !strcmp(s->drop_texts[k], s->drop_texts[k - 1]))
            return cet_fail(err, "the text \"%.300s\" is given twice", s->drop_texts[k]);
        s->drop_hashes[k] = cet_site_hash(s->drop_texts[k]);
    }
    qsort(s->drop_hashes, s->ndrop_texts, sizeof *s->drop_hashes, cmp_u64);
    return 0;
}

/* Room for n more texts in s. */
static int grow_texts(struct cet_site *s, size_t n)
{
    size_t m = s->ndrop_texts + n + 1;
    char **v = realloc(s->drop_texts, m * sizeof *v);
    if (v)
        s->drop_texts = v;
    uint64_t *h = v ? realloc(s->drop_hashes, m * sizeof *h) : NULL;
    if (h)
        s->drop_hashes = h;
    return v && h ? 0 : -1;
}

int cet_site_take_texts(struct cet_site *s, char **v, size_t n, struct cet_error *err)
{
    if (grow_texts(s, n)) {
        for (size_t k = 0; k < n; k++)
            free(v[k]);
        return cet_fail(err, "out of memory");
    }
    for (size_t k = 0; k < n; k++)
        s->drop_texts[s->ndrop_texts++] = v[k];
    return finish_texts(s, err);
}

int cet_site_set_texts(struct cet_site *s, const char *const *texts, size_t n,
                       struct cet_error *err)
{
    if (grow_texts(s, n))
        return cet_fail(err, "out of memory");
    for (size_t k = 0; k < n; k++) {
        struct fold f = {{0}, 0};
        if (cet_buf_add(&f.b, "", 0) || cet_words(texts[k], strlen(texts[k]), fold_cb, &f)) {
            cet_buf_free(&f.b);
            return cet_fail(err, "out of memory");
        }
        if (!f.b.len) {
            cet_buf_free(&f.b);
            return cet_fail(err, "the text \"%.300s\" has no word to match (digits do not count)",
                            texts[k]);
        }
        s->drop_texts[s->ndrop_texts++] = f.b.p;
    }
    return finish_texts(s, err);
}

/* ---- applying ---- */

static int cmp_rule(const void *a, const void *b)
{
    const struct cet_site_rule *x = a, *y = b;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static const struct cet_site_rule *find(const struct cet_site *s, uint64_t slot)
{
    struct cet_site_rule key = {.slot = slot};
    return bsearch(&key, s->v, s->n, sizeof *s->v, cmp_rule);
}

/* The rule of one kind (suffix or not) at slot, or NULL. */
static const struct cet_site_rule *rule_at(const struct cet_site *s, uint64_t slot, int suffix)
{
    const struct cet_site_rule *r = slot && s->n ? find(s, slot) : NULL;
    return r && r->suffix == suffix ? r : NULL;
}

int cet_site_marks(const struct cet_site *s, const struct cet_doc *d, uint8_t *marks)
{
    size_t n = d->ntexts ? d->ntexts : 1;
    uint64_t *slots = malloc(2 * n * sizeof *slots), *suffix = slots ? slots + n : NULL;
    if (!slots || cet_site_slots(s, d, slots) ||
        (s->depth && cet_site_slots_at(s, d, s->depth, suffix))) {
        free(slots);
        return -1;
    }
    /* A whole-path rule first; a suffix rule where none matches. */
    for (uint32_t k = 0; k < d->ntexts; k++) {
        const struct cet_site_rule *r = rule_at(s, slots[k], 0);
        if (!r && s->depth)
            r = rule_at(s, suffix[k], 1);
        marks[k] = !r ? CET_SITE_NONE : r->keep ? CET_SITE_KEEP : CET_SITE_DROP;
    }
    /* A text to drop overrides the slots: it was learned where it stood at
     * the article's own place, which a keep slot may hold.  (slots, done
     * with, now holds each text node's block text.) */
    if (s->ndrop_texts && cet_site_text_hashes(d, slots)) {
        free(slots);
        return -1;
    }
    for (uint32_t k = 0; k < d->ntexts && s->ndrop_texts; k++)
        if (slots[k] && bsearch(&slots[k], s->drop_hashes, s->ndrop_texts, sizeof *slots, cmp_u64))
            marks[k] = CET_SITE_DROP;
    free(slots);
    return 0;
}

/* The marks' rules on sel; returns the words kept from the page, and the
 * words the guard's start keeps into *start. */
static uint64_t apply_rules(const struct cet_doc *d, const uint8_t *marks, struct cet_sel *sel,
                            uint64_t *start)
{
    uint32_t added = 0;
    uint64_t kept = 0;
    *start = 0;
    for (uint32_t k = 0; k < d->ntexts; k++) {
        uint32_t i = d->texts[k], rule = marks[k] & CET_SITE_RULE;
        uint32_t words = d->nodes[i].w1 - d->nodes[i].w0;
        if (rule == CET_SITE_KEEP && !sel->keep[i]) {
            sel->keep[i] = 1;
            added += words;
        } else if (rule == CET_SITE_DROP) {
            sel->keep[i] = 0;
        }
        kept += sel->keep[i] ? words : 0;
        *start += marks[k] & CET_SITE_START ? words : 0;
    }
    if (added)
        sel->nextra = 0;
    return kept;
}

/* Whether an extraction of kept words has lost the article the start's
 * parameters find (start words): CET_SITE_LOST_WORDS. */
static int lost(uint64_t start, uint64_t kept)
{
    return start >= CET_SITE_LOST_WORDS && kept < CET_SITE_LOST_WORDS && 10 * kept < start;
}

void cet_site_apply(const struct cet_doc *d, const uint8_t *marks, struct cet_sel *sel)
{
    uint64_t start, kept = apply_rules(d, marks, sel, &start);
    for (uint32_t k = 0; k < sel->nextra; k++)
        kept += d->nodes[sel->extra[k]].w1 - d->nodes[sel->extra[k]].w0;
    /* Tuned parameters that keep next to nothing where the start finds an
     * article have lost it: the labelled pages showed them keeping their
     * articles, so the page is unlike them, and the start's judgement
     * stands (measured in docs/experiment.md, "A lost article"). */
    if (!lost(start, kept))
        return;
    for (uint32_t k = 0; k < d->ntexts; k++)
        sel->keep[d->texts[k]] = (marks[k] & CET_SITE_START) != 0;
    sel->nextra = 0;
    if (!lost(start, apply_rules(d, marks, sel, &start)))
        return;
    /* The slot rules lose it too: they drop a place that held no gold on
     * the labelled pages and holds the article here (l3s-gn1
     * telegraph.co.uk: p.story, a teaser there, the story here).  The page
     * is unlike them again, so only the keep rules are applied. */
    for (uint32_t k = 0; k < d->ntexts; k++)
        sel->keep[d->texts[k]] =
            (marks[k] & CET_SITE_START) || (marks[k] & CET_SITE_RULE) == CET_SITE_KEEP;
}

/* Whether the guard leaves the tuned parameters' choice at a block of whole
 * path slot and last step last (0: none): a trusted slot's own, ancestor's
 * or named last step (trusted_slots). */
static int trusted_at(const struct cet_site *s, uint64_t slot, uint64_t last)
{
    return s->ntrusted &&
           ((slot && bsearch(&slot, s->trusted, s->ntrusted, sizeof *s->trusted, cmp_u64)) ||
            (last && bsearch(&last, s->trusted, s->ntrusted, sizeof *s->trusted, cmp_u64)));
}

/* Whether slot is one of s's held slots. */
static int held(const struct cet_site *s, uint64_t slot)
{
    struct cet_site_rule key = {.slot = slot};
    return s->nhold && bsearch(&key, s->hold, s->nhold, sizeof key, cmp_rule) != NULL;
}

int cet_site_guard(const struct cet_site *s, const struct cet_extractor *ex,
                   const struct cet_doc *d, void *prep, uint8_t *marks)
{
    if (!s->guard)
        return 0;
    struct cet_sel start = {0};
    struct cet_error err;
    void *own = NULL;
    size_t n = d->ntexts ? d->ntexts : 1;
    uint64_t *slots = malloc(2 * n * sizeof *slots), *last = slots ? slots + n : NULL;
    if (!prep && ex->prepare)
        prep = own = ex->prepare(d, &err);
    int rc = !slots || (ex->prepare && !prep) || cet_site_slots(s, d, slots) ||
             cet_site_slots_at(s, d, 1, last) || cet_sel_reset(&start, d) ||
             ex->run(d, prep, s->guard, &start);
    for (uint32_t k = 0; k < d->ntexts && !rc; k++) {
        int kept = start.keep[d->texts[k]];
        if (marks[k] == CET_SITE_NONE && !kept && !trusted_at(s, slots[k], last[k]))
            marks[k] = CET_SITE_DROP;
        else if (marks[k] == CET_SITE_NONE && kept && slots[k] && held(s, slots[k]))
            marks[k] = CET_SITE_KEEP;
        if (kept)
            marks[k] |= CET_SITE_START;
    }
    if (own && ex->release)
        ex->release(own);
    cet_sel_free(&start);
    free(slots);
    return rc ? -1 : 0;
}

int cet_site_run(const struct cet_site *s, const struct cet_extractor *ex,
                 const struct cet_doc *d, void *prep, struct cet_sel *sel)
{
    uint8_t *marks = malloc(d->ntexts ? d->ntexts : 1);
    if (!marks || cet_site_marks(s, d, marks) || cet_site_guard(s, ex, d, prep, marks)) {
        free(marks);
        return -1;
    }
    cet_site_apply(d, marks, sel);
    free(marks);
    return 0;
}

size_t cet_site_nkeep(const struct cet_site *s)
{
    size_t keep = 0;
    for (size_t k = 0; k < s->n; k++)
        keep += s->v[k].keep != 0;
    return keep;
}

size_t cet_site_nrules(const struct cet_site *s)
{
    return s->n + s->ndrop_texts;
}

void cet_site_counts(const struct cet_site *s, char *buf, size_t size)
{
    size_t keep = cet_site_nkeep(s);
    int n = snprintf(buf, size, "%zu keep, %zu drop", keep, s->n - keep);
    if (s->ndrop_texts && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", %zu text%s dropped", s->ndrop_texts,
                      s->ndrop_texts == 1 ? "" : "s");
    if (s->guard && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", a guard trusting %zu slot%s", s->ntrust,
                      s->ntrust == 1 ? "" : "s");
    if (s->nhold && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " and holding %zu", s->nhold);
}

static void free_rules(struct cet_site_rule *r, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(r[k].path);
    free(r);
}

static void free_guard(struct cet_site *s)
{
    free_rules(s->trust, s->ntrust);
    free_rules(s->hold, s->nhold);
    free(s->trusted);
    free(s->guard);
    s->trust = s->hold = NULL;
    s->trusted = NULL;
    s->guard = NULL;
    s->ntrust = s->nhold = s->ntrusted = s->nguard = 0;
}

/* The slots the guard trusts, from the trusted slots t[0..n): theirs, their
 * ancestors' (each path's prefixes up to a '/'), and their last step where
 * it names an id or a class (the same box under another wrapper, as a
 * suffix slot of one step: cet_site_slots_at), sorted and without repeats,
 * into *out. */
static int trusted_slots(const struct cet_site_rule *t, size_t n, uint64_t **out, size_t *nout)
{
    size_t m = 0, most = 0;
    for (size_t k = 0; k < n; k++) { /* its last step, and a slot per prefix */
        most++;
        for (const char *c = t[k].path; *c; c++)
            most += c[1] == '/' || !c[1];
    }
    uint64_t *h = malloc((most ? most : 1) * sizeof *h);
    char *p = NULL;
    for (size_t k = 0; k < n && h; k++) {
        free(p);
        if (!(p = strdup(t[k].path))) {
            free(h);
            return -1;
        }
        const char *last = strrchr(p, '/');
        last = last ? last + 1 : p;
        if (strpbrk(last, "#."))
            h[m++] = cet_site_hash(last);
        for (char *c = p; *c; c++) /* every prefix that ends a step */
            if (c[1] == '/' || !c[1]) {
                char keep = c[1];
                c[1] = 0;
                h[m++] = cet_site_hash(p);
                c[1] = keep;
            }
    }
    free(p);
    if (!h)
        return -1;
    if (m)
        qsort(h, m, sizeof *h, cmp_u64);
    size_t u = 0;
    for (size_t k = 0; k < m; k++)
        if (!u || h[k] != h[u - 1])
            h[u++] = h[k];
    *out = h;
    *nout = u;
    return 0;
}

/* ---- the configuration's "site" member ---- */

/* Appends the names path uses (after '#' or '.' in a step) to v. */
static int path_names(const char *path, char ***v, size_t *n, size_t *cap)
{
    for (const char *p = path; *p;) {
        if (*p != '#' && *p != '.') {
            p++;
            continue;
        }
        size_t len = strcspn(p + 1, "#./");
        if (len) {
            if (CET_GROW(*v, *cap, *n + 1, 16) || !((*v)[*n] = strndup(p + 1, len)))
                return -1;
            (*n)++;
        }
        p += 1 + len;
    }
    return 0;
}

int cet_site_from_paths(struct cet_site **out, const char *const *keep, size_t nkeep,
                        const char *const *drop, size_t ndrop, const char *const *names,
                        size_t nnames, long pages, struct cet_error *err)
{
    *out = NULL;
    struct cet_site *s = calloc(1, sizeof *s);
    size_t n = nkeep + ndrop, nv = 0, cap = 0;
    char **v = NULL;
    int rc = !s || !(s->v = calloc(n ? n : 1, sizeof *s->v));
    for (size_t k = 0; k < nnames && !rc; k++)
        rc = CET_GROW(v, cap, nv + 1, 16) || !(v[nv++] = strdup(names[k]));
    size_t depth = 0;
    const char *other = NULL; /* a suffix slot of another depth */
    for (size_t k = 0; k < n && !rc; k++) {
        const char *p = k < nkeep ? keep[k] : drop[k - nkeep];
        struct cet_site_rule *r = &s->v[s->n];
        r->suffix = !strncmp(p, CET_SITE_SUFFIX, strlen(CET_SITE_SUFFIX));
        const char *slot = r->suffix ? p + strlen(CET_SITE_SUFFIX) : p;
        if (r->suffix) {
            size_t steps = 1;
            for (const char *c = slot; *c; c++)
                steps += *c == '/';
            if (depth && steps != depth && !other)
                other = p;
            depth = steps;
        }
        r->slot = cet_site_hash(slot);
        r->keep = k < nkeep;
        rc = !(r->path = strdup(p)) || path_names(slot, &v, &nv, &cap);
        s->n += r->path != NULL;
    }
    if (s && !rc && other) {
        cet_fail(err, "the suffix slot \"%.300s\" has another number of steps than the others "
                      "(%zu)", other, depth);
        for (size_t k = 0; k < nv; k++)
            free(v[k]);
        free(v);
        cet_site_free(s);
        return -1;
    }
    if (s)
        s->depth = depth;
    if (s && !rc && cet_site_set_names(s, v, nv))
        rc = 1;
    else if (rc) {
        for (size_t k = 0; k < nv; k++)
            free(v[k]);
        free(v);
    }
    if (rc) {
        cet_site_free(s);
        return cet_fail(err, "out of memory");
    }
    s->pages = pages;
    qsort(s->v, s->n, sizeof *s->v, cmp_rule);
    for (size_t k = 1; k < s->n; k++)
        if (s->v[k].slot == s->v[k - 1].slot) {
            cet_fail(err, "the slot \"%.300s\" is given twice", s->v[k].path);
            cet_site_free(s);
            return -1;
        }
    *out = s;
    return 0;
}

static int cmp_path(const void *a, const void *b)
{
    const struct cet_site_rule *const *x = a, *const *y = b;
    return strcmp((*x)->path, (*y)->path);
}

/* A JSON array of strings. */
static int string_list(struct cet_buf *out, const char *const *v, size_t n)
{
    int rc = cet_buf_puts(out, "[");
    for (size_t k = 0; k < n && !rc; k++) {
        cJSON *str = cJSON_CreateString(v[k]);
        char *t = str ? cJSON_PrintUnformatted(str) : NULL;
        rc = !t || cet_buf_printf(out, "%s%s", k ? ", " : "", t);
        cJSON_free(t);
        cJSON_Delete(str);
    }
    return rc || cet_buf_puts(out, "]") ? -1 : 0;
}

/* The paths of rules r[0..nr) that keep (or drop), alphabetical: a diff of
 * two runs' rules reads well. */
static int path_list(struct cet_buf *out, const struct cet_site_rule *r, size_t nr, int keep)
{
    const struct cet_site_rule **v = malloc((nr ? nr : 1) * sizeof *v);
    const char **p = malloc((nr ? nr : 1) * sizeof *p);
    size_t n = 0;
    int rc = !v || !p;
    for (size_t k = 0; k < nr && !rc; k++)
        if (r[k].keep == keep)
            v[n++] = &r[k];
    if (!rc) {
        qsort(v, n, sizeof *v, cmp_path);
        for (size_t k = 0; k < n; k++)
            p[k] = v[k]->path;
        rc = string_list(out, p, n);
    }
    free(v);
    free(p);
    return rc ? -1 : 0;
}

/* {"params": {...}, "trust": [...]}: the guard's parameters as a
 * configuration's, those the others switch off left out. */
static int guard_json(struct cet_buf *out, const struct cet_site *s, const struct cet_extractor *ex)
{
    return cet_buf_puts(out, "{\"params\": ") || cet_params_json(out, ex, s->guard, NULL) ||
                   cet_buf_puts(out, ", \"trust\": ") || path_list(out, s->trust, s->ntrust, 1) ||
                   (s->nhold && (cet_buf_puts(out, ", \"hold\": ") ||
                                 path_list(out, s->hold, s->nhold, 1))) ||
                   cet_buf_puts(out, "}")
               ? -1
               : 0;
}

int cet_site_json(struct cet_buf *out, const struct cet_site *s, const struct cet_extractor *ex)
{
    int rc = s->pages >= 0 ? cet_buf_printf(out, "{\"pages\": %ld, ", s->pages)
                           : cet_buf_puts(out, "{");
    rc = rc || cet_buf_puts(out, "\"names\": ") ||
         string_list(out, (const char *const *)s->names, s->nnames) ||
         cet_buf_puts(out, ", \"keep\": ") || path_list(out, s->v, s->n, 1) ||
         cet_buf_puts(out, ", \"drop\": ") || path_list(out, s->v, s->n, 0);
    if (!rc && s->ndrop_texts)
        rc = cet_buf_puts(out, ", \"drop_text\": ") ||
             string_list(out, (const char *const *)s->drop_texts, s->ndrop_texts);
    if (!rc && s->guard)
        rc = !ex || ex->nparams != s->nguard || cet_buf_puts(out, ", \"guard\": ") ||
             guard_json(out, s, ex);
    return rc || cet_buf_puts(out, "}") ? -1 : 0;
}

/* The whole paths paths[0..n) as rules sorted by slot into *out, the names
 * they use joined to s's names; what ("trusted", "held") names them when
 * one is a suffix slot or given twice (refused). */
static int guard_paths(struct cet_site *s, const char *what, const char *const *paths, size_t n,
                       struct cet_site_rule **out, struct cet_error *err)
{
    size_t nv = 0, cap = 0, nt = 0;
    char **v = NULL;
    struct cet_site_rule *t = calloc(n ? n : 1, sizeof *t);
    int rc = !t;
    for (size_t k = 0; k < s->nnames && !rc; k++)
        rc = CET_GROW(v, cap, nv + 1, 16) || !(v[nv++] = strdup(s->names[k]));
    for (size_t k = 0; k < n && !rc; k++, nt++) {
        if (!strncmp(paths[k], CET_SITE_SUFFIX, strlen(CET_SITE_SUFFIX))) {
            cet_fail(err, "the %s slot \"%.300s\" is a suffix slot; the guard takes whole paths",
                     what, paths[k]);
            rc = 2;
            break;
        }
        t[k] = (struct cet_site_rule){cet_site_hash(paths[k]), strdup(paths[k]), 1, 0};
        rc = !t[k].path || path_names(paths[k], &v, &nv, &cap);
    }
    if (!rc) {
        qsort(t, nt, sizeof *t, cmp_rule);
        for (size_t k = 1; k < nt && !rc; k++)
            if (t[k].slot == t[k - 1].slot) {
                cet_fail(err, "the %s slot \"%.300s\" is given twice", what, t[k].path);
                rc = 2;
            }
    }
    if (!rc) { /* the copy, with the paths' names, replaces the names */
        for (size_t k = 0; k < s->nnames; k++)
            free(s->names[k]);
        free(s->names);
        free(s->hashes);
        s->hashes = NULL;
        rc = cet_site_set_names(s, v, nv) ? 1 : 0; /* takes v over */
        v = NULL;
        nv = 0;
    }
    for (size_t k = 0; k < nv; k++)
        free(v[k]);
    free(v);
    if (rc) {
        free_rules(t, nt);
        return rc == 2 ? -1 : cet_fail(err, "out of memory");
    }
    *out = t;
    return 0;
}

int cet_site_set_guard(struct cet_site *s, const double *params, size_t n,
                       const char *const *trust, size_t ntrust, struct cet_error *err)
{
    struct cet_site_rule *t = NULL;
    double *g = malloc((n ? n : 1) * sizeof *g);
    uint64_t *h = NULL;
    size_t nh = 0;
    if (!g)
        return cet_fail(err, "out of memory");
    if (guard_paths(s, "trusted", trust, ntrust, &t, err)) {
        free(g);
        return -1;
    }
    if (trusted_slots(t, ntrust, &h, &nh)) {
        free_rules(t, ntrust);
        free(g);
        return cet_fail(err, "out of memory");
    }
    memcpy(g, params, n * sizeof *g);
    free_guard(s);
    s->guard = g;
    s->nguard = n;
    s->trust = t;
    s->ntrust = ntrust;
    s->trusted = h;
    s->ntrusted = nh;
    return 0;
}

int cet_site_set_hold(struct cet_site *s, const char *const *hold, size_t n,
                      struct cet_error *err)
{
    struct cet_site_rule *t = NULL;
    if (!s->guard)
        return cet_fail(err, "held slots need a guard: the start's parameters whose keeps "
                             "they hold");
    if (guard_paths(s, "held", hold, n, &t, err))
        return -1;
    free_rules(s->hold, s->nhold);
    s->hold = t;
    s->nhold = n;
    return 0;
}

void cet_site_free(struct cet_site *s)
{
    if (!s)
        return;
    free_guard(s);
    free_rules(s->v, s->n);
    for (size_t k = 0; k < s->nnames; k++)
        free(s->names[k]);
    free(s->names);
    free(s->hashes);
    for (size_t k = 0; k < s->ndrop_texts; k++)
        free(s->drop_texts[k]);
    free(s->drop_texts);
    free(s->drop_hashes);
    free(s);
}
