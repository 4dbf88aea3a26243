/* A page through cet_page_extract (the path of `cetune extract` and `cetune
 * serve`) with every registered extractor at its defaults, as text, HTML and Markdown
 * (and once as JSON, whose metadata must be what cet_meta_read reads alone);
 * then the same page scored against a gold taken from the input's tail.
 *
 * An input starting with a byte below 8 declares a charset (as HTTP would)
 * for the rest of the input: the byte picks one from the table below. */
#include <stdlib.h>
#include <string.h>

#include "cetune/eval.h"
#include "cetune/page.h"
#include "cetune/text.h"
#include "fuzz.h"

static int count_word(const char *w, size_t n, void *ctx)
{
    (void)w, (void)n;
    ++*(uint32_t *)ctx;
    return 0;
}

/* Scoring is a corpus operation: the evaluator gets the page as a corpus of one. */
static void score(struct cet_doc *doc, const struct cet_extractor *ex, const double *params)
{
    struct cet_corpus c;
    memset(&c, 0, sizeof c);
    c.docs = &doc;
    c.ndocs = 1;
    struct cet_evaluator *ev;
    struct cet_error err;
    if (cet_evaluator_new(&ev, &c, ex, CET_METRIC_WORD, 1, &err))
        return;
    struct cet_score s;
    if (cet_evaluate(ev, params, 1, NULL, 0, &s, NULL, NULL, NULL, &err) == 0 &&
        (s.f1 < 0 || s.f1 > 1 || s.overlap > s.n_extract || s.overlap > s.n_gold))
        abort(); /* the metric's invariants */
    cet_evaluator_free(ev);
}

/* The metadata of the JSON format, read from the events of the model's
 * parse, is what cet_meta_read reads alone. */
static void same_metadata(struct cet_page *pg, const struct cet_config *cfg, const uint8_t *data,
                          size_t size, const char *charset)
{
    struct cet_page_opts opts = {.format = CET_PAGE_JSON, .charset = charset};
    struct cet_page_info info;
    struct cet_buf out = {0};
    struct cet_meta alone;
    struct cet_error err;
    if (cet_page_extract(pg, cfg, (const char *)data, size, &opts, &out, &info, &err) == 0 &&
        cet_meta_read(&alone, (const char *)data, size, charset, NULL, &err) == 0) {
        for (int f = 0; f < CET_META_N; f++) {
            const char *a = info.meta->v[f], *b = alone.v[f];
            if (a && b ? strcmp(a, b) != 0 : a != b)
                abort();
        }
        cet_meta_free(&alone);
    }
    cet_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const declared[8] = {"utf-8", "windows-1252", "utf-16le", "utf-16be",
                                            "koi8-r", "shift_jis", "gb18030", "no-such-charset"};
    struct cet_page_opts opts = {0};
    if (size && data[0] < 8) {
        opts.charset = declared[data[0]];
        data++, size--;
    }
    struct cet_page *pg;
    struct cet_error err;
    if (cet_page_new(&pg, &err))
        return 0;
    struct cet_buf out = {0};
    struct cet_doc *doc = NULL;
    /* The last quarter doubles as gold text, so the metric sees related words. */
    size_t glen = size / 4;
    if (cet_doc_parse_as(&doc, (const char *)data, size, opts.charset, 0,
                         (const char *)data + size - glen, glen, &err))
        doc = NULL;
    static const char *const chain[] = {"fallback_words=200", "fallback_share=0.5",
                                        "fallback_margin=1", "fallback_region=3",
                                        "fallback_alt_words=1"};
    for (size_t x = 0; x <= cet_extractor_count(); x++) {
        struct cet_config cfg = {0};
        int on = x == cet_extractor_count(); /* the last round: score's chain */
        if (cet_config_default(&cfg, on ? "score" : cet_extractor_at(x)->name, &err))
            continue; /* out of memory */
        for (size_t k = 0; on && k < sizeof chain / sizeof *chain; k++)
            if (cet_config_set(&cfg, chain[k], &err))
                abort();
        struct cet_page_info info;
        opts.format = CET_PAGE_TEXT;
        int rc = cet_page_extract(pg, &cfg, (const char *)data, size, &opts, &out, &info, &err);
        if ((rc == 0) != (doc != NULL) && rc != CET_ERROR)
            abort(); /* the page call and the corpus loader agree on what is usable */
        if (rc == 0) {
            uint32_t words = 0;
            /* The written text holds exactly the words scored, of the page's
             * text or of one of its alternates (cet_doc.alts). */
            if (cet_words(out.p, out.len, count_word, &words) == 0 &&
                (words != info.words || info.words > cet_doc_all_words(doc) ||
                 (info.words > info.page_words && !doc->nalts)))
                abort();
            opts.format = CET_PAGE_HTML;
            cet_page_extract(pg, &cfg, (const char *)data, size, &opts, &out, NULL, &err);
            opts.format = CET_PAGE_MARKDOWN;
            cet_page_extract(pg, &cfg, (const char *)data, size, &opts, &out, NULL, &err);
            if (x == 0)
                same_metadata(pg, &cfg, data, size, opts.charset);
        }
        if (doc)
            score(doc, cfg.ex, cfg.params);
        cet_config_free(&cfg);
    }
    cet_doc_free(doc);
    cet_buf_free(&out);
    cet_page_free(pg);
    return 0;
}
