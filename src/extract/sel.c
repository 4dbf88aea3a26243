/* Selections (struct cet_sel, include/cetune/extractor.h): what an extractor
 * keeps of a document, with the scratch memory it reuses from page to page. */
#include <stdlib.h>
#include <string.h>

#include "cetune/extractor.h"
#include "util/array.h"

int cet_sel_reset(struct cet_sel *sel, const struct cet_doc *doc)
{
    /* The alternates' nodes too: a caller may mark the extras as kept. */
    size_t n = (size_t)doc->nnodes + doc->nalt_nodes;
    if (sel->keep_cap < n) {
        uint8_t *k = realloc(sel->keep, n);
        if (!k)
            return -1;
        sel->keep = k;
        sel->keep_cap = n;
    }
    if (n)
        memset(sel->keep, 0, n);
    sel->nextra = 0;
    return 0;
}

void cet_sel_free(struct cet_sel *sel)
{
    for (size_t k = 0; k < sel->nsub; k++)
        cet_sel_free(&sel->sub[k]);
    free(sel->sub);
    free(sel->keep);
    free(sel->extra);
    for (int i = 0; i < 4; i++)
        free(sel->buf[i]);
    memset(sel, 0, sizeof *sel);
}

void *cet_sel_buf(struct cet_sel *sel, int slot, size_t bytes)
{
    if (slot < 0 || slot >= 4)
        return NULL;
    if (sel->buf_cap[slot] < bytes) {
        void *p = realloc(sel->buf[slot], bytes);
        if (!p)
            return NULL;
        sel->buf[slot] = p;
        sel->buf_cap[slot] = bytes;
    }
    return sel->buf[slot] ? sel->buf[slot] : (sel->buf[slot] = malloc(1));
}

struct cet_sel *cet_sel_sub(struct cet_sel *sel, size_t k)
{
    if (k >= sel->nsub) {
        struct cet_sel *s = realloc(sel->sub, (k + 1) * sizeof *s);
        if (!s)
            return NULL;
        memset(s + sel->nsub, 0, (k + 1 - sel->nsub) * sizeof *s);
        sel->sub = s;
        sel->nsub = k + 1;
    }
    return &sel->sub[k];
}

int cet_sel_add_extra(struct cet_sel *sel, uint32_t text_node)
{
    if (CET_GROW(sel->extra, sel->extra_cap, sel->nextra + 1, 64))
        return -1;
    sel->extra[sel->nextra++] = text_node;
    return 0;
}

void cet_sel_keep_all(const struct cet_doc *doc, struct cet_sel *sel)
{
    if (doc->nnodes)
        memset(sel->keep, 1, doc->nnodes);
}

void cet_sel_set_subtree(const struct cet_doc *doc, struct cet_sel *sel, uint32_t i, uint8_t keep)
{
    memset(sel->keep + i, keep, doc->nodes[i].end - i);
}

int cet_sel_run(struct cet_sel *sel, const struct cet_doc *doc, const struct cet_extractor *ex,
                const double *p, struct cet_error *err)
{
    void *prep = NULL;
    if (ex->prepare && !(prep = ex->prepare(doc, err)))
        return -1;
    int rc = cet_sel_reset(sel, doc) || ex->run(doc, prep, p, sel) ? -1 : 0;
    if (prep && ex->release)
        ex->release(prep);
    return rc ? cet_fail(err, "out of memory") : 0;
}

int cet_sel_words(const struct cet_doc *doc, const struct cet_sel *sel, uint32_t **words,
                  size_t *cap, uint32_t *n)
{
    size_t cnt = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (uint32_t i = 0; i < doc->nnodes; i++) {
            const struct cet_node *nd = &doc->nodes[i];
            if (nd->kind != CET_TEXT || !sel->keep[i])
                continue;
            if (pass)
                memcpy(*words + k, doc->words + nd->w0, (nd->w1 - nd->w0) * sizeof **words);
            k += nd->w1 - nd->w0;
        }
        for (uint32_t j = 0; j < sel->nextra; j++) {
            const struct cet_node *nd = &doc->nodes[sel->extra[j]];
            if (pass)
                memcpy(*words + k, doc->words + nd->w0, (nd->w1 - nd->w0) * sizeof **words);
            k += nd->w1 - nd->w0;
        }
        if (!pass) {
            cnt = k;
            if (*cap < cnt + 1) {
                uint32_t *w = realloc(*words, (cnt + 1) * sizeof *w);
                if (!w)
                    return -1;
                *words = w;
                *cap = cnt + 1;
            }
        }
    }
    *n = (uint32_t)cnt;
    return 0;
}
