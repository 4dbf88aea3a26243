/* cetune-bench: measures what a tuning run costs, on a fixed seeded sample of
 * 120 documents.  Every figure is the median of repeated measurements.
 *
 *   parse_mb_s          building cetune's document model (decode, parse, words, gold tables)
 *   model_bytes_per_html_byte  bytes the loaded models hold (cet_doc_mem: nodes, strings,
 *                       words, gold words and text, the page words' gold rows) per byte of
 *                       their HTML; model_bytes gives them by component.  The gold's LCS
 *                       match table is not part of the model: each evaluating thread
 *                       builds it per document in one reused table (in strips of
 *                       blocks past CET_PEQ_MAX_BYTES), which grows to lcs_table_bytes
 *   libxml2_parse_mb_s  libxml2's htmlReadMemory alone on the same (UTF-8) bytes
 *   lcs_speedup         textbook DP time / bit-parallel time on the (extract, gold) words
 *   eval_ms             one individual on all documents, 1 thread, per extractor
 *                       (steady state; the table also shows the cold first evaluation)
 *   eval_ms_threads     the same with all threads
 *   lcs_floor_ms        the LCS computations alone of that evaluation (1 thread)
 *   pipeline_stages_ms  the pipeline's stages on their own: their extractions plus one LCS
 *   pipeline_over_stages  eval_ms of the pipeline / pipeline_stages_ms
 *   extract_mb_s        `cetune extract` throughput: cet_page_extract, lqf at defaults, text */
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <libxml/HTMLparser.h>

#include "cetune/buf.h"
#include "cetune/clock.h"
#include "cetune/corpus.h"
#include "cetune/eval.h"
#include "cetune/lcs.h"
#include "cetune/page.h"
#include "dev_corpora.h"
#include "util/sort.h"

/* Evaluations per timed window: single ones last about a millisecond, where
 * a thread wake-up or a timer tick would be a large share. */
#define BATCH 20

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cet_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct page {
    struct cet_buf html;  /* raw bytes as on disk (gunzipped) */
    char *utf8;           /* decoded, for the libxml2 baseline */
    size_t utf8_len;
    char *gold;
    size_t gold_len;
};

/* Words an extraction keeps, in extract order. */
struct extract_words {
    uint32_t *w;
    uint32_t n;
    size_t cap;
    uint32_t *rows; /* the words' gold rows, non-matching words left out */
    uint32_t nrows;
};

/* Median milliseconds of one evaluation of params on the corpus, with one
 * thread (*ms1) and with nthreads (*msn).  Windows of the two alternate, so
 * that both see the same machine.  The first evaluation is cold (*cold_ms):
 * the per-document caches some extractors keep per parameter value (the
 * blurring's per r) are empty, as for a GA individual with a value not seen
 * before; the medians are of the repeated, steady-state evaluations that a
 * long run mostly makes.  The one-thread evaluator is returned. */
static struct cet_evaluator *time_eval(const struct cet_corpus *corpus,
                                       const struct cet_extractor *ex, const double *params,
                                       int nthreads, int repeat, double *t1, double *tn,
                                       double *ms1, double *msn, double *cold_ms)
{
    struct cet_evaluator *ev[2];
    struct cet_error err;
    double f1;
    if (cet_evaluator_new(&ev[0], corpus, ex, CET_METRIC_WORD, 1, &err) ||
        cet_evaluator_new(&ev[1], corpus, ex, CET_METRIC_WORD, nthreads, &err)) {
        fprintf(stderr, "cetune-bench: %s\n", err.msg);
        exit(1);
    }
    double t0 = cet_now();
    cet_evaluate(ev[0], params, 1, NULL, 0, NULL, &f1, NULL, NULL, &err);
    *cold_ms = (cet_now() - t0) * 1e3;
    cet_evaluate(ev[1], params, 1, NULL, 0, NULL, &f1, NULL, NULL, &err);
    for (int r = 0; r < repeat; r++)
        for (int k = 0; k < 2; k++) {
            t0 = cet_now();
            for (int b = 0; b < BATCH; b++)
                cet_evaluate(ev[k], params, 1, NULL, 0, NULL, &f1, NULL, NULL, &err);
            (k ? tn : t1)[r] = (cet_now() - t0) / BATCH;
        }
    *ms1 = median(t1, repeat) * 1e3;
    *msn = median(tn, repeat) * 1e3;
    cet_evaluator_free(ev[1]);
    return ev[0];
}

/* The configuration each extractor is timed with: its defaults, except the
 * pipeline, timed as a representative evolved pipeline (Crunch cleaning,
 * three stages, a vote, a subtree region and headings).  stage 1..4 gives
 * that pipeline's stages as extractors of their own, at the same settings. */
static void bench_config(struct cet_config *cfg, const char *name, int stage)
{
    static const char *const pipe[] = {
        "clean=true", "s1=accb", "s1.accb.r=128", "s1.accb.t=0.52", "s2=lqf", "s2.lqf.t=0.35",
        "s3=tccb", "combine=vote", "vote.w3=0.5", "post.fill_gap=10", "post.region=subtree",
        "post.subtree_alpha=1", "post.headings=true", NULL};
    static const char *const stages[][3] = {{"crunch", NULL, NULL},
                                            {"accb", "r=128", "t=0.52"},
                                            {"lqf", "t=0.35", NULL},
                                            {"tccb", NULL, NULL}};
    struct cet_error err;
    const char *const *set = NULL;
    if (stage) {
        name = stages[stage - 1][0];
        set = stages[stage - 1] + 1;
    } else if (!strcmp(name, "pipeline"))
        set = pipe;
    int rc = cet_config_default(cfg, name, &err);
    for (int i = 0; rc == 0 && set && i < (stage ? 2 : 64) && set[i]; i++)
        rc = cet_config_set(cfg, set[i], &err);
    if (rc) {
        fprintf(stderr, "cetune-bench: %s\n", err.msg);
        exit(1);
    }
}

/* What is measured of one configuration. */
struct timing {
    double eval_ms, eval_thr, floor_ms, cold_ms;
    double dp_s; /* the textbook DP LCS on the same (extract, gold) pairs */
};

struct bench {
    const struct cet_corpus *corpus;
    uint32_t **gold; /* each document's gold words as vocabulary ids, for the DP */
    struct extract_words *ew;
    int threads, repeat;
    double *t, *t2;
};

static void measure(struct bench *b, const struct cet_config *cfg, struct timing *tm)
{
    const struct cet_corpus *corpus = b->corpus;
    double *t = b->t;
    int repeat = b->repeat;
    struct extract_words *ew = b->ew;
    struct cet_sel sel = {0};
    struct cet_evaluator *ev1 = time_eval(corpus, cfg->ex, cfg->params, b->threads, repeat, t,
                                          b->t2, &tm->eval_ms, &tm->eval_thr, &tm->cold_ms);
    /* The floor: the same documents' LCS on the words this extraction keeps. */
    for (size_t i = 0; i < corpus->ndocs; i++) {
        cet_evaluator_extract(ev1, cfg->params, i, &sel);
        cet_sel_words(corpus->docs[i], &sel, &ew[i].w, &ew[i].cap, &ew[i].n);
        /* The floor feeds gold rows, as the evaluation does. */
        const struct cet_doc *d = corpus->docs[i];
        uint32_t *row = malloc((d->nvocab + 1) * sizeof *row);
        for (uint32_t w = 0; w < d->nvocab; w++)
            row[w] = CET_NONE;
        for (uint32_t r = 0; r < d->nrows; r++)
            row[d->row_word[r]] = r;
        ew[i].rows = realloc(ew[i].rows, (ew[i].n + 1) * sizeof *ew[i].rows);
        ew[i].nrows = 0;
        for (uint32_t w = 0; w < ew[i].n; w++)
            if (row[ew[i].w[w]] != CET_NONE)
                ew[i].rows[ew[i].nrows++] = row[ew[i].w[w]];
        free(row);
    }
    volatile uint32_t sink = 0;
    uint32_t vcap = 1;
    for (size_t i = 0; i < corpus->ndocs; i++)
        if (vcap < (corpus->docs[i]->ngold + 63) / 64 + 1)
            vcap = (corpus->docs[i]->ngold + 63) / 64 + 1;
    uint64_t *v = malloc(vcap * sizeof *v);
    /* Each document's match table is built as the evaluation builds it:
     * once per document and evaluation, in one reused table. */
    struct cet_peq_slot slot = {0};
    for (int r = 0; r < repeat; r++) {
        double t0 = cet_now();
        for (int k = 0; k < BATCH; k++)
            for (size_t i = 0; i < corpus->ndocs; i++) {
                const struct cet_doc *d = corpus->docs[i];
                if (cet_peq_load(&slot, d->gold_rows, d->ngold, d->nrows)) {
                    fprintf(stderr, "cetune-bench: out of memory\n");
                    exit(1);
                }
                sink += cet_lcs_slot(&slot, ew[i].rows, ew[i].nrows, v);
            }
        t[r] = (cet_now() - t0) / BATCH;
    }
    cet_peq_slot_free(&slot);
    tm->floor_ms = median(t, repeat) * 1e3;
    /* LCS speedup over the textbook DP: on every extractor's (extract, gold)
     * pairs, summed, so that short and long extracts both count. */
    int reps = repeat < 3 ? repeat : 3;
    for (int r = 0; r < reps; r++) {
        double t0 = cet_now();
        for (size_t i = 0; i < corpus->ndocs; i++)
            sink += cet_lcs_dp(ew[i].w, ew[i].n, b->gold[i], corpus->docs[i]->ngold);
        t[r] = cet_now() - t0;
    }
    tm->dp_s = median(t, reps);
    (void)sink;
    free(v);
    cet_sel_free(&sel);
    cet_evaluator_free(ev1);
}

static void usage(void)
{
    fprintf(stderr, "usage: cetune-bench [-d CORPUS]... [-n DOCS] [--seed S] [--repeat N] [--json]\n");
}

int main(int argc, char **argv)
{

    static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"repeat", required_argument, NULL, 'r'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *dirs[16];
    size_t ndirs = 0;
    int json = 0, repeat = 31, opt;
    unsigned long seed = 2008;
    size_t want_docs = 120;
    while ((opt = getopt_long(argc, argv, "d:n:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'd':
            if (ndirs < 16)
                dirs[ndirs++] = optarg;
            break;
        case 'n': want_docs = strtoul(optarg, NULL, 10); break;
        case 's': seed = strtoul(optarg, NULL, 10); break;
        case 'r': repeat = atoi(optarg) > 0 ? atoi(optarg) : 1; break;
        case 'j': json = 1; break;
        default: usage(); return opt == 'h' ? 0 : 2;
        }
    }
    bench_dev_corpora(dirs, &ndirs);
    xmlInitParser();
    struct cet_entries entries;
    struct cet_error err;
    if (cet_corpus_scan(&entries, dirs, ndirs, &err)) {
        fprintf(stderr, "cetune-bench: %s\n", err.msg);
        return 1;
    }
    /* A fixed seeded sample: the same documents on every run and machine. */
    size_t n = entries.n < want_docs ? entries.n : want_docs;
    size_t *all = malloc(entries.n * sizeof *all), *pick = malloc(n * sizeof *pick);
    uint8_t *want = calloc(entries.n, 1);
    for (size_t i = 0; i < entries.n; i++)
        all[i] = i;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    gsl_ran_choose(rng, pick, n, all, entries.n, sizeof *all);
    for (size_t i = 0; i < n; i++)
        want[pick[i]] = 1;
    gsl_rng_free(rng);

    struct cet_corpus corpus;
    /* What every extractor reads (crunch, score and the pipeline the text). */
    unsigned flags = 0;
    for (size_t x = 0; x < cet_extractor_count(); x++)
        flags |= cet_extractor_at(x)->load;
    if (cet_corpus_load(&corpus, &entries, want, flags, 0, &err)) {
        fprintf(stderr, "cetune-bench: %s\n", err.msg);
        return 1;
    }
    if (!corpus.ndocs) {
        fprintf(stderr, "cetune-bench: no usable documents\n");
        return 1;
    }
    /* Raw bytes in memory, so that timings measure no disk I/O. */
    struct page *pages = calloc(corpus.ndocs, sizeof *pages);
    size_t bytes = 0, pi = 0;
    for (size_t i = 0; i < entries.n; i++) {
        if (!want[i])
            continue;
        const struct cet_entry *e = &entries.v[i];
        if (pi >= corpus.ndocs || strcmp(corpus.docs[pi]->name, e->name) ||
            strcmp(corpus.docs[pi]->package, e->package))
            continue; /* skipped document */
        struct page *p = &pages[pi++];
        cet_read_file(&p->html, e->html_path, CET_MAX_PAGE_BYTES, &err);
        char cs[32];
        cet_decode_page(&p->utf8, &p->utf8_len, p->html.p, p->html.len, NULL, cs, &err);
        struct cet_buf g = {0};
        if (e->gold_inline)
            cet_buf_puts(&g, e->gold_inline);
        else
            cet_read_file(&g, e->gold_path, 1 << 28, &err);
        cet_decode_text(&p->gold, &p->gold_len, g.p, g.len, &err);
        if (e->cleaneval)
            p->gold_len = cet_gold_cleanup(p->gold, p->gold_len);
        cet_buf_free(&g);
        bytes += p->html.len;
    }
    size_t ndocs = pi;
    double mb = (double)bytes / 1e6;
    /* What the loaded models hold. */
    struct cet_doc_mem mem = {0};
    for (size_t i = 0; i < corpus.ndocs; i++)
        cet_doc_mem(corpus.docs[i], &mem);
    double model_ratio = corpus.bytes ? (double)mem.total / (double)corpus.bytes : 0;
    /* What an evaluating thread's match table grows to: a slot that takes
     * every document's gold. */
    struct cet_peq_slot slot = {0};
    for (size_t i = 0; i < corpus.ndocs; i++)
        cet_peq_load(&slot, corpus.docs[i]->gold_rows, corpus.docs[i]->ngold,
                     corpus.docs[i]->nrows);
    size_t table_bytes = slot.cap * sizeof *slot.t.bits;
    cet_peq_slot_free(&slot);
    double *t = malloc((size_t)repeat * sizeof *t), *t2 = malloc((size_t)repeat * sizeof *t2);

    /* Parsing. */
    for (int r = 0; r < repeat; r++) {
        double t0 = cet_now();
        for (size_t i = 0; i < ndocs; i++) {
            struct cet_doc *d;
            if (cet_doc_parse(&d, pages[i].html.p, pages[i].html.len, pages[i].gold,
                              pages[i].gold_len, &err) == 0)
                cet_doc_free(d);
        }
        t[r] = cet_now() - t0;
    }
    double parse_mb_s = mb / median(t, repeat);
    for (int r = 0; r < repeat; r++) {
        double t0 = cet_now();
        for (size_t i = 0; i < ndocs; i++) {
            htmlDocPtr doc = htmlReadMemory(pages[i].utf8, (int)pages[i].utf8_len, NULL, "UTF-8",
                                            HTML_PARSE_RECOVER | HTML_PARSE_NONET |
                                                HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
            xmlFreeDoc(doc);
        }
        t[r] = cet_now() - t0;
    }
    double libxml2_mb_s = mb / median(t, repeat);

    /* Per extractor: evaluation with 1 and all threads, and its LCS floor. */
    size_t nex = cet_extractor_count();
    struct timing *tm = calloc(nex, sizeof *tm);
    int threads = omp_get_max_threads();
    struct bench b = {&corpus, calloc(corpus.ndocs, sizeof *b.gold),
                      calloc(corpus.ndocs, sizeof *b.ew), threads, repeat, t, t2};
    for (size_t i = 0; i < corpus.ndocs; i++) {
        const struct cet_doc *d = corpus.docs[i];
        b.gold[i] = malloc((d->ngold + 1) * sizeof *b.gold[i]);
        for (uint32_t j = 0; j < d->ngold; j++)
            b.gold[i][j] = cet_gold_word(d, j);
    }
    double dp_time = 0, bits_time = 0;
    double pipe_ms = 0, stages_ms = 0; /* the pipeline, and the sum of its stages */
    for (size_t x = 0; x < nex; x++) {
        struct cet_config cfg;
        bench_config(&cfg, cet_extractor_at(x)->name, 0);
        measure(&b, &cfg, &tm[x]);
        dp_time += tm[x].dp_s;
        bits_time += tm[x].floor_ms / 1e3;
        if (!strcmp(cfg.ex->name, "pipeline")) {
            /* Its stages on their own at the same settings: their extraction
             * (evaluation less LCS) plus the pipeline's one LCS. */
            pipe_ms = tm[x].eval_ms;
            stages_ms = tm[x].floor_ms;
            for (int k = 1; k <= 4; k++) {
                struct cet_config sc;
                struct timing st;
                bench_config(&sc, NULL, k);
                measure(&b, &sc, &st);
                stages_ms += st.eval_ms - st.floor_ms;
                cet_config_free(&sc);
            }
        }
        cet_config_free(&cfg);
    }

    /* Extraction throughput, as `cetune extract -x lqf` does it, one thread. */
    const struct cet_extractor *lqf = cet_extractor_find("lqf");
    if (!lqf)
        lqf = cet_extractor_find("alltext");
    struct cet_config lcfg = {0};
    struct cet_page *pg = NULL;
    if (cet_config_default(&lcfg, lqf->name, &err) || cet_page_new(&pg, &err)) {
        fprintf(stderr, "cetune-bench: %s\n", err.msg);
        return 1;
    }
    struct cet_buf out = {0};
    for (int r = 0; r < repeat; r++) {
        double t0 = cet_now();
        for (size_t i = 0; i < ndocs; i++)
            cet_page_extract(pg, &lcfg, pages[i].html.p, pages[i].html.len, NULL, &out, NULL, &err);
        t[r] = cet_now() - t0;
    }
    cet_page_free(pg);
    cet_config_free(&lcfg);
    double extract_mb_s = mb / median(t, repeat);
    double speedup = bits_time > 0 ? dp_time / bits_time : 0;

    if (json) {
        printf("{\"docs\": %zu, \"bytes\": %zu, \"threads\": %d, \"parse_mb_s\": %.2f, "
               "\"libxml2_parse_mb_s\": %.2f, \"lcs_speedup\": %.1f, ",
               ndocs, bytes, threads, parse_mb_s, libxml2_mb_s, speedup);
        printf("\"model_bytes_per_html_byte\": %.3f, \"model_bytes\": {\"nodes\": %zu, "
               "\"attrs\": %zu, \"texts\": %zu, \"pool\": %zu, \"text\": %zu, \"words\": %zu, \"gold\": %zu, "
               "\"gold_text\": %zu, \"vocab\": %zu, \"mrows\": %zu, \"other\": %zu, "
               "\"total\": %zu}, \"lcs_table_bytes\": %zu, ",
               model_ratio, mem.nodes, mem.attrs, mem.texts, mem.pool, mem.text, mem.words, mem.gold,
               mem.gold_text, mem.vocab, mem.mrows, mem.other, mem.total, table_bytes);
        const char *keys[] = {"eval_ms", "eval_ms_threads", "lcs_floor_ms"};
        for (int k = 0; k < 3; k++) {
            printf("\"%s\": {", keys[k]);
            for (size_t x = 0; x < nex; x++)
                printf("%s\"%s\": %.3f", x ? ", " : "", cet_extractor_at(x)->name,
                       k == 0 ? tm[x].eval_ms : k == 1 ? tm[x].eval_thr : tm[x].floor_ms);
            printf("}, ");
        }
        printf("\"pipeline_stages_ms\": %.3f, \"pipeline_over_stages\": %.3f, ", stages_ms,
               stages_ms > 0 ? pipe_ms / stages_ms : 0);
        printf("\"extract_mb_s\": %.2f}\n", extract_mb_s);
    } else {
        printf("cetune-bench: %zu documents, %.1f MB of HTML, %d threads, median of %d runs\n\n",
               ndocs, mb, threads, repeat);
        printf("parsing        %8.1f MB/s  (libxml2 htmlReadMemory alone: %.1f MB/s, ratio %.2f)\n",
               parse_mb_s, libxml2_mb_s, parse_mb_s / libxml2_mb_s);
        printf("model          %8.2f bytes per HTML byte (%.1f MB: nodes %.1f, strings %.1f, "
               "words %.1f, gold %.1f, gold rows of page words %.1f, other %.1f)\n",
               model_ratio, mem.total / 1e6, (mem.nodes + mem.attrs + mem.texts) / 1e6,
               (mem.pool + mem.text) / 1e6, (mem.words + mem.vocab) / 1e6, (mem.gold + mem.gold_text) / 1e6,
               mem.mrows / 1e6, mem.other / 1e6);
        printf("LCS table      %8.2f MB at most per evaluating thread\n",
               table_bytes / 1e6);
        printf("LCS            %8.1fx faster than dynamic programming (%.1f ms vs %.1f ms)\n",
               speedup, bits_time * 1e3, dp_time * 1e3);
        printf("extraction     %8.1f MB/s  (parse + %s at defaults + text, 1 thread)\n\n",
               extract_mb_s, lqf->name);
        printf("%-12s %12s %12s %10s %12s %10s %12s\n", "extractor", "eval 1 thr", "eval all thr",
               "speedup", "LCS floor", "eval/floor", "first (cold)");
        for (size_t x = 0; x < nex; x++)
            printf("%-12s %9.2f ms %9.2f ms %9.2fx %9.2f ms %10.2f %9.2f ms\n",
                   cet_extractor_at(x)->name, tm[x].eval_ms, tm[x].eval_thr,
                   tm[x].eval_ms / tm[x].eval_thr, tm[x].floor_ms,
                   tm[x].floor_ms > 0 ? tm[x].eval_ms / tm[x].floor_ms : 0, tm[x].cold_ms);
        if (stages_ms > 0)
            printf("\npipeline (clean + accb, lqf, tccb, vote, subtree, headings) %.2f ms against "
                   "%.2f ms for its stages' extractions plus one LCS: %.2fx\n",
                   pipe_ms, stages_ms, pipe_ms / stages_ms);
    }
    return 0;
}
