/* The Markdown rendering of an extraction (docs/formats.md, "Output
 * formats"): the text's own layout (cet_layout_walk, the rule every
 * renderer shares), with the kept text's headings, list items, quotes,
 * <pre> blocks, emphasis, code and links marked up.  The words are those of
 * the text format, plus link targets. */
#include <string.h>

#include "cetune/layout.h"
#include "cetune/page.h"

/* How far up the tree a text node's context is looked for: bounded, so
 * that pathologically deep pages stay linear. */
#define MAX_UP 64

/* What a text node lies in. */
struct ctx {
    uint32_t block;  /* the heading or list item starting its line, or CET_NONE */
    uint32_t list;   /* the outermost list it lies in, or CET_NONE */
    uint32_t pre;    /* the <pre> it lies in, or CET_NONE */
    uint32_t strong, em, code, link; /* its inline elements, or CET_NONE */
    int heading;     /* 1-6 for h1-h6 */
    int list_depth;  /* lists around it (for indentation) */
    int ordered;     /* the nearest list is <ol> */
    int quote;       /* inside a <blockquote> */
};

struct md {
    const struct cet_doc *doc;
    struct cet_buf *out;
    struct ctx prev;
    int at_line_start;
};

static void context(const struct cet_doc *doc, uint32_t i, struct ctx *c)
{
    memset(c, 0, sizeof *c);
    c->block = c->list = c->pre = c->strong = c->em = c->code = c->link = CET_NONE;
    int in_block = 1; /* inline elements count up to the first block */
    uint32_t p = doc->nodes[i].parent;
    for (int up = 0; p != CET_NONE && up < MAX_UP; p = doc->nodes[p].parent, up++) {
        enum cet_tag t = doc->nodes[p].tag;
        if (in_block) {
            if ((t == CET_TAG_STRONG || t == CET_TAG_B) && c->strong == CET_NONE)
                c->strong = p;
            else if ((t == CET_TAG_EM || t == CET_TAG_I) && c->em == CET_NONE)
                c->em = p;
            else if ((t == CET_TAG_CODE || t == CET_TAG_TT || t == CET_TAG_KBD ||
                      t == CET_TAG_SAMP) && c->code == CET_NONE)
                c->code = p;
            else if (t == CET_TAG_A && c->link == CET_NONE && (doc->nodes[p].flags & CET_NF_HREF))
                c->link = p;
        }
        if (!(doc->nodes[p].flags & CET_NF_BLOCK))
            continue;
        in_block = 0;
        if (cet_tag_heading(t) && c->block == CET_NONE) {
            c->block = p;
            c->heading = 1 + (int)(t - CET_TAG_H1);
        } else if ((t == CET_TAG_LI || t == CET_TAG_DD || t == CET_TAG_DT) && !c->list_depth) {
            if (c->block == CET_NONE)
                c->block = p;
            c->list_depth = 1;
            c->list = doc->nodes[p].parent;
            c->ordered = c->list != CET_NONE && doc->nodes[c->list].tag == CET_TAG_OL;
        } else if (t == CET_TAG_LI && c->list_depth) {
            c->list_depth++;
            c->list = doc->nodes[p].parent;
        } else if (t == CET_TAG_PRE && c->pre == CET_NONE) {
            c->pre = p;
        } else if (t == CET_TAG_BLOCKQUOTE) {
            c->quote = 1;
        }
    }
    /* Inline markup inside <pre> or around a heading's whole text is not repeated. */
    if (c->pre != CET_NONE)
        c->strong = c->em = c->code = CET_NONE;
}

/* A link's target worth writing: not a script, not an anchor on the page. */
static const char *link_target(const struct cet_doc *doc, uint32_t a)
{
    const char *href = cet_node_attr(doc, a, "href");
    if (!href || !*href || *href == '#' || !strncasecmp(href, "javascript:", 11))
        return NULL;
    return href;
}

static int put(struct md *m, const char *s)
{
    size_t n = strlen(s);
    if (n)
        m->at_line_start = s[n - 1] == '\n';
    return cet_buf_add(m->out, s, n);
}

/* Closes the inline spans of the previous node that this one is not in
 * (innermost first), or all of them when next is NULL. */
static int close_spans(struct md *m, const struct ctx *next)
{
    struct ctx *p = &m->prev;
    int rc = 0;
    int strong = p->strong != CET_NONE && (!next || next->strong != p->strong);
    int em = p->em != CET_NONE && (strong || !next || next->em != p->em);
    int code = p->code != CET_NONE && (strong || em || !next || next->code != p->code);
    int link = p->link != CET_NONE && (strong || em || code || !next || next->link != p->link);
    if (link) {
        /* Parentheses and spaces would end the target early: percent-encoded. */
        const char *href = link_target(m->doc, p->link);
        if (href) {
            rc = put(m, "](");
            for (const char *h = href; *h && !rc; h++)
                rc = strchr("() <>", *h) ? cet_buf_printf(m->out, "%%%02X", (unsigned char)*h)
                                        : cet_buf_add(m->out, h, 1);
            rc = rc || put(m, ")");
        }
        p->link = CET_NONE;
    }
    if (code)
        rc = rc || put(m, "`"), p->code = CET_NONE;
    if (em)
        rc = rc || put(m, "*"), p->em = CET_NONE;
    if (strong)
        rc = rc || put(m, "**"), p->strong = CET_NONE;
    return rc;
}

/* Text with Markdown's markup characters escaped (none inside code and <pre>):
 * everywhere the inline ones, at the start of a line what would start a
 * heading, quote or list item ("1." too). */
static int put_text(struct md *m, const char *s, size_t n, int literal)
{
    size_t start = 0, digits = 0;
    int rc = 0;
    if (m->at_line_start)
        while (digits < n && digits < 9 && s[digits] >= '0' && s[digits] <= '9')
            digits++;
    for (size_t i = 0; i < n && !rc; i++) {
        char ch = s[i];
        int esc = !literal && ch && (strchr("\\*_`[]<", ch) ||
                               (i == 0 && m->at_line_start && strchr("#>+-", ch)) ||
                               (i == digits && digits && strchr(".)", ch)));
        if (!esc)
            continue;
        rc = cet_buf_add(m->out, s + start, i - start) || cet_buf_add(m->out, "\\", 1);
        start = i;
    }
    if (n)
        m->at_line_start = 0;
    return rc || cet_buf_add(m->out, s + start, n - start);
}

static int add_node(void *vctx, uint32_t i, enum cet_sep sep)
{
    struct md *m = vctx;
    struct ctx c;
    context(m->doc, i, &c);
    int newline = sep >= CET_SEP_LINE;
    /* Leaving a <pre> closes its fence before the separator. */
    if (close_spans(m, newline ? NULL : &c) ||
        (m->prev.pre != CET_NONE && m->prev.pre != c.pre && put(m, "\n```")))
        return -1;
    /* A list item follows the one before it in the same (outermost) list on
     * the next line: a blank line would end the list. */
    if (sep == CET_SEP_PARA && c.list_depth && c.block != m->prev.block && c.list == m->prev.list &&
        c.list != CET_NONE)
        sep = CET_SEP_LINE;
    if (put(m, cet_sep_str(sep)))
        return -1;
    if (c.pre == CET_NONE && m->at_line_start) {
        /* The start of a line: the quote marker, then what starts a heading or list item. */
        if (c.quote && put(m, "> "))
            return -1;
        if (c.block != CET_NONE && c.block != m->prev.block) {
            if (c.heading) {
                if (put(m, &"###### "[6 - c.heading]))
                    return -1;
            } else {
                for (int d = 1; d < c.list_depth; d++)
                    if (put(m, "  "))
                        return -1;
                if (put(m, c.ordered ? "1. " : "- "))
                    return -1;
            }
        }
    }
    if (c.pre != CET_NONE && c.pre != m->prev.pre && put(m, "```\n"))
        return -1;
    /* Opening spans, outermost first. */
    if (c.strong != CET_NONE && c.strong != m->prev.strong && put(m, "**"))
        return -1;
    if (c.em != CET_NONE && c.em != m->prev.em && put(m, "*"))
        return -1;
    if (c.code != CET_NONE && c.code != m->prev.code && put(m, "`"))
        return -1;
    if (c.link != CET_NONE && c.link != m->prev.link && link_target(m->doc, c.link) &&
        put(m, "["))
        return -1;
    m->prev = c;
    return put_text(m, cet_node_str(m->doc, i), m->doc->nodes[i].len,
                    c.pre != CET_NONE || c.code != CET_NONE);
}

int cet_extract_markdown(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out)
{
    struct md m = {.doc = doc, .out = out, .at_line_start = 1};
    memset(&m.prev, 0, sizeof m.prev);
    m.prev.block = m.prev.list = m.prev.pre = m.prev.strong = m.prev.em = m.prev.code = m.prev.link = CET_NONE;
    size_t start = out->len;
    if (!doc->text || cet_buf_reserve(out, 0) ||
        cet_layout_walk(doc, sel->keep, sel->extra, sel->nextra, add_node, &m) ||
        close_spans(&m, NULL) || (m.prev.pre != CET_NONE && put(&m, "\n```")))
        return -1;
    if (out->len > start && cet_buf_add(out, "\n", 1))
        return -1;
    return 0;
}
