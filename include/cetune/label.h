/* cetune label: gold text made in the browser (docs/label.md).
 *
 * The pages of one corpus (any layout) are shown as the browser renders
 * them, scripts off, each text node of cetune's document model marked, with
 * the blocks a configuration keeps highlighted.  The user corrects the
 * selection; saving writes the text of the selection, exactly as `extract`
 * prints it, as the page's gold in the canonical layout: NAME.txt beside
 * NAME.html, or OUT/PACKAGE/NAME.txt with a copy of the page beside it.  So
 * `evaluate` of a page saved unchanged gives F1 1 for the configuration.
 *
 * The service runs on the HTTP server of `serve` (serve.h) as its handler:
 *   GET  /                 the labelling page (index.html, label.js, label.css
 *                          of the assets directory, share/cetune/label/)
 *   GET  /api/pages        {"corpus", "layout", "config", "gold", "labelled",
 *                           "pages": [{"id": "PACKAGE/NAME", "labelled": bool}]}
 *   GET  /api/page?id=ID   {"id", "labelled", "source": "config" | "gold" |
 *                           "gold-approx", "keep": [node, ...], "file"}
 *   GET  /page?id=ID       the marked page (text/html, scripts refused by its
 *                          Content-Security-Policy)
 *   POST /api/save         {"id": ID, "keep": [node, ...]} as application/json
 *                          (415 otherwise: no form of another site can send
 *                          it): writes the gold, answers {"file", "words",
 *                          "bytes", "labelled"}
 * Errors answer {"error": "message"} with 400 (a bad request or body), 403
 * (a path that would leave the corpus), 404 (no such page or path), 405,
 * 413, 415, or 500 (the file system).  Writes are atomic (a temporary file, then rename),
 * one at a time, and never touch a page. */
#ifndef CETUNE_LABEL_H
#define CETUNE_LABEL_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/config.h"
#include "cetune/error.h"
#include "cetune/serve.h"

CET_BEGIN_DECL

struct cet_label;

struct cet_label_opts {
    const char *corpus;           /* the corpus directory, any layout */
    const char *out;              /* an output corpus for the gold, or NULL: beside the pages
                                     (a canonical corpus only) */
    const struct cet_config *cfg; /* whose kept blocks are shown first (only read) */
    const char *assets;           /* the directory of index.html, label.js, label.css */
};

/* Scans the corpus and checks where gold would go: a CleanEval or
 * article-JSON corpus keeps gold of its own format, so it needs an output
 * corpus; an output corpus must be canonical (not a CleanEval or article
 * JSON directory).  o->cfg must live as long as the service.  Returns 0, or
 * -1 with the reason in err. */
int cet_label_new(struct cet_label **out, const struct cet_label_opts *o, struct cet_error *err);
void cet_label_free(struct cet_label *l);
/* Pages, and pages that have gold where label writes it. */
size_t cet_label_pages(const struct cet_label *l);
size_t cet_label_labelled(const struct cet_label *l);

/* The server handler (cet_server_opts.handler, ctx the struct cet_label). */
void cet_label_handle(void *ctx, const struct cet_http_req *q, struct cet_http_reply *r);

CET_END_DECL

#endif
