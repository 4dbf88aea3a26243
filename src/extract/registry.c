/* The table of extractors; parameter names here are part of the contract. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/extractor.h"
#include "extractors.h"
#include "pipeline.h"


static const struct cet_extractor *const registry[] = {
    &cet_extractor_alltext,
    &cet_extractor_lqf,
    &cet_extractor_ccb, &cet_extractor_accb, &cet_extractor_tccb,
    &cet_extractor_density,
    &cet_extractor_sw,
    &cet_extractor_crunch, &cet_extractor_mantratzis,
    &cet_extractor_score,
    &cet_extractor_pipeline,
};

size_t cet_extractor_count(void)
{
    return sizeof registry / sizeof registry[0];
}

const struct cet_extractor *cet_extractor_at(size_t i)
{
    cet_pipeline_init();
    return i < cet_extractor_count() ? registry[i] : NULL;
}

const struct cet_extractor *cet_extractor_find(const char *name)
{
    cet_pipeline_init();
    for (size_t i = 0; i < cet_extractor_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

int cet_param_index(const struct cet_extractor *ex, const char *name)
{
    for (size_t i = 0; i < ex->nparams; i++)
        if (strcmp(ex->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

int cet_param_active(const struct cet_extractor *ex, const double *p, size_t i)
{
    return !ex->active || ex->active(p, i);
}

void cet_params_default(const struct cet_extractor *ex, double *p)
{
    for (size_t i = 0; i < ex->nparams; i++)
        p[i] = ex->params[i].def;
}

int cet_param_parse(const struct cet_extractor *ex, size_t i, const char *value, double *v,
                    struct cet_error *err)
{
    const struct cet_param *pa = &ex->params[i];
    switch (pa->type) {
    case CET_P_BOOL:
        if (!strcmp(value, "true") || !strcmp(value, "1"))
            *v = 1;
        else if (!strcmp(value, "false") || !strcmp(value, "0"))
            *v = 0;
        else
            return cet_fail(err, "%s.%s: expected true or false, got '%s'", ex->name, pa->name, value);
        return 0;
    case CET_P_ENUM:
        for (size_t k = 0; pa->values && pa->values[k]; k++)
            if (!strcmp(pa->values[k], value)) {
                *v = (double)k;
                return 0;
            }
        char values[512];
        cet_param_values(ex, i, values, sizeof values);
        return cet_fail(err, "%s.%s: '%s' is not one of its values (%s)", ex->name, pa->name,
                        value, values);
    case CET_P_INT:
    case CET_P_FLOAT: {
        char *end;
        double d = strtod(value, &end);
        if (end == value || *end || !isfinite(d))
            return cet_fail(err, "%s.%s: expected a number, got '%s'", ex->name, pa->name, value);
        if (pa->type == CET_P_INT && d != floor(d))
            return cet_fail(err, "%s.%s: expected an integer, got '%s'", ex->name, pa->name, value);
        if (d < pa->min || d > pa->max)
            return cet_fail(err, "%s.%s: %s is outside [%g, %g]", ex->name, pa->name, value,
                            pa->min, pa->max);
        *v = d;
        return 0;
    }
    }
    return cet_fail(err, "%s.%s: unknown parameter type", ex->name, pa->name);
}

void cet_param_format(const struct cet_extractor *ex, size_t i, double v, int json, char *buf,
                      size_t size)
{
    const struct cet_param *pa = &ex->params[i];
    switch (pa->type) {
    case CET_P_BOOL:
        snprintf(buf, size, "%s", v != 0 ? "true" : "false");
        break;
    case CET_P_ENUM: {
        size_t k = 0;
        while (pa->values && pa->values[k] && k < (size_t)v)
            k++;
        const char *name = pa->values && pa->values[k] ? pa->values[k] : "?";
        snprintf(buf, size, json ? "\"%s\"" : "%s", name);
        break;
    }
    case CET_P_INT:
        snprintf(buf, size, "%.0f", v);
        break;
    case CET_P_FLOAT:
        /* Shortest form that reads back to the same double. */
        for (int prec = 6; prec <= 17; prec++) {
            snprintf(buf, size, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
        break;
    }
}

/* ---- selections ---- */

int cet_sel_reset(struct cet_sel *sel, const struct cet_doc *doc)
{
    if (sel->keep_cap < doc->nnodes) {
        uint8_t *k = realloc(sel->keep, doc->nnodes);
        if (!k)
            return -1;
        sel->keep = k;
        sel->keep_cap = doc->nnodes;
    }
    if (doc->nnodes)
        memset(sel->keep, 0, doc->nnodes);
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
    if (sel->nextra == sel->extra_cap) {
        size_t cap = sel->extra_cap ? sel->extra_cap * 2 : 64;
        uint32_t *e = realloc(sel->extra, cap * sizeof *e);
        if (!e)
            return -1;
        sel->extra = e;
        sel->extra_cap = cap;
    }
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

void cet_param_values(const struct cet_extractor *ex, size_t i, char *buf, size_t size)
{
    const struct cet_param *pa = &ex->params[i];
    size_t n = 0;
    buf[0] = 0;
    for (size_t k = 0; pa->values && pa->values[k] && n < size; k++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? ", " : "", pa->values[k]);
}
