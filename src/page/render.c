/* Rendering an extraction: the text that is scored, or the cleaned HTML.
 * The text is the kept text nodes joined as the page lays them out
 * (cet_layout_walk), so the words of the written text are exactly the
 * words scored. */
#include <stdlib.h>
#include <string.h>

#include "cetune/layout.h"
#include "cetune/page.h"
#include "render.h"
#include "util/array.h"

struct text_out {
    struct cet_buf *out;
    const struct cet_doc *doc;
};

static int add_node_text(void *ctx, uint32_t i, enum cet_sep sep)
{
    struct text_out *t = ctx;
    return cet_buf_puts(t->out, cet_sep_str(sep)) ||
           cet_buf_add(t->out, cet_node_str(t->doc, i), t->doc->nodes[i].len);
}

int cet_extract_text(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out)
{
    struct text_out t = {out, doc};
    size_t start = out->len;
    if (!doc->text || cet_buf_reserve(out, 0) ||
        cet_layout_walk(doc, sel->keep, sel->extra, sel->nextra, add_node_text, &t))
        return -1;
    if (out->len > start && cet_buf_add(out, "\n", 1))
        return -1;
    return 0;
}

static int close_tag(struct cet_buf *out, const struct cet_doc *doc, uint32_t e)
{
    if (cet_tag_flags(doc->nodes[e].tag) & CET_TAGF_VOID)
        return 0;
    return cet_buf_printf(out, "</%s>", cet_node_str(doc, e));
}

/* Script-like elements lost their bodies in the model, and the page's own
 * charset declaration would lie about the UTF-8 we write: both are left out. */
static int skip_element(const struct cet_doc *doc, uint32_t i)
{
    const struct cet_node *n = &doc->nodes[i];
    if (n->tag == CET_TAG_META)
        return cet_node_attr(doc, i, "charset") || cet_node_attr(doc, i, "http-equiv");
    return (cet_tag_flags(n->tag) & CET_TAGF_INVISIBLE) && n->tag != CET_TAG_HEAD &&
           n->tag != CET_TAG_TITLE;
}

static int is_inline(const struct cet_node *n)
{
    return !(cet_tag_flags(n->tag) & (CET_TAGF_BLOCK | CET_TAGF_BREAK));
}

/* The document's frame: <html> (with the page's lang), a head with the
 * charset and the page's title (title, else as far as the model keeps it),
 * <body>.  The
 * page's own html, head and body tags are left out (their kept content is
 * in the body), so the frame is written once and in order. */
static int open_frame(struct cet_buf *out, const struct cet_doc *doc, const char *given)
{
    const char *lang = NULL;
    uint32_t title = doc->nnodes;
    for (uint32_t i = 0; i < doc->nnodes; i++) {
        const struct cet_node *n = &doc->nodes[i];
        if (n->kind == CET_ELEMENT && n->tag == CET_TAG_HTML && !lang)
            lang = cet_node_attr(doc, i, "lang");
        if (n->kind == CET_ELEMENT && n->tag == CET_TAG_TITLE && title == doc->nnodes)
            title = i;
    }
    int rc = cet_buf_puts(out, "<!DOCTYPE html>\n<html");
    if (lang)
        rc = rc || cet_buf_puts(out, " lang=\"") || cet_buf_escape(out, lang, strlen(lang), 1) ||
             cet_buf_puts(out, "\"");
    rc = rc || cet_buf_puts(out, ">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    if (given)
        rc = rc || cet_buf_escape(out, given, strlen(given), 0);
    for (uint32_t i = title + 1; !given && title < doc->nnodes && i < doc->nodes[title].end && !rc;
         i++)
        if (doc->nodes[i].kind == CET_TEXT)
            rc = cet_buf_escape(out, cet_node_str(doc, i), doc->nodes[i].len, 0);
    return rc || cet_buf_puts(out, "</title>\n</head>\n<body>\n");
}

int cet_extract_html(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out)
{
    return cet_render_html(doc, sel, NULL, out);
}

int cet_render_html(const struct cet_doc *doc, const struct cet_sel *sel, const char *title,
                    struct cet_buf *out)
{
    if (!doc->text)
        return -1;
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    int after_inline = 0; /* the last thing written was text or an inline tag */
    /* What the page puts between the last text written and the next
     * (cet_layout_walk's rule): inline, a space where it has one. */
    enum cet_sep gap = CET_SEP_NONE;
    int skipped = 0;
    int rc = open_frame(out, doc, title);
    for (uint32_t i = 0; i <= doc->nnodes && rc == 0; i++) {
        while (depth && (i == doc->nnodes || doc->nodes[stack[depth - 1]].end <= i)) {
            after_inline = is_inline(&doc->nodes[stack[depth - 1]]);
            rc |= close_tag(out, doc, stack[--depth]);
        }
        if (i == doc->nnodes || rc)
            break;
        const struct cet_node *n = &doc->nodes[i];
        if (n->kind == CET_TEXT) {
            if (cet_node_sep(doc, i) > gap)
                gap = cet_node_sep(doc, i);
            skipped |= !sel->keep[i];
        }
        if (!sel->keep[i]) /* a dropped element is unwrapped; kept descendants remain */
            continue;
        if (n->kind == CET_ELEMENT && (n->tag == CET_TAG_HTML || n->tag == CET_TAG_BODY))
            continue; /* the frame has them */
        if (n->kind == CET_ELEMENT && (n->tag == CET_TAG_HEAD || skip_element(doc, i))) {
            i = n->end - 1;
            continue;
        }
        if (n->kind == CET_TEXT) {
            /* Text nodes lost their edge white space in the model. */
            rc = (after_inline && (gap >= CET_SEP_SPACE || skipped) && cet_buf_puts(out, " ")) ||
                 cet_buf_escape(out, cet_node_str(doc, i), n->len, 0);
            after_inline = 1;
            gap = CET_SEP_NONE;
            skipped = 0;
            continue;
        }
        after_inline = is_inline(n);
        rc = cet_buf_printf(out, "<%s", cet_node_str(doc, i));
        for (uint32_t k = 0, na = cet_node_nattr(doc, i); k < na && rc == 0; k++) {
            const struct cet_attr *a = &doc->attrs[n->attr0 + k];
            const char *v = doc->pool + a->value;
            rc = cet_buf_printf(out, " %s=\"", doc->pool + a->name) ||
                 cet_buf_escape(out, v, strlen(v), 1) || cet_buf_puts(out, "\"");
        }
        rc = rc || cet_buf_puts(out, ">");
        if (rc == 0 && n->end > i + 1) {
            if (CET_GROW(stack, cap, depth + 1, 64)) {
                rc = -1;
                break;
            }
            stack[depth++] = i;
        } else if (rc == 0) {
            rc = close_tag(out, doc, i);
        }
    }
    for (uint32_t j = 0; j < sel->nextra && rc == 0; j++) {
        const struct cet_node *n = &doc->nodes[sel->extra[j]];
        rc = cet_buf_puts(out, "\n<p>") || cet_buf_escape(out, cet_node_str(doc, sel->extra[j]), n->len, 0) ||
             cet_buf_puts(out, "</p>");
    }
    rc = rc || cet_buf_puts(out, "\n</body>\n</html>\n");
    free(stack);
    return rc ? -1 : 0;
}
