/* Content code blurring: ccb, accb and tccb (Gottron 2008 CCB, summarised
 * in Gottron 2008, section 5.2, and Arias et al. 2009, section 2; its own paper is not available, so the
 * choices below are ours where the summaries are silent).
 *
 * A page becomes a content code vector, 1 for content and 0 for code:
 * - ccb: one entry per character.  Text nodes give their characters as
 *   content; an element gives its start tag (with attributes, and the body of
 *   script-like elements) as code before its subtree and its end tag
 *   (`</name>`, none for void elements) as code after it.
 * - accb: the same, but anchor tags (every <a ...> and </a>) give no entries
 *   at all, so links inside running text do not break it up.
 * - tccb: one entry per token: every start tag and every end tag is one code
 *   token, every word of a text node one content token.
 *
 * Blurring: each step replaces every entry by the mean of its neighbourhood
 * -r..r weighted with a Gaussian of standard deviation sigma*r (weights that
 * fall off either end of the vector are dropped and the rest renormalised).
 * Repeated steps only converge to a constant, so "until the values
 * stabilise" is a rule: the step that changes no entry by eps or more is the
 * last, and max_steps caps the count.  At the defaults (sigma 0.5, eps 0.01,
 * max_steps 50) pages take 6 to 25 steps, never the cap.  sigma and eps were
 * the best of those tried at the paper's r and t (accb on the dev corpora:
 * sigma 0.25/0.33/0.5/1 gave F1 0.841/0.848/0.854/0.848, eps
 * 0.001/0.003/0.01/0.03/0.1 gave 0.842/0.843/0.854/0.842/0.830); they set
 * the width of the blur together with r, so params/ evolves only r and t.
 *
 * Selection: the papers extract the content entries whose blurred value is
 * at least t; the evaluator keeps whole nodes, so a text node is kept when
 * the mean blurred value over its entries is at least t (a tccb text node
 * without words takes the value of the entry at its position).  Ancestors of
 * kept text are kept too, so the HTML output keeps its structure.
 *
 * Speed:
 * - prepare() builds the vector once as runs of equal values.
 * - An entry farther than max_steps*r from both ends of its run cannot change
 *   within max_steps steps, so long runs (script bodies, long paragraphs) are
 *   shortened to 2*max_steps*r+1 entries; the dropped middle keeps the run's
 *   value.  This is exact.
 * - The blur runs on cells of b = max(1, r/8) entries (cell value = mean of
 *   its entries) with a radius of r/b cells, so a step costs about the same
 *   for any r.  For r < 16 a cell is one entry and the blur is exact; above,
 *   it approximates: macro F1 on the dev corpora moved by at most 0.002
 *   against the exact blur, which took 40 times as long.
 * - The blurred mean of every text node depends on r but not on t, so it is
 *   cached per document and r (for the default sigma, eps and max_steps):
 *   the first run() for an r computes it, later runs only threshold. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/extractor.h"
#include "ccb.h"

#define CCB_R_MAX 400
#define CCB_CELL_RADIUS 8 /* blur radius in cells once r is large enough */

/* Parameter order in every table below. */
enum { P_R, P_T, P_SIGMA, P_EPS, P_STEPS };

#define CCB_SIGMA_DEF 0.5
#define CCB_EPS_DEF 0.01
#define CCB_STEPS_DEF 50

#define CCB_COMMON_PARAMS                                                                   \
    {"t", CET_P_FLOAT, 0.75, 0.0, 1.0, NULL,                                                \
     "a text node is content when its mean blurred content code ratio is at least t"},      \
    {"sigma", CET_P_FLOAT, CCB_SIGMA_DEF, 0.05, 2.0, NULL,                                  \
     "standard deviation of the Gaussian weights, as a fraction of r"},                     \
    {"eps", CET_P_FLOAT, CCB_EPS_DEF, 1e-3, 0.5, NULL,                                      \
     "blurring stops after a step that changes no value by eps or more"},                   \
    {"max_steps", CET_P_INT, CCB_STEPS_DEF, 1, 200, NULL,                                   \
     "blurring steps at most"}

struct ccb_run {
    uint32_t start, len; /* entries [start, start+len) of the vector */
    uint32_t content;    /* 1 = content, 0 = code */
};

struct ccb_text {
    uint32_t node;
    uint32_t s, e; /* entries whose mean decides; [pos, pos+1) for a token-less node */
    uint32_t run;  /* the run holding them */
};

struct ccb_prep {
    uint32_t n; /* length of the vector */
    struct ccb_run *runs;
    uint32_t nruns;
    struct ccb_text *text;
    uint32_t ntext;
    /* cache[r]: blurred mean per text node at the default sigma, eps and
     * max_steps; filled lazily, published with a compare-and-swap. */
    _Atomic(float *) *cache;
};

/* ---- the blur ---- */

void cet_ccb_weights(float *w, int radius, double sigma)
{
    if (radius < 0)
        radius = 0;
    if (sigma < 1e-6)
        sigma = 1e-6;
    double sum = 0, wd[CET_CCB_MAX_RADIUS + 1];
    for (int j = 0; j <= radius && j <= CET_CCB_MAX_RADIUS; j++) {
        wd[j] = exp(-(double)j * j / (2 * sigma * sigma));
        sum += j ? 2 * wd[j] : wd[j];
    }
    for (int j = 0; j <= radius && j <= CET_CCB_MAX_RADIUS; j++)
        w[j] = (float)(wd[j] / sum);
}

/* Entry i near an end: the weights inside the vector, renormalised.
 * head[k] = w[1] + ... + w[k]. */
static float edge_entry(float *out, const float *v, size_t n, size_t i, const float *w,
                        const float *head, size_t R)
{
    size_t left = i < R ? i : R, right = n - 1 - i < R ? n - 1 - i : R;
    float acc = w[0] * v[i];
    for (size_t j = 1; j <= left; j++)
        acc += w[j] * v[i - j];
    for (size_t j = 1; j <= right; j++)
        acc += w[j] * v[i + j];
    out[i] = acc / (w[0] + head[left] + head[right]);
    return fabsf(out[i] - v[i]);
}

/* On x86-64 the step has an AVX2 version too, picked at load time where the
 * processor has it: eight lanes instead of SSE2's four.  Each lane does the
 * same single-precision operations in the same order (AVX2 without FMA), so
 * the values are the same bit for bit. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
__attribute__((target_clones("avx2", "default")))
#endif
#endif
/* static: the clones' resolver would otherwise be exported from libcetune.so. */
static float blur_step(float *restrict out, const float *restrict v, size_t n, const float *w,
                       int radius)
{
    /* R: the offsets used; fewer than radius when the vector is short. */
    size_t R = radius > 0 ? (size_t)radius : 0;
    if (R > CET_CCB_MAX_RADIUS)
        R = CET_CCB_MAX_RADIUS;
    if (R >= n)
        R = n ? n - 1 : 0;
    /* Entries [lo, hi) see their whole window, whose weights sum to 1. */
    size_t lo = 0, hi = 0;
    if (R == (size_t)radius && n > 2 * R) {
        lo = R;
        hi = n - R;
    }
    /* Offsets outermost, entries innermost: contiguous loops that vectorise. */
    float w0 = w[0];
#pragma omp simd
    for (size_t i = lo; i < hi; i++)
        out[i] = w0 * v[i];
    for (size_t j = 1; j <= R; j++) {
        float wj = w[j];
#pragma omp simd
        for (size_t i = lo; i < hi; i++)
            out[i] += wj * (v[i - j] + v[i + j]);
    }
    float change = 0;
#pragma omp simd reduction(max : change)
    for (size_t i = lo; i < hi; i++) {
        float d = fabsf(out[i] - v[i]);
        change = d > change ? d : change;
    }
    float head[CET_CCB_MAX_RADIUS + 1];
    head[0] = 0;
    for (size_t k = 1; k <= R; k++)
        head[k] = head[k - 1] + w[k];
    for (size_t i = 0; i < (hi > lo ? lo : n); i++)
        change = fmaxf(change, edge_entry(out, v, n, i, w, head, R));
    for (size_t i = hi > lo ? hi : n; i < n; i++)
        change = fmaxf(change, edge_entry(out, v, n, i, w, head, R));
    return change;
}

float cet_ccb_blur_step(float *restrict out, const float *restrict v, size_t n, const float *w,
                        int radius)
{
    return blur_step(out, v, n, w, radius);
}

int cet_ccb_blur(float *v, float *tmp, size_t n, int radius, double sigma, double eps,
                 int max_steps)
{
    float w[CET_CCB_MAX_RADIUS + 1];
    if (radius > CET_CCB_MAX_RADIUS)
        radius = CET_CCB_MAX_RADIUS;
    if (radius < 0)
        radius = 0;
    cet_ccb_weights(w, radius, sigma);
    float *a = v, *b = tmp;
    int steps = 0;
    do {
        float change = cet_ccb_blur_step(b, a, n, w, radius);
        float *t = a;
        a = b;
        b = t;
        steps++;
        if (change < eps)
            break;
    } while (steps < max_steps);
    if (a != v && n)
        memcpy(v, a, n * sizeof *v);
    return steps;
}

/* ---- the content code vector ---- */

struct builder {
    struct ccb_prep *p;
    uint64_t pos;
    size_t runs_cap;
};

static int emit(struct builder *b, uint64_t len, uint32_t content)
{
    struct ccb_prep *p = b->p;
    if (!len)
        return 0;
    if (b->pos + len > UINT32_MAX)
        return -1;
    if (p->nruns && p->runs[p->nruns - 1].content == content) {
        p->runs[p->nruns - 1].len += (uint32_t)len;
    } else {
        if (p->nruns == b->runs_cap) {
            size_t cap = b->runs_cap ? 2 * b->runs_cap : 256;
            struct ccb_run *r = realloc(p->runs, cap * sizeof *r);
            if (!r)
                return -1;
            p->runs = r;
            b->runs_cap = cap;
        }
        p->runs[p->nruns++] = (struct ccb_run){(uint32_t)b->pos, (uint32_t)len, content};
    }
    b->pos += len;
    return 0;
}

/* Entries of element i's start tag and end tag in the vector of variant v. */
static void tag_entries(const struct cet_doc *doc, uint32_t i, enum cet_ccb_variant v,
                        uint64_t *start, uint64_t *end)
{
    const struct cet_node *nd = &doc->nodes[i];
    int is_void = (cet_tag_flags(nd->tag) & CET_TAGF_VOID) != 0;
    if (v == CET_CCB_ADAPTED && nd->tag == CET_TAG_A) {
        *start = *end = 0;
    } else if (v == CET_CCB_TOKENS) {
        *start = 1;
        *end = !is_void;
    } else {
        /* nchars counts both tags: "</name>" is the end tag's share. */
        uint64_t e = is_void ? 0 : (uint64_t)nd->len + 3;
        *end = e < nd->nchars ? e : nd->nchars;
        *start = nd->nchars - *end;
    }
}

static void prep_free(struct ccb_prep *p)
{
    if (!p)
        return;
    if (p->cache)
        for (int r = 0; r <= CCB_R_MAX; r++)
            free(atomic_load_explicit(&p->cache[r], memory_order_relaxed));
    free(p->cache);
    free(p->runs);
    free(p->text);
    free(p);
}

static void *prepare(const struct cet_doc *doc, enum cet_ccb_variant v, struct cet_error *err)
{
    struct ccb_prep *p = calloc(1, sizeof *p);
    uint32_t *stack = malloc((doc->nnodes + 1) * sizeof *stack);
    struct builder b = {p, 0, 0};
    if (!p || !stack)
        goto oom;
    p->cache = calloc(CCB_R_MAX + 1, sizeof *p->cache);
    uint32_t ntext = 0;
    for (uint32_t i = 0; i < doc->nnodes; i++)
        ntext += doc->nodes[i].kind == CET_TEXT;
    p->text = malloc((ntext ? ntext : 1) * sizeof *p->text);
    if (!p->cache || !p->text)
        goto oom;
    for (int r = 0; r <= CCB_R_MAX; r++)
        atomic_init(&p->cache[r], NULL);

    /* Pre-order walk; a stack of open elements puts each end tag after its subtree. */
    size_t depth = 0;
    for (uint32_t i = 0; i <= doc->nnodes; i++) {
        while (depth && (i == doc->nnodes || doc->nodes[stack[depth - 1]].end <= i)) {
            uint64_t start, end;
            tag_entries(doc, stack[--depth], v, &start, &end);
            if (emit(&b, end, 0))
                goto oom;
        }
        if (i == doc->nnodes)
            break;
        const struct cet_node *nd = &doc->nodes[i];
        if (nd->kind == CET_TEXT) {
            uint64_t len = v == CET_CCB_TOKENS ? nd->w1 - nd->w0 : nd->nchars;
            struct ccb_text *t = &p->text[p->ntext++];
            t->node = i;
            t->s = (uint32_t)b.pos;
            if (emit(&b, len, 1))
                goto oom;
            t->e = (uint32_t)b.pos;
            t->run = len ? p->nruns - 1 : UINT32_MAX;
        } else {
            uint64_t start, end;
            tag_entries(doc, i, v, &start, &end);
            if (emit(&b, start, 0))
                goto oom;
            stack[depth++] = i;
        }
    }
    p->n = (uint32_t)b.pos;

    /* A text node without entries takes the value of the entry at its position. */
    uint32_t q = 0;
    for (uint32_t k = 0; k < p->ntext; k++) {
        struct ccb_text *t = &p->text[k];
        if (t->run != UINT32_MAX)
            continue;
        if (!p->n) {
            t->run = 0; /* never read: an empty vector keeps nothing */
            continue;
        }
        uint32_t pos = t->s < p->n ? t->s : p->n - 1;
        while (p->runs[q].start + p->runs[q].len <= pos)
            q++;
        t->s = pos;
        t->e = pos + 1;
        t->run = q;
    }
    free(stack);
    return p;
oom:
    free(stack);
    prep_free(p);
    cet_fail(err, "out of memory (or a page too large) building the content code vector");
    return NULL;
}

static void *prepare_ccb(const struct cet_doc *doc, struct cet_error *err)
{
    return prepare(doc, CET_CCB_CHARS, err);
}
static void *prepare_accb(const struct cet_doc *doc, struct cet_error *err)
{
    return prepare(doc, CET_CCB_ADAPTED, err);
}
static void *prepare_tccb(const struct cet_doc *doc, struct cet_error *err)
{
    return prepare(doc, CET_CCB_TOKENS, err);
}
static void release(void *prep)
{
    prep_free(prep);
}

/* ---- blurred text nodes ---- */

struct blur_opts {
    int r;
    double sigma, eps;
    int max_steps;
};

/* Adds the coverage of entries [x0, x1) to cells of b entries. */
static void cover(float *cells, uint64_t x0, uint64_t x1, uint64_t b)
{
    if (x0 >= x1)
        return;
    uint64_t c0 = x0 / b, c1 = (x1 - 1) / b;
    if (c0 == c1) {
        cells[c0] += (float)(x1 - x0);
        return;
    }
    cells[c0] += (float)((c0 + 1) * b - x0);
    for (uint64_t c = c0 + 1; c < c1; c++)
        cells[c] += (float)b;
    cells[c1] += (float)(x1 - c1 * b);
}

/* Sum of the blurred values of entries [0, x) of the shortened vector. */
static double integral(const double *pre, const float *cells, size_t ncells, uint64_t b, uint64_t x)
{
    uint64_t c = x / b;
    if (c >= ncells)
        return pre[ncells];
    return pre[c] + (double)(x - c * b) * cells[c];
}

/* Computes into ratio[k] the mean blurred value of each text node. */
static int blur_text(const struct ccb_prep *p, const struct blur_opts *o, float *ratio,
                     struct cet_sel *sel)
{
    if (!p->ntext)
        return 0;
    if (!p->n) {
        memset(ratio, 0, p->ntext * sizeof *ratio);
        return 0;
    }
    uint64_t r = (uint64_t)o->r;
    uint64_t lim = 2 * (uint64_t)o->max_steps * r + 1;
    uint64_t b = r / CCB_CELL_RADIUS ? r / CCB_CELL_RADIUS : 1;
    uint64_t ns = 0;
    for (uint32_t q = 0; q < p->nruns; q++)
        ns += p->runs[q].len < lim ? p->runs[q].len : lim;
    size_t ncells = (size_t)((ns + b - 1) / b);
    float *cells = cet_sel_buf(sel, 0, ncells * sizeof *cells);
    float *tmp = cet_sel_buf(sel, 1, ncells * sizeof *tmp);
    double *pre = cet_sel_buf(sel, 2, (ncells + 1) * sizeof *pre);
    if (!cells || !tmp || !pre)
        return -1;

    memset(cells, 0, ncells * sizeof *cells);
    uint64_t at = 0;
    for (uint32_t q = 0; q < p->nruns; q++) {
        uint64_t len = p->runs[q].len < lim ? p->runs[q].len : lim;
        if (p->runs[q].content)
            cover(cells, at, at + len, b);
        at += len;
    }
    for (size_t c = 0; c + 1 < ncells; c++)
        cells[c] /= (float)b;
    cells[ncells - 1] /= (float)(ns - (ncells - 1) * b);

    cet_ccb_blur(cells, tmp, ncells, (int)(r / b), o->sigma * (double)r / (double)b, o->eps,
                 o->max_steps);

    pre[0] = 0;
    for (size_t c = 0; c < ncells; c++)
        pre[c + 1] = pre[c] + (double)cells[c] * (double)(c + 1 < ncells ? b : ns - c * b);

    /* Text nodes and runs are both in vector order: one merged pass maps each
     * node's entries to the shortened vector. */
    uint32_t q = 0;
    uint64_t qs = 0; /* shortened start of run q */
    for (uint32_t k = 0; k < p->ntext; k++) {
        const struct ccb_text *t = &p->text[k];
        while (q < t->run) {
            qs += p->runs[q].len < lim ? p->runs[q].len : lim;
            q++;
        }
        const struct ccb_run *run = &p->runs[q];
        uint64_t S = run->start, L = run->len, s = t->s, e = t->e;
        double sum;
        if (L <= lim) {
            sum = integral(pre, cells, ncells, b, qs + e - S) -
                  integral(pre, cells, ncells, b, qs + s - S);
        } else {
            /* Kept: the first h and last lim-h entries; the middle keeps the run's value. */
            uint64_t h = lim / 2, tail = S + L - (lim - h);
            sum = 0;
            if (s < S + h) {
                uint64_t x1 = e < S + h ? e : S + h;
                sum += integral(pre, cells, ncells, b, qs + x1 - S) -
                       integral(pre, cells, ncells, b, qs + s - S);
            }
            if (e > tail) {
                uint64_t x0 = s > tail ? s : tail;
                sum += integral(pre, cells, ncells, b, qs + h + e - tail) -
                       integral(pre, cells, ncells, b, qs + h + x0 - tail);
            }
            uint64_t m0 = s > S + h ? s : S + h, m1 = e < tail ? e : tail;
            if (m1 > m0)
                sum += (double)(m1 - m0) * run->content;
        }
        ratio[k] = (float)(sum / (double)(e - s));
    }
    return 0;
}

/* The blurred means for configuration p: from the cache when possible. */
static const float *text_ratios(const struct ccb_prep *pp, const double *p, struct cet_sel *sel)
{
    struct blur_opts o = {(int)p[P_R], p[P_SIGMA], p[P_EPS], (int)p[P_STEPS]};
    o.r = o.r < 1 ? 1 : o.r > CCB_R_MAX ? CCB_R_MAX : o.r;
    o.max_steps = o.max_steps < 1 ? 1 : o.max_steps;
    int cacheable = o.sigma == CCB_SIGMA_DEF &&
                    o.eps == CCB_EPS_DEF && o.max_steps == CCB_STEPS_DEF;
    if (!cacheable) {
        float *ratio = cet_sel_buf(sel, 3, pp->ntext * sizeof *ratio);
        return ratio && blur_text(pp, &o, ratio, sel) == 0 ? ratio : NULL;
    }
    float *have = atomic_load_explicit(&pp->cache[o.r], memory_order_acquire);
    if (have)
        return have;
    /* Computed once per document and r; a thread that loses the race frees its copy. */
    float *mine = malloc((pp->ntext ? pp->ntext : 1) * sizeof *mine);
    if (!mine || blur_text(pp, &o, mine, sel)) {
        free(mine);
        return NULL;
    }
    float *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&pp->cache[o.r], &expected, mine,
                                                 memory_order_acq_rel, memory_order_acquire)) {
        free(mine);
        return expected;
    }
    return mine;
}

int cet_ccb_text_ratios(const struct cet_doc *doc, enum cet_ccb_variant v, int r, float *ratio,
                        struct cet_error *err)
{
    struct ccb_prep *p = prepare(doc, v, err);
    if (!p)
        return -1;
    struct blur_opts o = {r < 1 ? 1 : r > CCB_R_MAX ? CCB_R_MAX : r, CCB_SIGMA_DEF, CCB_EPS_DEF,
                          CCB_STEPS_DEF};
    struct cet_sel scratch = {0};
    int rc = blur_text(p, &o, ratio, &scratch);
    cet_sel_free(&scratch);
    prep_free(p);
    if (rc)
        cet_fail(err, "out of memory blurring the content code vector");
    return rc;
}

static int run(const struct cet_doc *doc, const void *prep, const double *p, struct cet_sel *sel)
{
    const struct ccb_prep *pp = prep;
    if (!pp->ntext)
        return 0;
    const float *ratio = text_ratios(pp, p, sel);
    if (!ratio)
        return -1;
    double t = p[P_T];
    for (uint32_t k = 0; k < pp->ntext; k++) {
        if (ratio[k] < t)
            continue;
        uint32_t i = pp->text[k].node;
        sel->keep[i] = 1;
        for (i = doc->nodes[i].parent; i != CET_NONE && !sel->keep[i]; i = doc->nodes[i].parent)
            sel->keep[i] = 1;
    }
    return 0;
}

static const struct cet_param ccb_params[] = {
    {"r", CET_P_INT, 40, 1, CCB_R_MAX, NULL, "neighbourhood range of the blur, in characters"},
    CCB_COMMON_PARAMS,
};

static const struct cet_param accb_params[] = {
    {"r", CET_P_INT, 40, 1, CCB_R_MAX, NULL, "neighbourhood range of the blur, in characters"},
    CCB_COMMON_PARAMS,
};

static const struct cet_param tccb_params[] = {
    {"r", CET_P_INT, 25, 1, CCB_R_MAX, NULL, "neighbourhood range of the blur, in tokens"},
    CCB_COMMON_PARAMS,
};

const struct cet_extractor cet_extractor_ccb = {
    .name = "ccb",
    .summary = "Content code blurring over characters (Gottron 2008)",
    .params = ccb_params,
    .nparams = sizeof ccb_params / sizeof ccb_params[0],
    .prepare = prepare_ccb,
    .release = release,
    .run = run,
};

const struct cet_extractor cet_extractor_accb = {
    .name = "accb",
    .summary = "Adapted content code blurring: characters, anchor tags ignored (Gottron 2008)",
    .params = accb_params,
    .nparams = sizeof accb_params / sizeof accb_params[0],
    .prepare = prepare_accb,
    .release = release,
    .run = run,
};

const struct cet_extractor cet_extractor_tccb = {
    .name = "tccb",
    .summary = "Token-based content code blurring: tags and words (Gottron 2008)",
    .params = tccb_params,
    .nparams = sizeof tccb_params / sizeof tccb_params[0],
    .prepare = prepare_tccb,
    .release = release,
    .run = run,
};
