/* Integration on the real corpora in ../shared/corpora: the four dev corpora
 * load completely, the alltext baseline matches the reference figure, and
 * the text cetune writes rescores (with the DP oracle) to exactly the F1 it
 * reports, and so does any selection's text (docs/formats.md, "Text").
 * Skips when the corpora are absent. */
#include <gsl/gsl_rng.h>

#include "cetune/corpus.h"
#include "cetune/eval.h"
#include "cetune/page.h"
#include "cetune/lcs.h"
#include "cetune/text.h"
#include "test.h"

struct ids {
    struct cet_intern *t;
    uint32_t *v;
    size_t n, cap;
};

static int push_id(const char *w, size_t n, void *ctx)
{
    struct ids *s = ctx;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 1024;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = cet_intern(s->t, w, n);
    return 0;
}

int main(void)
{
    const char *root = test_corpora();
    if (!root) {
        fprintf(stderr, "skipping: %s not found (set CETUNE_CORPORA)\n", test_corpora_path());
        return 77;
    }
    char dirs[4][4200];
    const char *names[] = {"portals", "cleaneval-dev", "scrapinghub", "big5"};
    const char *dv[4];
    for (int i = 0; i < 4; i++) {
        snprintf(dirs[i], sizeof dirs[i], "%s/%s", root, names[i]);
        dv[i] = dirs[i];
    }
    struct cet_entries e;
    struct cet_error err;
    struct cet_corpus c;
    CHECK(cet_corpus_scan(&e, dv, 4, &err) == 0);
    CHECK(cet_corpus_load(&c, &e, NULL, CET_LOAD_TEXT, 0, &err) == 0); /* text: rescored below */
    CHECK_EQ_INT(c.ndocs, 490);
    CHECK_EQ_INT(c.npkgs, 8);
    CHECK_EQ_INT(c.nskips, 0);

    struct cet_evaluator *ev;
    CHECK(cet_evaluator_new(&ev, &c, cet_extractor_find("alltext"), CET_METRIC_WORD, 0, &err) == 0);
    struct cet_score *sc = calloc(c.ndocs, sizeof *sc);
    CHECK(cet_evaluate(ev, NULL, 1, NULL, 0, sc, NULL, NULL, NULL, &err) == 0);
    double macro = 0;
    for (size_t k = 0; k < c.npkgs; k++) {
        double f = 0;
        for (uint32_t i = c.pkgs[k].first; i < c.pkgs[k].first + c.pkgs[k].count; i++)
            f += sc[i].f1;
        macro += f / c.pkgs[k].count / (double)c.npkgs;
    }
    fprintf(stderr, "alltext macro F1 %.4f (reference 0.628)\n", macro);
    CHECK(macro > 0.628 - 0.03 && macro < 0.628 + 0.03);

    /* Rescore the rendered text independently of the model's word ids. */
    struct cet_sel sel = {0};
    struct cet_buf text = {0};
    size_t agree = 0, same_words = 0, advertise = 0;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261125);
    for (size_t i = 0; i < c.ndocs; i++) {
        const struct cet_doc *d = c.docs[i];
        struct cet_intern t;
        cet_intern_init(&t);
        struct ids ex = {&t, NULL, 0, 0}, gold = {&t, NULL, 0, 0};
        text.len = 0;
        CHECK(cet_evaluator_extract(ev, NULL, i, &sel) == 0);
        CHECK(cet_extract_text(d, &sel, &text) == 0);
        cet_words(text.p, text.len, push_id, &ex);
        for (uint32_t g = 0; g < d->ngold; g++) {
            const char *w = cet_word_str(d, cet_gold_word(d, g));
            push_id(w, strlen(w), &gold);
        }
        uint32_t lcs = cet_lcs_dp(ex.v, ex.n, gold.v, gold.n);
        struct cet_score s;
        cet_score_set(&s, (uint32_t)ex.n, (uint32_t)gold.n, lcs);
        if (fabs(s.f1 - sc[i].f1) <= 1e-9 && s.n_extract == sc[i].n_extract)
            agree++;
        else
            fprintf(stderr, "%s/%s: rescored F1 %.6f, reported %.6f\n", d->package, d->name, s.f1,
                    sc[i].f1);
        /* A word split by inline elements in the page is whole in the text. */
        if (!strcmp(d->package, "cleaneval-dev") && !strcmp(d->name, "1"))
            advertise = strstr(text.p, "Advertise themselves") != NULL;

        /* Half the text nodes, drawn at random: the words printed are the
         * words the metric counts for the selection. */
        struct ids printed = {&t, NULL, 0, 0}, counted = {&t, NULL, 0, 0};
        memset(sel.keep, 0, d->nnodes);
        sel.nextra = 0;
        for (uint32_t k = 0; k < d->ntexts; k++)
            if (gsl_rng_uniform(rng) < 0.5) {
                const struct cet_node *n = &d->nodes[d->texts[k]];
                sel.keep[d->texts[k]] = 1;
                for (uint32_t w = n->w0; w < n->w1; w++)
                    push_id(cet_word_str(d, d->words[w]), strlen(cet_word_str(d, d->words[w])),
                            &counted);
            }
        text.len = 0;
        CHECK(cet_extract_text(d, &sel, &text) == 0);
        cet_words(text.p, text.len, push_id, &printed);
        if (printed.n == counted.n &&
            (!printed.n || !memcmp(printed.v, counted.v, printed.n * sizeof *printed.v)))
            same_words++;
        else
            fprintf(stderr, "%s/%s: a selection prints %zu words, the metric counts %zu\n",
                    d->package, d->name, printed.n, counted.n);
        free(printed.v);
        free(counted.v);
        free(ex.v);
        free(gold.v);
        cet_intern_free(&t);
    }
    gsl_rng_free(rng);
    CHECK_EQ_INT(agree, c.ndocs);
    CHECK_EQ_INT(same_words, c.ndocs);
    CHECK(advertise);
    cet_sel_free(&sel);
    cet_buf_free(&text);
    free(sc);
    cet_evaluator_free(ev);
    cet_corpus_free(&c);
    cet_entries_free(&e);
    TEST_END();
}
