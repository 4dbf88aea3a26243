/* Page loading plus every registered extractor at its defaults: parse, score
 * against a gold taken from the input's tail, render text and HTML. */
#include <stdlib.h>
#include <string.h>

#include "cetune/eval.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The last quarter doubles as gold text, so the metric sees related words. */
    size_t glen = size / 4;
    struct cet_doc *doc = NULL;
    struct cet_error err;
    if (cet_doc_parse(&doc, (const char *)data, size, (const char *)data + size - glen, glen, &err))
        return 0;
    struct cet_corpus c;
    memset(&c, 0, sizeof c);
    c.docs = &doc;
    c.ndocs = 1;
    struct cet_sel sel;
    memset(&sel, 0, sizeof sel);
    struct cet_buf out = {0};
    for (size_t x = 0; x < cet_extractor_count(); x++) {
        const struct cet_extractor *ex = cet_extractor_at(x);
        double params[64];
        if (ex->nparams > 64)
            abort();
        cet_params_default(ex, params);
        struct cet_evaluator *ev;
        if (cet_evaluator_new(&ev, &c, ex, CET_METRIC_WORD, 1, &err))
            continue;
        struct cet_score s;
        if (cet_evaluate(ev, params, 1, NULL, 0, &s, NULL, NULL, NULL, &err) == 0 &&
            (s.f1 < 0 || s.f1 > 1 || s.overlap > s.n_extract || s.overlap > s.n_gold))
            abort(); /* the metric's invariants */
        if (cet_evaluator_extract(ev, params, 0, &sel) == 0) {
            out.len = 0;
            cet_extract_text(doc, &sel, &out);
            out.len = 0;
            cet_extract_html(doc, &sel, &out);
        }
        cet_evaluator_free(ev);
    }
    cet_buf_free(&out);
    cet_sel_free(&sel);
    cet_doc_free(doc);
    return 0;
}
