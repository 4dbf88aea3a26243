/* One page from bytes to its main text (include/cetune/page.h): the path
 * `cetune extract`, `cetune serve`, the page fuzz target and the bench share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cetune/clock.h"
#include "cetune/page.h"
#include "doc/sax.h"
#include "meta_reader.h"
#include "render.h"

struct cet_page {
    struct cet_sel sel; /* kept across pages: no reallocation once warm */
    uint32_t *words;    /* scratch for counting the extract's words */
    size_t words_cap;
    struct cet_config shipped; /* loaded at the first extraction without a configuration */
    int has_shipped;
    struct cet_meta meta;      /* of the last page, when asked for */
    struct cet_buf text;       /* the JSON format's text */
};

static const char *const format_names[] = {"text", "html", "markdown", "json"};

int cet_page_format_find(const char *name)
{
    for (int f = 0; f < (int)(sizeof format_names / sizeof *format_names); f++)
        if (format_names[f] && !strcmp(name, format_names[f]))
            return f;
    return -1;
}

const char *cet_page_format_name(enum cet_page_format f)
{
    return (unsigned)f < sizeof format_names / sizeof *format_names ? format_names[f] : NULL;
}

int cet_page_new(struct cet_page **out, struct cet_error *err)
{
    *out = calloc(1, sizeof **out);
    return *out ? 0 : cet_fail(err, "out of memory");
}

void cet_page_free(struct cet_page *pg)
{
    if (!pg)
        return;
    cet_sel_free(&pg->sel);
    free(pg->words);
    if (pg->has_shipped)
        cet_config_free(&pg->shipped);
    cet_meta_free(&pg->meta);
    cet_buf_free(&pg->text);
    free(pg);
}

static int over(const struct cet_page_opts *o, double start, struct cet_error *err)
{
    if (o->time_limit > 0 && cet_now() - start > o->time_limit) {
        cet_fail(err, "time limit of %g s exceeded", o->time_limit);
        return 1;
    }
    return 0;
}

/* The JSON format: one object on one line, the metadata (null where the
 * page gives none), the text and its words. */
static int page_json(struct cet_buf *out, const struct cet_meta *m, const struct cet_buf *text,
                     uint32_t words)
{
    cJSON *o = cJSON_CreateObject();
    int ok = o != NULL;
    for (int f = 0; f < CET_META_N && ok; f++)
        ok = m->v[f] ? cJSON_AddStringToObject(o, cet_meta_key(f), m->v[f]) != NULL
                     : cJSON_AddNullToObject(o, cet_meta_key(f)) != NULL;
    ok = ok && cJSON_AddStringToObject(o, "text", text->p ? text->p : "") &&
         cJSON_AddNumberToObject(o, "words", words);
    char *s = ok ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    int rc = !s || cet_buf_puts(out, s) || cet_buf_puts(out, "\n") ? -1 : 0;
    free(s);
    return rc;
}

int cet_page_extract(struct cet_page *pg, const struct cet_config *cfg, const char *bytes,
                     size_t len, const struct cet_page_opts *opts, struct cet_buf *out,
                     struct cet_page_info *info, struct cet_error *err)
{
    static const struct cet_page_opts defaults;
    const struct cet_page_opts *o = opts ? opts : &defaults;
    double start = o->time_limit > 0 ? cet_now() : 0, deadline = start ? start + o->time_limit : 0;
    struct cet_doc *doc = NULL;
    void *prep = NULL;
    int rc = CET_ERROR;
    out->len = 0;
    if (cet_buf_reserve(out, 0))
        return cet_fail(err, "out of memory"), CET_ERROR;
    out->p[0] = 0;
    if (!cfg && !pg->has_shipped) {
        if (cet_config_load_default(&pg->shipped, err))
            return CET_ERROR;
        pg->has_shipped = 1;
    }
    const struct cet_extractor *ex = (cfg ? cfg : &pg->shipped)->ex;
    const double *params = (cfg ? cfg : &pg->shipped)->params;
    const struct cet_site *site = (cfg ? cfg : &pg->shipped)->site;
    if (o->charset && !cet_charset_known(o->charset)) {
        cet_fail(err, "unknown charset '%.40s'", o->charset);
        return CET_ECHARSET;
    }
    int json = o->format == CET_PAGE_JSON, html = o->format == CET_PAGE_HTML;
    /* The metadata for JSON, for the caller, and for the cleaned page's
     * title (the model keeps no text of the head): read from the events of
     * the model's parse, so the page is parsed once. */
    struct cet_meta_reader *meta = NULL;
    struct cet_sax tap;
    cet_meta_free(&pg->meta);
    if ((json || html || o->metadata) && cet_meta_begin(&meta, &pg->meta, o->url, &tap))
        return cet_fail(err, "out of memory"), CET_ERROR;
    int parsed = cet_doc_parse_tap(&doc, bytes, len, o->charset, deadline, meta ? &tap : NULL, err);
    if (meta) {
        int failed = cet_meta_finish(meta, parsed ? NULL : err); /* frees the metadata then */
        if (parsed)
            cet_meta_free(&pg->meta); /* the page is unusable: no metadata either */
        else if (failed) {
            cet_doc_free(doc);
            return CET_ERROR;
        }
    }
    if (parsed == CET_ETIMEOUT)
        return cet_fail(err, "time limit of %g s exceeded", o->time_limit), CET_ETIMEOUT;
    if (parsed)
        return CET_EUNUSABLE;
    if (over(o, start, err)) {
        rc = CET_ETIMEOUT;
        goto done;
    }
    if (ex->prepare && !(prep = ex->prepare(doc, err))) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        cet_fail(err, "%s: %s", ex->name, why);
        goto done;
    }
    if (over(o, start, err)) {
        rc = CET_ETIMEOUT;
        goto done;
    }
    if (cet_sel_reset(&pg->sel, doc) || ex->run(doc, prep, params, &pg->sel) ||
        (site && cet_site_run(site, ex, doc, prep, &pg->sel))) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (over(o, start, err)) {
        rc = CET_ETIMEOUT;
        goto done;
    }
    struct cet_buf *text = json ? &pg->text : out;
    text->len = 0;
    if (html ? cet_render_html(doc, &pg->sel, pg->meta.v[CET_META_TITLE], out)
        : o->format == CET_PAGE_MARKDOWN ? cet_extract_markdown(doc, &pg->sel, out)
                                         : cet_extract_text(doc, &pg->sel, text)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    uint32_t words = 0;
    if ((info || json) && cet_sel_words(doc, &pg->sel, &pg->words, &pg->words_cap, &words)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (over(o, start, err)) {
        rc = CET_ETIMEOUT;
        goto done;
    }
    if (json && page_json(out, &pg->meta, text, words)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (info) {
        memcpy(info->charset, doc->charset, sizeof info->charset);
        info->bytes = len;
        info->page_words = doc->nwords;
        info->words = words;
        info->meta = json || o->metadata ? &pg->meta : NULL;
    }
    rc = 0;
done:
    if (prep && ex->release)
        ex->release(prep);
    cet_doc_free(doc);
    if (rc) {
        out->len = 0;
        out->p[0] = 0;
    }
    return rc;
}
