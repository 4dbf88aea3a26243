/* Feature-weighted block scorer: every block gets a linear score over
 * normalised shallow features (the idea of Kohlschütter, Fankhauser and Nejdl
 * 2010, "Boilerplate detection using shallow text features", boilerpipe), and
 * a block is kept when its score reaches the threshold t.  Every weight and t
 * are parameters, so `cetune evolve` learns the classifier.
 *
 * Blocks are lqf's (lqf.c): the text nodes whose nearest block-level element
 * is the same, text outside any block forming one pseudo-block.  Blocks are
 * ordered by their first text node; "previous" and "next" follow that order.
 * Every feature lies in [0, 1], so a weight says how much a feature can move
 * the score:
 *
 * - links: anchor characters over all characters of the block.  The
 *   strongest single cue of boilerpipe and of lqf: navigation is link text.
 * - words: log(1 + words) / log(1 + 100), capped at 1.  Long blocks are
 *   text, short ones are labels and menu items; the logarithm makes the
 *   step from 2 to 10 words count as much as the one from 10 to 50.
 * - prev_words, next_words: the same for the previous and the next block.
 *   boilerpipe's context: a short line between paragraphs (a heading, a
 *   short sentence) is content, one between menu items is not.
 * - ccb: accb's mean blurred content/code ratio of the block's text
 *   (characters, anchor tags ignored) at the fixed radius CCB_RADIUS, the
 *   best radius that tuning accb found (docs/experiment.md): how much text
 *   and how little markup surround the block.
 * - stopwords: the block's share of stop words of the page's language (sw.c)
 *   over twice sw's default threshold for that language, capped at 1, so
 *   that 0.5 means "at sw's threshold" whatever the language.
 * - density: boilerpipe's text density: the words are wrapped into lines of
 *   80 characters, and the words of all lines but the last are divided by
 *   the number of those lines (a single line gives its words); over 15 and
 *   capped at 1 (running English prose has about 12 words per line).
 * - depth: the block element's depth over the deepest block holding text.
 * - position: the index of the block's first word over the page's words
 *   (articles start near the top, comments and footers follow them).
 * - punct: punctuation marks (, . ; : ! ?) per word, times 4, capped at 1:
 *   sentences have commas and full stops, menus do not (Readability counts
 *   commas).
 * - class_pos, class_neg: 1 when the block or an ancestor has a class or id
 *   containing one of Readability's positive words (article, content, post,
 *   entry, main, story, text, ...) or negative words (comment, footer,
 *   sidebar, nav, menu, share, related, ...).  Page authors name their
 *   regions; this is Readability's strongest signal.
 * - main: 1 when the block lies in the subtree Readability would pick as the
 *   article: every block of at least 25 characters gives 1 + commas +
 *   min(3, characters/100) points to its parent, half to its grandparent and
 *   a third per level to the three levels above; each such candidate starts
 *   with Readability's tag score (div +5, td/pre/blockquote +3, lists and
 *   forms -3, headings and th -5) plus 25 per positive and minus 25 per
 *   negative class or id, and ends multiplied by 1 - its link density.  The
 *   best candidate, and its siblings scoring at least max(10, a fifth of
 *   the best), are the main subtree.
 * - main_share: the score of the nearest candidate at most five levels above
 *   the block over the best candidate's, clamped to [0, 1]: a graded "main",
 *   so a block beside the article (a comment thread, a teaser list) gets
 *   part of the credit its container earned, not all or nothing.
 * - unlikely: 1 when the block or an ancestor is one of Readability's
 *   "unlikely candidates": class and id name comment, footer, header, menu,
 *   sidebar, social, related... and nothing like article, body, column,
 *   content, main; or its role is navigation, complementary, menu, dialog...
 *   Readability drops these before scoring; here they only weigh against the
 *   block (dropping them from the main-subtree search lost 0.002 macro F1).
 * - regions the page names (region_flags()), each 1 when the block's element
 *   or an ancestor (not <body> or <html>, whose names describe the whole
 *   page) is one, after trafilatura's xpaths.py and Readability:
 *   body_mark (itemprop articleBody, class/id article-body, entry-content,
 *   story-body...), meta (itemprop author, datePublished...; byline,
 *   dateline, timestamp), comments (and a thread recognised by its
 *   signatures, signatures.c, as if a class named it comments), related
 *   (related, teaser, recommend, popular, trending, outbrain...), share
 *   (share, social), notice (newsletter, subscribe, cookie, consent,
 *   modal), hidden (a hiding style, hidden, aria-hidden="true", class
 *   hidden or sr-only), caption (figure,
 *   figcaption, caption, credit, gallery), landmark (<nav>, <aside>,
 *   <footer>, role navigation, complementary, contentinfo...), headline (h1,
 *   itemprop headline, h2-h3 named title or headline).  A name against a
 *   region that holds more than half of the page's words, or that holds the
 *   marked article body (unless it hides it), is a wrapper's and sets
 *   nothing (guard()).
 * - repeat: the block's words are exactly those of an earlier block (a
 *   headline or caption printed twice, a hidden copy of the article).
 * - outside_body: the page marks an article body holding at least 50 words
 *   and the block lies outside every marked element (teasers, "more from"
 *   boxes around an article; trafilatura extracts from the body alone when
 *   it finds one).
 * - kind: one feature per kind, exactly one of them 1: a (all of the
 *   block's text is link text), else h (h1-h6), p, li (li, dt, dd), td (td,
 *   th), other.  The tag says what the author meant the text to be, and
 *   a block that is a link and nothing else is navigation wherever it sits.
 *
 * Switches follow the threshold.  drop_headline never keeps the
 * headline: whether it belongs to the text is the gold's convention
 * (schema.org articleBody, and so the scrapinghub benchmark, leaves it out;
 * big5 and portals keep it).  fallback_words and fallback_share: when fewer
 * words are kept (or fewer than that share of the page's), the fallback
 * chain of fallback.c replaces the extraction by a second candidate
 * (Readability's main subtree without hidden and all-link blocks, or with
 * fallback_margin > 0 the page's own best blocks, the threshold lowered to
 * the best block's score minus the margin), then, with fallback_region > 0,
 * by the best contiguous region of blocks, then by the text the page carries
 * but does not show (JSON-LD articleBody, noscript, template:
 * fallback_jsonld, fallback_noscript, fallback_alt_words).  near and near_sides:
 * jusText's context rule for the blocks scoring just below t (classify()).
 * gap, tail, lists, siblings and subheads: the container rules, bands below
 * t in which a block is kept when its container says it belongs to the
 * article (rescue()).
 *
 * Everything above depends on the page only, so prepare() computes it once
 * per document; run() is a dot product per block and a comparison.  Text
 * nodes of kept blocks are kept with their ancestors (as in ccb.c), so the
 * HTML output keeps its structure. */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cetune/extractor.h"
#include "ccb.h"
#include "fallback.h"
#include "names.h"
#include "signatures.h"
#include "teasers.h"
#include "sw.h"

#define CCB_RADIUS 128    /* accb's best tuned r */
#define WORDS_CAP 100.0   /* words from which "words" is 1 */
#define LINE_CHARS 80     /* boilerpipe's wrap width */
#define DENSITY_CAP 15.0  /* words per line from which "density" is 1 */
#define PUNCT_SCALE 4.0   /* punctuation per word times this, capped at 1 */
#define MAIN_MIN_CHARS 25 /* Readability's shortest scored paragraph */
#define BODY_MIN_WORDS 50 /* words a marked article body needs to count as the page's */
#define RESCUE_LINKS 0.5  /* link density from which no container rule keeps a block */

/* Feature order = parameter order (the threshold comes last): first the
 * graded features, then the four yes/no ones, then the kinds. */
enum {
    F_LINKS, F_WORDS, F_PREV_WORDS, F_NEXT_WORDS, F_CCB, F_STOPWORDS, F_DENSITY, F_DEPTH,
    F_POSITION, F_PUNCT, F_MAIN_SHARE,
    F_CLASS_POS, F_CLASS_NEG, F_MAIN, F_UNLIKELY,
    /* Regions named by the page (class, id, itemprop, tag, style), after
     * trafilatura's and Readability's rules: see region_flags(). */
    F_BODY_MARK, F_META, F_COMMENTS, F_RELATED, F_SHARE, F_NOTICE, F_HIDDEN, F_CAPTION,
    F_LANDMARK, F_HEADLINE, F_REPEAT,
    F_OUTSIDE_BODY, /* the page marks its article body and the block is not in it */
    F_KIND_P, F_KIND_LI, F_KIND_TD, F_KIND_H, F_KIND_A, F_KIND_OTHER,
    NF,
    P_T = NF,
    P_DROP_HEADLINE, /* the headline is never kept (the gold's convention) */
    P_FALLBACK,      /* fewer words kept than this: the second candidate may replace them */
    P_NEAR,          /* width of the band below t decided by the context (0: none) */
    P_NEAR_SIDES,    /* kept neighbours a block in the band needs: 1 or 2 */
    P_FALLBACK_MARGIN, /* second candidate: the best score minus this (0: Readability's) */
    P_FALLBACK_SHARE,  /* fewer than this share of the page's words kept: the chain runs too */
    P_FALLBACK_REGION, /* the chain's best contiguous region: above best minus this (0: off) */
    /* Context rules of the article's containers (rescue()), each the width of
     * the band below t in which it keeps a block (0: off). */
    P_GAP,      /* a run between two kept blocks of the same container */
    P_TAIL,     /* blocks of the last kept block's container, past inline boxes */
    P_LISTS,    /* list items and cells of a container with kept text */
    P_SIBLINGS, /* blocks of a sibling of a container with kept text */
    P_SUBHEADS, /* an h2-h6 followed by kept text of its container */
    P_FALLBACK_JSONLD, P_FALLBACK_NOSCRIPT, P_FALLBACK_ALT_WORDS, /* the chain's alternates */
    NGRADED = F_CLASS_POS,
    NFLAGS = F_KIND_P - F_CLASS_POS,
};

/* A block's features in 28 bytes (pages can have a million blocks): graded
 * features in units of 1/65535, the yes/no ones as bits, the kind as the
 * index of its feature. */
#define Q 65535.0
struct block_feat {
    uint16_t q[NGRADED];
    uint16_t flags; /* bit k: feature F_CLASS_POS + k is 1 */
    uint8_t kind;   /* F_KIND_* */
    uint32_t words; /* for the fallback's comparison */
};
_Static_assert(NFLAGS <= 16, "the yes/no features fit block_feat.flags");

struct score_prep {
    uint32_t nblocks;
    struct block_feat *feat;
    uint32_t *text_block; /* per text node (doc->texts order): its block */
    /* The containers of the context rules (containers()), numbered 0 ..
     * ncont - 1: per block its container (CET_NONE: none), per container its
     * parent's number (CET_NONE: none). */
    uint32_t ncont;
    uint32_t *box;
    uint32_t *up;
    uint64_t aside_words; /* words of signed threads and teaser lists, not the article's */
    uint8_t *aside_text; /* per text node: 1 teaser list (teasers.c), 2 signed thread; NULL: none */
};

#define FLAG(f) (1u << ((f) - F_CLASS_POS))

/* What prepare() adds up per block before normalising (page sizes fit 32 bits). */
struct block_acc {
    uint32_t elem; /* block element, or CET_NONE for the pseudo-block */
    uint32_t chars, anchor;
    uint32_t words, first_word, punct, commas;
    float sw;
    float main_share; /* score of the nearest candidate above / the best's */
    double ccb; /* blurred ratio times characters, summed */
    uint64_t hash; /* FNV-1a of the block's word ids, for "repeat" */
    /* Text density: boilerpipe's line wrapping. */
    int32_t line_len;
    uint32_t lines, line_words;
};

/* ---- class and id names (Readability's lists) ---- */

static const char *const positive_names[] = {
    "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "post", "text",
    "blog", "story", NULL,
};
static const char *const negative_names[] = {
    "-ad-", "banner", "breadcrumb", "combx", "comment", "com-", "contact", "foot", "masthead",
    "media", "meta", "menu", "nav", "outbrain", "promo", "related", "scroll", "share", "shoutbox",
    "sidebar", "skyscraper", "social", "sponsor", "shopping", "tags", "tool", "widget", NULL,
};

/* Readability's unlikely candidates: removed before it scores, unless the
 * names also say "maybe content" or the element is <body> or <a>. */
static const char *const unlikely_names[] = {
    "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap",
    "disqus", "extra", "footer", "gdpr", "header", "legends", "menu", "related", "remark",
    "replies", "rss", "shoutbox", "sidebar", "skyscraper", "social", "sponsor", "supplemental",
    "ad-break", "agegate", "pagination", "pager", "popup", "yom-remote", NULL,
};
static const char *const maybe_names[] = {
    "and", "article", "body", "column", "content", "main", "shadow", NULL,
};
static const char *const unlikely_roles[] = {
    "menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog", NULL,
};

/* Regions of a page that trafilatura (xpaths.py: BODY_XPATH, COMMENTS_XPATH,
 * OVERALL_DISCARD_XPATH, TEASER_DISCARD_XPATH) and Readability name by class
 * or id, matched as substrings of the lowercase "class id". */
static const char *const body_names[] = { /* where the article text is */
    "articlebody", "article-body", "article__body", "article_body", "articletext",
    "article-text", "article-content", "article__content", "entry-content", "post-content",
    "post-body", "post-text", "postcontent", "story-body", "story-content", "storycontent",
    "body-text", "field-body", "content-body", "article-main", NULL,
};
static const char *const meta_names[] = { /* byline, date, author box */
    "byline", "author", "dateline", "pubdate", "published", "timestamp", "posted-on",
    "entry-meta", "post-meta", "article-meta", "article-info", "meta-data", NULL,
};
static const char *const comment_names[] = {
    "comment", "disqus", "dsq-", "respond", "replies", "reply", "discussion", "comol", NULL,
};
static const char *const related_names[] = { /* teasers, related and popular lists */
    "related", "teaser", "recommend", "more-from", "morestories", "popular", "trending",
    "read-next", "up-next", "outbrain", "taboola", "-stories", "also-read", NULL,
};
static const char *const share_names[] = {
    "share", "sharing", "social", "sociable", "addthis", "follow-us", "followus", NULL,
};
static const char *const notice_names[] = { /* newsletter, cookie and consent boxes */
    "newsletter", "subscri", "signup", "sign-up", "cookie", "consent", "gdpr", "popup",
    "modal", NULL,
};
/* ARIA landmarks outside the article (with <nav>, <aside> and <footer>). */
static const char *const landmark_roles[] = {
    "navigation", "complementary", "contentinfo", "banner", "search", NULL,
};
static const char *const caption_names[] = {
    "caption", "credit", "gallery", "slideshow", NULL,
};
static const char *const hidden_classes[] = { /* whole class words */
    "hidden", "hide", "d-none", "is-hidden", "visually-hidden", "sr-only", "screen-reader-text",
    NULL,
};
/* itemprop values of schema.org metadata, as opposed to articleBody. */
static const char *const meta_props[] = {
    "author", "creator", "datepublished", "datemodified", "datecreated", "publisher",
    "keywords", "articlesection", "name", "image", "url", "logo", "thumbnailurl", NULL,
};

/* The lists above that are matched in class and id, all in one pass over
 * them (names.h), numbered. */
enum {
    L_POSITIVE, L_NEGATIVE, L_UNLIKELY, L_MAYBE, L_BODY, L_META, L_COMMENTS, L_RELATED, L_SHARE,
    L_NOTICE, L_CAPTION, L_TITLE, NLISTS
};
#define L(l) (1u << (l))
static struct name_index name_index;
static int name_index_failed;
static pthread_once_t name_index_once = PTHREAD_ONCE_INIT;

static void build_name_index(void)
{
    static const char *const title_names[] = {"title", "headline", NULL};
    static const char *const *const lists[NLISTS] = {
        [L_POSITIVE] = positive_names, [L_NEGATIVE] = negative_names,
        [L_UNLIKELY] = unlikely_names, [L_MAYBE] = maybe_names, [L_BODY] = body_names,
        [L_META] = meta_names, [L_COMMENTS] = comment_names, [L_RELATED] = related_names,
        [L_SHARE] = share_names, [L_NOTICE] = notice_names, [L_CAPTION] = caption_names,
        [L_TITLE] = title_names,
    };
    name_index_failed = name_index_build(&name_index, lists, NLISTS);
}

/* What the scorer reads of an element's attributes, found in one pass over
 * them, and the lists whose names occur in its class and id. */
struct elem_names {
    const char *cls, *id, *role, *style, *aria_hidden, *hidden, *itemprop;
    uint32_t cid;      /* in the lowercase "class id", each cut as region_flags() cuts it */
    uint32_t cls_only; /* in the class alone, and the id alone, as name_weight() cuts them */
    uint32_t id_only;
};

/* Lowercase copy of s (truncated) into buf. */
static const char *lower(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    for (; s && s[n] && n + 1 < size; n++)
        buf[n] = (char)tolower((unsigned char)s[n]);
    buf[n] = 0;
    return buf;
}

static int contains_any(const char *s, const char *const *words)
{
    for (; *words; words++)
        if (strstr(s, *words))
            return 1;
    return 0;
}

/* Fills *nm for element i.  The class is cut to 255 bytes and the id to
 * what a 512-byte "class id" leaves of it (name_weight() cuts each to 255). */
static void element_names(const struct cet_doc *doc, uint32_t i, struct elem_names *nm)
{
    memset(nm, 0, sizeof *nm);
    /* The first of each name, as cet_node_attr() finds it.  Indexed rather
     * than offset from doc->attrs: a page without attributes has none, and
     * NULL + 0 is undefined. */
    for (uint32_t k = 0, na = cet_node_nattr(doc, i); k < na; k++) {
        const struct cet_attr *a = &doc->attrs[doc->nodes[i].attr0 + k];
        const char *name = doc->pool + a->name, *value = doc->pool + a->value, **to = NULL;
        switch (name[0]) {
        case 'a': to = !strcmp(name, "aria-hidden") ? &nm->aria_hidden : NULL; break;
        case 'c': to = !strcmp(name, "class") ? &nm->cls : NULL; break;
        case 'h': to = !strcmp(name, "hidden") ? &nm->hidden : NULL; break;
        case 'i':
            to = !strcmp(name, "id") ? &nm->id : !strcmp(name, "itemprop") ? &nm->itemprop : NULL;
            break;
        case 'r': to = !strcmp(name, "role") ? &nm->role : NULL; break;
        case 's': to = !strcmp(name, "style") ? &nm->style : NULL; break;
        }
        if (to && !*to)
            *to = value;
    }
    if (!nm->cls && !nm->id)
        return; /* no name occurs in " " */
    char buf[512];
    size_t nc = strlen(lower(nm->cls, buf, sizeof buf / 2));
    buf[nc] = ' ';
    size_t ni = strlen(lower(nm->id, buf + nc + 1, sizeof buf - nc - 1));
    /* No name has a space (names.h): what "class id" holds is what the
     * class or the id holds. */
    nm->cls_only = name_index_match(&name_index, buf, nc);
    nm->id_only = name_index_match(&name_index, buf + nc + 1, ni < 255 ? ni : 255);
    nm->cid = nm->cls_only |
              (ni <= 255 ? nm->id_only : name_index_match(&name_index, buf + nc + 1, ni));
}

/* Whether Readability would drop element i as an unlikely candidate. */
static int unlikely(const struct cet_doc *doc, uint32_t i, const struct elem_names *nm)
{
    enum cet_tag tag = (enum cet_tag)doc->nodes[i].tag;
    if (tag == CET_TAG_BODY || tag == CET_TAG_A || tag == CET_TAG_HTML)
        return 0;
    if (nm->cid & L(L_UNLIKELY) && !(nm->cid & L(L_MAYBE)))
        return 1;
    if (!nm->role)
        return 0;
    char role[64];
    lower(nm->role, role, sizeof role);
    for (const char *const *r = unlikely_roles; *r; r++)
        if (!strcmp(role, *r))
            return 1;
    return 0;
}

/* Whether the space-separated list `list` has a word equal to one of
 * words (case-insensitive). */
static int has_word(const char *list, const char *const *words)
{
    while (list && *list) {
        while (isspace((unsigned char)*list))
            list++;
        size_t n = 0;
        while (list[n] && !isspace((unsigned char)list[n]))
            n++;
        for (const char *const *w = words; n && *w; w++)
            if (strlen(*w) == n && !strncasecmp(list, *w, n))
                return 1;
        list += n;
    }
    return 0;
}

/* Whether element i holds enough words for its article-body mark to be the
 * page's (not a teaser's "post-content"). */
static int body_sized(const struct cet_doc *doc, uint32_t i)
{
    return doc->nodes[i].w1 - doc->nodes[i].w0 >= BODY_MIN_WORDS;
}

/* A story cut by a box: the page marks the element that opens it as the
 * article body (latimes.com 2009: div#article_body.storybody, its first two
 * paragraphs), a box of related links follows, and the story goes on in
 * sibling elements of the same tag and the same class (div.storybody) that
 * no name marks.  Those siblings continue the body: reg[] gets the mark on
 * them, before it is passed down.  Only the marked element's own siblings,
 * and only an exact class: a class as generic as "text" on an element beside
 * the body is the story's too, and one elsewhere on the page may not be. */
static void continue_body(const struct cet_doc *doc, uint32_t n, uint16_t *reg)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct cet_node *nd = &doc->nodes[i];
        if (nd->kind != CET_ELEMENT || !(reg[i] & FLAG(F_BODY_MARK)) || !body_sized(doc, i) ||
            nd->parent == CET_NONE)
            continue;
        const char *cls = cet_node_attr(doc, i, "class");
        if (!cls || !*cls)
            continue;
        const struct cet_node *pa = &doc->nodes[nd->parent];
        for (uint32_t j = nd->parent + 1; j < pa->end; j = doc->nodes[j].end) {
            const struct cet_node *sj = &doc->nodes[j];
            if (sj->kind != CET_ELEMENT || sj->tag != nd->tag || reg[j] & FLAG(F_BODY_MARK))
                continue; /* i itself has the mark */
            const char *c = cet_node_attr(doc, j, "class");
            if (c && !strcmp(c, cls))
                reg[j] |= (uint16_t)FLAG(F_BODY_MARK);
        }
    }
}

/* A name that speaks against a region holding most of the page's words, or
 * holding the marked article body (unless it hides it), names a wrapper, not
 * a box: WordPress's
 * "status-publish", "paywall" or "modal-enabled" on the article, a <footer>
 * around everything (trafilatura guards its pruning the same way).  Returns
 * the flags f of element i without those; holds_body says whether i holds
 * an element marked as the article body (body_sized). */
static unsigned guard(const struct cet_doc *doc, uint32_t i, unsigned f, int holds_body)
{
    const struct cet_node *nd = &doc->nodes[i];
    if ((uint64_t)(nd->w1 - nd->w0) * 2 > doc->nwords)
        f &= FLAG(F_BODY_MARK) | FLAG(F_HEADLINE);
    else if (holds_body) /* a hidden copy of the article stays hidden */
        f &= FLAG(F_BODY_MARK) | FLAG(F_HEADLINE) | FLAG(F_HIDDEN);
    return f;
}

/* The region flags (FLAG(F_BODY_MARK) ... FLAG(F_HEADLINE)) that element i
 * sets on itself and everything below it, before guard().  <body> and <html> set none: their
 * class names describe the whole page (WordPress's "single-post
 * comments-open"). */
static unsigned region_flags(const struct cet_doc *doc, uint32_t i, const struct elem_names *nm)
{
    enum cet_tag tag = (enum cet_tag)doc->nodes[i].tag;
    if (tag == CET_TAG_BODY || tag == CET_TAG_HTML)
        return 0;
    unsigned f = 0;
    if (tag == CET_TAG_H1)
        f |= FLAG(F_HEADLINE);
    if (tag == CET_TAG_FIGURE || tag == CET_TAG_FIGCAPTION)
        f |= FLAG(F_CAPTION);
    if (tag == CET_TAG_NAV || tag == CET_TAG_ASIDE || tag == CET_TAG_FOOTER)
        f |= FLAG(F_LANDMARK);
    if (!cet_node_nattr(doc, i))
        return f;
    static const struct {
        unsigned list, flag;
    } named[] = {
        {L(L_BODY), FLAG(F_BODY_MARK)}, {L(L_META), FLAG(F_META)},
        {L(L_COMMENTS), FLAG(F_COMMENTS)}, {L(L_RELATED), FLAG(F_RELATED)},
        {L(L_SHARE), FLAG(F_SHARE)}, {L(L_NOTICE), FLAG(F_NOTICE)},
        {L(L_CAPTION), FLAG(F_CAPTION)},
    };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
        if (nm->cid & named[k].list)
            f |= named[k].flag;
    if (tag >= CET_TAG_H1 && tag <= CET_TAG_H3 && nm->cid & L(L_TITLE))
        f |= FLAG(F_HEADLINE);
    const char *style = nm->style, *aria = nm->aria_hidden;
    char role[32];
    if (nm->role && contains_any(lower(nm->role, role, sizeof role), landmark_roles))
        f |= FLAG(F_LANDMARK);
    if ((style && cet_style_hides(style)) || nm->hidden || (aria && !strcasecmp(aria, "true")) ||
        has_word(nm->cls, hidden_classes))
        f |= FLAG(F_HIDDEN);
    const char *prop = nm->itemprop;
    if (prop) {
        if (has_word(prop, (const char *const[]){"articleBody", NULL}))
            f |= FLAG(F_BODY_MARK);
        if (has_word(prop, meta_props))
            f |= FLAG(F_META);
        if (has_word(prop, (const char *const[]){"headline", NULL}))
            f |= FLAG(F_HEADLINE);
        if (has_word(prop, (const char *const[]){"comment", NULL}))
            f |= FLAG(F_COMMENTS);
        if (has_word(prop, (const char *const[]){"caption", NULL}))
            f |= FLAG(F_CAPTION);
    }
    return f;
}

/* Readability's class weight of one attribute value, given the lists found
 * in it: +25 when it names a positive word, -25 when a negative one (both
 * can apply). */
static int name_weight(uint32_t lists)
{
    return 25 * !!(lists & L(L_POSITIVE)) - 25 * !!(lists & L(L_NEGATIVE));
}

/* Readability's starting score of a candidate by its tag. */
static double tag_score(enum cet_tag tag)
{
    switch (tag) {
    case CET_TAG_DIV:
        return 5;
    case CET_TAG_PRE: case CET_TAG_TD: case CET_TAG_BLOCKQUOTE:
        return 3;
    case CET_TAG_ADDRESS: case CET_TAG_OL: case CET_TAG_UL: case CET_TAG_DL: case CET_TAG_DD:
    case CET_TAG_DT: case CET_TAG_LI: case CET_TAG_FORM:
        return -3;
    case CET_TAG_H1: case CET_TAG_H2: case CET_TAG_H3: case CET_TAG_H4: case CET_TAG_H5:
    case CET_TAG_H6: case CET_TAG_TH:
        return -5;
    default:
        return 0;
    }
}

static int is_punct(char c)
{
    return c == ',' || c == '.' || c == ';' || c == ':' || c == '!' || c == '?';
}

/* Code points of a word. */
static uint32_t utf8_len(const char *s)
{
    uint32_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void score_release(void *prep)
{
    struct score_prep *sp = prep;
    if (!sp)
        return;
    free(sp->feat);
    free(sp->text_block);
    free(sp->box);
    free(sp->up);
    free(sp->aside_text);
    free(sp);
}

/* Per-node scratch of the main-subtree search. */
struct main_scratch {
    int8_t *cls;      /* Readability's class weight of each element, in units of 25 */
    uint32_t *pre_chars, *pre_anchor; /* text characters before each node */
    float *cand;      /* candidate scores */
    uint8_t *is_cand;
};

/* Marks in in_main[] the subtree Readability would take as the article (see
 * the comment at the top). */
static void find_main(const struct cet_doc *doc, struct block_acc *acc, uint32_t nblocks,
                      struct main_scratch *m, uint8_t *in_main)
{
    const struct cet_node *nodes = doc->nodes;
    for (uint32_t b = 0; b < nblocks; b++) {
        if (acc[b].elem == CET_NONE || acc[b].chars < MAIN_MIN_CHARS)
            continue;
        double pts = 1 + acc[b].commas + fmin(3.0, acc[b].chars / 100.0);
        uint32_t a = nodes[acc[b].elem].parent;
        for (int level = 0; level < 5 && a != CET_NONE; level++, a = nodes[a].parent) {
            if (!m->is_cand[a]) {
                m->is_cand[a] = 1;
                m->cand[a] = (float)(tag_score((enum cet_tag)nodes[a].tag) + 25.0 * m->cls[a]);
            }
            m->cand[a] += (float)(pts / (level == 0 ? 1.0 : level == 1 ? 2.0 : level * 3.0));
        }
    }
    uint32_t top = CET_NONE;
    for (uint32_t i = 0; i < doc->nnodes; i++) {
        if (!m->is_cand[i])
            continue;
        uint32_t chars = m->pre_chars[nodes[i].end] - m->pre_chars[i];
        uint32_t anchor = m->pre_anchor[nodes[i].end] - m->pre_anchor[i];
        if (chars)
            m->cand[i] *= (float)(1.0 - (double)anchor / chars);
        if (top == CET_NONE || m->cand[i] > m->cand[top])
            top = i;
    }
    if (top == CET_NONE)
        return;
    for (uint32_t b = 0; b < nblocks; b++) {
        if (acc[b].elem == CET_NONE || m->cand[top] <= 0)
            continue;
        uint32_t a = nodes[acc[b].elem].parent;
        for (int level = 0; level < 5 && a != CET_NONE; level++, a = nodes[a].parent)
            if (m->is_cand[a]) {
                acc[b].main_share = m->cand[a] / m->cand[top];
                break;
            }
    }
    memset(in_main + top, 1, nodes[top].end - top);
    uint32_t parent = nodes[top].parent;
    if (parent == CET_NONE)
        return;
    float bar = fmaxf(10.0f, 0.2f * m->cand[top]);
    for (uint32_t c = parent + 1; c < nodes[parent].end; c = nodes[c].end)
        if (c != top && m->is_cand[c] && m->cand[c] >= bar)
            memset(in_main + c, 1, nodes[c].end - c);
}

/* Adds text node k (doc->texts[k]) to its block's sums; ratio is its blurred
 * content/code ratio, vlen the code points of each vocabulary word. */
static void add_text(const struct cet_doc *doc, uint32_t k, float ratio, const uint32_t *vlen,
                     struct block_acc *a)
{
    const struct cet_node *nd = &doc->nodes[doc->texts[k]];
    a->chars += nd->nchars;
    if (nd->flags & CET_NF_ANCHOR)
        a->anchor += nd->nchars;
    a->ccb += (double)ratio * nd->nchars;
    a->words += nd->w1 - nd->w0;
    for (uint32_t w = nd->w0; w < nd->w1; w++) {
        a->hash = (a->hash ^ doc->words[w]) * 1099511628211u;
        int32_t len = (int32_t)vlen[doc->words[w]];
        a->line_len += len + 1;
        if (a->line_len > LINE_CHARS) {
            a->lines++;
            a->line_len = len;
            a->line_words = 1;
        } else {
            a->line_words++;
        }
    }
    const char *s = cet_node_str(doc, doc->texts[k]);
    for (uint32_t c = 0; c < nd->len; c++) {
        a->punct += is_punct(s[c]);
        a->commas += s[c] == ',';
    }
}

static uint16_t quantise(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint16_t)lrint(v * Q);
}

static double words_feature(uint32_t words)
{
    return fmin(1.0, log1p(words) / log1p(WORDS_CAP));
}

/* Marks in rep[] every block whose words are exactly those of an earlier
 * block (the same hash and count): a headline, caption or teaser printed
 * twice, a hidden copy of the article.  Returns -1 when out of memory. */
static int mark_repeats(const struct block_acc *acc, uint32_t nb, uint8_t *rep)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)nb)
        cap *= 2;
    uint32_t *slot = malloc(cap * sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < cap; i++)
        slot[i] = CET_NONE;
    for (uint32_t b = 0; b < nb; b++) {
        if (!acc[b].words)
            continue;
        size_t i = (size_t)(acc[b].hash ^ acc[b].hash >> 32) & (cap - 1);
        for (; slot[i] != CET_NONE; i = (i + 1) & (cap - 1))
            if (acc[slot[i]].hash == acc[b].hash && acc[slot[i]].words == acc[b].words)
                break;
        if (slot[i] == CET_NONE)
            slot[i] = b;
        else
            rep[b] = 1;
    }
    free(slot);
    return 0;
}

/* The features of every block from its sums. */
static void features(const struct cet_doc *doc, const struct block_acc *acc, uint32_t nb,
                     const uint8_t *anc, const uint16_t *reg, const uint8_t *rep,
                     const uint8_t *in_main, double sw_scale, const uint32_t *depth,
                     struct block_feat *feat)
{
    uint32_t max_depth = 0;
    uint64_t body_words = 0; /* words of the blocks in a marked article body */
    for (uint32_t b = 0; b < nb; b++)
        if (acc[b].elem != CET_NONE && depth[acc[b].elem] > max_depth)
            max_depth = depth[acc[b].elem];
    for (uint32_t b = 0; b < nb; b++) {
        const struct block_acc *a = &acc[b];
        struct block_feat *f = &feat[b];
        double v[NGRADED] = {0};
        v[F_LINKS] = a->chars ? (double)a->anchor / a->chars : 0;
        v[F_WORDS] = words_feature(a->words);
        v[F_PREV_WORDS] = b > 0 ? words_feature(acc[b - 1].words) : 0;
        v[F_NEXT_WORDS] = b + 1 < nb ? words_feature(acc[b + 1].words) : 0;
        v[F_CCB] = a->chars ? a->ccb / a->chars : 0;
        v[F_STOPWORDS] = sw_scale > 0 ? a->sw / sw_scale : a->sw;
        double density = a->lines ? (double)(a->words - a->line_words) / a->lines : a->words;
        v[F_DENSITY] = density / DENSITY_CAP;
        if (a->elem != CET_NONE && max_depth)
            v[F_DEPTH] = (double)depth[a->elem] / max_depth;
        v[F_POSITION] = doc->nwords ? (double)a->first_word / doc->nwords : 0;
        v[F_PUNCT] = a->words ? PUNCT_SCALE * a->punct / a->words : 0;
        v[F_MAIN_SHARE] = a->main_share;
        for (int k = 0; k < NGRADED; k++)
            f->q[k] = quantise(v[k]);
        f->flags = rep[b] ? (uint16_t)FLAG(F_REPEAT) : 0;
        if (a->elem != CET_NONE)
            f->flags |= (uint16_t)((anc[a->elem] & 3) | in_main[a->elem] << 2 |
                                   (anc[a->elem] >> 2 & 1) << 3 | reg[a->elem]);
        f->words = a->words;
        enum cet_tag tag =
            a->elem == CET_NONE ? CET_TAG_UNKNOWN : (enum cet_tag)doc->nodes[a->elem].tag;
        if (a->chars && a->anchor == a->chars)
            f->kind = F_KIND_A;
        else if (cet_tag_heading(tag))
            f->kind = F_KIND_H;
        else if (tag == CET_TAG_P)
            f->kind = F_KIND_P;
        else if (tag == CET_TAG_LI || tag == CET_TAG_DT || tag == CET_TAG_DD)
            f->kind = F_KIND_LI;
        else if (tag == CET_TAG_TD || tag == CET_TAG_TH)
            f->kind = F_KIND_TD;
        else
            f->kind = F_KIND_OTHER;
        body_words += f->flags & FLAG(F_BODY_MARK) ? a->words : 0;
    }
    /* A page that marks its article body says where the article is:
     * trafilatura extracts from that element alone when it finds one.  The
     * headline, often above the body, is the gold's convention
     * (w_headline, drop_headline), not this feature's. */
    for (uint32_t b = 0; body_words >= BODY_MIN_WORDS && b < nb; b++)
        if (!(feat[b].flags & (FLAG(F_BODY_MARK) | FLAG(F_HEADLINE))))
            feat[b].flags |= (uint16_t)FLAG(F_OUTSIDE_BODY);
}

static int list_tag(enum cet_tag t)
{
    return t == CET_TAG_UL || t == CET_TAG_OL || t == CET_TAG_DL || t == CET_TAG_TABLE;
}

/* The containers of the context rules (rescue()): a block's is its
 * element's parent, or for a list item or table cell the parent of its list
 * or table (the text the list belongs to); each container's parent is its
 * "up".  Both are numbered in one space, in order of first use.  Returns -1
 * when out of memory. */
static int containers(const struct cet_doc *doc, const struct block_acc *acc, uint32_t nb,
                      struct score_prep *sp)
{
    uint32_t n = doc->nnodes;
    uint32_t *num = malloc(((size_t)n + 1) * sizeof *num);
    uint32_t *node = malloc(2 * ((size_t)nb + 1) * sizeof *node); /* per number: its element */
    sp->box = malloc(((size_t)nb + 1) * sizeof *sp->box);
    sp->up = malloc(2 * ((size_t)nb + 1) * sizeof *sp->up);
    if (!num || !node || !sp->box || !sp->up) {
        free(num);
        free(node);
        return -1;
    }
    for (uint32_t i = 0; i <= n; i++)
        num[i] = CET_NONE;
    uint32_t nc = 0;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t e = acc[b].elem, c = e == CET_NONE ? CET_NONE : doc->nodes[e].parent;
        enum cet_tag tag = e == CET_NONE ? CET_TAG_UNKNOWN : (enum cet_tag)doc->nodes[e].tag;
        if (tag == CET_TAG_LI || tag == CET_TAG_DT || tag == CET_TAG_DD || tag == CET_TAG_TD ||
            tag == CET_TAG_TH) {
            /* The nearest list or table, a few levels up (tbody, tr, nested items). */
            uint32_t a = c;
            for (int level = 0; level < 6 && a != CET_NONE; level++, a = doc->nodes[a].parent) {
                enum cet_tag t = (enum cet_tag)doc->nodes[a].tag;
                if (list_tag(t)) { /* and the lists or tables right around it */
                    while (doc->nodes[a].parent != CET_NONE &&
                           list_tag((enum cet_tag)doc->nodes[doc->nodes[a].parent].tag))
                        a = doc->nodes[a].parent;
                    c = doc->nodes[a].parent;
                    break;
                }
            }
        }
        if (c != CET_NONE && num[c] == CET_NONE) {
            node[nc] = c;
            num[c] = nc++;
        }
        sp->box[b] = c == CET_NONE ? CET_NONE : num[c];
    }
    /* Containers' parents: numbered too when they hold no block themselves. */
    for (uint32_t k = 0, nbox = nc; k < nbox; k++) {
        uint32_t p = doc->nodes[node[k]].parent;
        if (p != CET_NONE && num[p] == CET_NONE) {
            node[nc] = p;
            sp->up[nc] = CET_NONE;
            num[p] = nc++;
        }
        sp->up[k] = p == CET_NONE ? CET_NONE : num[p];
    }
    sp->ncont = nc;
    free(num);
    free(node);
    return 0;
}

/* Blocks, then the sums of their text, then the page-wide measures, each
 * phase freeing its scratch before the next: pages can have millions of
 * nodes. */
static void *score_prepare(const struct cet_doc *doc, struct cet_error *err)
{
    uint32_t n = doc->nnodes, nt = doc->ntexts;
    struct score_prep *sp = calloc(1, sizeof *sp);
    uint32_t *slot = malloc(((size_t)n + 1) * sizeof *slot);
    struct block_acc *acc = NULL;
    float *ratio = NULL;
    uint32_t *vlen = NULL;
    double *sw = NULL;
    struct main_scratch m = {0};
    uint8_t *anc = NULL, *in_main = NULL, *rep = NULL;
    uint16_t *reg = NULL;
    uint8_t *holds_body = NULL;
    if (sp)
        sp->text_block = malloc((nt ? nt : 1) * sizeof *sp->text_block);
    if (!sp || !slot || !sp->text_block)
        goto oom;
    pthread_once(&name_index_once, build_name_index);
    if (name_index_failed) {
        cet_fail(err, "score: too many class names to index");
        goto fail;
    }

    /* Blocks in order of their first text node; slot n is the pseudo-block. */
    uint32_t nb = 0;
    for (uint32_t i = 0; i <= n; i++)
        slot[i] = CET_NONE;
    for (uint32_t k = 0; k < nt; k++) {
        uint32_t blk = doc->nodes[doc->texts[k]].block, key = blk == CET_NONE ? n : blk;
        if (slot[key] == CET_NONE)
            slot[key] = nb++;
        sp->text_block[k] = slot[key];
    }
    free(slot);
    slot = NULL;
    acc = calloc(nb ? nb : 1, sizeof *acc);
    ratio = malloc((nt ? nt : 1) * sizeof *ratio);
    vlen = malloc((doc->nvocab ? doc->nvocab : 1) * sizeof *vlen);
    if (!acc || !ratio || !vlen)
        goto oom;
    sp->nblocks = nb;
    if (cet_ccb_text_ratios(doc, CET_CCB_ADAPTED, CCB_RADIUS, ratio, err))
        goto fail;
    uint32_t lang = 0;
    if (!(sw = cet_sw_block_ratios(doc, &lang, err)))
        goto fail;
    double sw_scale = 2.0 * cet_extractor_sw.params[lang].def;
    for (uint32_t v = 0; v < doc->nvocab; v++)
        vlen[v] = utf8_len(cet_word_str(doc, v));
    /* Blocks are numbered in order of their first text node, so a block
     * starts exactly when its number is the next one. */
    uint32_t started = 0;
    for (uint32_t k = 0; k < nt; k++) {
        uint32_t b = sp->text_block[k];
        const struct cet_node *nd = &doc->nodes[doc->texts[k]];
        if (b == started) {
            acc[b].elem = nd->block;
            acc[b].first_word = nd->w0;
            acc[b].line_len = -1;
            acc[b].sw = (float)sw[doc->texts[k]];
            acc[b].hash = 14695981039346656037u;
            started++;
        }
        add_text(doc, k, ratio[k], vlen, &acc[b]);
    }
    free(ratio);
    free(vlen);
    free(sw);
    ratio = NULL;
    vlen = NULL;
    sw = NULL;

    /* Class names (own weight, and bit 0/1: some element at or above is
     * positive/negative; parents come before children), text prefix sums, the
     * main subtree. */
    m.cls = calloc((size_t)n + 1, 1);
    anc = calloc((size_t)n + 1, 1);
    m.pre_chars = calloc((size_t)n + 1, sizeof *m.pre_chars);
    m.pre_anchor = calloc((size_t)n + 1, sizeof *m.pre_anchor);
    m.cand = calloc((size_t)n + 1, sizeof *m.cand);
    m.is_cand = calloc((size_t)n + 1, 1);
    in_main = calloc((size_t)n + 1, 1);
    reg = calloc((size_t)n + 1, sizeof *reg);
    rep = calloc(nb ? nb : 1, 1);
    holds_body = calloc((size_t)n + 1, 1);
    if (!m.cls || !anc || !m.pre_chars || !m.pre_anchor || !m.cand || !m.is_cand || !in_main ||
        !reg || !rep || !holds_body || mark_repeats(acc, nb, rep))
        goto oom;
    /* Each element's own names first (region names, class weight, unlikely),
     * then which elements hold a marked article body (guard()): parents come
     * before children. */
    for (uint32_t i = 0; i < n; i++) {
        if (doc->nodes[i].kind != CET_ELEMENT)
            continue;
        struct elem_names nm;
        element_names(doc, i, &nm);
        reg[i] = (uint16_t)region_flags(doc, i, &nm);
        if (cet_node_nattr(doc, i)) {
            int wc = name_weight(nm.cls_only), wi = name_weight(nm.id_only);
            m.cls[i] = (int8_t)((wc + wi) / 25);
            anc[i] = (uint8_t)((wc > 0 || wi > 0) | (wc < 0 || wi < 0) << 1 |
                               unlikely(doc, i, &nm) << 2);
        }
        if (reg[i] & FLAG(F_BODY_MARK) && body_sized(doc, i))
            for (uint32_t a = doc->nodes[i].parent; a != CET_NONE && !holds_body[a];
                 a = doc->nodes[a].parent)
                holds_body[a] = 1;
    }
    continue_body(doc, n, reg);
    for (uint32_t i = 0; i < n; i++) {
        const struct cet_node *nd = &doc->nodes[i];
        if (nd->kind == CET_ELEMENT)
            reg[i] = (uint16_t)guard(doc, i, reg[i], holds_body[i]);
        if (nd->parent != CET_NONE) {
            anc[i] |= anc[nd->parent];
            reg[i] |= reg[nd->parent];
        }
        uint32_t c = nd->kind == CET_TEXT ? nd->nchars : 0;
        m.pre_chars[i + 1] = m.pre_chars[i] + c;
        m.pre_anchor[i + 1] = m.pre_anchor[i] + (nd->flags & CET_NF_ANCHOR ? c : 0);
    }
    find_main(doc, acc, nb, &m, in_main);
    free(m.cls);
    free(m.pre_chars);
    free(m.pre_anchor);
    free(m.cand);
    free(m.is_cand);
    m = (struct main_scratch){0};
    if (!(sp->feat = malloc((nb ? nb : 1) * sizeof *sp->feat)))
        goto oom;
    uint32_t *depth = malloc(((size_t)n + 1) * sizeof *depth);
    if (!depth)
        goto oom;
    cet_doc_depths(doc, depth);
    features(doc, acc, nb, anc, reg, rep, in_main, sw_scale, depth, sp->feat);
    free(depth);
    /* A thread signed comment by comment (signatures.c) gets the flags a
     * class "comments" gives its blocks (a negative name, an unlikely
     * candidate, a comment region), though its markup names nothing; rep[]
     * is free again. */
    cet_signed_threads(doc, sp->text_block, nb, rep);
    uint8_t *thread = malloc(nb ? nb : 1);
    if (!thread)
        goto oom;
    memcpy(thread, rep, nb);
    for (uint32_t b = 0; b < nb; b++)
        if (rep[b]) {
            sp->feat[b].flags |=
                (uint16_t)(FLAG(F_CLASS_NEG) | FLAG(F_UNLIKELY) | FLAG(F_COMMENTS));
            sp->aside_words += acc[b].words;
        }
    /* Likewise a list of teasers for other stories (teasers.c) gets a class
     * "related"'s flags, and its words leave the page's total as a thread's
     * do.  Its text nodes are marked for score_run (none on most pages:
     * then aside_text is NULL and score_run skips them). */
    sp->aside_text = malloc(nt ? nt : 1);
    if (!sp->aside_text || cet_teaser_lists(doc, sp->text_block, nb, rep, sp->aside_text)) {
        free(thread);
        goto oom;
    }
    int asides = 0;
    for (uint32_t k = 0; k < nt; k++) {
        uint32_t b = sp->text_block[k];
        const struct cet_node *nd = &doc->nodes[doc->texts[k]];
        if (thread[b])
            sp->aside_text[k] = 2; /* a signed thread's, counted above */
        else if (sp->feat[b].flags & FLAG(F_COMMENTS))
            sp->aside_text[k] = 0;
        else if (rep[b] || sp->aside_text[k])
            sp->aside_words += nd->w1 - nd->w0;
        asides |= sp->aside_text[k];
    }
    free(thread);
    if (!asides) {
        free(sp->aside_text);
        sp->aside_text = NULL;
    }
    for (uint32_t b = 0; b < nb; b++)
        if (rep[b] && !(sp->feat[b].flags & FLAG(F_COMMENTS)))
            sp->feat[b].flags |=
                (uint16_t)(FLAG(F_CLASS_NEG) | FLAG(F_UNLIKELY) | FLAG(F_RELATED));
    if (containers(doc, acc, nb, sp))
        goto oom;
    goto done;
oom:
    cet_fail(err, "out of memory");
fail:
    score_release(sp);
    sp = NULL;
done:
    free(slot);
    free(acc);
    free(ratio);
    free(vlen);
    free(sw);
    free(m.cls);
    free(m.pre_chars);
    free(m.pre_anchor);
    free(m.cand);
    free(m.is_cand);
    free(anc);
    free(in_main);
    free(reg);
    free(rep);
    free(holds_body);
    return sp;
}

/* Whether a block belongs to the fallback's second candidate. */
static int in_second(const struct block_feat *f)
{
    return (f->flags & FLAG(F_MAIN)) && !(f->flags & FLAG(F_HIDDEN)) && f->kind != F_KIND_A;
}

/* How a page's blocks are classified at threshold t: the context rule and
 * the container rules (rescue()), with their scratch. */
struct rules {
    double near;
    int sides;
    double gap, tail, lists, siblings, subheads; /* bands below t (0: off) */
    uint8_t *cont; /* per container: CONT_* bits */
};
enum { CONT_TEXT = 1, CONT_FAMILY = 2 };

/* Whether the container rule with this band may keep block b. */
static int rescuable(const struct score_prep *sp, const float *score, uint32_t b, double t,
                     double band, const uint8_t *keep)
{
    const struct block_feat *f = &sp->feat[b];
    return !keep[b] && f->words && score[b] >= t - band && sp->box[b] != CET_NONE &&
           !(f->flags & FLAG(F_HIDDEN)) && f->q[F_LINKS] < RESCUE_LINKS * Q;
}

static int list_kind(const struct block_feat *f)
{
    return f->kind == F_KIND_LI || f->kind == F_KIND_TD;
}

/* The container rules: what jusText's score-only context misses because
 * the article is one container of blocks, kept together.  Each keeps blocks
 * scoring in [t - band, t), never a hidden one, and each is O(blocks):
 * - gap: a run of blocks between two kept blocks, all of one container (a
 *   one-line paragraph between long ones);
 * - tail: a block of the container of the last kept block after an inline
 *   box, a container right inside that one, came between them (the
 *   paragraphs after a figure or an ad inside the article); a block of that
 *   container that is not kept ends it;
 * - lists: a list item or table cell whose list's container has kept text
 *   that is not a list item or cell (a list inside the article body);
 * - siblings: a block whose container's parent holds a container with kept
 *   text (the article continued in a sibling <div>);
 * - subheads: an h2-h6 (not the headline) whose previous and next blocks
 *   with words are kept and of its container (inside the article, not a
 *   section label above it). */
static void rescue(const struct score_prep *sp, const float *score, double t,
                   const struct rules *r, uint8_t *keep)
{
    uint32_t nb = sp->nblocks;
    if (r->gap > 0) {
        uint32_t last = CET_NONE; /* the last kept block with words */
        for (uint32_t b = 0; b < nb; b++) {
            if (!sp->feat[b].words || !keep[b])
                continue;
            if (last != CET_NONE && sp->box[last] == sp->box[b]) {
                int all = 1;
                for (uint32_t k = last + 1; all && k < b; k++)
                    all = !sp->feat[k].words ||
                          (sp->box[k] == sp->box[b] && rescuable(sp, score, k, t, r->gap, keep));
                for (uint32_t k = last + 1; all && k < b; k++)
                    keep[k] = sp->feat[k].words > 0;
            }
            last = b;
        }
    }
    if (r->tail > 0) {
        uint32_t open = CET_NONE; /* the container of the last kept block */
        int crossed = 0;          /* a box inside it since then */
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t c = sp->box[b];
            if (!sp->feat[b].words)
                continue;
            if (keep[b]) {
                open = c;
                crossed = 0;
            } else if (open == CET_NONE || c == CET_NONE) {
                continue;
            } else if (c == open) {
                if (crossed && rescuable(sp, score, b, t, r->tail, keep))
                    keep[b] = 1;
                else
                    open = CET_NONE;
            } else if (sp->up[c] == open) {
                crossed = 1;
            }
        }
    }
    if (r->lists > 0 || r->siblings > 0) {
        memset(r->cont, 0, sp->ncont);
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t c = sp->box[b];
            if (!keep[b] || !sp->feat[b].words || c == CET_NONE || list_kind(&sp->feat[b]) ||
                sp->feat[b].kind == F_KIND_H)
                continue;
            r->cont[c] |= CONT_TEXT;
            if (sp->up[c] != CET_NONE)
                r->cont[sp->up[c]] |= CONT_FAMILY;
        }
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t c = sp->box[b];
            if (c == CET_NONE)
                continue;
            if ((r->lists > 0 && list_kind(&sp->feat[b]) && r->cont[c] & CONT_TEXT &&
                 rescuable(sp, score, b, t, r->lists, keep)) ||
                (r->siblings > 0 && sp->up[c] != CET_NONE && r->cont[sp->up[c]] & CONT_FAMILY &&
                 rescuable(sp, score, b, t, r->siblings, keep)))
                keep[b] = 1;
        }
    }
    if (r->subheads > 0) {
        /* Candidates first (keep 2, scratch until the pass below): headings
         * whose previous block with words is kept text of their container,
         * so inside the article, not a section label above it. */
        uint32_t prev = CET_NONE;
        for (uint32_t b = 0; b < nb; b++) {
            const struct block_feat *f = &sp->feat[b];
            if (!f->words)
                continue;
            if (f->kind == F_KIND_H && !(f->flags & FLAG(F_HEADLINE)) && prev != CET_NONE &&
                keep[prev] == 1 && sp->box[prev] == sp->box[b] &&
                rescuable(sp, score, b, t, r->subheads, keep))
                keep[b] = 2;
            prev = b;
        }
        uint32_t next = CET_NONE; /* the next block with words */
        for (uint32_t b = nb; b-- > 0;) {
            if (!sp->feat[b].words)
                continue;
            if (keep[b] == 2)
                keep[b] = next != CET_NONE && keep[next] == 1 && sp->box[next] == sp->box[b];
            next = b;
        }
    }
}

/* Keeps the blocks scoring at least t in keep[] and returns their words.
 * With near > 0, jusText's context rule (Pomikálek 2011): a block scoring
 * in [t - near, t) is neither kept nor dropped by itself; a run of such
 * blocks takes the verdict of the nearest decided blocks with words before
 * and after it: kept when both are kept (sides 2) or when one is (sides 1).
 * A table cut into one-number cells, or paragraphs around an inline box,
 * score just below t between kept paragraphs; a menu item scores just
 * below t between dropped ones.  Then the container rules (rescue()). */
static uint64_t classify(const struct score_prep *sp, const float *score, double t,
                         const struct rules *r, uint8_t *keep)
{
    uint32_t nb = sp->nblocks, prev = CET_NONE; /* the last decided block with words */
    double near = r->near;
    for (uint32_t b = 0; b < nb; b++)
        keep[b] = score[b] >= t;
    for (uint32_t b = 0; near > 0 && b < nb;) {
        const int undecided = sp->feat[b].words && score[b] < t && score[b] >= t - near;
        if (!undecided) {
            prev = sp->feat[b].words ? b : prev;
            b++;
            continue;
        }
        uint32_t e = b; /* the run: undecided and empty blocks */
        while (e < nb && (!sp->feat[e].words || (score[e] < t && score[e] >= t - near)))
            e++;
        int before = prev != CET_NONE && keep[prev], after = e < nb && keep[e];
        int kept = r->sides >= 2 ? before && after : before || after;
        for (; b < e; b++)
            if (sp->feat[b].words)
                keep[b] = (uint8_t)kept;
    }
    rescue(sp, score, t, r, keep);
    uint64_t words = 0;
    for (uint32_t b = 0; b < nb; b++)
        words += keep[b] ? sp->feat[b].words : 0;
    return words;
}

/* classify() at another threshold, for the fallback chain. */
struct reclassify {
    const struct score_prep *sp;
    const float *score;
    const struct rules *rules;
    double t;
};

static uint64_t reclassify(void *ctx, double t, uint8_t *keep)
{
    const struct reclassify *r = ctx;
    if (t >= r->t) /* the chain only lowers the threshold */
        return 0;
    return classify(r->sp, r->score, t, r->rules, keep);
}

/* The fallback chain on this page's blocks (only when it runs, so the
 * common path pays nothing for it). */
static int run_fallback(const struct score_prep *sp, const float *score, float best,
                        const struct cet_fallback_opts *fo, const struct rules *rules, double t,
                        uint64_t kept, uint64_t page_words, uint8_t *keep, struct cet_sel *sel,
                        const struct cet_doc *doc, uint32_t *alt)
{
    uint32_t nb = sp->nblocks;
    uint32_t *words = cet_sel_buf(sel, 2, ((size_t)nb + 1) * (sizeof *words + 2));
    if (!words)
        return -1;
    uint8_t *second = (uint8_t *)(words + nb), *scratch = second + nb;
    for (uint32_t b = 0; b < nb; b++) {
        words[b] = sp->feat[b].words;
        second[b] = (uint8_t)in_second(&sp->feat[b]);
    }
    struct cet_fallback_blocks fb = {nb, words, score, second};
    struct reclassify rc = {sp, score, rules, t};
    cet_fallback_run(fo, &fb, best, kept, page_words, keep, scratch, reclassify, &rc, doc, alt);
    return 0;
}

static int score_run(const struct cet_doc *doc, const void *prep, const double *p,
                     struct cet_sel *sel)
{
    const struct score_prep *sp = prep;
    size_t nb = sp->nblocks ? sp->nblocks : 1;
    uint8_t *keep = cet_sel_buf(sel, 0, nb);
    float *score = cet_sel_buf(sel, 1, nb * sizeof *score);
    if (!keep || !score)
        return -1;
    double w[NGRADED];
    for (int k = 0; k < NGRADED; k++)
        w[k] = p[k] / Q;
    float best = -INFINITY; /* the best score of a block with words */
    for (uint32_t b = 0; b < sp->nblocks; b++) {
        const struct block_feat *f = &sp->feat[b];
        double s = p[f->kind];
        for (int k = 0; k < NGRADED; k++)
            s += w[k] * f->q[k];
        for (int k = 0; k < NFLAGS; k++)
            if (f->flags >> k & 1)
                s += p[F_CLASS_POS + k];
        score[b] = (float)s;
        if (f->words && score[b] > best)
            best = score[b];
    }
    struct rules rules = {p[P_NEAR], (int)lrint(p[P_NEAR_SIDES]), p[P_GAP], p[P_TAIL],
                          p[P_LISTS], p[P_SIBLINGS], p[P_SUBHEADS], NULL};
    if ((rules.lists > 0 || rules.siblings > 0) &&
        !(rules.cont = cet_sel_buf(sel, 3, sp->ncont ? sp->ncont : 1)))
        return -1;
    uint64_t kept = classify(sp, score, p[P_T], &rules, keep);
    /* A teaser list's or a signed thread's text goes, also from a kept
     * block (a block that holds a list scores as a block of text however it
     * is flagged, an old table layout's one cell holds the article and the
     * lists below it, and a thread's long comments outweigh its flags with
     * tuned weights), when the flags its blocks get count against it.  The
     * fallback judges what is left. */
    uint8_t drop_kind[3] = {0, sp->aside_text && p[F_CLASS_NEG] + p[F_UNLIKELY] + p[F_RELATED] < 0,
                            sp->aside_text && p[F_CLASS_NEG] + p[F_UNLIKELY] + p[F_COMMENTS] < 0};
    int drop_aside = drop_kind[1] || drop_kind[2];
    if (drop_aside)
        for (uint32_t k = 0; k < doc->ntexts; k++)
            if (drop_kind[sp->aside_text[k]] && keep[sp->text_block[k]]) {
                uint32_t w = doc->nodes[doc->texts[k]].w1 - doc->nodes[doc->texts[k]].w0;
                kept = kept > w ? kept - w : 0;
            }
    /* Too little kept (empty, or tiny against the page's text): the
     * fallback chain (fallback.c). */
    struct cet_fallback_opts fo = {p[P_FALLBACK],        p[P_FALLBACK_SHARE],
                                   p[P_FALLBACK_MARGIN], p[P_FALLBACK_REGION],
                                   p[P_FALLBACK_JSONLD], p[P_FALLBACK_NOSCRIPT],
                                   p[P_FALLBACK_ALT_WORDS]};
    uint64_t page_words = cet_fallback_page_words(&fo, doc, sp->aside_words);
    uint32_t alt = CET_NONE;
    if (cet_fallback_needed(&fo, kept, page_words) &&
        run_fallback(sp, score, best, &fo, &rules, p[P_T], kept, page_words, keep, sel, doc,
                     &alt))
        return -1;
    if (alt != CET_NONE) /* text the page does not show replaces its blocks */
        return cet_fallback_emit(doc, alt, p[P_DROP_HEADLINE] >= 0.5, sel);
    if (p[P_DROP_HEADLINE] >= 0.5)
        for (uint32_t b = 0; b < sp->nblocks; b++)
            if (sp->feat[b].flags & FLAG(F_HEADLINE))
                keep[b] = 0;
    for (uint32_t k = 0; k < doc->ntexts; k++) {
        if (!keep[sp->text_block[k]])
            continue;
        if (drop_aside && drop_kind[sp->aside_text[k]])
            continue;
        for (uint32_t i = doc->texts[k]; i != CET_NONE && !sel->keep[i]; i = doc->nodes[i].parent)
            sel->keep[i] = 1;
    }
    return 0;
}

/* Defaults: the median of six runs tuned on the training sample of
 * docs/experiment.md, rounded to 0.1 (docs/extractors.md says how). */
#define W(name, def, help) {name, CET_P_FLOAT, def, -5.0, 5.0, NULL, help}

static const struct cet_param score_params[] = {
    W("w_links", -4.1, "weight of the block's link density (anchor characters / characters)"),
    W("w_words", 2.2, "weight of the block's words, log(1 + words) / log(101) capped at 1"),
    W("w_prev_words", 1.8, "weight of the previous block's words (same scale)"),
    W("w_next_words", 0.7, "weight of the next block's words (same scale)"),
    W("w_ccb", 2.3, "weight of accb's blurred content/code ratio of the block (r = 128)"),
    W("w_stopwords", 1.0,
      "weight of the stop-word share over twice sw's threshold of the page's language"),
    W("w_density", 1.0, "weight of boilerpipe's text density (words per 80-character line) / 15"),
    W("w_depth", -1.1, "weight of the block's depth over the deepest block's"),
    W("w_position", -0.6, "weight of the block's first word's position in the page (0 top, 1 end)"),
    W("w_punct", 0.8, "weight of punctuation marks per word, times 4, capped at 1"),
    W("w_main_share", 1.7,
      "weight of the score of the nearest candidate above the block over the best candidate's"),
    W("w_class_pos", -0.1,
      "weight of a positive class or id (article, content, post...) on the block or above"),
    W("w_class_neg", -1.0,
      "weight of a negative class or id (comment, footer, nav...) on the block or above"),
    W("w_main", 2.2, "weight of lying in the subtree Readability would choose as the article"),
    W("w_unlikely", -1.1,
      "weight of lying in an element Readability drops as an unlikely candidate"),
    W("w_body_mark", 0.0,
      "weight of lying in an element marked as the article body (itemprop articleBody, "
      "class or id article-body, entry-content, story-body...)"),
    W("w_meta", 0.0,
      "weight of lying in metadata: itemprop author, datePublished..., class or id byline, "
      "dateline, timestamp..."),
    W("w_comments", 0.0, "weight of lying in a comment section (class or id comment, disqus...)"),
    W("w_related", 0.0,
      "weight of lying in a related, teaser or popular list (related, teaser, recommend...)"),
    W("w_share", 0.0, "weight of lying in a share or social box (share, social, follow...)"),
    W("w_notice", 0.0,
      "weight of lying in a newsletter, cookie, consent or sign-up box (newsletter, cookie...)"),
    W("w_hidden", 0.0,
      "weight of lying in a hidden element (display:none, hidden, aria-hidden, class hidden)"),
    W("w_caption", 0.0,
      "weight of lying in a figure or caption (figure, figcaption, class caption, credit...)"),
    W("w_landmark", 0.0,
      "weight of lying in <nav>, <aside> or <footer>, or role navigation, complementary, "
      "contentinfo, banner or search"),
    W("w_headline", 0.0,
      "weight of the headline: an h1, itemprop headline, or h2-h3 with class title/headline"),
    W("w_repeat", 0.0, "weight of a block whose words are exactly an earlier block's"),
    W("w_outside_body", 0.0,
      "weight of a block outside the marked article body, on a page that marks one with at least "
      "50 words (itemprop articleBody, class article-body...)"),
    W("w_p", 0.3, "weight of a <p> block"),
    W("w_li", 1.4, "weight of a <li>, <dt> or <dd> block"),
    W("w_td", 2.1, "weight of a <td> or <th> block"),
    W("w_h", 1.7, "weight of a heading block (h1-h6)"),
    W("w_a", -1.5, "weight of a block whose text is all link text"),
    W("w_other", 0.0, "weight of any other block (div, body, ...)"),
    {"t", CET_P_FLOAT, 6.3, -5.0, 15.0, NULL, "a block is kept when its score reaches t"},
    {"drop_headline", CET_P_BOOL, 0, 0, 1, NULL,
     "never keep the headline (a gold of the article body only, as schema.org articleBody)"},
    {"fallback_words", CET_P_INT, 0, 0, 200, NULL,
     "when fewer words are kept, Readability's main subtree replaces them if it has more "
     "(0: never)"},
    {"near", CET_P_FLOAT, 0, 0, 5.0, NULL,
     "a block scoring in [t - near, t) is kept when the nearest blocks with words around it "
     "are (jusText's context; 0: off)"},
    {"near_sides", CET_P_INT, 2, 1, 2, NULL,
     "how many of those two neighbours must be kept: 2 both, 1 either"},
    {"fallback_margin", CET_P_FLOAT, 0, 0, 5.0, NULL,
     "the fallback's second candidate: the blocks scoring at least the best block's score minus "
     "this (0: Readability's main subtree)"},
    {"fallback_share", CET_P_FLOAT, 0, 0, 0.5, NULL,
     "the fallback chain also runs when fewer than this share of the page's words are kept "
     "(0: only fallback_words)"},
    {"fallback_region", CET_P_FLOAT, 0, 0, 5.0, NULL,
     "the chain's second step: the contiguous run of blocks with the most words scoring above the "
     "best block's score minus this (0: off)"},
    {"gap", CET_P_FLOAT, 0, 0, 10.0, NULL,
     "a run of blocks scoring in [t - gap, t) between two kept blocks, all of one container, is "
     "kept (0: off)"},
    {"tail", CET_P_FLOAT, 0, 0, 10.0, NULL,
     "a block scoring in [t - tail, t) in the container of the last kept block is kept, past "
     "inline boxes of other containers (0: off)"},
    {"lists", CET_P_FLOAT, 0, 0, 10.0, NULL,
     "a list item or table cell scoring in [t - lists, t) is kept when its list's container "
     "has kept text (0: off)"},
    {"siblings", CET_P_FLOAT, 0, 0, 10.0, NULL,
     "a block scoring in [t - siblings, t) is kept when its container's parent holds kept text "
     "(the article continued in a sibling container; 0: off)"},
    {"subheads", CET_P_FLOAT, 0, 0, 10.0, NULL,
     "an h2-h6 scoring in [t - subheads, t) is kept when the next block is kept text of its "
     "container (0: off)"},
    {"fallback_jsonld", CET_P_BOOL, 1, 0, 1, NULL,
     "the fallback chain may take the page's schema.org JSON-LD articleBody"},
    {"fallback_noscript", CET_P_BOOL, 1, 0, 1, NULL,
     "the fallback chain may take the text of a <noscript> or <template> element"},
    {"fallback_alt_words", CET_P_INT, 50, 0, 1000, NULL,
     "the fewest words of such a text for the chain to take it"},
};

_Static_assert(sizeof score_params / sizeof score_params[0] == P_FALLBACK_ALT_WORDS + 1,
               "one weight per feature, the threshold, then the switches");

const struct cet_extractor cet_extractor_score = {
    .name = "score",
    .summary = "Feature-weighted block scorer: a linear score over shallow text features "
               "(after Kohlschütter et al. 2010)",
    .params = score_params,
    .nparams = sizeof score_params / sizeof score_params[0],
    .prepare = score_prepare,
    .release = score_release,
    .run = score_run,
    .load = CET_LOAD_TEXT, /* add_text: punctuation */
};
