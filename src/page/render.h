/* The renderers' internal entry points (render.c), for page.c. */
#ifndef CETUNE_PAGE_RENDER_H
#define CETUNE_PAGE_RENDER_H

#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/extractor.h"

/* cet_extract_html with the page's title given (the metadata reader's: the
 * model keeps no text of the head), or NULL for what the model has. */
int cet_render_html(const struct cet_doc *doc, const struct cet_sel *sel, const char *title,
                    struct cet_buf *out);

#endif
