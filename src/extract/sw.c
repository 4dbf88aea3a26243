/* Stop-word filter (Gottron 2008, section 5.3): well-formed sentences are full
 * of stop words, navigation and adverts are not.  A block is content when
 * the share of stop words among its words is at least the threshold of the
 * page's language.
 *
 * Choices where the paper leaves room:
 * - Blocks and their own text are those of the link quota filter (lqf.c):
 *   the text nodes whose nearest CET_TAGF_BLOCK element is the block, text
 *   outside any block forming one pseudo-block.  A block without words
 *   (only punctuation) has ratio 0.
 * - Languages and their stop words are data: data/stopwords/XX.txt, embedded
 *   at build time (cmake/gen_stopwords.cmake) with one parameter t_XX per
 *   file whose default is the file's "# threshold:" line.  List entries are
 *   normalised like page words (NFKC, case fold, split by cet_words).
 * - A page's language is the one whose stop words make up most of the page's
 *   words (all visible text).  Ties go to English, then to the language
 *   whose code sorts first; a page without any stop word is English (or the
 *   language whose code sorts first when there is no en.txt). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/extractor.h"
#include "cetune/text.h"
#include "util/array.h"
#include "sw.h"
#include "cetune_stopwords.h" /* generated: cet_sw_lists, cet_sw_params */

_Static_assert(CET_SW_NLANGS <= 32, "a stop-word's languages are a 32-bit mask");

/* Every language's normalised stop words, built once and then read-only. */
static struct {
    struct cet_intern words;
    uint32_t *langs; /* word id -> bit l set when it is a stop word of language l */
    size_t cap;
    int failed;
} table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

struct entry_ctx {
    uint32_t lang;
};

static int add_stopword(const char *w, size_t len, void *ctx)
{
    const struct entry_ctx *e = ctx;
    uint32_t id = cet_intern(&table.words, w, len);
    if (id == UINT32_MAX)
        return -1;
    if (id >= table.cap) {
        size_t old = table.cap;
        if (CET_GROW(table.langs, table.cap, (size_t)id + 1, 1024))
            return -1;
        memset(table.langs + old, 0, (table.cap - old) * sizeof *table.langs);
    }
    table.langs[id] |= 1u << e->lang;
    return 0;
}

static void build_table(void)
{
    cet_intern_init(&table.words);
    for (uint32_t l = 0; l < CET_SW_NLANGS; l++) {
        struct entry_ctx e = {l};
        for (const char *s = cet_sw_lists[l]; *s;) {
            const char *nl = strchr(s, '\n');
            size_t len = nl ? (size_t)(nl - s) : strlen(s);
            if (cet_words(s, len, add_stopword, &e)) {
                table.failed = 1;
                return;
            }
            s += len + (nl != NULL);
        }
    }
}

/* The page's language, and per node the stop-word ratio of its block in that
 * language, so run() is one comparison per node. */
struct sw_prep {
    uint32_t lang;
    double *ratio;
};

static void sw_release(void *prep)
{
    struct sw_prep *sp = prep;
    if (sp)
        free(sp->ratio);
    free(sp);
}

double *cet_sw_block_ratios(const struct cet_doc *doc, uint32_t *lang, struct cet_error *err)
{
    pthread_once(&table_once, build_table);
    if (table.failed) {
        cet_fail(err, "out of memory building the stop-word tables");
        return NULL;
    }
    uint32_t n = doc->nnodes;
    double *ratio = malloc((n ? n : 1) * sizeof *ratio);
    uint32_t *mask = malloc((doc->nvocab ? doc->nvocab : 1) * sizeof *mask);
    /* Slot n collects the text outside any block. */
    uint64_t *words = calloc((size_t)n + 1, sizeof *words);
    uint64_t *stops = calloc((size_t)n + 1, sizeof *stops);
    if (!ratio || !mask || !words || !stops) {
        free(ratio);
        ratio = NULL;
        cet_fail(err, "out of memory");
        goto done;
    }
    for (uint32_t v = 0; v < doc->nvocab; v++) {
        const char *w = cet_word_str(doc, v);
        uint32_t id = cet_intern_find(&table.words, w, strlen(w));
        mask[v] = id == UINT32_MAX ? 0 : table.langs[id];
    }
    uint64_t count[CET_SW_NLANGS] = {0};
    for (uint32_t k = 0; k < doc->nwords; k++)
        for (uint32_t m = mask[doc->words[k]], l = 0; m; m >>= 1, l++)
            count[l] += m & 1;
    /* Language 0 is English when there is an en.txt (the generator puts it
     * first), and ties keep the earlier language. */
    *lang = 0;
    for (uint32_t l = 1; l < CET_SW_NLANGS; l++)
        if (count[l] > count[*lang])
            *lang = l;

    uint32_t bit = 1u << *lang;
    for (uint32_t i = 0; i < n; i++) {
        const struct cet_node *nd = &doc->nodes[i];
        if (nd->kind != CET_TEXT)
            continue;
        uint32_t b = nd->block == CET_NONE ? n : nd->block;
        words[b] += nd->w1 - nd->w0;
        for (uint32_t k = nd->w0; k < nd->w1; k++)
            stops[b] += (mask[doc->words[k]] & bit) != 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = doc->nodes[i].block == CET_NONE ? n : doc->nodes[i].block;
        ratio[i] = words[b] ? (double)stops[b] / (double)words[b] : 0.0;
    }
done:
    free(mask);
    free(words);
    free(stops);
    return ratio;
}

static void *sw_prepare(const struct cet_doc *doc, struct cet_error *err)
{
    struct sw_prep *sp = calloc(1, sizeof *sp);
    if (!sp) {
        cet_fail(err, "out of memory");
        return NULL;
    }
    sp->ratio = cet_sw_block_ratios(doc, &sp->lang, err);
    if (!sp->ratio) {
        free(sp);
        return NULL;
    }
    return sp;
}

static int sw_run(const struct cet_doc *doc, const void *prep, const double *p,
                  struct cet_sel *sel)
{
    const struct sw_prep *sp = prep;
    double t = p[sp->lang];
    /* Inline elements follow their block, as in lqf.c. */
    for (uint32_t i = 0; i < doc->nnodes; i++)
        sel->keep[i] = sp->ratio[i] >= t;
    return 0;
}

const struct cet_extractor cet_extractor_sw = {
    .name = "sw",
    .summary = "Stop-word filter: keeps blocks rich in the page language's stop words (Gottron 2008)",
    .params = cet_sw_params,
    .nparams = CET_SW_NLANGS,
    .prepare = sw_prepare,
    .release = sw_release,
    .run = sw_run,
};
