/* Evaluation: extraction plus the bit-parallel LCS, in parallel over
 * (configuration, document) pairs.  Each pair's score lands in its own slot
 * and means are summed in document order afterwards, so results do not
 * depend on the number of threads or on scheduling. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/chars.h"
#include "cetune/eval.h"
#include "cetune/lcs.h"

struct scratch {
    struct cet_sel sel;
    /* The gold match table of the document this thread scored last: jobs
     * come document by document, so it is built once per document and
     * call, and no document keeps its own (it grows with the square of
     * the gold). */
    struct cet_peq_slot gold;
    uint64_t *v;
    size_t vcap;
    uint32_t *rows; /* the kept words' gold rows, for a table in strips */
    size_t rows_cap;
    struct cet_chars_scratch cs;
    char pad[64]; /* keeps neighbouring threads' hot fields off one cache line */
};

/* A document of an evaluation, with its estimated cost: handing out the
 * costliest documents first keeps threads from waiting on one big page at
 * the end (longest-processing-time-first scheduling). */
struct job {
    uint64_t cost;
    uint32_t pos; /* index into the call's document list */
    uint32_t doc;
};

static int cmp_job(const void *a, const void *b)
{
    const struct job *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

struct cet_evaluator {
    const struct cet_corpus *c;
    const struct cet_extractor *ex;
    enum cet_metric metric;
    int threads;
    void **prep;
    struct cet_chars **chars; /* per document, for the character metrics */
    struct scratch *ts;
    struct job *jobs;          /* the documents of one call, the costliest first */
    size_t jobs_cap;
    int jobs_all;              /* jobs holds the whole corpus */
    uint8_t **site;            /* per document, the site rules' marks (cet_site_marks), or NULL */
};

int cet_evaluator_new(struct cet_evaluator **out, const struct cet_corpus *c,
                      const struct cet_extractor *ex, enum cet_metric metric, int threads,
                      struct cet_error *err)
{
    *out = NULL;
    struct cet_evaluator *ev = calloc(1, sizeof *ev);
    if (!ev)
        return cet_fail(err, "out of memory");
    ev->c = c;
    ev->ex = ex;
    ev->metric = metric;
    ev->threads = threads > 0 ? threads : omp_get_max_threads();
    ev->prep = calloc(c->ndocs ? c->ndocs : 1, sizeof *ev->prep);
    ev->ts = calloc((size_t)ev->threads, sizeof *ev->ts);
    if (metric != CET_METRIC_WORD)
        ev->chars = calloc(c->ndocs ? c->ndocs : 1, sizeof *ev->chars);
    if (!ev->prep || !ev->ts || (metric != CET_METRIC_WORD && !ev->chars)) {
        cet_evaluator_free(ev);
        return cet_fail(err, "out of memory");
    }
    /* What the metric and the extractor read must have been loaded. */
    unsigned need = ex->load | (ev->chars ? CET_LOAD_GOLD_TEXT | CET_LOAD_TEXT : 0);
    for (size_t i = 0; i < c->ndocs; i++) {
        const struct cet_doc *d = c->docs[i];
        int gold = (need & CET_LOAD_GOLD_TEXT) && d->has_gold && !d->gold_text;
        if (gold || ((need & CET_LOAD_TEXT) && !d->text)) {
            cet_fail(err, "%s/%s: %s needs the %s, which was not loaded (%s)", d->package, d->name,
                     ev->chars ? "the character metric" : ex->name,
                     gold ? "gold text" : "page's text", gold ? "CET_LOAD_GOLD_TEXT" : "CET_LOAD_TEXT");
            cet_evaluator_free(ev);
            return -1;
        }
    }
    if (ev->chars) {
        int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(ev->threads)
        for (size_t i = 0; i < c->ndocs; i++) {
            struct cet_error e;
            if (!(ev->chars[i] = cet_chars_prepare(c->docs[i], &e))) {
#pragma omp atomic write
                failed = 1;
            }
        }
        if (failed) {
            cet_evaluator_free(ev);
            return cet_fail(err, "out of memory preparing the character metric");
        }
    }
    if (ex->prepare) {
        int failed = 0;
        char first[1200] = "";
#pragma omp parallel for schedule(dynamic, 1) num_threads(ev->threads)
        for (size_t i = 0; i < c->ndocs; i++) {
            struct cet_error e;
            ev->prep[i] = ex->prepare(c->docs[i], &e);
            if (!ev->prep[i]) {
#pragma omp critical /* unnamed: a named one is a symbol libcetune.so would export */
                if (!failed) {
                    failed = 1;
                    snprintf(first, sizeof first, "%s/%s: %s", c->docs[i]->package,
                             c->docs[i]->name, e.msg);
                }
            }
        }
        if (failed) {
            cet_evaluator_free(ev);
            return cet_fail(err, "%s: %.900s", ex->name, first);
        }
    }
    *out = ev;
    return 0;
}

int cet_evaluator_set_site(struct cet_evaluator *ev, const struct cet_site *site,
                           struct cet_error *err)
{
    const struct cet_corpus *c = ev->c;
    if (ev->site)
        for (size_t i = 0; i < c->ndocs; i++)
            free(ev->site[i]);
    free(ev->site);
    ev->site = NULL;
    if (!site)
        return 0;
    if (!(ev->site = calloc(c->ndocs ? c->ndocs : 1, sizeof *ev->site)))
        return cet_fail(err, "out of memory");
    int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(ev->threads)
    for (size_t i = 0; i < c->ndocs; i++) {
        const struct cet_doc *d = c->docs[i];
        if (!(ev->site[i] = malloc(d->ntexts ? d->ntexts : 1)) ||
            cet_site_marks(site, d, ev->site[i]) ||
            cet_site_guard(site, ev->ex, d, ev->prep ? ev->prep[i] : NULL, ev->site[i])) {
#pragma omp atomic write
            failed = 1;
        }
    }
    if (failed) {
        cet_evaluator_set_site(ev, NULL, err);
        return cet_fail(err, "out of memory applying site rules");
    }
    return 0;
}

/* The extraction of one document: the extractor, then the site rules. */
static int extract(struct cet_evaluator *ev, const double *params, size_t di, struct cet_sel *sel)
{
    const struct cet_doc *d = ev->c->docs[di];
    if (cet_sel_reset(sel, d) || ev->ex->run(d, ev->prep[di], params, sel))
        return -1;
    if (ev->site)
        cet_site_apply(d, ev->site[di], sel);
    return 0;
}

void cet_evaluator_free(struct cet_evaluator *ev)
{
    if (!ev)
        return;
    cet_evaluator_set_site(ev, NULL, NULL);
    if (ev->prep && ev->ex->release)
        for (size_t i = 0; i < ev->c->ndocs; i++)
            if (ev->prep[i])
                ev->ex->release(ev->prep[i]);
    if (ev->chars)
        for (size_t i = 0; i < ev->c->ndocs; i++)
            cet_chars_free(ev->chars[i]);
    if (ev->ts)
        for (int t = 0; t < ev->threads; t++) {
            cet_sel_free(&ev->ts[t].sel);
            cet_chars_scratch_free(&ev->ts[t].cs);
            cet_peq_slot_free(&ev->ts[t].gold);
            free(ev->ts[t].v);
            free(ev->ts[t].rows);
        }
    free(ev->chars);
    free(ev->prep);
    free(ev->ts);
    free(ev->jobs);
    free(ev);
}

/* Index k of text node i in d->texts (which is in node order, the
 * alternates' after the page's). */
static uint32_t text_index(const struct cet_doc *d, uint32_t i)
{
    uint32_t lo = 0, hi = cet_doc_all_texts(d);
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->texts[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The gold rows of text node texts[k]'s words into the LCS: fed to a whole
 * table, or gathered at s->rows + *na for a table in strips. */
static inline void take_text(struct scratch *s, const struct cet_doc *d, uint32_t k, uint32_t *na)
{
    const uint32_t *r = d->mrows + d->mrow_off[k];
    uint32_t nr = d->mrow_off[k + 1] - d->mrow_off[k];
    if (s->gold.whole)
        cet_lcs_feed_rows(s->v, &s->gold.t, r, nr);
    else {
        memcpy(s->rows + *na, r, nr * sizeof *r);
        *na += nr;
    }
}

static int score_words(struct scratch *s, const struct cet_doc *d, struct cet_score *out)
{
    if (cet_peq_load(&s->gold, d->gold_rows, d->ngold, d->nrows))
        return -1;
    uint32_t blocks = s->gold.t.blocks ? s->gold.t.blocks : 1;
    if (s->vcap < blocks) {
        uint64_t *v = realloc(s->v, blocks * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->vcap = blocks;
    }
    size_t nrows = (size_t)d->mrow_off[cet_doc_all_texts(d)] + 1;
    if (!s->gold.whole && s->rows_cap < nrows) {
        uint32_t *r = realloc(s->rows, nrows * sizeof *r);
        if (!r)
            return -1;
        s->rows = r;
        s->rows_cap = nrows;
    }
    cet_lcs_start(s->v, blocks);
    uint32_t n = 0, na = 0;
    const uint8_t *keep = s->sel.keep;
    for (uint32_t k = 0; k < d->ntexts; k++) {
        uint32_t i = d->texts[k];
        if (!keep[i] || (d->nodes[i].flags & CET_NF_UNSCORED))
            continue;
        take_text(s, d, k, &na);
        n += d->nodes[i].w1 - d->nodes[i].w0;
    }
    /* Extra nodes are text nodes (cet_sel_add_extra). */
    for (uint32_t j = 0; j < s->sel.nextra; j++) {
        uint32_t i = s->sel.extra[j];
        if (d->nodes[i].flags & CET_NF_UNSCORED)
            continue;
        take_text(s, d, text_index(d, i), &na);
        n += d->nodes[i].w1 - d->nodes[i].w0;
    }
    uint32_t lcs = 0;
    if (d->ngold && n) {
        lcs = s->gold.whole ? cet_lcs_result(s->v, blocks, d->ngold)
                            : cet_lcs_slot(&s->gold, s->rows, na, s->v);
        if (lcs == (uint32_t)-1)
            return -1;
    }
    cet_score_set(out, n, d->ngold, lcs);
    return 0;
}

static int score_chars(struct scratch *s, const struct cet_doc *d, const struct cet_chars *c,
                       int lcstring, struct cet_score *out)
{
    uint32_t n, m, overlap;
    if (cet_chars_overlap(c, d, s->sel.keep, s->sel.extra, s->sel.nextra, lcstring, &s->cs, &n, &m,
                          &overlap))
        return -1;
    cet_score_set(out, n, m, overlap);
    return 0;
}

void cet_score_means(const struct cet_score *sc, size_t k, size_t ndocs, double *mean_f1,
                     double *mean_p, double *mean_r)
{
    for (size_t j = 0; j < k; j++) {
        double f = 0, p = 0, r = 0;
        for (size_t i = 0; i < ndocs; i++) {
            f += sc[j * ndocs + i].f1;
            p += sc[j * ndocs + i].p;
            r += sc[j * ndocs + i].r;
        }
        double n = ndocs ? (double)ndocs : 1.0;
        if (mean_f1)
            mean_f1[j] = f / n;
        if (mean_p)
            mean_p[j] = p / n;
        if (mean_r)
            mean_r[j] = r / n;
    }
}

int cet_evaluate(struct cet_evaluator *ev, const double *params, size_t k, const uint32_t *docs,
                 size_t ndocs, struct cet_score *scores, double *mean_f1, double *mean_p,
                 double *mean_r, struct cet_error *err)
{
    const struct cet_corpus *c = ev->c;
    if (!docs)
        ndocs = c->ndocs;
    size_t total = k * ndocs, np = ev->ex->nparams;
    struct cet_score *sc = scores ? scores : malloc((total ? total : 1) * sizeof *sc);
    if (!sc)
        return cet_fail(err, "out of memory");
    if (ev->jobs_cap < ndocs) {
        struct job *jb = realloc(ev->jobs, ndocs * sizeof *jb);
        if (!jb) {
            if (!scores)
                free(sc);
            return cet_fail(err, "out of memory");
        }
        ev->jobs = jb;
        ev->jobs_cap = ndocs;
    }
    /* The whole corpus keeps its order from the last call. */
    if (docs || !ev->jobs_all) {
        for (size_t i = 0; i < ndocs; i++) {
            const struct cet_doc *d = c->docs[docs ? docs[i] : i];
            /* Extraction walks the nodes; the LCS costs words times gold blocks. */
            ev->jobs[i] = (struct job){(uint64_t)d->nnodes +
                                           (uint64_t)d->nwords * ((d->ngold + 63) / 64 + 1),
                                       (uint32_t)i, docs ? docs[i] : (uint32_t)i};
        }
        qsort(ev->jobs, ndocs, sizeof *ev->jobs, cmp_job);
        ev->jobs_all = !docs;
    }
    int failed = 0;
#pragma omp parallel num_threads(ev->threads)
    {
        struct scratch *s = &ev->ts[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1) nowait
        for (size_t q = 0; q < total; q++) {
            /* Every configuration of the costliest document first, and so on;
             * each score still lands in its own slot, row j. */
            const struct job *jb = &ev->jobs[q / k];
            size_t j = q % k, di = jb->doc, t = j * ndocs + jb->pos;
            const struct cet_doc *d = c->docs[di];
            if (extract(ev, params + j * np, di, &s->sel) ||
                (ev->metric == CET_METRIC_WORD
                     ? score_words(s, d, &sc[t])
                     : score_chars(s, d, ev->chars[di], ev->metric == CET_METRIC_LCSTRING, &sc[t]))) {
#pragma omp atomic write
                failed = 1;
            }
        }
    }
    if (failed) {
        if (!scores)
            free(sc);
        return cet_fail(err, "out of memory during evaluation");
    }
    cet_score_means(sc, k, ndocs, mean_f1, mean_p, mean_r);
    if (!scores)
        free(sc);
    return 0;
}

int cet_evaluator_extract(struct cet_evaluator *ev, const double *params, size_t di,
                          struct cet_sel *sel)
{
    return extract(ev, params, di, sel);
}

void cet_config_scores_free(struct cet_config_scores *s, size_t n)
{
    for (size_t j = 0; s && j < n; j++) {
        free(s[j].docs);
        free(s[j].pkgs);
        s[j].docs = s[j].pkgs = NULL;
    }
}

/* The configurations of cfgs[j]'s extractor (and site rules) from j on,
 * not yet done: their indices into grp, their parameters into params;
 * marks them done. */
static size_t group_of(const struct cet_config *cfgs, size_t n, size_t j, uint8_t *done,
                       size_t *grp, double *params)
{
    const struct cet_extractor *ex = cfgs[j].ex;
    size_t k = 0;
    for (size_t i = j; i < n; i++)
        if (!done[i] && cfgs[i].ex == ex && cfgs[i].site == cfgs[j].site) {
            memcpy(params + k * ex->nparams, cfgs[i].params, ex->nparams * sizeof *params);
            grp[k++] = i;
            done[i] = 1;
        }
    return k;
}

/* Scores one extractor's k configurations into sc (k rows of c->ndocs),
 * with the site rules they share.  A backend (MPI) holds the documents and
 * applies no site rules: a configuration with rules is refused there. */
static int score_group(const struct cet_corpus *c, const struct cet_extractor *ex,
                       const struct cet_site *site, const char *label, const double *params,
                       size_t k, enum cet_metric metric, int threads,
                       const struct cet_backend *be, struct cet_score *sc, struct cet_error *err)
{
    if (be && site)
        return cet_fail(err, "%s carries site rules (docs/site.md), which an MPI evaluation "
                             "does not apply: evaluate it without mpirun",
                        label ? label : ex->name);
    if (be)
        return be->prepare(be->ctx, ex, metric, err) ||
                       be->evaluate(be->ctx, params, k, NULL, 0, sc, NULL, NULL, NULL, err)
                   ? -1
                   : 0;
    struct cet_evaluator *ev;
    if (cet_evaluator_new(&ev, c, ex, metric, threads, err))
        return -1;
    int rc = cet_evaluator_set_site(ev, site, err) ||
                     cet_evaluate(ev, params, k, NULL, 0, sc, NULL, NULL, NULL, err)
                 ? -1
                 : 0;
    cet_evaluator_free(ev);
    return rc;
}

int cet_evaluate_configs(const struct cet_corpus *c, const struct cet_config *cfgs, size_t n,
                         enum cet_metric metric, int threads, const struct cet_backend *be,
                         struct cet_config_scores *out, struct cet_error *err)
{
    size_t nd = c->ndocs, maxp = 1;
    memset(out, 0, n * sizeof *out);
    for (size_t j = 0; j < n; j++)
        maxp = cfgs[j].ex->nparams > maxp ? cfgs[j].ex->nparams : maxp;
    uint8_t *done = calloc(n ? n : 1, 1);
    size_t *grp = malloc((n ? n : 1) * sizeof *grp);
    double *params = malloc((n ? n : 1) * maxp * sizeof *params);
    struct cet_score *sc = malloc((n * nd + 1) * sizeof *sc);
    int rc = !done || !grp || !params || !sc ? cet_fail(err, "out of memory") : 0;
    for (size_t j = 0; j < n && !rc; j++)
        if (!(out[j].docs = malloc((nd ? nd : 1) * sizeof *out[j].docs)) ||
            !(out[j].pkgs = calloc(c->npkgs ? c->npkgs : 1, sizeof *out[j].pkgs)))
            rc = cet_fail(err, "out of memory");
    for (size_t j = 0; j < n && !rc; j++) {
        if (done[j])
            continue;
        size_t k = group_of(cfgs, n, j, done, grp, params);
        if (score_group(c, cfgs[j].ex, cfgs[j].site, cfgs[j].label, params, k, metric, threads, be, sc, err)) {
            rc = -1;
            break;
        }
        for (size_t q = 0; q < k; q++) {
            struct cet_config_scores *o = &out[grp[q]];
            memcpy(o->docs, sc + q * nd, nd * sizeof *o->docs);
            cet_score_macro(c, o->docs, o->pkgs, &o->macro);
            cet_score_means(o->docs, 1, nd, &o->mean_f1, &o->mean_p, &o->mean_r);
        }
    }
    if (rc)
        cet_config_scores_free(out, n);
    free(done);
    free(grp);
    free(params);
    free(sc);
    return rc;
}
