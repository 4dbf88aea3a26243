/* The pages of cetune label (label_pages.h): a corpus scanned once, each
 * page read again when it is shown or saved, so that what is on disk is
 * what the browser sees.  Gold goes in the canonical layout, where a load
 * of the corpus (or of the output corpus) reads it. */
#define _GNU_SOURCE /* realpath, strndup */
#include "label_pages.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/layout.h"
#include "cetune/eval.h"
#include "cetune/page.h"
#include "doc/mark.h"

/* "a CleanEval", for "... corpus" in messages. */
static const char *a_layout(enum cet_layout t)
{
    return t == CET_LAYOUT_CLEANEVAL      ? "a CleanEval"
           : t == CET_LAYOUT_ARTICLE_JSON ? "an article-JSON"
                                          : "a canonical";
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* OUT/PACKAGE/NAME + suffix, or the entry's own gold path (in place). */
static int out_path(const struct cet_label *l, const struct cet_entry *x, const char *suffix,
                    char *path, size_t size, struct cet_error *err)
{
    int n = l->out ? snprintf(path, size, "%s/%s/%s%s", l->out, x->package, x->name, suffix)
                   : snprintf(path, size, "%s", x->gold_path);
    return n >= 0 && (size_t)n < size ? 0 : (cet_fail(err, "the path of %s/%s is too long",
                                                      x->package, x->name), 500);
}

int label_gold_path(const struct cet_label *l, size_t i, char *path, size_t size,
                    struct cet_error *err)
{
    return out_path(l, &l->e.v[i], ".txt", path, size, err);
}

void cet_label_free(struct cet_label *l)
{
    if (!l)
        return;
    cet_entries_free(&l->e);
    free(l->corpus);
    free(l->corpus_real);
    free(l->out);
    free(l->out_real);
    free(l->assets);
    free(l->labelled);
    pthread_mutex_destroy(&l->lock);
    free(l);
}

int cet_label_new(struct cet_label **out, const struct cet_label_opts *o, struct cet_error *err)
{
    *out = NULL;
    struct cet_label *l = calloc(1, sizeof *l);
    if (!l)
        return cet_fail(err, "out of memory");
    pthread_mutex_init(&l->lock, NULL);
    l->cfg = o->cfg;
    const char *dirs[] = {o->corpus};
    if (cet_corpus_layout(o->corpus, &l->layout, err) || cet_corpus_scan(&l->e, dirs, 1, err))
        goto fail;
    if (!o->out && l->layout != CET_LAYOUT_CANONICAL) {
        cet_fail(err, "%s is %s corpus, whose gold has a format of its own (%s): label writes "
                      "canonical gold, so give --out DIR, a corpus for the labels",
                 o->corpus, a_layout(l->layout),
                 l->layout == CET_LAYOUT_CLEANEVAL ? "GoldStandard/NAME.txt with CleanEval markup"
                                                   : "the articleBody of ground-truth.json");
        goto fail;
    }
    enum cet_layout t;
    struct stat st;
    if (o->out && stat(o->out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            cet_fail(err, "--out %s: not a directory", o->out);
            goto fail;
        }
        if (cet_corpus_layout(o->out, &t, err))
            goto fail;
        if (t != CET_LAYOUT_CANONICAL) {
            cet_fail(err, "--out %s is %s corpus: label writes canonical gold "
                          "(PACKAGE/NAME.txt), which it would not read; choose another directory",
                     o->out, a_layout(t));
            goto fail;
        }
    }
    if (o->out && cet_mkdirs(o->out) != 0) {
        cet_fail(err, "--out %s: %s", o->out, strerror(errno));
        goto fail;
    }
    if (!(l->corpus = strdup(o->corpus)) || !(l->assets = strdup(o->assets)) ||
        (o->out && !(l->out = strdup(o->out))) ||
        !(l->labelled = calloc(l->e.n ? l->e.n : 1, 1))) {
        cet_fail(err, "out of memory");
        goto fail;
    }
    if (!(l->corpus_real = realpath(o->corpus, NULL)) ||
        (o->out && !(l->out_real = realpath(o->out, NULL)))) {
        cet_fail(err, "%s: %s", l->corpus_real ? o->out : o->corpus, strerror(errno));
        goto fail;
    }
    for (size_t i = 0; i < l->e.n; i++) {
        char path[PATH_MAX];
        if (label_gold_path(l, i, path, sizeof path, err))
            goto fail;
        l->labelled[i] = is_file(path);
        l->nlabelled += l->labelled[i];
    }
    *out = l;
    return 0;
fail:
    cet_label_free(l);
    return -1;
}

size_t cet_label_pages(const struct cet_label *l)
{
    return l->e.n;
}

size_t cet_label_labelled(const struct cet_label *l)
{
    return l->nlabelled;
}

long label_find(const struct cet_label *l, const char *id)
{
    const char *slash = strchr(id, '/');
    if (!slash)
        return -1;
    size_t plen = (size_t)(slash - id);
    for (size_t i = 0; i < l->e.n; i++) {
        const struct cet_entry *x = &l->e.v[i];
        if (strlen(x->package) == plen && !strncmp(x->package, id, plen) &&
            !strcmp(x->name, slash + 1))
            return (long)i;
    }
    return -1;
}

/* Page i parsed as a corpus load parses it, with gold when not NULL. */
static int parse_page(const struct cet_label *l, size_t i, const char *gold, size_t gold_len,
                      struct cet_doc **doc, struct cet_error *err)
{
    struct cet_buf html = {0};
    int rc = cet_entry_read_page(&html, &l->e.v[i], err) ? 500
             : cet_doc_parse(doc, html.p, html.len, gold, gold_len, err) ? 500 : 0;
    cet_buf_free(&html);
    return rc;
}

int label_marked(const struct cet_label *l, size_t i, struct cet_buf *out, struct cet_error *err)
{
    struct cet_buf html = {0};
    struct cet_doc *doc = NULL;
    int rc = cet_entry_read_page(&html, &l->e.v[i], err) ? 500
             : cet_doc_parse_marked(&doc, html.p, html.len, out, err) ? 500 : 0;
    cet_doc_free(doc);
    cet_buf_free(&html);
    return rc;
}

static int skip_space(const char *s, size_t n, size_t p)
{
    while (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r'))
        p++;
    return (int)p;
}

/* The text nodes whose text the gold g[0..n) is made of, in order: what
 * label wrote is the kept nodes' texts with separators between them.
 * Returns 1 when that reads the whole gold. */
static int gold_nodes(const struct cet_doc *d, const char *g, size_t n, uint8_t *keep)
{
    size_t p = 0;
    for (uint32_t k = 0; k < d->ntexts; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        const char *s = cet_node_str(d, d->texts[k]);
        size_t from = (size_t)skip_space(s, t->len, 0), len = t->len - from;
        size_t q = (size_t)skip_space(g, n, p);
        if (len && q + len <= n && !memcmp(g + q, s + from, len)) {
            keep[d->texts[k]] = 1;
            p = q + len;
        }
    }
    return (size_t)skip_space(g, n, p) == n;
}

/* Gold not written by label (by hand, another tool): the page's words
 * aligned with the gold's as the metric aligns them (the word LCS, in
 * document order), and the text nodes with at least half of their words in
 * that alignment.  A word of the gold matches one place of the page, so
 * "Home" or "Business" in a menu stays unmarked when the gold's one is the
 * article's. */
static int gold_aligned(const struct cet_doc *d, uint8_t *keep, struct cet_error *err)
{
    uint8_t *in = malloc(d->nwords ? d->nwords : 1);
    int rc = !in || cet_gold_align(d, in);
    for (uint32_t k = 0; k < d->ntexts && !rc; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        uint32_t hits = 0;
        for (uint32_t w = t->w0; w < t->w1; w++)
            hits += in[w];
        keep[d->texts[k]] = t->w1 > t->w0 && 2 * hits >= t->w1 - t->w0;
    }
    free(in);
    return rc ? (cet_fail(err, "out of memory"), 500) : 0;
}

int label_selection(struct cet_label *l, size_t i, uint32_t **keep, size_t *n,
                    const char **source, struct cet_error *err)
{
    char path[PATH_MAX];
    struct cet_buf raw = {0};
    char *gold = NULL;
    size_t gold_len = 0;
    struct cet_doc *d = NULL;
    struct cet_sel sel = {0};
    *keep = NULL;
    *n = 0;
    int rc = label_gold_path(l, i, path, sizeof path, err);
    int labelled = rc == 0 && is_file(path);
    if (labelled && (cet_read_file(&raw, path, (size_t)256 << 20, err) ||
                     cet_decode_text(&gold, &gold_len, raw.p, raw.len, err)))
        rc = 500;
    if (rc || (rc = parse_page(l, i, gold, gold_len, &d, err)))
        goto done;
    if (labelled) {
        if (cet_sel_reset(&sel, d)) {
            rc = (cet_fail(err, "out of memory"), 500);
            goto done;
        }
        *source = gold_nodes(d, gold, gold_len, sel.keep) ? "gold" : "gold-approx";
        if (!strcmp(*source, "gold-approx")) {
            memset(sel.keep, 0, d->nnodes);
            if ((rc = gold_aligned(d, sel.keep, err)))
                goto done;
        }
    } else {
        *source = "config";
        if (cet_sel_run(&sel, d, l->cfg->ex, l->cfg->params, err)) {
            rc = 500;
            goto done;
        }
        /* The configuration's site rules, as extract applies them. */
        if (l->cfg->site && cet_site_run(l->cfg->site, l->cfg->ex, d, NULL, &sel)) {
            rc = (cet_fail(err, "out of memory"), 500);
            goto done;
        }
        /* Text an extractor appends (Crunch's retained links) is kept text. */
        for (uint32_t x = 0; x < sel.nextra; x++)
            sel.keep[sel.extra[x]] = 1;
    }
    if (!(*keep = malloc((d->ntexts ? d->ntexts : 1) * sizeof **keep))) {
        rc = (cet_fail(err, "out of memory"), 500);
        goto done;
    }
    for (uint32_t k = 0; k < d->ntexts; k++)
        if (sel.keep[d->texts[k]])
            (*keep)[(*n)++] = d->texts[k];
done:
    cet_sel_free(&sel);
    cet_doc_free(d);
    free(gold);
    cet_buf_free(&raw);
    return rc;
}

/* The directory of path must lie in root (resolved): no "..", no link out. */
static int inside(const char *root, const char *path, struct cet_error *err)
{
    char *dir = strndup(path, (size_t)(strrchr(path, '/') - path)), *real = NULL;
    if (!dir)
        return cet_fail(err, "out of memory"), 500;
    int rc = 0;
    size_t n = strlen(root);
    if (!(real = realpath(dir, NULL)))
        rc = (cet_fail(err, "%s: %s", dir, strerror(errno)), 500);
    else if (strncmp(real, root, n) || (real[n] && real[n] != '/'))
        rc = (cet_fail(err, "%s would be written outside %s (its directory is %s)", path, root,
                       real), 403);
    free(dir);
    free(real);
    struct stat st;
    if (rc == 0 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        rc = (cet_fail(err, "%s is a symbolic link: label replaces only files of the corpus", path),
              403);
    return rc;
}

/* The output corpus gets the page beside its gold: the bytes a load of
 * the corpus reads, so that both models are the same.  A different page
 * of the same name is never replaced. */
static int copy_page(const struct cet_label *l, size_t i, struct cet_error *err)
{
    char path[PATH_MAX];
    struct cet_buf html = {0}, there = {0};
    struct cet_error ignored;
    int rc = out_path(l, &l->e.v[i], ".html", path, sizeof path, err);
    if (rc == 0 && cet_entry_read_page(&html, &l->e.v[i], err))
        rc = 500;
    if (rc == 0 && (rc = inside(l->out_real, path, err)) == 0 && is_file(path)) {
        if (cet_read_file(&there, path, html.len + 1, &ignored) || there.len != html.len ||
            memcmp(there.p, html.p, html.len))
            rc = (cet_fail(err, "%s is already there and is not the page %s: label never "
                                "replaces a page", path, l->e.v[i].html_path), 403);
    } else if (rc == 0 && cet_write_atomic(path, html.p ? html.p : "", html.len, err)) {
        rc = 500;
    }
    cet_buf_free(&html);
    cet_buf_free(&there);
    return rc;
}

/* 1 when the nodes keep[0..n) are, as a set, what page i shows first from
 * its gold (label_selection): a save of it changes nothing the user did. */
static int as_shown(struct cet_label *l, size_t i, const uint8_t *keep, uint32_t nnodes)
{
    uint32_t *shown = NULL;
    size_t nshown = 0, kept = 0;
    const char *source = "";
    struct cet_error ignored;
    if (label_selection(l, i, &shown, &nshown, &source, &ignored) || strncmp(source, "gold", 4)) {
        free(shown);
        return 0;
    }
    int same = 1;
    for (size_t k = 0; k < nshown && same; k++)
        same = shown[k] < nnodes && keep[shown[k]];
    for (uint32_t x = 0; x < nnodes; x++)
        kept += keep[x];
    free(shown);
    return same && kept == nshown;
}

/* Keeps the gold file path that a save is about to replace as
 * PATH.~N~, N the first number free (as `cp --backup=numbered`): the
 * gold made by hand survives any number of saves. */
static int keep_previous(const char *path, const struct cet_buf *old, char *backup, size_t size,
                         struct cet_error *err)
{
    for (unsigned k = 1; k < 100000; k++) {
        struct stat st;
        if (snprintf(backup, size, "%s.~%u~", path, k) >= (int)size)
            return (cet_fail(err, "the path of the copy of %s is too long", path), 500);
        if (lstat(backup, &st) != 0)
            return cet_write_atomic(backup, old->p ? old->p : "", old->len, err) ? 500 : 0;
    }
    return (cet_fail(err, "%s: no free name for a copy of the previous gold", path), 500);
}

int label_save(struct cet_label *l, size_t i, const uint32_t *keep, size_t n,
               struct label_saved *out, struct cet_error *err)
{
    struct cet_doc *d = NULL;
    struct cet_sel sel = {0};
    struct cet_buf text = {0}, old = {0};
    char *path = out->path;
    size_t size = sizeof out->path;
    uint32_t *words = &out->words;
    size_t *bytes = &out->bytes;
    out->backup[0] = 0;
    out->unchanged = 0;
    int rc = label_gold_path(l, i, path, size, err);
    if (rc || (rc = parse_page(l, i, NULL, 0, &d, err)))
        goto done;
    if (cet_sel_reset(&sel, d)) {
        rc = (cet_fail(err, "out of memory"), 500);
        goto done;
    }
    *words = 0;
    for (size_t k = 0; k < n; k++) {
        if (keep[k] >= d->nnodes || d->nodes[keep[k]].kind != CET_TEXT) {
            rc = (cet_fail(err, "keep: %u is not a text node of %s/%s", (unsigned)keep[k],
                           l->e.v[i].package, l->e.v[i].name), 400);
            goto done;
        }
        if (!sel.keep[keep[k]])
            *words += d->nodes[keep[k]].w1 - d->nodes[keep[k]].w0;
        sel.keep[keep[k]] = 1;
    }
    if (cet_extract_text(d, &sel, &text)) {
        rc = (cet_fail(err, "out of memory"), 500);
        goto done;
    }
    pthread_mutex_lock(&l->lock);
    if (l->out) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", l->out, l->e.v[i].package);
        if (cet_mkdirs(dir) != 0)
            rc = (cet_fail(err, "%s: %s", dir, strerror(errno)), 500);
    }
    if (rc == 0)
        rc = inside(l->out ? l->out_real : l->corpus_real, path, err);
    if (rc == 0 && l->out)
        rc = copy_page(l, i, err);
    /* A gold that is there stays byte for byte when the selection is the
     * one shown from it (it may be hand-made: its text is not the
     * selection's), or when the text is the same; else it is kept aside. */
    int there = rc == 0 && is_file(path);
    if (there && cet_read_file(&old, path, (size_t)256 << 20, err))
        rc = 500;
    if (rc == 0 && there &&
        (as_shown(l, i, sel.keep, d->nnodes) ||
         (old.len == text.len && !memcmp(old.p, text.p ? text.p : "", text.len)))) {
        out->unchanged = 1;
        text.len = old.len;
    } else {
        if (rc == 0 && there)
            rc = keep_previous(path, &old, out->backup, sizeof out->backup, err);
        if (rc == 0 && cet_write_atomic(path, text.p ? text.p : "", text.len, err))
            rc = 500;
    }
    if (rc == 0 && !l->labelled[i]) {
        l->labelled[i] = 1;
        l->nlabelled++;
    }
    pthread_mutex_unlock(&l->lock);
    *bytes = text.len;
done:
    cet_buf_free(&text);
    cet_buf_free(&old);
    cet_sel_free(&sel);
    cet_doc_free(d);
    return rc;
}
