/* The marked page of cetune label (mark.h): the parser's events written
 * back as HTML, each text node's text in a span that names the node. */
#include "mark.h"

#include <string.h>
#include <strings.h>

/* Elements that would run code, load another document or make the page
 * lie about its encoding or address, left out with their content. */
static int left_out(const char *name, const char *const *atts, enum cet_tag tag)
{
    (void)name;
    switch (tag) {
    case CET_TAG_SCRIPT: case CET_TAG_NOSCRIPT: case CET_TAG_IFRAME: case CET_TAG_OBJECT:
    case CET_TAG_EMBED: case CET_TAG_TEMPLATE: case CET_TAG_FRAME: case CET_TAG_FRAMESET:
    case CET_TAG_BASE:
        return 1;
    case CET_TAG_META:
        /* The page is written as UTF-8, and a refresh would leave it. */
        for (size_t i = 0; atts && atts[i]; i += 2)
            if (!strcasecmp(atts[i], "charset") || !strcasecmp(atts[i], "http-equiv"))
                return 1;
        return 0;
    default:
        return 0;
    }
}

static void put(struct cet_mark *m, int rc)
{
    if (rc)
        m->failed = 1;
}

void cet_mark_start(struct cet_mark *m, const char *name, const char *const *atts,
                    enum cet_tag tag)
{
    m->depth++;
    if (m->skip_from || m->failed)
        return;
    if (left_out(name, atts, tag)) {
        m->skip_from = m->depth;
        return;
    }
    int rc = cet_buf_printf(m->out, "<%s", name);
    for (size_t i = 0; atts && atts[i] && !rc; i += 2) {
        /* Event handlers are code too (the page is also shown with scripts off). */
        if (!strncasecmp(atts[i], "on", 2))
            continue;
        const char *v = atts[i + 1] ? atts[i + 1] : "";
        rc = cet_buf_printf(m->out, " %s=\"", atts[i]) || cet_buf_escape(m->out, v, strlen(v), 1) ||
             cet_buf_puts(m->out, "\"");
    }
    put(m, rc || cet_buf_puts(m->out, ">"));
}

void cet_mark_end(struct cet_mark *m, const char *name, enum cet_tag tag)
{
    if (m->skip_from == m->depth)
        m->skip_from = 0;
    else if (!m->skip_from && !m->failed && !(cet_tag_flags(tag) & CET_TAGF_VOID))
        put(m, cet_buf_printf(m->out, "</%s>", name));
    if (m->depth)
        m->depth--;
}

void cet_mark_chars(struct cet_mark *m, const char *s, size_t n, enum cet_tag parent)
{
    if (m->skip_from || m->failed)
        return;
    /* A style sheet is raw text in HTML: its "a > b" must stay as it is
     * (the parser ended it at its "</style"). */
    put(m, parent == CET_TAG_STYLE ? cet_buf_add(m->out, s, n) : cet_buf_escape(m->out, s, n, 0));
}

void cet_mark_text(struct cet_mark *m, const char *s, size_t n, uint32_t node, uint32_t block,
                   enum cet_tag parent)
{
    if (m->skip_from || m->failed || !n)
        return;
    if (parent == CET_TAG_TEXTAREA) { /* shows its content as text, markup too */
        put(m, cet_buf_escape(m->out, s, n, 0));
        return;
    }
    int rc = block == CET_NONE
                 ? cet_buf_printf(m->out, "<span data-cet=\"%u\">", (unsigned)node)
                 : cet_buf_printf(m->out, "<span data-cet=\"%u\" data-b=\"%u\">", (unsigned)node,
                                  (unsigned)block);
    put(m, rc || cet_buf_escape(m->out, s, n, 0) || cet_buf_puts(m->out, "</span>"));
}

void cet_mark_space(struct cet_mark *m)
{
    if (!m->skip_from && !m->failed)
        put(m, cet_buf_puts(m->out, " "));
}
