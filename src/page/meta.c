/* The metadata reader (include/cetune/meta.h, meta_reader.h): it reads
 * libxml2's HTML parser's events (doc/sax.h), those of the parse that builds
 * the document model when the page is extracted, so a page is parsed once
 * (no tree, and no recursion on deep pages).  It offers every
 * candidate value it meets with a priority; the highest wins, the first of
 * equal ones.  JSON-LD blocks are collected and parsed with cJSON at the
 * end.  Priorities follow trafilatura's metadata.py and Readability.js:
 * structured data (JSON-LD, then Open Graph) before other meta tags, then
 * microdata, then what the visible page shows (a sole <h1>, <time>, bylines),
 * then the <title> element. */
#include "cetune/meta.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/tags.h"
#include "doc/sax.h"
#include "meta_reader.h"
#include "util/array.h"
#include "util/jsonld.h"

/* Priorities of the sources (higher wins). */
enum {
    P_LD = 60,         /* JSON-LD of an article */
    P_OG = 55,         /* og:title, og:site_name, article:published_time */
    P_META = 50,       /* other <meta> names, <link rel=canonical>, <html lang> */
    P_MICRODATA = 40,  /* itemprop headline, datePublished, author */
    P_LD_PAGE = 35,    /* JSON-LD of a WebPage or WebSite, an article's secondary dates */
    P_PAGE = 30,       /* a sole <h1>, <time pubdate>, bylines */
    P_TITLE = 20,      /* the <title> element, its site name cut off */
    P_WEAK = 10,       /* the first of several <h1>, any <time>, a modification date */
};

#define MAX_FIELD 2000        /* bytes kept of a value */
#define MAX_TEXT (64u << 10)  /* bytes of text gathered for an element */
#define MAX_LD (16u << 20)    /* bytes of JSON-LD kept in all */
#define MAX_CAPTURES 16

enum cap_kind { CAP_TITLE, CAP_H1, CAP_HEADLINE, CAP_DATE, CAP_AUTHOR, CAP_AUTHOR_NAME,
                CAP_BYLINE, CAP_LD };

struct capture {
    enum cap_kind kind;
    unsigned depth; /* of the element, closed when the depth drops below it */
    struct cet_buf text;
};

struct cet_meta_reader {
    struct cet_meta *m;
    int prio[CET_META_N];
    const char *url;
    unsigned depth, raw_depth; /* raw_depth: inside script/style (not ld+json), or 0 */
    struct capture cap[MAX_CAPTURES];
    unsigned ncap;
    unsigned nh1, seen_title;
    char *author_name;         /* the itemprop=name of the open itemprop=author scope */
    struct cet_buf ld;         /* the JSON-LD blocks, each NUL-terminated */
    char *h1;                  /* the first <h1>'s text */
    char *og_url;              /* a base for a root-relative canonical link */
    int failed;
};

static const char *const keys[CET_META_N] = {"url", "title", "author", "date",
                                             "sitename", "language", "canonical"};

const char *cet_meta_key(enum cet_meta_field f)
{
    return f < CET_META_N ? keys[f] : NULL;
}

void cet_meta_free(struct cet_meta *m)
{
    for (int i = 0; i < CET_META_N; i++) {
        free(m->v[i]);
        m->v[i] = NULL;
    }
}

/* s[0..n) with runs of white space made one space, trimmed, cut to
 * MAX_FIELD bytes at a character boundary; allocated, or NULL. */
static char *clean(const char *s, size_t n)
{
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    size_t k = 0;
    int space = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        /* NBSP (U+00A0) counts as white space, as in titles like "A&nbsp;-&nbsp;B". */
        int nbsp = c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0xa0;
        if (isspace(c) || nbsp || c < 0x20 || c == 0x7f) { /* control characters too */
            space = k > 0;
            i += nbsp;
            continue;
        }
        if (space)
            o[k++] = ' ';
        space = 0;
        o[k++] = (char)c;
    }
    if (k > MAX_FIELD) {
        k = MAX_FIELD;
        while (k && ((unsigned char)o[k] & 0xc0) == 0x80)
            k--;
    }
    o[k] = 0;
    return o;
}

/* Offers value s[0..n) for field f with priority p. */
static void offer(struct cet_meta_reader *r, enum cet_meta_field f, int p, const char *s, size_t n)
{
    /* A site name that is a URL is the last resort (trafilatura's rule). */
    if (f == CET_META_SITENAME && n >= 4 && !strncasecmp(s, "http", 4))
        p = P_WEAK - 1;
    if (r->failed || (r->m->v[f] && r->prio[f] >= p))
        return;
    char *v = clean(s, n);
    if (!v) {
        r->failed = 1;
        return;
    }
    if (!*v) {
        free(v);
        return;
    }
    free(r->m->v[f]);
    r->m->v[f] = v;
    r->prio[f] = p;
}

static void offer_str(struct cet_meta_reader *r, enum cet_meta_field f, int p, const char *s)
{
    if (s)
        offer(r, f, p, s, strlen(s));
}

static int digits(const char *s, int n, int *out)
{
    *out = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        *out = *out * 10 + (s[i] - '0');
    }
    return 1;
}

/* A date that starts YYYY-MM-DD (or with / or . between), optionally with a
 * time after it, becomes YYYY-MM-DD; anything else is not offered. */
static void offer_date(struct cet_meta_reader *r, int p, const char *s)
{
    int y, mo, d;
    if (!s)
        return;
    while (isspace((unsigned char)*s))
        s++;
    if (strnlen(s, 10) < 10 || !digits(s, 4, &y) || !strchr("-/.", s[4]) || s[7] != s[4] ||
        !digits(s + 5, 2, &mo) || !digits(s + 8, 2, &d) || isdigit((unsigned char)s[10]))
        return;
    if (y < 1000 || mo < 1 || mo > 12 || d < 1 || d > 31)
        return;
    char iso[32];
    snprintf(iso, sizeof iso, "%04d-%02d-%02d", y, mo, d);
    offer(r, CET_META_DATE, p, iso, 10);
}

static int starts_ci(const char *s, const char *prefix)
{
    return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* An author as pages write it: "By Jane Doe" is "Jane Doe"; a URL (a
 * profile page in article:author) or something too long for a name is not
 * an author. */
static void offer_author(struct cet_meta_reader *r, int p, const char *s, size_t n)
{
    char *v = clean(s, n);
    if (!v) {
        r->failed = 1;
        return;
    }
    const char *a = v;
    static const char *const by[] = {"by ", "by:", "von ", "par ", "di ", "por "};
    for (size_t i = 0; i < sizeof by / sizeof *by; i++)
        if (starts_ci(a, by[i])) {
            a += strlen(by[i]);
            break;
        }
    while (*a == ' ' || *a == ':')
        a++;
    size_t len = strlen(a);
    if (len >= 2 && len <= 120 && !starts_ci(a, "http:") && !starts_ci(a, "https:") &&
        !starts_ci(a, "www."))
        offer(r, CET_META_AUTHOR, p, a, len);
    free(v);
}

/* The <title> without the site name pages append: "Headline | Site" or
 * "Headline - Site" keeps the part that is not the site, as trafilatura
 * does (the part without a full stop, the first one first). */
static void offer_title_element(struct cet_meta_reader *r, const char *t)
{
    static const char *const seps[] = {" | ", " - ", " – ", " — ", " :: ", " · "};
    const char *cut = NULL, *sep = NULL;
    for (size_t i = 0; i < sizeof seps / sizeof *seps; i++)
        for (const char *q = strstr(t, seps[i]); q; q = strstr(q + 1, seps[i]))
            if (!cut || q > cut) {
                cut = q;
                sep = seps[i];
            }
    if (cut) {
        const char *rest = cut + strlen(sep);
        if (!memchr(t, '.', (size_t)(cut - t)) && cut > t) {
            offer(r, CET_META_TITLE, P_TITLE, t, (size_t)(cut - t));
            return;
        }
        if (!strchr(rest, '.') && *rest) {
            offer_str(r, CET_META_TITLE, P_TITLE, rest);
            return;
        }
    }
    offer_str(r, CET_META_TITLE, P_TITLE, t);
}

/* Does the space-separated list s hold one of words (NULL-terminated),
 * without case?  One pass over s, whatever the number of words. */
static int has_any_token(const char *s, const char *const *words)
{
    while (s && *s) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        size_t k = strcspn(s, " \t\n");
        for (size_t i = 0; words[i] && k; i++)
            if (strlen(words[i]) == k && !strncasecmp(s, words[i], k))
                return 1;
        s += k;
    }
    return 0;
}

static int has_token(const char *s, const char *word)
{
    const char *const words[] = {word, NULL};
    return has_any_token(s, words);
}

/* Whether s holds part (lowercase), without case. */
static int contains_ci(const char *s, const char *part)
{
    size_t n = strlen(part);
    for (; s && *s; s++) /* most positions fail at the first byte, without a call */
        if (tolower((unsigned char)*s) == part[0] && !strncasecmp(s, part, n))
            return 1;
    return 0;
}

static const char *attr(const char *const *atts, const char *name)
{
    for (int i = 0; atts && atts[i]; i += 2)
        if (!strcasecmp(atts[i], name))
            return atts[i + 1] ? atts[i + 1] : "";
    return NULL;
}

static void capture(struct cet_meta_reader *r, enum cap_kind kind)
{
    if (r->ncap == MAX_CAPTURES)
        return;
    struct capture *c = &r->cap[r->ncap++];
    c->kind = kind;
    c->depth = r->depth;
    c->text = (struct cet_buf){0};
}

static void on_meta(struct cet_meta_reader *r, const char *const *atts)
{
    const char *content = attr(atts, "content");
    const char *prop = attr(atts, "property"), *name = attr(atts, "name");
    const char *itemprop = attr(atts, "itemprop"), *equiv = attr(atts, "http-equiv");
    if (!content || !*content)
        return;
    const char *key = prop && *prop ? prop : name ? name : "";
    if (!strcasecmp(key, "og:title"))
        offer_str(r, CET_META_TITLE, P_OG, content);
    else if (!strcasecmp(key, "twitter:title") || !strcasecmp(key, "title") ||
             !strcasecmp(key, "dc.title") || !strcasecmp(key, "dcterms.title") ||
             !strcasecmp(key, "citation_title") || !strcasecmp(key, "sailthru.title"))
        offer_str(r, CET_META_TITLE, P_META, content);
    else if (!strcasecmp(key, "og:site_name"))
        offer_str(r, CET_META_SITENAME, P_OG, content);
    else if (!strcasecmp(key, "application-name") || !strcasecmp(key, "publisher") ||
             !strcasecmp(key, "dc.publisher") || !strcasecmp(key, "dcterms.publisher"))
        offer_str(r, CET_META_SITENAME, P_META - 5, content);
    else if (!strcasecmp(key, "twitter:site"))
        offer_str(r, CET_META_SITENAME, P_WEAK, content + (*content == '@'));
    else if (!strcasecmp(key, "author") || !strcasecmp(key, "article:author") ||
             !strcasecmp(key, "og:article:author") || !strcasecmp(key, "byl") ||
             !strcasecmp(key, "dc.creator") || !strcasecmp(key, "dcterms.creator") ||
             !strcasecmp(key, "sailthru.author") || !strcasecmp(key, "citation_author") ||
             !strcasecmp(key, "parsely-author"))
        offer_author(r, P_META, content, strlen(content));
    else if (!strcasecmp(key, "article:published_time") || !strcasecmp(key, "og:published_time") ||
             !strcasecmp(key, "og:article:published_time"))
        offer_date(r, P_OG, content);
    else if (!strcasecmp(key, "date") || !strcasecmp(key, "pubdate") ||
             !strcasecmp(key, "publishdate") || !strcasecmp(key, "publish-date") ||
             !strcasecmp(key, "publish_date") || !strcasecmp(key, "dc.date") ||
             !strcasecmp(key, "dc.date.issued") || !strcasecmp(key, "dcterms.date") ||
             !strcasecmp(key, "dcterms.issued") || !strcasecmp(key, "dcterms.created") ||
             !strcasecmp(key, "sailthru.date") || !strcasecmp(key, "parsely-pub-date") ||
             !strcasecmp(key, "citation_publication_date") || !strcasecmp(key, "citation_date") ||
             !strcasecmp(key, "article.published") || !strcasecmp(key, "datepublished"))
        offer_date(r, P_META, content);
    else if (!strcasecmp(key, "article:modified_time") || !strcasecmp(key, "og:updated_time") ||
             !strcasecmp(key, "last-modified") || !strcasecmp(key, "dcterms.modified"))
        offer_date(r, P_WEAK, content);
    else if (!strcasecmp(key, "og:url")) {
        offer_str(r, CET_META_CANONICAL, P_META - 5, content);
        if (!r->og_url && !(r->og_url = clean(content, strlen(content))))
            r->failed = 1;
    } else if (!strcasecmp(key, "twitter:url"))
        offer_str(r, CET_META_CANONICAL, P_META - 10, content);
    else if (!strcasecmp(key, "og:locale")) {
        char loc[32];
        snprintf(loc, sizeof loc, "%s", content);
        for (char *q = loc; *q; q++)
            if (*q == '_')
                *q = '-';
        offer_str(r, CET_META_LANGUAGE, P_META - 10, loc);
    }
    if (equiv && !strcasecmp(equiv, "content-language"))
        offer(r, CET_META_LANGUAGE, P_META - 5, content, strcspn(content, ","));
    if (itemprop && has_token(itemprop, "headline"))
        offer_str(r, CET_META_TITLE, P_MICRODATA, content);
    if (itemprop && has_token(itemprop, "datePublished"))
        offer_date(r, P_MICRODATA, content);
    if (itemprop && has_token(itemprop, "author"))
        offer_author(r, P_MICRODATA, content, strlen(content));
}

static void on_start(void *ctx, const char *name, int tag_id, const char *const *atts)
{
    struct cet_meta_reader *r = ctx;
    enum cet_tag tag = (enum cet_tag)tag_id;
    r->depth++;
    if (r->failed)
        return;
    /* Words of gathered text stay apart across blocks and line breaks. */
    if (r->ncap && (cet_tag_flags(tag) & (CET_TAGF_BLOCK | CET_TAGF_BREAK)))
        for (unsigned i = 0; i < r->ncap; i++)
            if (r->cap[i].kind != CAP_LD && cet_buf_puts(&r->cap[i].text, " "))
                r->failed = 1;
    if (r->raw_depth)
        return;
    if (tag == CET_TAG_SCRIPT) {
        const char *type = attr(atts, "type");
        if (type && contains_ci(type, "ld+json"))
            capture(r, CAP_LD);
        else
            r->raw_depth = r->depth;
        return;
    }
    if (tag == CET_TAG_STYLE || tag == CET_TAG_NOSCRIPT || tag == CET_TAG_TEMPLATE) {
        r->raw_depth = r->depth;
        return;
    }
    if (!strcasecmp(name, "svg")) { /* its <title> is not the page's */
        r->raw_depth = r->depth;
        return;
    }
    if (tag == CET_TAG_META) {
        on_meta(r, atts);
        return;
    }
    if (tag == CET_TAG_HTML) {
        offer_str(r, CET_META_LANGUAGE, P_META, attr(atts, "lang"));
        offer_str(r, CET_META_LANGUAGE, P_META, attr(atts, "xml:lang"));
    }
    if (tag == CET_TAG_LINK) {
        const char *rel = attr(atts, "rel"), *href = attr(atts, "href");
        if (rel && href && has_token(rel, "canonical"))
            offer_str(r, CET_META_CANONICAL, P_META, href);
        return;
    }
    if (tag == CET_TAG_TITLE && !r->seen_title++)
        capture(r, CAP_TITLE);
    if (tag == CET_TAG_H1 && !r->nh1++)
        capture(r, CAP_H1);
    if (tag == CET_TAG_TIME) {
        const char *dt = attr(atts, "datetime"), *cls = attr(atts, "class");
        int pub = attr(atts, "pubdate") || contains_ci(cls, "publish") || contains_ci(cls, "pubdate");
        offer_date(r, pub ? P_PAGE : P_WEAK, dt);
    }
    /* The attributes every element is asked for, in one pass (the first of each, as attr). */
    const char *itemprop = NULL, *rel = NULL, *cls = NULL, *id = NULL;
    for (int i = 0; atts && atts[i]; i += 2) {
        const char *an = atts[i], **slot = !strcasecmp(an, "itemprop") ? &itemprop
                                           : !strcasecmp(an, "rel")    ? &rel
                                           : !strcasecmp(an, "class")  ? &cls
                                           : !strcasecmp(an, "id")     ? &id
                                                                       : NULL;
        if (slot && !*slot)
            *slot = atts[i + 1] ? atts[i + 1] : "";
    }
    if (itemprop) {
        const char *value = attr(atts, "content");
        if (!value)
            value = attr(atts, "datetime");
        if (has_token(itemprop, "headline"))
            value ? offer_str(r, CET_META_TITLE, P_MICRODATA, value) : capture(r, CAP_HEADLINE);
        if (has_token(itemprop, "datePublished"))
            value ? offer_date(r, P_MICRODATA, value) : capture(r, CAP_DATE);
        if (has_token(itemprop, "author")) {
            if (value)
                offer_author(r, P_MICRODATA, value, strlen(value));
            else
                capture(r, CAP_AUTHOR);
        } else if (has_token(itemprop, "name")) {
            for (unsigned i = 0; i < r->ncap; i++)
                if (r->cap[i].kind == CAP_AUTHOR) {
                    if (value)
                        offer_author(r, P_MICRODATA, value, strlen(value));
                    else
                        capture(r, CAP_AUTHOR_NAME);
                    break;
                }
        }
        return;
    }
    /* Bylines: rel=author links, elements whose class or id says byline or author. */
    static const char *const byline[] = {"author", "author-name", "authorname", "author_name",
                                         "post-author", "entry-author", "article-author",
                                         "story-author", "meta-author", NULL};
    int is_byline = (rel && has_token(rel, "author")) || contains_ci(cls, "byline") ||
                    contains_ci(id, "byline") || (id && !strcasecmp(id, "author")) ||
                    has_any_token(cls, byline);
    if (is_byline)
        capture(r, CAP_BYLINE);
}

static void finish(struct cet_meta_reader *r, struct capture *c)
{
    struct cet_buf *t = &c->text;
    const char *s = t->p ? t->p : "";
    switch (c->kind) {
    case CAP_TITLE: {
        char *v = clean(s, t->len);
        if (!v)
            r->failed = 1;
        else
            offer_title_element(r, v);
        free(v);
        break;
    }
    case CAP_H1:
        if (!(r->h1 = clean(s, t->len)))
            r->failed = 1;
        break;
    case CAP_HEADLINE: offer(r, CET_META_TITLE, P_MICRODATA, s, t->len); break;
    case CAP_DATE: offer_date(r, P_MICRODATA, s); break;
    case CAP_AUTHOR_NAME:
        offer_author(r, P_MICRODATA + 1, s, t->len); /* the name beats the scope's text */
        break;
    case CAP_AUTHOR: offer_author(r, P_MICRODATA, s, t->len); break;
    case CAP_BYLINE: offer_author(r, P_PAGE, s, t->len); break;
    case CAP_LD:
        if (r->ld.len + t->len < MAX_LD &&
            (cet_buf_add(&r->ld, s, t->len) || cet_buf_add(&r->ld, "", 1)))
            r->failed = 1;
        break;
    }
    cet_buf_free(t);
}

static void on_end(void *ctx, const char *name)
{
    struct cet_meta_reader *r = ctx;
    if (r->depth == 0)
        return;
    if (r->ncap && cet_tag_flags(cet_tag_lookup(name)) & (CET_TAGF_BLOCK | CET_TAGF_BREAK))
        for (unsigned i = 0; i < r->ncap; i++)
            if (r->cap[i].kind != CAP_LD && cet_buf_puts(&r->cap[i].text, " "))
                r->failed = 1;
    while (r->ncap && r->cap[r->ncap - 1].depth >= r->depth)
        finish(r, &r->cap[--r->ncap]);
    if (r->raw_depth == r->depth)
        r->raw_depth = 0;
    r->depth--;
}

static void on_chars(void *ctx, const char *ch, size_t len)
{
    struct cet_meta_reader *r = ctx;
    if (r->failed)
        return;
    /* Script and style text is no element's text; ld+json is only its own. */
    int in_ld = r->ncap && r->cap[r->ncap - 1].kind == CAP_LD;
    if (r->raw_depth && !in_ld)
        return;
    for (unsigned i = in_ld ? r->ncap - 1 : 0; i < r->ncap; i++) {
        struct capture *c = &r->cap[i];
        if (c->kind == CAP_LD && !in_ld)
            continue;
        if (c->text.len + len <= (in_ld ? MAX_LD : MAX_TEXT) && cet_buf_add(&c->text, ch, len))
            r->failed = 1;
    }
}

/* ---- JSON-LD ---- */

static const char *const page_types[] = {"WebPage", "ItemPage", "AboutPage", "CollectionPage",
                                         "ProfilePage", "QAPage", "FAQPage", NULL};
static const char *const site_types[] = {"WebSite", NULL};

/* The object a {"@id": ...} reference points to among list, or o itself. */
static const cJSON *deref(const cJSON *o, const cJSON **list, size_t n)
{
    const char *id = cet_jsonld_str(o, "@id");
    if (!id || cJSON_GetObjectItemCaseSensitive(o, "name"))
        return o;
    for (size_t i = 0; i < n; i++)
        if (list[i] != o && cet_jsonld_str(list[i], "name") && cet_jsonld_str(list[i], "@id") &&
            !strcmp(cet_jsonld_str(list[i], "@id"), id))
            return list[i];
    return o;
}

/* An author: a string, an object with a name (a Person, an Organization, a
 * reference to one), or an array of these, joined with "; ". */
static void ld_author(struct cet_meta_reader *r, int p, const cJSON *a, const cJSON **list, size_t n)
{
    struct cet_buf b = {0};
    const cJSON *one = cJSON_IsArray(a) ? a->child : a;
    for (; one && !r->failed; one = cJSON_IsArray(a) ? one->next : NULL) {
        const char *name = cJSON_IsString(one)   ? one->valuestring
                           : cJSON_IsObject(one) ? cet_jsonld_str(deref(one, list, n), "name")
                                                 : NULL;
        if (!name || !*name || starts_ci(name, "http"))
            continue;
        if ((b.len && cet_buf_puts(&b, "; ")) || cet_buf_puts(&b, name))
            r->failed = 1;
    }
    if (b.len)
        offer_author(r, p, b.p, b.len);
    cet_buf_free(&b);
}

static const char *id_or_string(const cJSON *v)
{
    return cJSON_IsString(v)   ? v->valuestring
           : cJSON_IsObject(v) ? cet_jsonld_str(v, "@id")
                               : NULL;
}

static void ld_object(struct cet_meta_reader *r, const cJSON *o, const cJSON **list, size_t n)
{
    int article = cet_jsonld_is_type(o, cet_jsonld_article_types);
    int page = !article && cet_jsonld_is_type(o, page_types);
    if (cet_jsonld_is_type(o, site_types))
        offer_str(r, CET_META_SITENAME, P_LD_PAGE, cet_jsonld_str(o, "name"));
    if (!article && !page)
        return;
    int p = article ? P_LD : P_LD_PAGE;
    offer_str(r, CET_META_TITLE, p, cet_jsonld_str(o, "headline"));
    offer_str(r, CET_META_TITLE, p - 1, cet_jsonld_str(o, "name"));
    offer_date(r, p, cet_jsonld_str(o, "datePublished"));
    offer_date(r, P_LD_PAGE - 1, cet_jsonld_str(o, "dateCreated"));
    offer_date(r, P_WEAK, cet_jsonld_str(o, "dateModified"));
    const cJSON *author = cJSON_GetObjectItemCaseSensitive(o, "author");
    if (!author)
        author = cJSON_GetObjectItemCaseSensitive(o, "creator");
    if (author)
        ld_author(r, p, author, list, n);
    const cJSON *pub = cJSON_GetObjectItemCaseSensitive(o, "publisher");
    if (cJSON_IsObject(pub))
        pub = cJSON_GetObjectItemCaseSensitive(deref(pub, list, n), "name");
    if (cJSON_IsString(pub))
        offer_str(r, CET_META_SITENAME, p - 10, pub->valuestring);
    const cJSON *lang = cJSON_GetObjectItemCaseSensitive(o, "inLanguage");
    if (cJSON_IsString(lang))
        offer_str(r, CET_META_LANGUAGE, P_LD_PAGE - 10, lang->valuestring);
    offer_str(r, CET_META_CANONICAL, P_LD_PAGE - 10,
              id_or_string(cJSON_GetObjectItemCaseSensitive(o, "mainEntityOfPage")));
    offer_str(r, CET_META_CANONICAL, P_LD_PAGE - 11, cet_jsonld_str(o, "url"));
}

/* One JSON-LD block. */
static void ld_block(struct cet_meta_reader *r, const char *s)
{
    cJSON *root = cet_jsonld_parse(s, strlen(s));
    if (!root)
        return; /* not JSON: skipped, as by browsers' and search engines' readers */
    const cJSON **list = NULL;
    size_t count = 0, cap = 0;
    if (cet_jsonld_objects(root, &list, &count, &cap))
        r->failed = 1;
    for (size_t i = 0; i < count && !r->failed; i++)
        ld_object(r, list[i], list, count);
    free(list);
    cJSON_Delete(root);
}

/* ---- URLs ---- */

/* The canonical link made absolute against base (the page's URL, else
 * og:url): "//host/x", "/x" and "x" forms. */
static void absolute_canonical(struct cet_meta_reader *r, const char *base)
{
    char *c = r->m->v[CET_META_CANONICAL];
    if (!c || !base || strstr(c, "://") || !strstr(base, "://"))
        return;
    const char *host = strstr(base, "://") + 3;
    size_t scheme = (size_t)(host - base), hostlen = strcspn(host, "/?#");
    struct cet_buf b = {0};
    int rc;
    if (c[0] == '/' && c[1] == '/')
        rc = cet_buf_printf(&b, "%.*s%s", (int)(scheme - 2), base, c); /* "https:" */
    else if (c[0] == '/')
        rc = cet_buf_printf(&b, "%.*s%s", (int)(scheme + hostlen), base, c);
    else {
        const char *path = host + hostlen, *end = path + strcspn(path, "?#");
        const char *slash = end;
        while (slash > path && slash[-1] != '/')
            slash--;
        rc = slash > path ? cet_buf_printf(&b, "%.*s%s", (int)(slash - base), base, c)
                          : cet_buf_printf(&b, "%.*s/%s", (int)(scheme + hostlen), base, c);
    }
    char *v = rc ? NULL : clean(b.p, b.len); /* the caller's URL is not cleaned text */
    cet_buf_free(&b);
    if (!v) {
        r->failed = 1;
        return;
    }
    free(c);
    r->m->v[CET_META_CANONICAL] = v;
}

int cet_meta_begin(struct cet_meta_reader **out, struct cet_meta *m, const char *url,
                   struct cet_sax *sax)
{
    memset(m, 0, sizeof *m);
    struct cet_meta_reader *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return -1;
    r->m = m;
    r->url = url;
    *sax = (struct cet_sax){.ctx = r, .start = on_start, .end = on_end, .text = on_chars};
    return 0;
}

int cet_meta_finish(struct cet_meta_reader *r, struct cet_error *err)
{
    struct cet_meta *m = r->m;
    const char *url = r->url;
    while (r->ncap) /* what the parser left open */
        finish(r, &r->cap[--r->ncap]);
    for (size_t off = 0; off < r->ld.len && !r->failed; off += strlen(r->ld.p + off) + 1)
        ld_block(r, r->ld.p + off);
    if (r->h1)
        offer_str(r, CET_META_TITLE, r->nh1 == 1 ? P_PAGE : P_WEAK, r->h1);
    absolute_canonical(r, url && *url ? url : r->og_url);
    offer_str(r, CET_META_URL, P_META, url && *url ? url : m->v[CET_META_CANONICAL]);
    int failed = r->failed;
    cet_buf_free(&r->ld);
    free(r->h1);
    free(r->og_url);
    free(r);
    if (failed) {
        cet_meta_free(m);
        return cet_fail(err, "out of memory");
    }
    return 0;
}

int cet_meta_read(struct cet_meta *m, const char *bytes, size_t len, const char *charset,
                  const char *url, struct cet_error *err)
{
    struct cet_meta_reader *r;
    struct cet_sax sax;
    if (cet_meta_begin(&r, m, url, &sax))
        return cet_fail(err, "out of memory");
    int rc = cet_html_scan(bytes, len, charset, &sax, err);
    if (cet_meta_finish(r, err) || rc) {
        cet_meta_free(m);
        return -1;
    }
    return 0;
}
