/* Teaser lists: other stories, each a linked headline over a byline, a date
 * or a sentence of the story.
 *
 * News pages print them beside or below the article ("Today's Top
 * Stories" on forbes.com, "B.C. Headlines" on cbc.ca, related stories):
 *
 *     <a class="mainartlink">Verizon Profit Climbs On Wireless Sales</a><br>
 *     <span class="author">Associated Press</span> - <span>7/27/04</span><br>
 *     <span class="arttxt">A 25% surge in wireless helped drive Q2 ...</span>
 *
 * The headlines are links, and link density drops them.  The sentences
 * under them hold no link and read as prose, so every other feature of
 * score.c calls them article, and a list that shares the article's block
 * or slot is kept whole.  No class name need say "related".
 *
 * The page is read as lines (text between line breaks and block
 * boundaries, cet_node_sep), and a list is a run of at least
 * CET_TEASER_MIN_ITEMS items:
 * - a headline: a line of HEAD_MIN_WORDS to HEAD_MAX_WORDS words, at least
 *   HEAD_LINK_SHARE of them in links;
 * - then one to ITEM_LINES body lines, each of at most
 *   CET_TEASER_SUMMARY_WORDS words and at most BODY_LINK_SHARE of them in
 *   links, with ITEM_MIN_TEXT words outside links among them (else the
 *   list is a list of links, link density's case).
 * Every headline of a run has the same parent markup (tag and class), one
 * template's, and each is another story's than the one before.  An item
 * ends where the next headline starts; the last one at its first line in
 * the markup of the first item's last line, so a short paragraph of the
 * article after the list is not taken for a teaser's sentence.  A list
 * whose last lines average fewer than TEASER_SENTENCE_WORDS words is a
 * menu, and one whose sentences' markup goes on either side of it is a
 * text that headlines interrupt (links between an article's paragraphs).
 *
 * Which text nodes are a list's is what score.c needs: it flags a block of
 * which BLOCK_SHARE of the words are a list's, and drops a list's text from
 * the blocks it keeps (docs/extractors.md, "Teaser lists").  A list of
 * articles in the article itself, with linked headings and a short
 * paragraph under each, looks the same; the limit of
 * CET_TEASER_SUMMARY_WORDS words per line is what tells them apart, as a
 * teaser gives a sentence or two of its story.
 */
#include <stdlib.h>
#include <string.h>

#include "teasers.h"

#define HEAD_MIN_WORDS 2
#define HEAD_MAX_WORDS 20
#define HEAD_LINK_SHARE 0.8 /* a headline's words in links, at least */
#define BODY_LINK_SHARE 0.2 /* a body line's words in links, at most */
#define ITEM_LINES 3        /* body lines of an item, at most: byline, date, sentence */
#define ITEM_MIN_TEXT 4     /* words outside links below a headline, at least */
#define BLOCK_SHARE 0.8     /* a block's words in lists, for the block to be a list's */
#define TEASER_SENTENCE_WORDS 10 /* words of an item's last line, on average, at least */

struct line {
    uint32_t k;             /* its first text node with words (doc->texts[k]) */
    uint32_t w0;            /* its first word (doc->words) */
    uint32_t words, anchor; /* its words, and those in links */
};

static int is_head(const struct line *l)
{
    return l->words >= HEAD_MIN_WORDS && l->words <= HEAD_MAX_WORDS &&
           l->anchor >= HEAD_LINK_SHARE * l->words;
}

static int is_body(const struct line *l)
{
    return l->words <= CET_TEASER_SUMMARY_WORDS && l->anchor <= BODY_LINK_SHARE * l->words;
}

/* The page's lines with words, in order, into l[]; returns how many. */
static uint32_t read_lines(const struct cet_doc *doc, const uint32_t *text_block,
                           struct line *l)
{
    uint32_t n = 0, cur = 0;
    int open = 0;
    for (uint32_t k = 0; k < doc->ntexts; k++) {
        uint32_t t = doc->texts[k];
        const struct cet_node *nd = &doc->nodes[t];
        if (!open || text_block[k] != text_block[k - 1] || cet_node_sep(doc, t) >= CET_SEP_LINE) {
            if (open && l[cur].words)
                n = cur + 1;
            cur = n;
            l[cur] = (struct line){0};
            open = 1;
        }
        uint32_t w = nd->w1 - nd->w0;
        if (w && !l[cur].words) {
            l[cur].k = k;
            l[cur].w0 = nd->w0;
        }
        l[cur].words += w;
        if (nd->flags & CET_NF_ANCHOR)
            l[cur].anchor += w;
    }
    if (open && l[cur].words)
        n = cur + 1;
    return n;
}

/* Words outside links of lines a..b. */
static uint32_t text_words(const struct line *l, uint32_t a, uint32_t b)
{
    uint32_t w = 0;
    for (uint32_t j = a; j <= b; j++)
        w += l[j].words - l[j].anchor;
    return w;
}

/* Whether lines a and b open in the same markup (one template's). */
static int same_markup(const struct cet_doc *doc, const struct line *a, const struct line *b)
{
    return cet_same_parent_markup(doc, doc->texts[a->k], doc->texts[b->k]);
}

/* The last line of the item under headline i that the next headline (in
 * head's markup) ends, or CET_NONE. */
static uint32_t item_before_head(const struct cet_doc *doc, const struct line *l, uint32_t n,
                                 uint32_t i, uint32_t head)
{
    for (uint32_t j = i + 1; j <= i + ITEM_LINES && j + 1 < n && is_body(&l[j]); j++)
        if (is_head(&l[j + 1]) && same_markup(doc, &l[j + 1], &l[head]))
            return text_words(l, i + 1, j) >= ITEM_MIN_TEXT ? j : CET_NONE;
    return CET_NONE;
}

/* The last line of the list's last item, under headline i: the first line
 * in the markup of line last (the first item's last), or CET_NONE. */
static uint32_t last_item(const struct cet_doc *doc, const struct line *l, uint32_t n,
                          uint32_t i, uint32_t last)
{
    for (uint32_t j = i + 1; j <= i + ITEM_LINES && j < n && is_body(&l[j]); j++)
        if (same_markup(doc, &l[j], &l[last]))
            return text_words(l, i + 1, j) >= ITEM_MIN_TEXT ? j : CET_NONE;
    return CET_NONE;
}

/* Whether lines a and b hold the same words. */
static int same_words(const struct cet_doc *doc, const struct line *a, const struct line *b)
{
    return a->words == b->words &&
           !memcmp(doc->words + a->w0, doc->words + b->w0, a->words * sizeof *doc->words);
}

/* The last line of the list whose first headline is line i, or CET_NONE
 * when no list starts there. */
static uint32_t list_end(const struct cet_doc *doc, const struct line *l, uint32_t n, uint32_t i)
{
    uint32_t end = item_before_head(doc, l, n, i, i);
    if (end == CET_NONE)
        return CET_NONE;
    uint32_t first_last = end, items = 1, sentence = l[end].words, prev = i;
    for (;;) {
        /* The next headline: in the first's markup, and another story's
         * ("View this ad" under each classified ad is none). */
        uint32_t h = end + 1;
        if (h >= n || !is_head(&l[h]) || !same_markup(doc, &l[h], &l[i]) ||
            same_words(doc, &l[h], &l[prev]))
            break;
        prev = h;
        uint32_t e = item_before_head(doc, l, n, h, i);
        if (e == CET_NONE)
            e = last_item(doc, l, n, h, first_last);
        if (e == CET_NONE)
            break;
        end = e;
        items++;
        sentence += l[e].words;
    }
    if (items < CET_TEASER_MIN_ITEMS || sentence < TEASER_SENTENCE_WORDS * items)
        return CET_NONE;
    /* The lines either side in the sentences' markup: the sentences are
     * the paragraphs of a text the headlines interrupt (links to other
     * stories between an article's paragraphs, or an article's list of
     * links with a paragraph under each). */
    if ((i > 0 && same_markup(doc, &l[i - 1], &l[first_last])) ||
        (end + 1 < n && same_markup(doc, &l[end + 1], &l[first_last])))
        return CET_NONE;
    return end;
}

int cet_teaser_lists(const struct cet_doc *doc, const uint32_t *text_block, uint32_t nb,
                     uint8_t *in_list, uint8_t *text_listed)
{
    memset(in_list, 0, nb);
    memset(text_listed, 0, doc->ntexts);
    struct line *l = malloc((doc->ntexts ? doc->ntexts : 1) * sizeof *l);
    uint32_t *words = calloc(nb ? 2 * (size_t)nb : 1, sizeof *words); /* all, in lists */
    if (!l || !words) {
        free(l);
        free(words);
        return -1;
    }
    uint32_t n = read_lines(doc, text_block, l), found = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!is_head(&l[i]))
            continue;
        uint32_t end = list_end(doc, l, n, i);
        if (end == CET_NONE)
            continue;
        /* Lines are runs of text nodes: the list is the text nodes from
         * its first line's first up to the next line's first. */
        uint32_t stop = end + 1 < n ? l[end + 1].k : doc->ntexts;
        memset(text_listed + l[i].k, 1, stop - l[i].k);
        found = 1;
        i = end;
    }
    if (found) {
        for (uint32_t k = 0; k < doc->ntexts; k++) {
            const struct cet_node *nd = &doc->nodes[doc->texts[k]];
            words[2 * text_block[k]] += nd->w1 - nd->w0;
            if (text_listed[k])
                words[2 * text_block[k] + 1] += nd->w1 - nd->w0;
        }
        for (uint32_t b = 0; b < nb; b++)
            in_list[b] = words[2 * b] && words[2 * b + 1] >= BLOCK_SHARE * words[2 * b];
    }
    free(l);
    free(words);
    return 0;
}
