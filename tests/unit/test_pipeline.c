/* The pipeline extractor: a one-stage pipeline is exactly its extractor, and
 * each combiner and post-processing step does what its parameter says on a
 * small page of our own (tests/data/extract/pipeline-page.html). */

#include "cetune/buf.h"
#include "cetune/config.h"
#include "cetune/page.h"
#include "test.h"

static struct cet_buf page;
static struct cet_page *pg;

/* Extracts bytes with extractor name and the settings of the NULL-terminated
 * list; returns malloc'd text (NULL on failure). */
static char *extract_with(const char *bytes, size_t len, const char *name, const char *const *set)
{
    struct cet_config cfg = {0};
    struct cet_error err;
    struct cet_buf out = {0};
    char *text = NULL;
    if (cet_config_default(&cfg, name, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return NULL;
    }
    for (; set && *set; set++)
        if (cet_config_set(&cfg, *set, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            goto done;
        }
    if (cet_page_extract(pg, &cfg, bytes, len, NULL, &out, NULL, &err) == 0)
        text = strdup(out.p ? out.p : "");
    else
        fprintf(stderr, "%s\n", err.msg);
done:
    cet_buf_free(&out);
    cet_config_free(&cfg);
    return text;
}

static char *pipe_text(const char *const *set)
{
    return extract_with(page.p, page.len, "pipeline", set);
}

static int has(const char *text, const char *phrase)
{
    return text && strstr(text, phrase) != NULL;
}

/* Every stage extractor alone, at its defaults and with other settings, gives
 * exactly its own text on every fixture page. */
static const struct {
    const char *ex, *stage_set, *ex_set;
} stage_cases[] = {
    {"lqf", NULL, NULL},
    {"lqf", "s1.lqf.t=0.6", "t=0.6"},
    {"ccb", NULL, NULL},
    {"accb", "s1.accb.r=128", "r=128"},
    {"tccb", "s1.tccb.t=0.5", "t=0.5"},
    {"sw", NULL, NULL},
    {"density", "s1.density.c2=20", "c2=20"},
    {"mantratzis", NULL, NULL},
    {"crunch", "s1.crunch.link_text_ratio=0.5", "link_text_ratio=0.5"},
};

static void one_stage_page(const char *path, const struct cet_buf *b, void *ctx)
{
    (void)ctx;
    for (size_t c = 0; c < sizeof stage_cases / sizeof stage_cases[0]; c++) {
        char s1[64];
        snprintf(s1, sizeof s1, "s1=%s", stage_cases[c].ex);
        const char *pset[] = {s1, stage_cases[c].stage_set, NULL};
        const char *xset[] = {stage_cases[c].ex_set, NULL};
        char *a = extract_with(b->p, b->len, "pipeline", pset);
        char *x = extract_with(b->p, b->len, stage_cases[c].ex, xset);
        CHECK(a && x);
        if (a && x && strcmp(a, x)) {
            fprintf(stderr, "%s: pipeline s1=%s differs from %s\n", path, stage_cases[c].ex,
                    stage_cases[c].ex);
            CHECK(0);
        }
        free(a);
        free(x);
    }
}

static void test_one_stage_is_the_extractor(void)
{
    CHECK(test_pages(CETUNE_SOURCE_DIR "/tests/data/extract", 0, one_stage_page, NULL) >= 10);
}

static void test_combiners(void)
{
    /* lqf (t=0.25) keeps the side box, the heading and the paragraphs and drops
     * the menus; density with a wide c2 keeps one region. */
    const char *lqf[] = {"s1=lqf", NULL};
    const char *and2[] = {"s1=lqf", "s2=density", "s2.density.c2=2", "combine=and", NULL};
    const char *or2[] = {"s1=lqf", "s2=density", "s2.density.c2=2", "combine=or", NULL};
    const char *dens[] = {"s1=density", "s1.density.c2=2", NULL};
    char *a = pipe_text(lqf), *b = pipe_text(and2), *c = pipe_text(or2), *d = pipe_text(dens);
    CHECK(a && b && c && d);
    CHECK(has(a, "newsletter") && !has(a, "Sport"));
    /* and keeps only what both keep, or what either keeps. */
    CHECK(strlen(b) <= strlen(a) && strlen(b) <= strlen(d));
    CHECK(strlen(c) >= strlen(a) && strlen(c) >= strlen(d));
    /* A vote where stage 1 holds all the weight is stage 1. */
    const char *vote[] = {"s1=lqf", "s2=density", "s2.density.c2=2", "combine=vote",
                          "vote.w1=1", "vote.w2=0", "vote.t=0.5", NULL};
    char *v = pipe_text(vote);
    CHECK(v && a && !strcmp(v, a));
    /* Majority of two stages is and. */
    const char *maj[] = {"s1=lqf", "s2=density", "s2.density.c2=2", "combine=majority", NULL};
    char *m = pipe_text(maj);
    CHECK(m && b && !strcmp(m, b));
    free(a), free(b), free(c), free(d), free(v), free(m);
}

static void test_post_processing(void)
{
    /* The subtree region keeps the article's container when a dropped word
     * costs enough (2: the body's 126 kept and 14 dropped words score 98,
     * the article's 110 and 1 score 108): the side box, which lqf keeps,
     * goes.  At no cost the whole page is the best subtree. */
    const char *sub[] = {"s1=lqf", "post.region=subtree", "post.subtree_alpha=2", NULL};
    const char *sub0[] = {"s1=lqf", "post.region=subtree", "post.subtree_alpha=0", NULL};
    char *s = pipe_text(sub), *s0 = pipe_text(sub0);
    CHECK(has(s, "Harbour master Jane Miller") && has(s, "Storm closes the harbour"));
    CHECK(!has(s, "newsletter") && has(s0, "newsletter"));
    free(s0);
    /* The largest region with no bridging keeps one run of kept text. */
    const char *lg[] = {"s1=lqf", "post.region=largest", "post.region_gap=0", NULL};
    char *l = pipe_text(lg);
    CHECK(has(l, "Harbour master Jane Miller") && !has(l, "Copyright"));
    /* Islands: short kept text between dropped text goes, the largest run stays. */
    const char *isl[] = {"s1=lqf", "post.island=20", NULL};
    char *i = pipe_text(isl);
    CHECK(has(i, "Harbour master") && !has(i, "Copyright 2024"));
    /* A strict accb drops the heading; post.headings brings it back because
     * kept text follows it closely. */
    const char *strict[] = {"s1=tccb", "s1.tccb.r=3", "s1.tccb.t=0.8", NULL};
    const char *head[] = {"s1=tccb", "s1.tccb.r=3", "s1.tccb.t=0.8", "post.headings=true",
                          "post.heading_gap=0", NULL};
    char *h0 = pipe_text(strict), *h1 = pipe_text(head);
    CHECK(has(h0, "harbour was closed") && !has(h0, "Storm closes"));
    CHECK(has(h1, "Storm closes the harbour") && has(h1, "harbour was closed"));
    /* Gap filling: the one-word "Share" link paragraph between two kept
     * paragraphs comes back. */
    const char *nogap[] = {"s1=lqf", "s1.lqf.t=0.5", NULL};
    const char *gap[] = {"s1=lqf", "s1.lqf.t=0.5", "post.fill_gap=1", NULL};
    char *g0 = pipe_text(nogap), *g1 = pipe_text(gap);
    CHECK(!has(g0, "Share") && has(g1, "Share"));
    /* Cleaning: Crunch's link-list remover drops the menu that a lax lqf keeps. */
    const char *lax[] = {"s1=lqf", "s1.lqf.t=1", NULL};
    const char *clean[] = {"s1=lqf", "s1.lqf.t=1", "clean=true", NULL};
    char *c0 = pipe_text(lax), *c1 = pipe_text(clean);
    CHECK(has(c0, "Weather") && !has(c1, "Weather") && has(c1, "Harbour master"));
    /* A page keeping fewer than post.min_words words keeps nothing (the
     * article here has about 110 words). */
    const char *few[] = {"s1=lqf", "post.region=subtree", "post.subtree_alpha=2",
                         "post.min_words=100", NULL};
    const char *none[] = {"s1=lqf", "post.region=subtree", "post.subtree_alpha=2",
                          "post.min_words=200", NULL};
    char *m0 = pipe_text(few), *m1 = pipe_text(none);
    CHECK(has(m0, "Harbour master") && m1 && !*m1);
    free(m0), free(m1);
    free(s), free(l), free(i), free(h0), free(h1), free(g0), free(g1), free(c0), free(c1);
}

/* Configurations list only the parameters that matter. */
static void test_written_config(void)
{
    struct cet_config cfg = {0};
    struct cet_error err;
    struct cet_buf out = {0};
    CHECK(cet_config_default(&cfg, "pipeline", &err) == 0);
    CHECK(cet_config_set(&cfg, "s2=lqf", &err) == 0);
    CHECK(cet_config_set(&cfg, "post.region=subtree", &err) == 0);
    CHECK(cet_config_json(&out, cfg.ex, cfg.params, NULL, 0, -1) == 0);
    CHECK(has(out.p, "\"s2.lqf.t\": 0.25") && has(out.p, "\"s1.accb.r\": 40"));
    CHECK(has(out.p, "\"post.subtree_alpha\""));
    CHECK(!has(out.p, "s1.lqf.t") && !has(out.p, "s3.") && !has(out.p, "vote.") &&
          !has(out.p, "clean.") && !has(out.p, "post.region_gap"));
    /* And it reads back to the same configuration. */
    struct cet_config back = {0};
    CHECK(cet_config_parse(&back, out.p, out.len, "written", &err) == 0);
    CHECK(back.ex == cfg.ex && !memcmp(back.params, cfg.params, cfg.ex->nparams * sizeof(double)));
    cet_config_free(&back);
    cet_buf_free(&out);
    cet_config_free(&cfg);
}

int main(void)
{
    struct cet_error err;
    if (cet_read_file(&page, CETUNE_SOURCE_DIR "/tests/data/extract/pipeline-page.html", 1 << 20,
                      &err) ||
        cet_page_new(&pg, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    RUN(test_one_stage_is_the_extractor);
    RUN(test_combiners);
    RUN(test_post_processing);
    RUN(test_written_config);
    cet_page_free(pg);
    cet_buf_free(&page);
    TEST_END();
}
