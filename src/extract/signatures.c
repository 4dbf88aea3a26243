/* Comment threads recognised by their signatures.
 *
 * News sites of the late 2000s print reader comments below the story in the
 * story's own markup: telegraph.co.uk's comments are <p class="story"> like
 * its paragraphs, and many threads name no comment region at all.  Their
 * text is long, punctuated prose, so every feature of score.c calls it
 * article.  What gives a thread away is its signatures, one per comment:
 * "Posted by: Walters on December 29, 2007 01:15 PM", "Posted By:
 * vickthechick3 | January 07 2008 at 03:06 PM".
 *
 * A signature is a text node that opens with "posted by", "submitted by",
 * "comment by" or "comment from" (after white space and punctuation) and has
 * a digit (a date or a time) within SIG_DIGIT_BYTES of text from there in
 * its block.  The word after the opener is the signer.  Consecutive
 * signatures belong to one thread when
 * - their text nodes have the same parent markup (tag and class): a thread's
 *   signatures are printed by one template, and a post's own byline ("Posted
 *   by ERIC" above the story, in a span.posted where the comments use
 *   span.comments-post) is not one of them;
 * - no heading lies between them: a blog's front page signs each post too,
 *   and titles each one (CleanEval's gold keeps those posts);
 * - at most CET_THREAD_GAP_WORDS words lie between them (a long comment).
 * A thread has at least CET_THREAD_MIN_SIGNATURES signatures and three
 * signers (two when it has three signatures): readers sign a thread, where
 * a blog's front page whose posts need no heading ("Posted by msshell at
 * 12:40 PM" under each) is signed by its one or two authors.  A thread's
 * regulars may sign most of its comments, so no share of signers is asked.
 *
 * Its blocks from the first signature to the last are marked, except that a
 * first gap longer than CET_THREAD_SHORT_WORDS and than every later gap is
 * the story under a byline in the comments' own markup: then the thread
 * starts at its second signature.  Whether a signature comes before its
 * comment or after it varies by site, so the comment beyond either end is
 * left to the other features: that costs one comment of a thread, and a
 * wrong guess of the side would cost the story's last paragraph.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "signatures.h"

#define SIG_DIGIT_BYTES 120 /* text after the opener in which the date must start */
#define SIG_OPENER_WORDS 2  /* words of every opener: the signer is the next */
#define SIG_MAX_SIGNERS 4   /* signers counted (enough to tell) */

static const char *const openers[] = {
    "posted by", "submitted by", "comment by", "comment from", NULL,
};

/* Whether text s (len bytes) opens with a signature's words. */
static int opens_signature(const char *s, uint32_t len)
{
    uint32_t i = 0;
    while (i < len && !isalnum((unsigned char)s[i]))
        i++;
    for (const char *const *o = openers; *o; o++) {
        size_t n = strlen(*o);
        if (len - i >= n && !strncasecmp(s + i, *o, n) &&
            (len - i == n || !isalpha((unsigned char)s[i + n])))
            return 1;
    }
    return 0;
}

/* Whether a digit occurs within SIG_DIGIT_BYTES bytes of text from text
 * node k on, in k's block. */
static int dated(const struct cet_doc *doc, const uint32_t *text_block, uint32_t k)
{
    uint32_t budget = SIG_DIGIT_BYTES;
    for (uint32_t j = k; j < doc->ntexts && text_block[j] == text_block[k] && budget; j++) {
        const struct cet_node *nd = &doc->nodes[doc->texts[j]];
        const char *s = cet_node_str(doc, doc->texts[j]);
        for (uint32_t c = 0; c < nd->len && budget; c++, budget--)
            if (isdigit((unsigned char)s[c]))
                return 1;
    }
    return 0;
}

/* The thread being read: its first signature's block, its last signature
 * (text node and block), its signatures and signers, and what lies since
 * the last signature. */
struct thread {
    uint32_t first, last_text, last_block, sigs;
    uint32_t signer[SIG_MAX_SIGNERS], nsigners;
    uint32_t gap_words, gap_block;
    int gap_heading;
    uint32_t second_block, first_gap, other_gap; /* the second signature's block; gaps */
    int first_signer; /* signer[0] is the first signature's, who signs no later one */
};

/* Marks the thread's blocks if it is one, and starts over. */
static void close_thread(struct thread *th, uint8_t *in_thread)
{
    /* The first gap of a thread holds the article when the first signature
     * is the post's own byline above it: a first gap longer than any
     * comment after it and than CET_THREAD_SHORT_WORDS is left out. */
    uint32_t first = th->first;
    if (th->first_gap > CET_THREAD_SHORT_WORDS && th->first_gap > th->other_gap) {
        first = th->second_block;
        th->sigs--;
        /* The byline's author is no signer of the thread unless he signs a
         * comment too. */
        if (th->first_signer) {
            memmove(th->signer, th->signer + 1, (th->nsigners - 1) * sizeof th->signer[0]);
            th->nsigners--;
        }
    }
    if (th->sigs >= CET_THREAD_MIN_SIGNATURES && th->nsigners >= 3 - (th->sigs == 3))
        memset(in_thread + first, 1, th->last_block - first + 1);
    th->sigs = th->nsigners = 0;
}

/* Adds signature text node t (text k) to the thread. */
static void add_signature(const struct cet_doc *doc, const uint32_t *text_block, uint32_t k,
                          struct thread *th)
{
    uint32_t t = doc->texts[k], w = doc->nodes[t].w0 + SIG_OPENER_WORDS;
    if (!th->sigs) {
        th->first = text_block[k];
        th->first_gap = th->other_gap = 0;
        th->first_signer = 0;
    } else if (th->sigs == 1) {
        th->second_block = text_block[k];
        th->first_gap = th->gap_words;
    } else if (th->gap_words > th->other_gap) {
        th->other_gap = th->gap_words;
    }
    if (th->nsigners < SIG_MAX_SIGNERS && w < doc->nwords) {
        uint32_t i = 0;
        while (i < th->nsigners && th->signer[i] != doc->words[w])
            i++;
        if (i == 0 && th->sigs)
            th->first_signer = 0; /* the first signer signs again */
        if (i == th->nsigners)
            th->signer[th->nsigners++] = doc->words[w];
        if (!th->sigs)
            th->first_signer = 1;
    }
    th->sigs++;
    th->last_text = t;
    th->last_block = th->gap_block = text_block[k];
    th->gap_words = 0;
    th->gap_heading = 0;
}

void cet_signed_threads(const struct cet_doc *doc, const uint32_t *text_block, uint32_t nb,
                        uint8_t *in_thread)
{
    memset(in_thread, 0, nb);
    struct thread th = {0};
    for (uint32_t k = 0; k < doc->ntexts; k++) {
        uint32_t t = doc->texts[k];
        if (opens_signature(cet_node_str(doc, t), doc->nodes[t].len) &&
            dated(doc, text_block, k)) {
            if (th.sigs && text_block[k] == th.last_block)
                continue; /* a second signature in a block: the block counts once */
            if (th.sigs && !(cet_same_parent_markup(doc, th.last_text, t) && !th.gap_heading &&
                             th.gap_words <= CET_THREAD_GAP_WORDS))
                close_thread(&th, in_thread);
            add_signature(doc, text_block, k, &th);
        } else if (th.sigs && text_block[k] != th.last_block) {
            th.gap_words += doc->nodes[t].w1 - doc->nodes[t].w0;
            if (text_block[k] != th.gap_block) {
                th.gap_block = text_block[k];
                uint32_t e = doc->nodes[t].block;
                th.gap_heading |=
                    e != CET_NONE && cet_tag_heading((enum cet_tag)doc->nodes[e].tag);
            }
        }
    }
    close_thread(&th, in_thread);
}
