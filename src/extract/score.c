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
 * - kind: one feature per kind, exactly one of them 1: a (all of the
 *   block's text is link text), else h (h1-h6), p, li (li, dt, dd), td (td,
 *   th), other.  The tag says what the author meant the text to be, and
 *   a block that is a link and nothing else is navigation wherever it sits.
 *
 * Everything above depends on the page only, so prepare() computes it once
 * per document; run() is a dot product per block and a comparison.  Text
 * nodes of kept blocks are kept with their ancestors (as in ccb.c), so the
 * HTML output keeps its structure. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/extractor.h"
#include "ccb.h"
#include "sw.h"

#define CCB_RADIUS 128    /* accb's best tuned r */
#define WORDS_CAP 100.0   /* words from which "words" is 1 */
#define LINE_CHARS 80     /* boilerpipe's wrap width */
#define DENSITY_CAP 15.0  /* words per line from which "density" is 1 */
#define PUNCT_SCALE 4.0   /* punctuation per word times this, capped at 1 */
#define MAIN_MIN_CHARS 25 /* Readability's shortest scored paragraph */

/* Feature order = parameter order (the threshold comes last): first the
 * graded features, then the four yes/no ones, then the kinds. */
enum {
    F_LINKS, F_WORDS, F_PREV_WORDS, F_NEXT_WORDS, F_CCB, F_STOPWORDS, F_DENSITY, F_DEPTH,
    F_POSITION, F_PUNCT, F_MAIN_SHARE,
    F_CLASS_POS, F_CLASS_NEG, F_MAIN, F_UNLIKELY,
    F_KIND_P, F_KIND_LI, F_KIND_TD, F_KIND_H, F_KIND_A, F_KIND_OTHER,
    NF,
    P_T = NF,
    NGRADED = F_CLASS_POS,
    NFLAGS = F_KIND_P - F_CLASS_POS,
};

/* A block's features in 22 bytes (pages can have a million blocks): graded
 * features in units of 1/65535, the yes/no ones as bits, the kind as the
 * index of its feature. */
#define Q 65535.0
struct block_feat {
    uint16_t q[NGRADED];
    uint8_t flags; /* bit k: feature F_CLASS_POS + k is 1 */
    uint8_t kind;  /* F_KIND_* */
};

struct score_prep {
    uint32_t nblocks;
    struct block_feat *feat;
    uint32_t *text_block; /* per text node (doc->texts order): its block */
};

/* What prepare() adds up per block before normalising (page sizes fit 32 bits). */
struct block_acc {
    uint32_t elem; /* block element, or CET_NONE for the pseudo-block */
    uint32_t chars, anchor;
    uint32_t words, first_word, punct, commas;
    float sw;
    float main_share; /* score of the nearest candidate above / the best's */
    double ccb; /* blurred ratio times characters, summed */
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

/* Whether Readability would drop element i as an unlikely candidate. */
static int unlikely(const struct cet_doc *doc, uint32_t i)
{
    enum cet_tag tag = (enum cet_tag)doc->nodes[i].tag;
    if (tag == CET_TAG_BODY || tag == CET_TAG_A || tag == CET_TAG_HTML)
        return 0;
    char buf[512], role[64];
    const char *c = cet_node_attr(doc, i, "class"), *id = cet_node_attr(doc, i, "id");
    size_t n = strlen(lower(c, buf, sizeof buf / 2));
    buf[n++] = ' ';
    lower(id, buf + n, sizeof buf - n);
    if (contains_any(buf, unlikely_names) && !contains_any(buf, maybe_names))
        return 1;
    lower(cet_node_attr(doc, i, "role"), role, sizeof role);
    for (const char *const *r = unlikely_roles; *r; r++)
        if (!strcmp(role, *r))
            return 1;
    return 0;
}

/* Readability's class weight of one attribute value: +25 when it names a
 * positive word, -25 when a negative one (both can apply). */
static int name_weight(const char *value)
{
    if (!value || !*value)
        return 0;
    char low[256];
    lower(value, low, sizeof low);
    return 25 * contains_any(low, positive_names) - 25 * contains_any(low, negative_names);
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

/* The features of every block from its sums. */
static void features(const struct cet_doc *doc, const struct block_acc *acc, uint32_t nb,
                     const uint8_t *anc, const uint8_t *in_main, double sw_scale,
                     const uint32_t *depth, struct block_feat *feat)
{
    uint32_t max_depth = 0;
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
        f->flags = 0;
        if (a->elem != CET_NONE)
            f->flags = (uint8_t)((anc[a->elem] & 3) | in_main[a->elem] << 2 |
                                 (anc[a->elem] >> 2 & 1) << 3);
        enum cet_tag tag =
            a->elem == CET_NONE ? CET_TAG_UNKNOWN : (enum cet_tag)doc->nodes[a->elem].tag;
        if (a->chars && a->anchor == a->chars)
            f->kind = F_KIND_A;
        else if (tag >= CET_TAG_H1 && tag <= CET_TAG_H6)
            f->kind = F_KIND_H;
        else if (tag == CET_TAG_P)
            f->kind = F_KIND_P;
        else if (tag == CET_TAG_LI || tag == CET_TAG_DT || tag == CET_TAG_DD)
            f->kind = F_KIND_LI;
        else if (tag == CET_TAG_TD || tag == CET_TAG_TH)
            f->kind = F_KIND_TD;
        else
            f->kind = F_KIND_OTHER;
    }
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
    uint8_t *anc = NULL, *in_main = NULL;
    if (sp)
        sp->text_block = malloc((nt ? nt : 1) * sizeof *sp->text_block);
    if (!sp || !slot || !sp->text_block)
        goto oom;

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
    if (!m.cls || !anc || !m.pre_chars || !m.pre_anchor || !m.cand || !m.is_cand || !in_main)
        goto oom;
    for (uint32_t i = 0; i < n; i++) {
        const struct cet_node *nd = &doc->nodes[i];
        if (nd->kind == CET_ELEMENT && cet_node_nattr(doc, i)) {
            int wc = name_weight(cet_node_attr(doc, i, "class"));
            int wi = name_weight(cet_node_attr(doc, i, "id"));
            m.cls[i] = (int8_t)((wc + wi) / 25);
            anc[i] = (uint8_t)((wc > 0 || wi > 0) | (wc < 0 || wi < 0) << 1 |
                               unlikely(doc, i) << 2);
        }
        if (nd->parent != CET_NONE)
            anc[i] |= anc[nd->parent];
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
    features(doc, acc, nb, anc, in_main, sw_scale, depth, sp->feat);
    free(depth);
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
    return sp;
}

static int score_run(const struct cet_doc *doc, const void *prep, const double *p,
                     struct cet_sel *sel)
{
    const struct score_prep *sp = prep;
    uint8_t *keep = cet_sel_buf(sel, 0, sp->nblocks ? sp->nblocks : 1);
    if (!keep)
        return -1;
    double w[NGRADED];
    for (int k = 0; k < NGRADED; k++)
        w[k] = p[k] / Q;
    for (uint32_t b = 0; b < sp->nblocks; b++) {
        const struct block_feat *f = &sp->feat[b];
        double s = p[f->kind];
        for (int k = 0; k < NGRADED; k++)
            s += w[k] * f->q[k];
        for (int k = 0; k < NFLAGS; k++)
            if (f->flags >> k & 1)
                s += p[F_CLASS_POS + k];
        keep[b] = s >= p[P_T];
    }
    for (uint32_t k = 0; k < doc->ntexts; k++) {
        if (!keep[sp->text_block[k]])
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
    W("w_p", 0.3, "weight of a <p> block"),
    W("w_li", 1.4, "weight of a <li>, <dt> or <dd> block"),
    W("w_td", 2.1, "weight of a <td> or <th> block"),
    W("w_h", 1.7, "weight of a heading block (h1-h6)"),
    W("w_a", -1.5, "weight of a block whose text is all link text"),
    W("w_other", 0.0, "weight of any other block (div, body, ...)"),
    {"t", CET_P_FLOAT, 6.3, -5.0, 15.0, NULL, "a block is kept when its score reaches t"},
};

_Static_assert(sizeof score_params / sizeof score_params[0] == NF + 1,
               "one weight per feature, then the threshold");

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
