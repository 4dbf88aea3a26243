/* The pipeline extractor: a whole extraction pipeline as one configuration,
 * so that `cetune evolve` chooses which extractors to use, how to combine
 * them and how to clean up after them, together with their thresholds
 * (Gottron's CombinE, the future work of Gottron 2008).
 *
 *   clean (optional)   Crunch's filters, with their switches (clean.*): text
 *                      Crunch removes is never kept, whatever the stages say.
 *   s1, s2, s3         classifier stages: each names an extractor (s2 and s3
 *                      may be `none`) whose own parameters are sK.EXTRACTOR.NAME;
 *                      each gives a keep/drop decision per text node.
 *   combine            and, or, majority (more than half of the active
 *                      stages) or vote: keep when the weights vote.wK of the
 *                      stages that keep a text node add up to at least vote.t
 *                      times the weights of all active stages.
 *   post.*             clean-up over the text nodes in document order, in this
 *                      order: fill short gaps between kept text, drop short
 *                      islands of kept text, keep one region (the largest
 *                      run of kept text, or the subtree that best holds it, as
 *                      the density extractor does), keep headings just before
 *                      kept text; finally a page keeping fewer than
 *                      post.min_words words is judged to have no main content
 *                      (index and error pages) and keeps nothing.
 *
 * Choices:
 * - A stage's decision is its extractor's keep flag of each text node; text
 *   Crunch would append after the document (retained links) is not used.
 * - Cleaning masks the decisions instead of rewriting the page, so every
 *   extractor's per-document preparation is done once per document, not once
 *   per cleaning setting.  A stage extractor is prepared for a document the
 *   first time a stage uses it, and every stage and thread shares that.
 * - Gaps, islands and regions are measured in words; text nodes without words
 *   take no part in them.  The largest kept run is never dropped as an island,
 *   so a short article is not emptied.
 * - The subtree region keeps the element with the most kept words minus
 *   post.subtree_alpha times its dropped words (the deepest on a tie), and
 *   drops kept text outside it.
 * - Kept text keeps its ancestors, so the HTML rendering keeps its structure.
 *
 * The parameter table is built once, from the stage extractors' own tables,
 * the first time the registry is used (cet_pipeline_init). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/extractor.h"
#include "extractors.h"
#include "pipeline.h"


/* The extractors a classifier stage may choose, in enum order. */
static const struct cet_extractor *const stage_ex[] = {
    &cet_extractor_lqf,     &cet_extractor_ccb, &cet_extractor_accb,   &cet_extractor_tccb,
    &cet_extractor_sw,      &cet_extractor_density, &cet_extractor_mantratzis,
    &cet_extractor_crunch,  &cet_extractor_score,
};
#define NSTAGE_EX (sizeof stage_ex / sizeof stage_ex[0])
#define NSTAGES 3
#define CRUNCH 7 /* index of crunch in stage_ex, also the cleaning stage */

/* The fixed parameters, in table order; stage parameters follow. */
enum {
    P_S1, P_S2, P_S3, P_COMBINE, P_W1, P_W2, P_W3, P_VOTE_T,
    P_FILL_GAP, P_ISLAND, P_REGION, P_REGION_GAP, P_ALPHA, P_HEADINGS, P_HEADING_GAP,
    P_MIN_WORDS, P_CLEAN, P_FIXED
};
enum { COMBINE_AND, COMBINE_OR, COMBINE_MAJORITY, COMBINE_VOTE };
enum { REGION_NONE, REGION_LARGEST, REGION_SUBTREE };

static const char *s1_values[NSTAGE_EX + 1];
static const char *sk_values[NSTAGE_EX + 2]; /* "none" first */
static const char *const combine_values[] = {"and", "or", "majority", "vote", NULL};
static const char *const region_values[] = {"none", "largest", "subtree", NULL};

static const struct cet_param fixed_params[P_FIXED] = {
    [P_S1] = {"s1", CET_P_ENUM, 2, 0, NSTAGE_EX - 1, s1_values, "extractor of the first classifier stage"},
    [P_S2] = {"s2", CET_P_ENUM, 0, 0, NSTAGE_EX, sk_values, "extractor of the second stage, or none"},
    [P_S3] = {"s3", CET_P_ENUM, 0, 0, NSTAGE_EX, sk_values, "extractor of the third stage, or none"},
    [P_COMBINE] = {"combine", CET_P_ENUM, COMBINE_AND, 0, 3, combine_values,
                   "how stage decisions combine: and, or, majority (more than half), vote"},
    [P_W1] = {"vote.w1", CET_P_FLOAT, 1, 0, 1, NULL, "vote: weight of stage 1"},
    [P_W2] = {"vote.w2", CET_P_FLOAT, 1, 0, 1, NULL, "vote: weight of stage 2"},
    [P_W3] = {"vote.w3", CET_P_FLOAT, 1, 0, 1, NULL, "vote: weight of stage 3"},
    [P_VOTE_T] = {"vote.t", CET_P_FLOAT, 0.5, 0, 1, NULL,
                  "vote: keep when the keeping stages hold at least this share of the weight"},
    [P_FILL_GAP] = {"post.fill_gap", CET_P_INT, 0, 0, 1000, NULL,
                    "dropped text of at most this many words between kept text is kept"},
    [P_ISLAND] = {"post.island", CET_P_INT, 0, 0, 1000, NULL,
                  "kept text of at most this many words between dropped text is dropped"},
    [P_REGION] = {"post.region", CET_P_ENUM, REGION_NONE, 0, 2, region_values,
                  "keep only one region: none, the largest run of kept text, or the best subtree"},
    [P_REGION_GAP] = {"post.region_gap", CET_P_INT, 50, 0, 5000, NULL,
                      "largest region: dropped words bridged inside one region"},
    [P_ALPHA] = {"post.subtree_alpha", CET_P_FLOAT, 0.25, 0, 4, NULL,
                 "subtree region: cost of a dropped word against a kept one"},
    [P_HEADINGS] = {"post.headings", CET_P_BOOL, 0, 0, 1, NULL,
                    "keep headings (h1-h6) that come just before kept text"},
    [P_HEADING_GAP] = {"post.heading_gap", CET_P_INT, 10, 0, 500, NULL,
                       "headings: dropped words allowed between a heading and the kept text"},
    [P_MIN_WORDS] = {"post.min_words", CET_P_INT, 0, 0, 1000, NULL,
                     "a page that keeps fewer words than this has no main content: keep nothing"},
    [P_CLEAN] = {"clean", CET_P_BOOL, 0, 0, 1, NULL,
                 "run Crunch's filters first; text they remove is never kept (clean.*)"},
};

static struct cet_param *table;
static size_t ntable;
static size_t clean_off;                 /* clean.* parameters (crunch's table) */
static size_t stage_off[NSTAGES][NSTAGE_EX]; /* sK.EXTRACTOR.* parameters */

struct cet_extractor cet_extractor_pipeline;

static char *join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 3;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s.%s%s%s", a, b, *c ? "." : "", c);
    return s;
}

/* Copies ex's table under the prefix a.b. */
static int add_params(const char *a, const char *b, const struct cet_extractor *ex)
{
    for (size_t i = 0; i < ex->nparams; i++) {
        struct cet_param *pa = &table[ntable++];
        *pa = ex->params[i];
        pa->name = *b ? join(a, b, ex->params[i].name) : join(a, ex->params[i].name, "");
        if (!pa->name)
            return -1;
    }
    return 0;
}

static void build(void)
{
    size_t n = P_FIXED + cet_extractor_crunch.nparams;
    for (size_t x = 0; x < NSTAGE_EX; x++)
        n += NSTAGES * stage_ex[x]->nparams;
    sk_values[0] = "none";
    for (size_t x = 0; x < NSTAGE_EX; x++)
        s1_values[x] = sk_values[x + 1] = stage_ex[x]->name;
    table = calloc(n, sizeof *table);
    if (!table)
        abort(); /* at start-up, before anything else could be freed */
    memcpy(table, fixed_params, sizeof fixed_params);
    ntable = P_FIXED;
    clean_off = ntable;
    int failed = add_params("clean", "", &cet_extractor_crunch);
    for (size_t k = 0; k < NSTAGES; k++) {
        char stage[4];
        snprintf(stage, sizeof stage, "s%zu", k + 1);
        for (size_t x = 0; x < NSTAGE_EX; x++) {
            stage_off[k][x] = ntable;
            failed |= add_params(stage, stage_ex[x]->name, stage_ex[x]);
        }
    }
    if (failed)
        abort();
    cet_extractor_pipeline.params = table;
    cet_extractor_pipeline.nparams = ntable;
}

void cet_pipeline_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build);
}

/* ---- per document ---- */

struct pipe_prep {
    const struct cet_doc *doc;
    /* Each stage extractor's own preparation, made the first time a stage
     * uses that extractor (so memory is spent only on extractors in use) and
     * shared by every stage and thread after that. */
    _Atomic(void *) prep[NSTAGE_EX];
    pthread_mutex_t lock;
    uint32_t *ptext;       /* per node i: text nodes before i in document order (n+1) */
    uint32_t *nwords;      /* per text node (in doc->texts order) */
    uint8_t *heading;      /* per text node: inside h1-h6 */
};

static void pipe_release(void *prep)
{
    struct pipe_prep *pp = prep;
    if (!pp)
        return;
    for (size_t x = 0; x < NSTAGE_EX; x++)
        if (pp->prep[x] && stage_ex[x]->release)
            stage_ex[x]->release(pp->prep[x]);
    pthread_mutex_destroy(&pp->lock);
    free(pp->ptext);
    free(pp->nwords);
    free(pp->heading);
    free(pp);
}

static void *pipe_prepare(const struct cet_doc *doc, struct cet_error *err)
{
    struct pipe_prep *pp = calloc(1, sizeof *pp);
    size_t nt = doc->ntexts ? doc->ntexts : 1;
    if (pp) {
        pthread_mutex_init(&pp->lock, NULL);
        pp->doc = doc;
    }
    if (!pp || !(pp->ptext = malloc(((size_t)doc->nnodes + 1) * sizeof *pp->ptext)) ||
        !(pp->nwords = malloc(nt * sizeof *pp->nwords)) || !(pp->heading = calloc(nt, 1))) {
        pipe_release(pp);
        cet_fail(err, "out of memory");
        return NULL;
    }
    /* In pre-order a parent comes before its children, so one pass marks
     * everything inside a heading (the mark of node i is kept in ptext[i]'s
     * place until the count overwrites it). */
    uint8_t *in = malloc(doc->nnodes ? doc->nnodes : 1);
    if (!in) {
        pipe_release(pp);
        cet_fail(err, "out of memory");
        return NULL;
    }
    uint32_t t = 0;
    for (uint32_t i = 0; i < doc->nnodes; i++) {
        const struct cet_node *nd = &doc->nodes[i];
        in[i] = cet_tag_heading((enum cet_tag)nd->tag) ||
                (nd->parent != CET_NONE && in[nd->parent]);
        pp->ptext[i] = t;
        if (nd->kind == CET_TEXT) {
            pp->nwords[t] = nd->w1 - nd->w0;
            pp->heading[t] = in[i];
            t++;
        }
    }
    pp->ptext[doc->nnodes] = t;
    free(in);
    return pp;
}

/* ---- post-processing over the text nodes ---- */

/* Keeps dropped runs of at most gap words that lie between kept text. */
static void fill_gaps(const struct pipe_prep *pp, uint8_t *keep, uint32_t nt, long gap)
{
    uint32_t last = UINT32_MAX; /* last kept text node with words */
    uint64_t dropped = 0;
    for (uint32_t k = 0; k < nt; k++) {
        if (!pp->nwords[k])
            continue;
        if (!keep[k]) {
            dropped += pp->nwords[k];
            continue;
        }
        if (last != UINT32_MAX && dropped && dropped <= (uint64_t)gap)
            memset(keep + last + 1, 1, k - last - 1);
        last = k;
        dropped = 0;
    }
}

/* Runs of kept text: bridges dropped stretches of at most gap words; calls
 * back with [first, last] text node and the kept words of each run. */
struct run { uint32_t first, last; uint64_t words; };

static uint32_t kept_runs(const struct pipe_prep *pp, const uint8_t *keep, uint32_t nt,
                          long gap, struct run *runs)
{
    uint32_t n = 0;
    uint64_t dropped = 0;
    for (uint32_t k = 0; k < nt; k++) {
        if (!pp->nwords[k])
            continue;
        if (!keep[k]) {
            dropped += pp->nwords[k];
            continue;
        }
        if (!n || dropped > (uint64_t)gap)
            runs[n++] = (struct run){k, k, 0};
        runs[n - 1].last = k;
        runs[n - 1].words += pp->nwords[k];
        dropped = 0;
    }
    return n;
}

static uint32_t largest(const struct run *runs, uint32_t n)
{
    uint32_t best = 0;
    for (uint32_t i = 1; i < n; i++)
        if (runs[i].words > runs[best].words)
            best = i;
    return best;
}

/* Drops runs of kept text of at most island words, except the largest. */
static void drop_islands(const struct pipe_prep *pp, uint8_t *keep, uint32_t nt, long island,
                         struct run *runs)
{
    uint32_t n = kept_runs(pp, keep, nt, 0, runs);
    uint32_t big = largest(runs, n);
    for (uint32_t i = 0; i < n; i++)
        if (i != big && runs[i].words <= (uint64_t)island)
            memset(keep + runs[i].first, 0, runs[i].last - runs[i].first + 1);
}

static void keep_only(uint8_t *keep, uint32_t nt, uint32_t first, uint32_t end)
{
    memset(keep, 0, first);
    memset(keep + end, 0, nt - end);
}

static void largest_region(const struct pipe_prep *pp, uint8_t *keep, uint32_t nt, long gap,
                           struct run *runs)
{
    uint32_t n = kept_runs(pp, keep, nt, gap, runs);
    if (n) {
        uint32_t b = largest(runs, n);
        keep_only(keep, nt, runs[b].first, runs[b].last + 1);
    }
}

/* acc[k] = kept words of text nodes < k, tot[k] = their words. */
static void subtree_region(const struct cet_doc *doc, const struct pipe_prep *pp, uint8_t *keep,
                           uint32_t nt, double alpha, uint64_t *acc)
{
    uint64_t *tot = acc + nt + 1;
    acc[0] = tot[0] = 0;
    for (uint32_t k = 0; k < nt; k++) {
        acc[k + 1] = acc[k] + (keep[k] ? pp->nwords[k] : 0);
        tot[k + 1] = tot[k] + pp->nwords[k];
    }
    if (!acc[nt])
        return;
    double best = -1e300;
    uint32_t bt0 = 0, bt1 = nt;
    for (uint32_t i = 0; i < doc->nnodes; i++) {
        if (doc->nodes[i].kind != CET_ELEMENT)
            continue;
        uint32_t t0 = pp->ptext[i], t1 = pp->ptext[doc->nodes[i].end];
        uint64_t k = acc[t1] - acc[t0], d = (tot[t1] - tot[t0]) - k;
        double s = (double)k - alpha * (double)d;
        if (k && s >= best) { /* >=: the deepest of equals (pre-order) */
            best = s;
            bt0 = t0;
            bt1 = t1;
        }
    }
    keep_only(keep, nt, bt0, bt1);
}

/* Keeps a heading when at most gap dropped words separate it from the next
 * kept text; walks backwards so that stacked headings chain. */
static void keep_headings(const struct pipe_prep *pp, uint8_t *keep, uint32_t nt, long gap)
{
    int seen = 0;
    uint64_t dropped = 0;
    for (uint32_t k = nt; k-- > 0;) {
        if (keep[k]) {
            if (pp->nwords[k]) {
                seen = 1;
                dropped = 0;
            }
            continue;
        }
        if (seen && pp->heading[k] && dropped <= (uint64_t)gap) {
            keep[k] = 1;
            dropped = 0;
            continue;
        }
        dropped += pp->nwords[k];
    }
}

/* ---- run ---- */

/* Stage k's extractor index into stage_ex, or -1 for none. */
static long stage_choice(const double *p, size_t k)
{
    long v = (long)p[P_S1 + k];
    return k ? v - 1 : v;
}


/* Runs stage extractor x with the parameters at p into sub selection slot,
 * and writes its decision per text node into dec. */
static void *stage_prep(struct pipe_prep *pp, size_t x)
{
    void *prep = atomic_load(&pp->prep[x]);
    if (prep || !stage_ex[x]->prepare)
        return prep;
    pthread_mutex_lock(&pp->lock);
    if (!(prep = atomic_load(&pp->prep[x]))) {
        struct cet_error err;
        prep = stage_ex[x]->prepare(pp->doc, &err);
        atomic_store(&pp->prep[x], prep);
    }
    pthread_mutex_unlock(&pp->lock);
    return prep;
}

static int run_stage(const struct cet_doc *doc, struct pipe_prep *pp, size_t x,
                     const double *p, struct cet_sel *sel, size_t slot, uint8_t *dec)
{
    struct cet_sel *sub = cet_sel_sub(sel, slot);
    void *prep = stage_prep(pp, x);
    if (!sub || (!prep && stage_ex[x]->prepare) || cet_sel_reset(sub, doc) ||
        stage_ex[x]->run(doc, prep, p, sub))
        return -1;
    for (uint32_t k = 0; k < doc->ntexts; k++)
        dec[k] = sub->keep[doc->texts[k]];
    return 0;
}

static int pipe_run(const struct cet_doc *doc, const void *prep, const double *p,
                    struct cet_sel *sel)
{
    /* The preparation grows as stages need their extractors' own. */
    struct pipe_prep *pp = (struct pipe_prep *)prep;
    uint32_t nt = doc->ntexts;
    size_t n1 = (size_t)nt + 1;
    uint8_t *dec = cet_sel_buf(sel, 0, (NSTAGES + 2) * n1);
    uint64_t *acc = cet_sel_buf(sel, 1, 2 * n1 * sizeof *acc);
    struct run *runs = cet_sel_buf(sel, 2, n1 * sizeof *runs);
    if (!dec || !acc || !runs)
        return -1;
    uint8_t *keep = dec + NSTAGES * n1, *clean = keep + n1;

    /* Classifier stages. */
    double w[NSTAGES];
    size_t ns = 0;
    for (size_t k = 0; k < NSTAGES; k++) {
        long xs = stage_choice(p, k);
        if (xs < 0)
            continue; /* none */
        size_t x = (size_t)xs;
        if (run_stage(doc, pp, x, p + stage_off[k][x], sel, k, dec + ns * n1))
            return -1;
        w[ns++] = p[P_W1 + k];
    }

    /* Combiner. */
    int how = (int)p[P_COMBINE];
    double wsum = 0;
    for (size_t s = 0; s < ns; s++)
        wsum += w[s];
    for (uint32_t k = 0; k < nt; k++) {
        size_t votes = 0;
        double wk = 0;
        for (size_t s = 0; s < ns; s++)
            if (dec[s * n1 + k]) {
                votes++;
                wk += w[s];
            }
        switch (how) {
        case COMBINE_AND: keep[k] = votes == ns; break;
        case COMBINE_OR: keep[k] = votes > 0; break;
        case COMBINE_MAJORITY: keep[k] = 2 * votes > ns; break;
        default: keep[k] = votes && wk >= p[P_VOTE_T] * wsum; break;
        }
    }

    /* Cleaning. */
    int cleaning = p[P_CLEAN] != 0;
    if (cleaning) {
        if (run_stage(doc, pp, CRUNCH, p + clean_off, sel, NSTAGES, clean))
            return -1;
        for (uint32_t k = 0; k < nt; k++)
            keep[k] &= clean[k];
    }

    /* Post-processing. */
    if (p[P_FILL_GAP] > 0)
        fill_gaps(pp, keep, nt, (long)p[P_FILL_GAP]);
    if (p[P_ISLAND] > 0)
        drop_islands(pp, keep, nt, (long)p[P_ISLAND], runs);
    if ((int)p[P_REGION] == REGION_LARGEST)
        largest_region(pp, keep, nt, (long)p[P_REGION_GAP], runs);
    else if ((int)p[P_REGION] == REGION_SUBTREE)
        subtree_region(doc, pp, keep, nt, p[P_ALPHA], acc);
    if (p[P_HEADINGS] != 0)
        keep_headings(pp, keep, nt, (long)p[P_HEADING_GAP]);
    if (cleaning)
        for (uint32_t k = 0; k < nt; k++)
            keep[k] &= clean[k];
    if (p[P_MIN_WORDS] > 0) {
        uint64_t words = 0;
        for (uint32_t k = 0; k < nt; k++)
            words += keep[k] ? pp->nwords[k] : 0;
        if (words < (uint64_t)p[P_MIN_WORDS])
            return 0; /* sel->keep is all zero */
    }

    /* Kept text and its ancestors. */
    for (uint32_t k = 0; k < nt; k++) {
        if (!keep[k])
            continue;
        for (uint32_t i = doc->texts[k]; i != CET_NONE && !sel->keep[i]; i = doc->nodes[i].parent)
            sel->keep[i] = 1;
    }
    return 0;
}

static int pipe_active(const double *p, size_t i)
{
    int how = (int)p[P_COMBINE], region = (int)p[P_REGION];
    switch (i) {
    case P_W1: return how == COMBINE_VOTE;
    case P_W2: return how == COMBINE_VOTE && stage_choice(p, 1) >= 0;
    case P_W3: return how == COMBINE_VOTE && stage_choice(p, 2) >= 0;
    case P_VOTE_T: return how == COMBINE_VOTE;
    case P_REGION_GAP: return region == REGION_LARGEST;
    case P_ALPHA: return region == REGION_SUBTREE;
    case P_HEADING_GAP: return p[P_HEADINGS] != 0;
    }
    if (i < P_FIXED)
        return 1;
    if (i < stage_off[0][0])
        return p[P_CLEAN] != 0;
    for (size_t k = NSTAGES; k-- > 0;)
        if (i >= stage_off[k][0]) {
            long x = stage_choice(p, k);
            return x >= 0 && i >= stage_off[k][x] && i < stage_off[k][x] + stage_ex[x]->nparams;
        }
    return 1;
}

struct cet_extractor cet_extractor_pipeline = {
    .name = "pipeline",
    .summary = "A pipeline: optional Crunch cleaning, one to three classifier stages, a combiner "
               "and post-processing (CombinE, Gottron 2008)",
    .prepare = pipe_prepare,
    .release = pipe_release,
    .run = pipe_run,
    .active = pipe_active,
    .adhosts = 1, /* its Crunch cleaning */
    .load = CET_LOAD_TEXT, /* its Crunch and score stages */
};
