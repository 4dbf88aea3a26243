/* The fallback chain: an extraction that came back empty, or tiny against
 * the page's text, loses the page for a crawler.  Trafilatura falls back to
 * readability and jusText the same way when its own result is empty or
 * tiny; here the steps are the scorer's own, in order:
 *
 * 1. the second candidate: the page's best blocks, the threshold lowered to
 *    the best block's score minus `margin` (an article that scores low
 *    everywhere: a language without stop words, text loose in a <div>), or
 *    with margin 0 Readability's main subtree;
 * 2. the best contiguous region: the run of blocks with the largest sum of
 *    words x (score - (best - region)) (Kadane's maximum subarray, as Finn,
 *    Kushmerick and Smyth's body text extraction finds the one stretch of a
 *    page with the most text and the least markup): a short block between
 *    two paragraphs costs little, a menu between two articles more than it
 *    brings;
 * 3. the page's schema.org JSON-LD articleBody (the longest of an article
 *    type, with its headline unless the headline is dropped): pages built by
 *    scripts show a shell and state their article there for search engines;
 * 4. the text of a <noscript> or <template> element (the longest), where a
 *    page's own markup puts its article for readers without scripts or for
 *    a script to insert.
 *
 * Steps 3 and 4 read text the page does not show (struct cet_alt, parsed
 * with the page once), each switched by a parameter and only for a text of
 * at least alt_words words: noscript elements also hold "enable
 * JavaScript" notes, tracking pixels and archive toolbars, and a JSON-LD
 * body may be a teaser.  Since such a page shows little, the extraction is
 * measured against the longest text the page has, shown or carried
 * (cet_fallback_page_words).
 *
 * Each step replaces the extraction only when it brings more words, so the
 * chain never makes a non-empty extraction smaller. */
#include "fallback.h"

#include <math.h>
#include <string.h>

int cet_fallback_needed(const struct cet_fallback_opts *o, uint64_t kept, uint64_t page_words)
{
    return (double)kept < o->min_words || (double)kept < o->min_share * (double)page_words;
}

/* Step 2: the run of blocks [first, last] maximising the sum of
 * words x (score - floor); its words into *words.  No block above the
 * floor: nothing (returns 0). */
static int best_region(const struct cet_fallback_blocks *b, double floor, uint32_t *first,
                       uint32_t *last, uint64_t *words)
{
    double best = 0, run = 0;
    uint32_t start = 0;
    int found = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        if (!b->words[i])
            continue;
        double v = (double)b->words[i] * ((double)b->score[i] - floor);
        if (run <= 0) {
            run = 0;
            start = i;
        }
        run += v;
        if (run > best) {
            best = run;
            *first = start;
            *last = i;
            found = 1;
        }
    }
    *words = 0;
    for (uint32_t i = *first; found && i <= *last; i++)
        *words += b->words[i];
    return found;
}

/* Whether the chain may take alternate a: a kind it is asked to, with
 * enough words. */
static int usable(const struct cet_fallback_opts *o, const struct cet_alt *a)
{
    double on = a->kind == CET_ALT_JSONLD ? o->jsonld : o->noscript;
    return on >= 0.5 && (double)a->words >= o->alt_words && a->words > 0;
}

uint64_t cet_fallback_page_words(const struct cet_fallback_opts *o, const struct cet_doc *doc,
                                 uint64_t aside)
{
    uint64_t words = doc->nwords > aside ? doc->nwords - aside : 0;
    for (uint32_t k = 0; k < doc->nalts; k++)
        if (usable(o, &doc->alts[k]) && doc->alts[k].words > words)
            words = doc->alts[k].words;
    return words;
}

/* Steps 3 and 4: the longest usable alternate of the page, JSON-LD's
 * (jsonld 1) or noscript's and template's (0); the first of equals. */
static uint32_t longest_alt(const struct cet_fallback_opts *o, const struct cet_doc *doc,
                            int jsonld)
{
    uint32_t best = CET_NONE;
    for (uint32_t k = 0; k < doc->nalts; k++) {
        const struct cet_alt *a = &doc->alts[k];
        if ((a->kind == CET_ALT_JSONLD) == jsonld && usable(o, a) &&
            (best == CET_NONE || a->words > doc->alts[best].words))
            best = k;
    }
    return best;
}

/* Steps 1 and 2, on the page's blocks. */
static uint64_t page_steps(const struct cet_fallback_opts *o, const struct cet_fallback_blocks *b,
                           float best, uint64_t kept, uint64_t page_words, uint8_t *keep,
                           uint8_t *scratch,
                           uint64_t (*classify)(void *ctx, double t, uint8_t *keep), void *ctx)
{
    if (!b->n || isinf(best))
        return kept;
    /* Step 1: the second candidate. */
    uint64_t second = 0;
    if (o->margin > 0) {
        second = classify(ctx, (double)best - o->margin, scratch);
    } else {
        for (uint32_t i = 0; i < b->n; i++) {
            scratch[i] = b->second[i];
            second += b->second[i] ? b->words[i] : 0;
        }
    }
    if (second > kept) {
        memcpy(keep, scratch, b->n);
        kept = second;
    }
    if (o->region <= 0 || !cet_fallback_needed(o, kept, page_words))
        return kept;
    /* Step 2: the best contiguous region. */
    uint32_t first = 0, last = 0;
    uint64_t words = 0;
    if (best_region(b, (double)best - o->region, &first, &last, &words) && words > kept) {
        memset(keep, 0, b->n);
        for (uint32_t i = first; i <= last; i++)
            keep[i] = b->words[i] > 0;
        kept = words;
    }
    return kept;
}

uint64_t cet_fallback_run(const struct cet_fallback_opts *o, const struct cet_fallback_blocks *b,
                          float best, uint64_t kept, uint64_t page_words, uint8_t *keep,
                          uint8_t *scratch,
                          uint64_t (*classify)(void *ctx, double t, uint8_t *keep), void *ctx,
                          const struct cet_doc *doc, uint32_t *alt)
{
    *alt = CET_NONE;
    kept = page_steps(o, b, best, kept, page_words, keep, scratch, classify, ctx);
    /* Steps 3 and 4: the text the page carries but does not show. */
    for (int jsonld = 1; jsonld >= 0; jsonld--) {
        if (!cet_fallback_needed(o, kept, page_words))
            break;
        uint32_t a = longest_alt(o, doc, jsonld);
        if (a != CET_NONE && doc->alts[a].words > kept) {
            *alt = a;
            kept = doc->alts[a].words;
        }
    }
    return kept;
}

int cet_fallback_emit(const struct cet_doc *doc, uint32_t alt, int drop_headline,
                      struct cet_sel *sel)
{
    const struct cet_alt *a = &doc->alts[alt];
    for (uint32_t i = drop_headline ? a->body0 : a->node0; i < a->node1; i++)
        if (cet_sel_add_extra(sel, i))
            return -1;
    return 0;
}
