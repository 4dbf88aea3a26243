/* Extracting one page: the production use of a configuration.  One call
 * takes the page's bytes as they came (any charset, optionally the charset
 * the transport declared), parses them into the document model, runs the
 * configuration's extractor and renders the main text or the cleaned HTML,
 * exactly as `cetune extract` and `evaluate --extracts` write it.
 *
 *   struct cet_page *pg;
 *   cet_page_new(&pg, &err);
 *   struct cet_buf text = {0};
 *   if (cet_page_extract(pg, &cfg, bytes, len, NULL, &text, NULL, &err) == 0)
 *       fwrite(text.p, 1, text.len, stdout);
 *   cet_page_free(pg);
 *
 * A context keeps the scratch memory of one extraction for the next, so a
 * loop over pages allocates little once warm; it is not shared between
 * threads (use one per thread).  The configuration is only read. */
#ifndef CETUNE_PAGE_H
#define CETUNE_PAGE_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/buf.h"
#include "cetune/config.h"
#include "cetune/error.h"
#include "cetune/meta.h"
#include "cetune/extractor.h"

CET_BEGIN_DECL

struct cet_page;

/* What cet_page_extract writes (docs/formats.md, "Output formats"): the
 * main text; the cleaned page as HTML; the main text as Markdown (headings,
 * lists, quotes, code, emphasis, links); one JSON object with the page's
 * metadata (meta.h), the text and its word count. */
enum cet_page_format { CET_PAGE_TEXT = 0, CET_PAGE_HTML = 1, CET_PAGE_MARKDOWN = 2, CET_PAGE_JSON = 3 };
/* The format called name ("text", "html", "markdown", "json"), or -1. */
int cet_page_format_find(const char *name);
/* The name of format f. */
const char *cet_page_format_name(enum cet_page_format f);

/* How a page is read and written; NULL means all defaults (zeroes). */
struct cet_page_opts {
    enum cet_page_format format;
    const char *charset; /* declared by the transport (HTTP Content-Type charset), or NULL */
    const char *url;     /* the page's URL, or NULL: the JSON's url, the base of a relative
                            canonical link */
    int metadata;        /* read the metadata (info->meta) whatever the format */
    double time_limit;   /* seconds; 0 = none.  Checked after decoding, after each
                            megabyte parsed, and between preparing, running and rendering
                            (an extractor's run is not interrupted) */
};

/* What the extraction found, for logs and JSON answers. */
struct cet_page_info {
    char charset[32];   /* the charset the page was decoded from */
    size_t bytes;       /* size of the page as given */
    uint32_t words;     /* words of the extract, as the metric counts them */
    uint32_t page_words;/* words of the whole page */
    /* The page's metadata with the JSON format or opts->metadata, else NULL;
     * owned by the context, valid until its next extraction. */
    const struct cet_meta *meta;
};

int cet_page_new(struct cet_page **out, struct cet_error *err);
void cet_page_free(struct cet_page *pg);

/* Extracts the main content of the page bytes[0..len) with cfg into out
 * (emptied first; NUL-terminated).  A NULL cfg means the shipped
 * configuration (cet_config_load_default), loaded at the first such call and
 * kept by the context; when it cannot be found the call fails with
 * CET_ERROR and says where it looked.  info may be NULL.  Returns 0, or with
 * the reason in err: CET_EUNUSABLE (empty, binary, over 64 MB, too deep),
 * CET_ECHARSET (the declared charset is unknown), CET_ETIMEOUT (the time
 * limit passed) or CET_ERROR (out of memory, or the extractor failed). */
int cet_page_extract(struct cet_page *pg, const struct cet_config *cfg, const char *bytes,
                     size_t len, const struct cet_page_opts *opts, struct cet_buf *out,
                     struct cet_page_info *info, struct cet_error *err);

/* Renders an extraction (src/page/render.c): text (the kept text nodes laid
 * out as a browser would, cet_layout_walk, then a line end) or the cleaned
 * HTML.  doc must
 * have its text (CET_LOAD_TEXT); -1 if not, or when out of memory. */
int cet_extract_text(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out);
int cet_extract_html(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out);
int cet_extract_markdown(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out);

CET_END_DECL

#endif
