/* HTML -> document model, built straight from libxml2's recovering HTML
 * parser through SAX callbacks: no libxml2 tree is built, and no extractor
 * ever parses again.  The parser runs with no network access, and HTML has
 * no external entities to load. */
#include "cetune/doc.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "cetune/buf.h"
#include "cetune/clock.h"
#include "cetune/text.h"
#include "alt.h"
#include "mark.h"
#include "parse.h"
#include "prescan.h"
#include "sax.h"
#include "util/array.h"

struct builder {
    struct cet_doc *doc;
    size_t node_cap, attr_cap, word_cap;
    struct cet_buf pool;
    struct cet_buf tpool;     /* the text nodes' text (doc->text) */
    struct cet_buf text;      /* pending character data of the current text node */
    uint32_t *stack;          /* open elements */
    size_t depth, stack_cap;
    /* libxml2's view of the open elements: 1 for ours, 0 for a void element
     * we closed at once (libxml2 2.9 nests content inside HTML5 void
     * elements it does not know, such as <source>). */
    uint8_t *mirror;
    size_t mdepth, mirror_cap;
    size_t invisible;         /* open elements whose content is not text */
    size_t pre;               /* open <pre> elements: their white space is kept */
    int pre_start;            /* right after <pre>, where a newline is not text */
    /* The text layout (enum cet_sep): the last text node, and what the page
     * puts between it and the next: the strongest separator seen (white
     * space, a cell, a block or paragraph boundary) and the <br>s. */
    uint32_t last;
    int unfinished; /* the last text node's words are not counted yet (finish_text) */
    uint8_t sep, brs;
    size_t anchors;           /* open <a href> elements */
    /* The alternates (alt.h): the open <noscript> or <template> (its
     * position on the stack + 1, or 0), the invisible elements open inside
     * it once it opened (its text is theirs only) and its text so far; the
     * open JSON-LD script (likewise) and its text. */
    size_t alt_at, alt_invisible, ld_at;
    uint8_t alt_kind;
    struct cet_buf alt, ld;
    struct cet_alt_texts alts;
    struct cet_intern vocab;
    /* Tag and attribute names and kept attribute values, each stored once
     * in the pool: names[id] is the pool offset of the string interned as id. */
    struct cet_intern name_ids;
    uint32_t *names;
    size_t names_cap;
    int all_attrs;            /* keep every attribute, not only those extractors read */
    int failed;               /* out of memory or over a limit; message in err */
    struct cet_mark *mark;    /* cetune label: the page written again, marked (mark.h) */
    const struct cet_sax *tap; /* a reader the parser's events go to as well (sax.h), or NULL */
    struct cet_error *err;
    htmlParserCtxtPtr ctxt;
    double deadline;          /* cet_now() after which the parse stops (0: none) */
    uint32_t events;          /* start tags and text runs seen, for the deadline check */
    int timed_out;
};

static void fail(struct builder *b, const char *msg)
{
    if (!b->failed) {
        b->failed = 1;
        cet_fail(b->err, "%s", msg);
        xmlStopParser(b->ctxt);
    }
}

static int past(double deadline);

/* Every 4096 parser events, whether the deadline has passed: then the parse
 * stops with CET_ETIMEOUT. */
static void tick(struct builder *b)
{
    if (b->deadline > 0 && !(++b->events & 4095) && past(b->deadline)) {
        fail(b, "time limit exceeded");
        b->timed_out = 1;
    }
}

#define GROW(b, arr, n, cap)                                                   \
    do {                                                                       \
        if (CET_GROW((arr), (cap), (n) + 1, 64)) {                             \
            fail((b), "out of memory");                                        \
            return;                                                            \
        }                                                                      \
    } while (0)

static uint32_t pool_add(struct builder *b, const char *s, size_t n)
{
    uint32_t off = (uint32_t)b->pool.len;
    if (b->pool.len + n + 1 > UINT32_MAX || cet_buf_add(&b->pool, s, n) ||
        cet_buf_add(&b->pool, "", 1)) {
        fail(b, "out of memory");
        return 0;
    }
    return off;
}

/* Pool offset of a string stored once per document: a tag or attribute
 * name, or a kept attribute value (class names and link hosts repeat: the
 * values of the dev corpora take 2.1 MB this way instead of 5.0). */
static uint32_t pool_once(struct builder *b, const char *s, size_t n)
{
    uint32_t known = b->name_ids.n, id = cet_intern(&b->name_ids, s, n);
    if (id == UINT32_MAX) {
        fail(b, "out of memory");
        return 0;
    }
    if (id == known) { /* a new name */
        if (CET_GROW(b->names, b->names_cap, (size_t)id + 1, 64)) {
            fail(b, "out of memory");
            return 0;
        }
        b->names[id] = pool_add(b, s, n);
    }
    return b->names[id];
}

const char *cet_url_authority(const char *url, size_t *n)
{
    const char *s = url;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f')
        s++;
    if (s[0] != '/' || s[1] != '/') {
        const char *p = s;
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
            return NULL;
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
               *p == '+' || *p == '-' || *p == '.')
            p++;
        if (p[0] != ':' || p[1] != '/' || p[2] != '/')
            return NULL; /* relative, or a scheme without a host (mailto:, javascript:) */
        s = p + 1;
    }
    s += 2;
    *n = strcspn(s, "/?#\\");
    return s;
}

int cet_style_hides(const char *style)
{
    char packed[512]; /* inline styles that hide are short; a longer one is read in part */
    size_t n = 0;
    for (const char *s = style; *s && n + 1 < sizeof packed; s++)
        if (!isspace((unsigned char)*s))
            packed[n++] = (char)tolower((unsigned char)*s);
    packed[n] = 0;
    return strstr(packed, "display:none") || strstr(packed, "visibility:hidden");
}

/* The attributes extractors read: class, id and role (Readability's
 * candidates in score), itemprop, hidden and aria-hidden (score's
 * schema.org and hidden-box signals), src and href (Crunch's ad hosts).  A
 * model for evaluation keeps only these, style only when it hides the
 * element, and of src and href only the scheme and authority, all that
 * ad-host matching reads (cet_url_authority); the rest (most of the
 * attribute bytes: URL paths, style and data- values) counts in the markup
 * sizes only.  Returns how many bytes of the value to keep, or -1 to drop
 * the attribute. */
static long attr_kept(const char *name, const char *value)
{
    if (!strcmp(name, "src") || !strcmp(name, "href")) {
        size_t n;
        const char *s = cet_url_authority(value, &n);
        return s ? (long)(s - value + n) : 0;
    }
    if (!strcmp(name, "class") || !strcmp(name, "id") || !strcmp(name, "role") ||
        !strcmp(name, "itemprop") || !strcmp(name, "hidden") || !strcmp(name, "aria-hidden"))
        return (long)strlen(value);
    if (!strcmp(name, "style") && cet_style_hides(value))
        return (long)strlen(value);
    return -1;
}

static int add_word(const char *w, size_t n, void *ctx)
{
    struct builder *b = ctx;
    struct cet_doc *d = b->doc;
    uint32_t id = cet_intern(&b->vocab, w, n);
    if (id == UINT32_MAX)
        return -1;
    if (CET_GROW(d->words, b->word_cap, (size_t)d->nwords + 1, 256))
        return -1;
    d->words[d->nwords++] = id;
    return 0;
}

static uint32_t top(const struct builder *b)
{
    return b->depth ? b->stack[b->depth - 1] : CET_NONE;
}

static struct cet_node *new_node(struct builder *b)
{
    struct cet_doc *d = b->doc;
    if (CET_GROW(d->nodes, b->node_cap, (size_t)d->nnodes + 1, 256)) {
        fail(b, "out of memory");
        return NULL;
    }
    struct cet_node *n = &d->nodes[d->nnodes];
    memset(n, 0, sizeof *n);
    uint32_t p = top(b);
    n->parent = p;
    n->block = p == CET_NONE ? CET_NONE : d->nodes[p].block;
    n->w0 = n->w1 = d->nwords;
    n->end = d->nnodes + 1;
    n->attr0 = d->nattrs;
    if (b->anchors)
        n->flags |= CET_NF_ANCHOR;
    d->nnodes++;
    return n;
}

/* An ASCII byte other than a letter or digit.  It is never part of a word,
 * and a text split just before or after it has the same words as the whole
 * (NFKC composes no ASCII punctuation or space into a letter), so text
 * nodes that meet at such a byte need nothing between them. */
static int word_edge(unsigned char c)
{
    return c < 0x80 && !((c | 32) >= 'a' && (c | 32) <= 'z') && !(c >= '0' && c <= '9');
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static uint32_t code_points(const char *s, size_t n)
{
    uint32_t chars = 0;
    for (size_t i = 0; i < n; i++)
        chars += ((unsigned char)s[i] & 0xC0) != 0x80;
    return chars;
}

static void raise_sep(struct builder *b, enum cet_sep s)
{
    if (s > b->sep)
        b->sep = (uint8_t)s;
}

/* The separator the next text node gets: block boundaries count as one
 * line break (a paragraph as two), each <br> as one more. */
static enum cet_sep pending_sep(const struct builder *b)
{
    unsigned lines = b->brs + (b->sep >= CET_SEP_LINE ? b->sep - CET_SEP_LINE + 1u : 0u);
    return lines >= 2 ? CET_SEP_PARA : lines ? CET_SEP_LINE : (enum cet_sep)b->sep;
}

/* Tokenizes the last text node once no more of its text can come (the
 * next text node starts, or the page ends): a word the page continues
 * across inline elements is whole by then.  Its words follow those of the
 * text before it, so the elements begun since it was created (which hold
 * no text yet) start after them, and its ancestors closed since end after
 * them.  Each node is fixed at most once, so the page stays linear. */
static void finish_text(struct builder *b)
{
    struct cet_doc *d = b->doc;
    if (!b->unfinished || b->failed)
        return;
    b->unfinished = 0;
    struct cet_node *t = &d->nodes[b->last];
    t->w0 = d->nwords;
    if (cet_words(b->tpool.p + t->str, t->len, add_word, b)) {
        fail(b, "out of memory");
        return;
    }
    t->w1 = d->nwords;
    for (uint32_t i = b->last + 1; i < d->nnodes; i++)
        d->nodes[i].w0 = d->nodes[i].w1 = d->nwords; /* an open one's w1 is set when it closes */
    for (uint32_t p = t->parent; p != CET_NONE && d->nodes[p].end > b->last; p = d->nodes[p].parent)
        d->nodes[p].w1 = d->nwords; /* closed: an open ancestor's end is still its own index + 1 */
}

/* Appends s[0..n), the rest of a word the last text node ends in (the page
 * continues the word across an inline element, as in Hel<b>lo</b>), to
 * that node, which is not tokenized yet. */
static void continue_word(struct builder *b, const char *s, size_t n)
{
    struct cet_node *a = &b->doc->nodes[b->last];
    b->tpool.len--; /* its NUL */
    if (b->tpool.len + n + 1 > UINT32_MAX || cet_buf_add(&b->tpool, s, n) ||
        cet_buf_add(&b->tpool, "", 1)) {
        fail(b, "out of memory");
        return;
    }
    a->len += (uint32_t)n;
    a->nchars += code_points(s, n);
}

/* The text s[0..n) of text node `node`, for the marked page. */
static void mark_text(struct builder *b, const char *s, size_t n, uint32_t node)
{
    uint32_t p = top(b);
    cet_mark_text(b->mark, s, n, node, b->doc->nodes[node].block,
                  p == CET_NONE ? CET_TAG_UNKNOWN : (enum cet_tag)b->doc->nodes[p].tag);
}

/* Ends the pending text node.  Outside <pre>, white space is collapsed and
 * trimmed, and becomes the separator before the next text (enum cet_sep);
 * a word the page continues from the last text node goes to that node;
 * empty text is dropped. */
static void flush_text(struct builder *b)
{
    if (!b->text.len || b->failed)
        return;
    char *s = b->text.p, *o = s;
    size_t n = b->text.len;
    int lead = 0, trail = 0;
    if (b->pre) {
        size_t i = 0;
        if (b->pre_start && (s[0] == '\n' || s[0] == '\r'))
            i = s[0] == '\r' && n > 1 && s[1] == '\n' ? 2 : 1;
        for (; i < n; i++) /* line ends as a browser reads them */
            if (s[i] != '\r')
                *o++ = s[i];
            else if (i + 1 == n || s[i + 1] != '\n')
                *o++ = '\n';
    } else {
        int space = 1;
        lead = is_space(s[0]);
        trail = is_space(s[n - 1]);
        for (size_t i = 0; i < n; i++) {
            char c = s[i];
            if (is_space(c)) {
                if (!space)
                    *o++ = ' ';
                space = 1;
            } else {
                *o++ = c;
                space = 0;
            }
        }
        if (o > s && o[-1] == ' ')
            o--;
    }
    size_t len = (size_t)(o - s);
    b->text.len = 0;
    b->pre_start = 0;
    if (lead)
        raise_sep(b, CET_SEP_SPACE);
    if (lead && b->mark)
        cet_mark_space(b->mark);
    if (len && b->last != CET_NONE && pending_sep(b) == CET_SEP_NONE &&
        !word_edge((unsigned char)s[0]) &&
        !word_edge((unsigned char)b->tpool.p[b->tpool.len - 2])) {
        size_t k = 0;
        while (k < len && !word_edge((unsigned char)s[k]))
            k++;
        continue_word(b, s, k);
        if (b->mark)
            mark_text(b, s, k, b->last);
        s += k;
        len -= k;
        if (len && !b->pre && s[0] == ' ') {
            if (b->mark)
                cet_mark_space(b->mark);
            raise_sep(b, CET_SEP_SPACE);
            s++;
            len--;
        }
    }
    if (len && !b->failed) {
        enum cet_sep sep = pending_sep(b);
        finish_text(b);
        struct cet_node *t = new_node(b);
        if (!t)
            return;
        t->kind = CET_TEXT;
        t->flags |= (uint8_t)(sep << CET_NF_SEP_SHIFT);
        t->str = (uint32_t)b->tpool.len;
        if (b->tpool.len + len + 1 > UINT32_MAX || cet_buf_add(&b->tpool, s, len) ||
            cet_buf_add(&b->tpool, "", 1)) {
            fail(b, "out of memory");
            return;
        }
        t->len = (uint32_t)len;
        t->nchars = code_points(s, len);
        b->last = b->doc->nnodes - 1;
        if (b->mark)
            mark_text(b, s, len, b->last);
        b->unfinished = 1;
        b->sep = b->brs = 0;
    }
    if (trail)
        raise_sep(b, CET_SEP_SPACE);
    if (trail && len && b->mark)
        cet_mark_space(b->mark);
}

/* What an element's start or end puts into the text layout. */
static void layout_boundary(struct builder *b, enum cet_tag tag)
{
    unsigned tf = cet_tag_flags(tag);
    if (b->invisible || tag == CET_TAG_BR) /* a <br> counts once, at its start */
        return;
    raise_sep(b, tf & CET_TAGF_PARA                       ? CET_SEP_PARA
                 : tf & CET_TAGF_CELL                     ? CET_SEP_CELL
                 : tf & (CET_TAGF_BLOCK | CET_TAGF_BREAK) ? CET_SEP_LINE
                                                          : CET_SEP_NONE);
}

/* Whether a script's type is JSON-LD (application/ld+json, any case): one
 * search for the '+', as most scripts have none. */
static int is_ld_json(const char *type)
{
    const char *plus = strchr(type, '+');
    return plus && plus - type >= 2 && strncasecmp(plus - 2, "ld+json", 7) == 0;
}

/* What an element's start or end puts into the text of the open noscript
 * or template (alt.h): a paragraph or line break. */
static void alt_boundary(struct builder *b, enum cet_tag tag)
{
    if (!b->alt_at || b->invisible != b->alt_invisible)
        return;
    unsigned tf = cet_tag_flags(tag);
    const char *mark = tf & CET_TAGF_PARA                       ? "\n\n"
                       : tf & CET_TAGF_CELL                     ? " "
                       : tf & (CET_TAGF_BLOCK | CET_TAGF_BREAK) ? "\n"
                                                                : "";
    if (cet_buf_puts(&b->alt, mark))
        fail(b, "out of memory");
}

/* Whether tag is a noscript or template directly inside the open one (no
 * script or other invisible element between them), just opened (opened 1)
 * or about to close (0). */
static int alt_nested(const struct builder *b, enum cet_tag tag, int opened)
{
    return b->alt_at && (tag == CET_TAG_NOSCRIPT || tag == CET_TAG_TEMPLATE) &&
           b->invisible == b->alt_invisible + (size_t)opened;
}

/* Text inside the open noscript or template: its line ends are white space,
 * the breaks come from its elements. */
static void alt_chars(struct builder *b, const char *s, size_t n)
{
    size_t at = b->alt.len;
    if (cet_buf_add(&b->alt, s, n)) {
        fail(b, "out of memory");
        return;
    }
    for (size_t i = at; i < b->alt.len; i++)
        if (b->alt.p[i] == '\n')
            b->alt.p[i] = ' ';
}

static void close_top(struct builder *b);

static void on_start(void *ctx, const xmlChar *name, const xmlChar **atts)
{
    struct builder *b = ctx;
    enum cet_tag tag = cet_tag_lookup((const char *)name);
    if (b->tap)
        b->tap->start(b->tap->ctx, (const char *)name, (int)tag, (const char *const *)atts);
    tick(b);
    if (b->failed)
        return;
    flush_text(b);
    if (b->depth >= CET_MAX_DEPTH) {
        fail(b, "elements nested deeper than the limit of 1000000");
        return;
    }
    /* An element inside <title>: the page lost its </title> (libxml2 reads
     * tags inside it, a browser would make the rest of the page the title).
     * The title ends here, its text still hidden; what follows is the page. */
    if (b->depth && b->doc->nodes[top(b)].tag == CET_TAG_TITLE && b->mdepth &&
        b->mirror[b->mdepth - 1]) {
        close_top(b);
        b->mirror[b->mdepth - 1] = 0;
    }
    struct cet_doc *d = b->doc;
    size_t nlen = strlen((const char *)name);
    unsigned tf = cet_tag_flags(tag);
    layout_boundary(b, tag);
    alt_boundary(b, tag);
    if (tag == CET_TAG_BR && !b->invisible && b->brs < UINT8_MAX)
        b->brs++;
    struct cet_node *e = new_node(b);
    if (!e)
        return;
    uint32_t idx = d->nnodes - 1;
    if (b->mark)
        cet_mark_start(b->mark, (const char *)name, (const char *const *)atts, tag);
    e->kind = CET_ELEMENT;
    e->tag = (uint16_t)tag;
    e->str = pool_once(b, (const char *)name, nlen);
    e->len = (uint32_t)nlen;
    if (tf & CET_TAGF_BLOCK) {
        e->flags |= CET_NF_BLOCK;
        e->block = idx;
    }
    /* Markup characters as they would be written: <name a="v"> and </name>. */
    size_t markup = nlen + 2 + ((tf & CET_TAGF_VOID) ? 0 : nlen + 3);
    int href = 0;
    for (size_t i = 0; atts && atts[i]; i += 2) {
        const char *an = (const char *)atts[i], *av = atts[i + 1] ? (const char *)atts[i + 1] : "";
        size_t anl = strlen(an), avl = strlen(av);
        markup += anl + avl + 4;
        if (tag == CET_TAG_A && strcmp(an, "href") == 0)
            href = 1;
        if (tag == CET_TAG_SCRIPT && !b->ld_at && strcmp(an, "type") == 0 && is_ld_json(av))
            b->ld_at = b->depth + 1;
        long keep = b->all_attrs ? (long)avl : attr_kept(an, av);
        if (keep < 0)
            continue;
        struct cet_attr a;
        a.name = pool_once(b, an, anl);
        /* The model for extraction (all attributes) lives for one page. */
        a.value = b->all_attrs ? pool_add(b, av, (size_t)keep) : pool_once(b, av, (size_t)keep);
        GROW(b, d->attrs, d->nattrs, b->attr_cap);
        d->attrs[d->nattrs++] = a;
    }
    d->nodes[idx].nchars = (uint32_t)(markup < UINT32_MAX ? markup : UINT32_MAX);
    if (href)
        d->nodes[idx].flags |= CET_NF_ANCHOR | CET_NF_HREF;
    GROW(b, b->stack, b->depth, b->stack_cap);
    GROW(b, b->mirror, b->mdepth, b->mirror_cap);
    b->stack[b->depth++] = idx;
    if (tf & CET_TAGF_INVISIBLE)
        b->invisible++;
    if (!b->alt_at && (tag == CET_TAG_NOSCRIPT || tag == CET_TAG_TEMPLATE)) {
        b->alt_at = b->depth;
        b->alt_invisible = b->invisible;
        b->alt_kind = tag == CET_TAG_NOSCRIPT ? CET_ALT_NOSCRIPT : CET_ALT_TEMPLATE;
        b->alt.len = 0;
    } else if (alt_nested(b, tag, 1)) {
        b->alt_invisible++; /* a noscript or template inside it: its text counts with it */
    }
    b->pre_start = tag == CET_TAG_PRE;
    if (tag == CET_TAG_PRE)
        b->pre++;
    if (href)
        b->anchors++;
    b->mirror[b->mdepth++] = !(tf & CET_TAGF_VOID);
    if (tf & CET_TAGF_VOID)
        close_top(b);
}

static void on_end(void *ctx, const xmlChar *name)
{
    struct builder *b = ctx;
    if (b->tap)
        b->tap->end(b->tap->ctx, (const char *)name);
    if (b->failed || !b->mdepth)
        return;
    if (b->mirror[--b->mdepth])
        close_top(b);
}

/* Ends the innermost open element of the model. */
static void close_top(struct builder *b)
{
    if (!b->depth)
        return;
    flush_text(b);
    struct cet_doc *d = b->doc;
    uint32_t idx = b->stack[--b->depth];
    struct cet_node *e = &d->nodes[idx];
    e->end = d->nnodes;
    e->w1 = d->nwords;
    if (b->mark)
        cet_mark_end(b->mark, b->pool.p + e->str, (enum cet_tag)e->tag);
    layout_boundary(b, e->tag);
    if (b->depth + 1 == b->ld_at) {
        b->ld_at = 0;
        if (cet_alt_add_jsonld(&b->alts, b->ld.p, b->ld.len))
            fail(b, "out of memory");
        b->ld.len = 0;
    }
    if (b->depth + 1 == b->alt_at) {
        b->alt_at = 0;
        if (cet_alt_add_text(&b->alts, (enum cet_alt_kind)b->alt_kind, b->alt.p, b->alt.len))
            fail(b, "out of memory");
    }
    alt_boundary(b, e->tag);
    if (alt_nested(b, (enum cet_tag)e->tag, 0))
        b->alt_invisible--;
    if (cet_tag_flags(e->tag) & CET_TAGF_INVISIBLE)
        b->invisible--;
    b->pre_start = 0;
    if (e->tag == CET_TAG_PRE) {
        b->pre--;
        /* A line end just before </pre> ends the last line, it adds none. */
        if (b->last != CET_NONE && b->last > idx && d->nodes[b->last].len > 1 &&
            b->tpool.p[b->tpool.len - 2] == '\n') {
            b->tpool.p[--b->tpool.len - 1] = 0;
            d->nodes[b->last].len--;
            d->nodes[b->last].nchars--;
        }
    }
    if (e->flags & CET_NF_HREF)
        b->anchors--;
}

/* Text, and the white space libxml2 calls ignorable (which the tap does not get). */
static void on_blanks(void *ctx, const xmlChar *ch, int len)
{
    struct builder *b = ctx;
    tick(b);
    if (b->failed || len <= 0)
        return;
    if (b->invisible) {
        /* Script and style bodies are code, not text: they count as markup. */
        uint32_t t = top(b);
        if (b->mark && t != CET_NONE)
            cet_mark_chars(b->mark, (const char *)ch, (size_t)len, (enum cet_tag)b->doc->nodes[t].tag);
        if (t != CET_NONE) {
            uint64_t c = (uint64_t)b->doc->nodes[t].nchars + (uint64_t)len;
            b->doc->nodes[t].nchars = c < UINT32_MAX ? (uint32_t)c : UINT32_MAX;
        }
        if (b->ld_at && b->ld_at == b->depth && cet_buf_add(&b->ld, (const char *)ch, (size_t)len))
            fail(b, "out of memory");
        if (b->alt_at && b->invisible == b->alt_invisible)
            alt_chars(b, (const char *)ch, (size_t)len);
        return;
    }
    if (cet_buf_add(&b->text, (const char *)ch, (size_t)len))
        fail(b, "out of memory");
}

static void on_chars(void *ctx, const xmlChar *ch, int len)
{
    struct builder *b = ctx;
    if (b->tap && len > 0)
        b->tap->text(b->tap->ctx, (const char *)ch, (size_t)len);
    on_blanks(ctx, ch, len);
}

const char *cet_node_attr(const struct cet_doc *d, uint32_t i, const char *name)
{
    const struct cet_node *n = &d->nodes[i];
    for (uint32_t k = 0, na = cet_node_nattr(d, i); k < na; k++)
        if (strcmp(d->pool + d->attrs[n->attr0 + k].name, name) == 0)
            return d->pool + d->attrs[n->attr0 + k].value;
    return NULL;
}

int cet_same_parent_markup(const struct cet_doc *d, uint32_t a, uint32_t b)
{
    uint32_t pa = d->nodes[a].parent, pb = d->nodes[b].parent;
    if (pa == CET_NONE || pb == CET_NONE)
        return pa == pb;
    if (d->nodes[pa].tag != d->nodes[pb].tag)
        return 0;
    const char *ca = cet_node_attr(d, pa, "class"), *cb = cet_node_attr(d, pb, "class");
    return ca == cb || (ca && cb && !strcmp(ca, cb));
}

void cet_doc_depths(const struct cet_doc *d, uint32_t *depth)
{
    /* Parents come before their children. */
    for (uint32_t i = 0; i < d->nnodes; i++) {
        uint32_t p = d->nodes[i].parent;
        depth[i] = p == CET_NONE ? 0 : depth[p] + 1;
    }
}

uint32_t cet_node_depth(const struct cet_doc *d, uint32_t i)
{
    uint32_t depth = 0;
    for (uint32_t p = d->nodes[i].parent; p != CET_NONE; p = d->nodes[p].parent)
        depth++;
    return depth;
}

void cet_doc_free(struct cet_doc *d)
{
    if (!d)
        return;
    free(d->package);
    free(d->name);
    free(d->path);
    free(d->nodes);
    free(d->attrs);
    free(d->texts);
    free(d->pool);
    free(d->text);
    free(d->words);
    free(d->gold_rows);
    free(d->row_word);
    free(d->gold_text);
    free(d->vocab_off);
    free(d->vocab_pool);
    free(d->mrows);
    free(d->mrow_off);
    free(d->alts);
    free(d);
}

struct gold_ctx {
    struct builder *b;
    size_t cap;
};

static int add_gold(const char *w, size_t n, void *ctx)
{
    struct gold_ctx *g = ctx;
    struct cet_doc *d = g->b->doc;
    uint32_t id = cet_intern(&g->b->vocab, w, n);
    if (id == UINT32_MAX)
        return -1;
    if (CET_GROW(d->gold_rows, g->cap, (size_t)d->ngold + 1, 256))
        return -1;
    d->gold_rows[d->ngold++] = id; /* a vocabulary id until number_gold */
    return 0;
}

/* End tags and the doctype before the first start tag, blanked with spaces
 * (offsets stay).  A browser ignores such end tags and ends a doctype at its
 * first '>'; libxml2's push parser takes a stray end tag for the end of the
 * root element and drops everything after it as "extra content", and reads
 * a doctype with an unclosed quote to the next quote, pages away (pages cut
 * by a crawler: a doctype followed by the tail of a script element).  No
 * text depends on the doctype. */
static void blank_stray_end_tags(char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        if (isspace((unsigned char)s[i])) {
            i++;
            continue;
        }
        if (s[i] != '<' || i + 1 >= len)
            return;
        const char *close = s[i + 1] == '!' && i + 3 < len && s[i + 2] == '-' && s[i + 3] == '-'
                                ? "-->"
                                : ">";
        if (s[i + 1] != '/' && s[i + 1] != '!' && s[i + 1] != '?')
            return; /* a start tag: the document proper */
        size_t cl = strlen(close), end = i + 2;
        while (end + cl <= len && memcmp(s + end, close, cl) != 0)
            end++;
        if (end + cl > len)
            return;
        end += cl;
        if (s[i + 1] == '/' || (end - i > 9 && strncasecmp(s + i + 2, "doctype", 7) == 0))
            memset(s + i, ' ', end - i);
        i = end;
    }
}

/* p shrunk to n items of size bytes (at least one); p itself if realloc fails. */
static void *fit(void *p, size_t n, size_t size)
{
    if (!p)
        return p;
    void *q = realloc(p, (n ? n : 1) * size);
    return q ? q : p;
}

static size_t bytes_of(size_t n, size_t size)
{
    return (n ? n : 1) * size;
}

/* Adds n bytes to one component of *m and to its total. */
static void mem_add(struct cet_doc_mem *m, size_t *field, size_t n)
{
    *field += n;
    m->total += n;
}

void cet_doc_mem(const struct cet_doc *d, struct cet_doc_mem *m)
{
    mem_add(m, &m->nodes, d->nodes ? bytes_of(d->nnodes + d->nalt_nodes, sizeof *d->nodes) : 0);
    mem_add(m, &m->attrs, d->attrs ? bytes_of(d->nattrs, sizeof *d->attrs) : 0);
    mem_add(m, &m->texts, d->texts ? bytes_of(cet_doc_all_texts(d) + 1, sizeof *d->texts) : 0);
    mem_add(m, &m->pool, d->pool ? d->pool_len + 1 : 0);
    mem_add(m, &m->text, d->text ? d->text_len + 1 : 0);
    mem_add(m, &m->words, d->words ? bytes_of(cet_doc_all_words(d), sizeof *d->words) : 0);
    mem_add(m, &m->gold, (d->gold_rows ? bytes_of(d->ngold, sizeof *d->gold_rows) : 0) +
                             (d->row_word ? bytes_of(d->nrows, sizeof *d->row_word) : 0));
    mem_add(m, &m->gold_text, d->gold_text ? d->gold_text_len + 1 : 0);
    mem_add(m, &m->vocab, (d->vocab_off ? bytes_of(d->nvocab, sizeof *d->vocab_off) : 0) +
                              (d->vocab_pool ? bytes_of(d->vocab_pool_len, 1) : 0));
    mem_add(m, &m->mrows,
            (d->mrows ? bytes_of(d->mrow_off[cet_doc_all_texts(d)], sizeof *d->mrows) : 0) +
                (d->mrow_off ? ((size_t)cet_doc_all_texts(d) + 1) * sizeof *d->mrow_off : 0));
    mem_add(m, &m->other,
            sizeof *d + d->nalts * sizeof *d->alts + (d->package ? strlen(d->package) + 1 : 0) +
                (d->name ? strlen(d->name) + 1 : 0) + (d->path ? strlen(d->path) + 1 : 0));
}


/* Numbers the distinct gold words in order of first occurrence (the
 * gold's LCS rows): d->gold_rows from vocabulary ids to rows, d->row_word,
 * and the page words' rows (d->mrows, d->mrow_off). */
static int number_gold(struct cet_doc *d, uint32_t nvocab)
{
    uint32_t *row = malloc((nvocab ? nvocab : 1) * sizeof *row);
    if (!row)
        return -1;
    for (uint32_t i = 0; i < nvocab; i++)
        row[i] = CET_NONE;
    d->nrows = 0;
    for (uint32_t j = 0; j < d->ngold; j++)
        if (row[d->gold_rows[j]] == CET_NONE)
            row[d->gold_rows[j]] = d->nrows++;
    uint32_t nm = 0, nwords = cet_doc_all_words(d), ntexts = cet_doc_all_texts(d);
    for (uint32_t w = 0; w < nwords; w++)
        nm += row[d->words[w]] != CET_NONE;
    if (!d->gold_rows)
        d->gold_rows = malloc(sizeof *d->gold_rows);
    d->row_word = malloc((d->nrows ? d->nrows : 1) * sizeof *d->row_word);
    d->mrow_off = malloc(((size_t)ntexts + 1) * sizeof *d->mrow_off);
    d->mrows = malloc((nm ? nm : 1) * sizeof *d->mrows);
    if (!d->gold_rows || !d->row_word || !d->mrow_off || !d->mrows) {
        free(row);
        return -1;
    }
    for (uint32_t j = 0; j < d->ngold; j++) {
        uint32_t r = row[d->gold_rows[j]];
        d->row_word[r] = d->gold_rows[j];
        d->gold_rows[j] = r;
    }
    nm = 0;
    for (uint32_t k = 0; k < ntexts; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        d->mrow_off[k] = nm;
        for (uint32_t w = t->w0; w < t->w1; w++)
            if (row[d->words[w]] != CET_NONE)
                d->mrows[nm++] = row[d->words[w]];
    }
    d->mrow_off[ntexts] = nm;
    free(row);
    return 0;
}

/* One paragraph of an alternate: a text node past the page's, its words
 * past the page's words. */
static int alt_para(void *ctx, const char *s, size_t n, enum cet_sep sep)
{
    struct builder *b = ctx;
    struct cet_doc *d = b->doc;
    struct cet_node *t = new_node(b);
    if (!t)
        return -1;
    t->kind = CET_TEXT;
    t->flags = (uint8_t)(sep << CET_NF_SEP_SHIFT);
    t->str = (uint32_t)b->tpool.len;
    if (b->tpool.len + n + 1 > UINT32_MAX || cet_buf_add(&b->tpool, s, n) ||
        cet_buf_add(&b->tpool, "", 1))
        return -1;
    t->len = (uint32_t)n;
    t->nchars = code_points(s, n);
    if (cet_words(s, n, add_word, b))
        return -1;
    t->w1 = d->nwords; /* add_word grows the words, not the nodes */
    return 0;
}

/* The alternates the parse collected become text nodes after the page's
 * (cet_doc.alts); the counts of the page stay those of its own nodes and
 * words.  An alternate without words is left out. */
static int add_alternates(struct builder *b)
{
    struct cet_doc *d = b->doc;
    uint32_t nodes = d->nnodes, words = d->nwords;
    if (!b->alts.n)
        return 0;
    if (!(d->alts = malloc(b->alts.n * sizeof *d->alts)))
        return -1;
    for (size_t k = 0; k < b->alts.n; k++) {
        const struct cet_alt_text *a = &b->alts.v[k];
        const char *text = b->alts.text.p ? b->alts.text.p : "";
        struct cet_alt *alt = &d->alts[d->nalts];
        alt->node0 = d->nnodes;
        alt->kind = a->kind;
        uint32_t start = d->nwords;
        if (cet_alt_paragraphs(text + a->head, a->head_len, alt_para, b))
            return -1;
        alt->body0 = d->nnodes;
        uint32_t w0 = d->nwords;
        if (cet_alt_paragraphs(text + a->body, a->body_len, alt_para, b))
            return -1;
        alt->node1 = d->nnodes;
        alt->words = d->nwords - w0;
        if (alt->words)
            d->nalts++;
        else { /* nothing to offer: its nodes go */
            d->nnodes = alt->node0;
            d->nwords = start;
        }
    }
    d->nalt_nodes = d->nnodes - nodes;
    d->nnodes = nodes;
    d->nwords = words;
    return 0;
}

static int past(double deadline)
{
    return deadline > 0 && cet_now() > deadline;
}

/* libxml2's one-time set-up (encoding handlers, the dictionaries' seed) is not
 * safe when the first pages are parsed by several threads at once, as in an
 * evaluation: a leak report inside xmlInitCharEncodingHandlers showed the race. */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

/* The decoded page made ready for the parser: end tags and a doctype
 * before the first start tag blanked (blank_stray_end_tags), NUL
 * characters, which a browser drops and libxml2's pull parser ends the page
 * at, made spaces, and what a browser reads otherwise than libxml2
 * rewritten (cet_prescan: the "</script" it reads on at, "&nbsp" without
 * ";"). */
static void ready_for_parser(char *utf8, size_t ulen)
{
    blank_stray_end_tags(utf8, ulen);
    for (char *z = memchr(utf8, 0, ulen); z; z = memchr(z, 0, ulen - (size_t)(z - utf8)))
        *z = ' ';
    cet_prescan(utf8, ulen);
}

/* A parser over utf8[0..ulen) (not empty: libxml2's memory parser refuses
 * an empty buffer) that calls sax with user, or NULL when out of memory.
 * The pull parser over the whole page: libxml2 2.9's push parser stops
 * early on markup the pull parser and browsers read on (a "</scr" + "ipt>"
 * written by a script, a stray end tag before <html>). */
static htmlParserCtxtPtr new_parser(const char *utf8, size_t ulen, const htmlSAXHandler *sax,
                                    void *user)
{
    pthread_once(&xml_once, xmlInitParser);
    htmlParserCtxtPtr ctxt = htmlCreateMemoryParserCtxt(utf8, (int)ulen); /* ulen <= INT_MAX */
    if (ctxt && !ctxt->sax) {
        htmlFreeParserCtxt(ctxt);
        return NULL;
    }
    if (!ctxt)
        return NULL;
    memcpy(ctxt->sax, sax, sizeof *sax);
    ctxt->userData = user;
    xmlSwitchEncoding(ctxt, XML_CHAR_ENCODING_UTF8);
    htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                                 HTML_PARSE_NOWARNING | HTML_PARSE_IGNORE_ENC | XML_PARSE_HUGE);
    return ctxt;
}

/* The page decoded to UTF-8 (used: the charset it was read as) within the
 * limits every parse shares: the model's page size, and the int size
 * libxml2's memory parser takes (decoding may grow a page).  0, or -1 with
 * err. */
static int decode_within_limits(char **utf8, size_t *ulen, const char *html, size_t len,
                                const char *charset, char *used, struct cet_error *err)
{
    if (len > CET_MAX_PAGE_BYTES)
        return cet_fail(err, "page of %zu bytes is over the limit of %u MB", len,
                        CET_MAX_PAGE_BYTES >> 20);
    if (cet_decode_page(utf8, ulen, html, len, charset, used, err))
        return -1;
    if (*ulen > INT_MAX) {
        free(*utf8);
        *utf8 = NULL;
        return cet_fail(err, "page of %zu bytes (decoded) is too large to parse", *ulen);
    }
    return 0;
}

static int parse(struct cet_doc **out, const char *html, size_t len, const char *charset,
                 double deadline, const char *gold, size_t gold_len, int all_attrs,
                 struct cet_mark *mark, const struct cet_sax *tap, struct cet_error *err)
{
    *out = NULL;
    if (len == 0)
        return cet_fail(err, "empty page (0 bytes)");
    struct cet_doc *d = calloc(1, sizeof *d);
    if (!d)
        return cet_fail(err, "out of memory");
    d->bytes = len;
    char *utf8 = NULL;
    size_t ulen = 0;
    if (decode_within_limits(&utf8, &ulen, html, len, charset, d->charset, err)) {
        free(d);
        return -1;
    }
    if (cet_looks_binary(utf8, ulen)) {
        free(utf8);
        free(d);
        return cet_fail(err, "binary data, not an HTML page");
    }
    if (past(deadline)) {
        free(utf8);
        free(d);
        return cet_fail(err, "time limit exceeded"), CET_ETIMEOUT;
    }
    ready_for_parser(utf8, ulen);

    struct builder b;
    memset(&b, 0, sizeof b);
    b.doc = d;
    b.err = err;
    b.all_attrs = all_attrs;
    b.mark = mark;
    b.tap = tap;
    b.last = CET_NONE;
    cet_intern_init(&b.vocab);
    cet_intern_init(&b.name_ids);

    htmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElement = on_start;
    sax.endElement = on_end;
    sax.characters = on_chars;
    sax.ignorableWhitespace = on_blanks;
    sax.cdataBlock = on_chars;
    htmlParserCtxtPtr ctxt = NULL;
    int rc = 0;
    if (ulen > 0) { /* a page of a byte-order mark alone decodes to nothing */
        if (!(ctxt = new_parser(utf8, ulen, &sax, &b))) {
            rc = cet_fail(err, "out of memory");
            goto done;
        }
        b.ctxt = ctxt;
        b.deadline = deadline;
        htmlParseDocument(ctxt);
        if (b.timed_out) {
            rc = CET_ETIMEOUT;
            goto done;
        }
    }
    if (!b.failed) {
        flush_text(&b);
        while (b.depth) /* close what the parser left open */
            close_top(&b);
        finish_text(&b);
        if (!b.failed && add_alternates(&b))
            fail(&b, "out of memory");
    }
    if (!b.failed && mark && mark->failed)
        fail(&b, "out of memory");
    if (b.failed) {
        rc = -1;
        goto done;
    }

    /* Empty arrays are still arrays: callers may offset into them. */
    if (!d->words && !(d->words = malloc(sizeof *d->words))) {
        rc = cet_fail(err, "out of memory");
        goto done;
    }
    uint32_t ntexts = 0, all = d->nnodes + d->nalt_nodes;
    for (uint32_t i = 0; i < d->nnodes; i++)
        ntexts += d->nodes[i].kind == CET_TEXT;
    d->texts = malloc(((size_t)ntexts + d->nalt_nodes + 1) * sizeof *d->texts);
    if (!d->texts) {
        rc = cet_fail(err, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < all; i++) /* the alternates' follow the page's */
        if (d->nodes[i].kind == CET_TEXT)
            d->texts[i < d->nnodes ? d->ntexts++ : ntexts + (i - d->nnodes)] = i;

    if (gold) {
        struct gold_ctx g = {&b, 0};
        d->has_gold = 1;
        d->gold_text = malloc(gold_len + 1);
        if (!d->gold_text) {
            rc = cet_fail(err, "out of memory");
            goto done;
        }
        memcpy(d->gold_text, gold, gold_len);
        d->gold_text[gold_len] = 0;
        d->gold_text_len = gold_len;
        if (cet_words(gold, gold_len, add_gold, &g)) {
            rc = cet_fail(err, "out of memory");
            goto done;
        }
    }
    if (number_gold(d, b.vocab.n)) {
        rc = cet_fail(err, "out of memory");
        goto done;
    }
    d->nvocab = b.vocab.n;
    d->vocab_off = b.vocab.off;
    d->vocab_pool = b.vocab.pool;
    d->vocab_pool_len = b.vocab.pool_len;
    b.vocab.off = NULL;
    b.vocab.pool = NULL;
    d->pool = b.pool.p ? b.pool.p : calloc(1, 1);
    d->pool_len = b.pool.len;
    b.pool.p = NULL;
    d->text = b.tpool.p ? b.tpool.p : calloc(1, 1);
    d->text_len = b.tpool.len;
    b.tpool.p = NULL;
    if (!d->pool || !d->text) {
        rc = cet_fail(err, "out of memory");
        goto done;
    }
    /* The arrays grew by doubling: give the slack back (a model stays
     * loaded for the whole run, a third of it would be unused). */
    d->nodes = fit(d->nodes, all, sizeof *d->nodes);
    d->attrs = fit(d->attrs, d->nattrs, sizeof *d->attrs);
    d->words = fit(d->words, cet_doc_all_words(d), sizeof *d->words);
    d->gold_rows = fit(d->gold_rows, d->ngold, sizeof *d->gold_rows);
    d->pool = fit(d->pool, d->pool_len + 1, 1);
    d->text = fit(d->text, d->text_len + 1, 1);
    d->vocab_off = fit(d->vocab_off, d->nvocab, sizeof *d->vocab_off);
    d->vocab_pool = fit(d->vocab_pool, d->vocab_pool_len, 1);

done:
    if (ctxt)
        htmlFreeParserCtxt(ctxt);
    free(utf8);
    free(b.stack);
    free(b.mirror);
    cet_buf_free(&b.text);
    cet_buf_free(&b.pool);
    cet_buf_free(&b.tpool);
    cet_intern_free(&b.vocab);
    cet_intern_free(&b.name_ids);
    free(b.names);
    cet_buf_free(&b.alt);
    cet_buf_free(&b.ld);
    cet_alt_texts_free(&b.alts);
    if (rc) {
        cet_doc_free(d);
        return rc;
    }
    *out = d;
    return 0;
}

int cet_doc_parse(struct cet_doc **out, const char *html, size_t len, const char *gold,
                  size_t gold_len, struct cet_error *err)
{
    return parse(out, html, len, NULL, 0, gold, gold_len, 0, NULL, NULL, err);
}

int cet_doc_parse_declared(struct cet_doc **out, const char *html, size_t len,
                           const char *charset, const char *gold, size_t gold_len,
                           struct cet_error *err)
{
    return parse(out, html, len, charset, 0, gold, gold_len, 0, NULL, NULL, err);
}

int cet_doc_parse_as(struct cet_doc **out, const char *html, size_t len, const char *charset,
                     double deadline, const char *gold, size_t gold_len, struct cet_error *err)
{
    return parse(out, html, len, charset, deadline, gold, gold_len, 1, NULL, NULL, err);
}

int cet_doc_parse_marked(struct cet_doc **out, const char *html, size_t len,
                         struct cet_buf *marked, struct cet_error *err)
{
    struct cet_mark m = {.out = marked};
    if (cet_buf_puts(marked, "<!DOCTYPE html>\n"))
        return cet_fail(err, "out of memory");
    return parse(out, html, len, NULL, 0, NULL, 0, 0, &m, NULL, err);
}

int cet_doc_parse_tap(struct cet_doc **out, const char *html, size_t len, const char *charset,
                      double deadline, const struct cet_sax *tap, struct cet_error *err)
{
    return parse(out, html, len, charset, deadline, NULL, 0, 1, NULL, tap, err);
}

/* libxml2's events to a tap alone (cet_html_scan). */
static void scan_start(void *ctx, const xmlChar *name, const xmlChar **atts)
{
    const struct cet_sax *t = ctx;
    t->start(t->ctx, (const char *)name, (int)cet_tag_lookup((const char *)name),
             (const char *const *)atts);
}

static void scan_end(void *ctx, const xmlChar *name)
{
    const struct cet_sax *t = ctx;
    t->end(t->ctx, (const char *)name);
}

static void scan_text(void *ctx, const xmlChar *ch, int len)
{
    const struct cet_sax *t = ctx;
    if (len > 0)
        t->text(t->ctx, (const char *)ch, (size_t)len);
}

int cet_html_scan(const char *html, size_t len, const char *charset, const struct cet_sax *tap,
                  struct cet_error *err)
{
    char *utf8 = NULL, used[32];
    size_t ulen = 0;
    if (decode_within_limits(&utf8, &ulen, html, len, charset, used, err))
        return -1;
    ready_for_parser(utf8, ulen);
    htmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElement = scan_start;
    sax.endElement = scan_end;
    sax.characters = scan_text;
    sax.cdataBlock = scan_text;
    htmlParserCtxtPtr ctxt = NULL;
    if (ulen > 0 && !(ctxt = new_parser(utf8, ulen, &sax, (void *)tap))) {
        free(utf8);
        return cet_fail(err, "out of memory");
    }
    if (ctxt) {
        htmlParseDocument(ctxt);
        htmlFreeParserCtxt(ctxt);
    }
    free(utf8);
    return 0;
}
