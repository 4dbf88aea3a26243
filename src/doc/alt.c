/* The alternates of a page as the parser collects them (alt.h): the text
 * of <noscript> and <template>, and the article bodies of JSON-LD blocks.
 * A JSON-LD block is parsed with cJSON only when it names an articleBody,
 * so a page without one pays a substring search per block. */
#include "alt.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/jsonld.h"

void cet_alt_texts_free(struct cet_alt_texts *t)
{
    cet_buf_free(&t->text);
    free(t->v);
    memset(t, 0, sizeof *t);
}

static int add(struct cet_alt_texts *t, enum cet_alt_kind kind, size_t head, size_t body)
{
    if (CET_GROW(t->v, t->cap, t->n + 1, 8))
        return -1;
    t->v[t->n++] = (struct cet_alt_text){(uint8_t)kind, head, body - head, body,
                                         t->text.len - body};
    return 0;
}

int cet_alt_add_text(struct cet_alt_texts *t, enum cet_alt_kind kind, const char *s, size_t n)
{
    size_t at = t->text.len;
    if (!n)
        return 0;
    return cet_buf_add(&t->text, s, n) || add(t, kind, at, at) ? -1 : 0;
}

/* Block-level tags, whose start and end are paragraph breaks in an
 * articleBody written as HTML; <br> is a line break, other tags nothing. */
static const char *const para_tags[] = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6",
                                        "li", "ul", "ol", "blockquote", "section", "article",
                                        "table", "tr", "figure", "figcaption", "pre", NULL};

/* The break a tag at s ('<' s[0], up to its '>') stands for. */
static const char *tag_break(const char *s, size_t n)
{
    size_t i = 1 + (n > 1 && s[1] == '/'), k = i;
    while (k < n && (((s[k] | 32) >= 'a' && (s[k] | 32) <= 'z') || (s[k] >= '1' && s[k] <= '6')))
        k++;
    char name[16];
    if (k - i >= sizeof name)
        return "";
    for (size_t j = i; j < k; j++)
        name[j - i] = (char)(s[j] | 32);
    name[k - i] = 0;
    if (!strcmp(name, "br"))
        return "\n";
    for (size_t j = 0; para_tags[j]; j++)
        if (!strcmp(name, para_tags[j]))
            return "\n\n";
    return "";
}

/* Appends a JSON-LD string as text: tags ('<' then a letter, '/' or '!',
 * up to '>') become the breaks they stand for, entities are decoded. */
static int add_html_text(struct cet_buf *b, const char *s)
{
    size_t n = strlen(s);
    const char *end = s + n;
    while (s < end) {
        size_t run = strcspn(s, "<&");
        if (cet_buf_add(b, s, run))
            return -1;
        s += run;
        if (s >= end)
            break;
        if (*s == '<' && s + 1 < end &&
            (((s[1] | 32) >= 'a' && (s[1] | 32) <= 'z') || s[1] == '/' || s[1] == '!')) {
            const char *gt = memchr(s, '>', (size_t)(end - s));
            if (gt) {
                if (cet_buf_puts(b, tag_break(s, (size_t)(gt - s))))
                    return -1;
                s = gt + 1;
                continue;
            }
        }
        if (*s == '&') {
            char u[8];
            size_t ulen = 0, used = cet_entity_decode(s + 1, end, u, &ulen);
            if (used) {
                if (cet_buf_add(b, u, ulen))
                    return -1;
                s += used + 1;
                continue;
            }
        }
        if (cet_buf_add(b, s++, 1))
            return -1;
    }
    return 0;
}

/* Whether s[0..n) holds key[0..k). */
static int holds(const char *s, size_t n, const char *key, size_t k)
{
    for (const char *e = s + n, *q = s; (q = memchr(q, key[0], (size_t)(e - q))); q++)
        if ((size_t)(e - q) >= k && !memcmp(q, key, k))
            return 1;
    return 0;
}

int cet_alt_add_jsonld(struct cet_alt_texts *t, const char *json, size_t n)
{
    static const char key[] = "articleBody\"";
    if (!n || !holds(json, n, key, sizeof key - 1))
        return 0;
    cJSON *root = cet_jsonld_parse(json, n);
    if (!root)
        return 0; /* not JSON: ignored */
    const cJSON **list = NULL;
    size_t count = 0, cap = 0;
    int rc = cet_jsonld_objects(root, &list, &count, &cap);
    for (size_t i = 0; i < count && !rc; i++) {
        const char *body = cet_jsonld_str(list[i], "articleBody");
        if (!body || !cet_jsonld_is_type(list[i], cet_jsonld_article_types))
            continue;
        const char *head = cet_jsonld_str(list[i], "headline");
        size_t h = t->text.len;
        rc = (head && add_html_text(&t->text, head));
        size_t at = t->text.len;
        rc = rc || add_html_text(&t->text, body) || add(t, CET_ALT_JSONLD, h, at);
    }
    free(list);
    cJSON_Delete(root);
    return rc ? -1 : 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

int cet_alt_paragraphs(const char *s, size_t n, cet_alt_para_fn fn, void *ctx)
{
    char *line = malloc(n ? n : 1); /* a line, white space collapsed and trimmed */
    if (!line)
        return -1;
    unsigned breaks = 2; /* the first is a paragraph of its own */
    int rc = 0;
    for (size_t i = 0; i < n && !rc;) {
        if (s[i] == '\n') {
            breaks++;
            i++;
            continue;
        }
        size_t len = 0;
        for (; i < n && s[i] != '\n'; i++) {
            int sp = is_space(s[i]);
            if (!sp || (len && line[len - 1] != ' '))
                line[len++] = sp ? ' ' : s[i];
        }
        if (len && line[len - 1] == ' ')
            len--;
        if (len) {
            rc = fn(ctx, line, len, breaks >= 2 ? CET_SEP_PARA : CET_SEP_LINE);
            breaks = 0;
        }
    }
    free(line);
    return rc;
}
