/* Corpus layouts, charsets, gold decoding and skip-and-count on small
 * fixtures of our own (tests/data/corpus), plus generated extremes. */
#include <sys/stat.h>
#include <unistd.h>

#include "cetune/buf.h"
#include "cetune/corpus.h"
#include "cetune/eval.h"
#include "cetune/page.h"
#include "test.h"

#define DATA CETUNE_TEST_DATA "/corpus"

static const struct cet_doc *find_doc(const struct cet_corpus *c, const char *name)
{
    for (size_t i = 0; i < c->ndocs; i++)
        if (!strcmp(c->docs[i]->name, name))
            return c->docs[i];
    return NULL;
}

static const char *find_skip(const struct cet_corpus *c, const char *path_part)
{
    for (size_t i = 0; i < c->nskips; i++)
        if (strstr(c->skips[i].path, path_part))
            return c->skips[i].reason;
    return NULL;
}

static int has_word(const struct cet_doc *d, const char *w)
{
    for (uint32_t i = 0; i < d->nvocab; i++)
        if (!strcmp(cet_word_str(d, i), w))
            return 1;
    return 0;
}

static int load(struct cet_corpus *c, const char *dir)
{
    struct cet_entries e;
    struct cet_error err;
    const char *dirs[] = {dir};
    if (cet_corpus_scan(&e, dirs, 1, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    int rc = cet_corpus_load(c, &e, NULL, 0, 2, &err);
    cet_entries_free(&e);
    return rc;
}

/* F1 of alltext on document d. */
static double alltext_f1(const struct cet_corpus *c, size_t i)
{
    struct cet_evaluator *ev;
    struct cet_error err;
    struct cet_score s = {0};
    uint32_t di = (uint32_t)i;
    if (cet_evaluator_new(&ev, c, cet_extractor_find("alltext"), CET_METRIC_WORD, 1, &err))
        return -1;
    cet_evaluate(ev, NULL, 1, &di, 1, &s, NULL, NULL, NULL, &err);
    cet_evaluator_free(ev);
    return s.f1;
}

static size_t index_of(const struct cet_corpus *c, const struct cet_doc *d)
{
    for (size_t i = 0; i < c->ndocs; i++)
        if (c->docs[i] == d)
            return i;
    return 0;
}

static void test_corpus__canonical_charsets_and_skips(void)
{
    struct cet_corpus c;
    CHECK(load(&c, DATA "/canon") == 0);
    CHECK_EQ_INT(c.npkgs, 1);
    CHECK_STR(c.pkgs[0].name, "pages");
    CHECK_EQ_INT(c.ndocs, 4);
    CHECK_EQ_INT(c.nskips, 3);
    const char *r;
    CHECK((r = find_skip(&c, "binary-garbage")) && strstr(r, "binary"));
    CHECK((r = find_skip(&c, "no-gold")) && strstr(r, "no gold"));
    CHECK((r = find_skip(&c, "zero-bytes")) && strstr(r, "empty page"));

    const struct cet_doc *d = find_doc(&c, "cp1252-nometa");
    CHECK(d && !strcmp(d->charset, "windows-1252"));
    CHECK(d && has_word(d, "caf\xc3\xa9") && has_word(d, "na\xc3\xafve") && has_word(d, "quoted"));
    CHECK(d && alltext_f1(&c, index_of(&c, d)) == 1.0);

    d = find_doc(&c, "latin1-declared");
    CHECK(d && !strcmp(d->charset, "windows-1252"));
    CHECK(d && has_word(d, "gr\xc3\xbcsse") && has_word(d, "m\xc3\xbcnchen"));
    CHECK(d && alltext_f1(&c, index_of(&c, d)) == 1.0);

    d = find_doc(&c, "utf8-bom");
    CHECK(d && !strcmp(d->charset, "utf-8 (bom)"));
    CHECK(d && has_word(d, "perch\xc3\xa8") && has_word(d, "citt\xc3\xa0"));
    CHECK(d && alltext_f1(&c, index_of(&c, d)) == 1.0);

    d = find_doc(&c, "empty-gold");
    CHECK(d && d->has_gold && d->ngold == 0 && d->nwords == 2);
    CHECK(d && alltext_f1(&c, index_of(&c, d)) == 0.0); /* exactly one side empty */
    cet_corpus_free(&c);
}

static void test_corpus__cleaneval_gold_decoding(void)
{
    struct cet_corpus c;
    CHECK(load(&c, DATA "/cleaneval") == 0);
    CHECK_EQ_INT(c.ndocs, 2);
    CHECK_EQ_INT(c.nskips, 0);
    CHECK_STR(c.pkgs[0].name, "cleaneval");
    const struct cet_doc *d = find_doc(&c, "1");
    CHECK(d != NULL);
    if (d) {
        /* URL line, markers and comment gone; entities decoded. */
        const char *want[] = {"rock", "roll", "it", "s", "a", "long", "way", "\xc3\xa9t\xc3\xa9"};
        CHECK_EQ_INT(d->ngold, 8);
        for (uint32_t i = 0; i < d->ngold && i < 8; i++)
            CHECK_STR(cet_word_str(d, cet_gold_word(d, i)), want[i]);
        CHECK(!has_word(d, "url") && !has_word(d, "http") && !has_word(d, "example"));
    }
    d = find_doc(&c, "2");
    CHECK(d && d->ngold == 0); /* "<!-- this page contains no article -->" */
    cet_corpus_free(&c);

    char text[] = "URL: http://x\n<p>A &lt;b&gt; &#8217;n&#x27; &bogus; &amp\n  <l> item <!-- c --> end";
    size_t n = cet_gold_cleanup(text, strlen(text));
    CHECK_STR(text, "\nA <b> \xe2\x80\x99n' &bogus; &amp\n\n item   end");
    CHECK_EQ_INT(n, strlen(text));
}

static void test_corpus__article_json_gzip(void)
{
    struct cet_corpus c;
    CHECK(load(&c, DATA "/article") == 0);
    CHECK_EQ_INT(c.ndocs, 2);
    CHECK_EQ_INT(c.nskips, 2);
    const struct cet_doc *d = find_doc(&c, "abc123");
    CHECK(d && has_word(d, "gzipped") && d->ngold == 4);
    CHECK(d && alltext_f1(&c, index_of(&c, d)) == 1.0);
    const char *r;
    CHECK((r = find_skip(&c, "zzz999")) && strstr(r, "cannot read page"));
    CHECK((r = find_skip(&c, "nobody")) && strstr(r, "no gold"));
    cet_corpus_free(&c);
}

static void test_corpus__several_dirs_and_samples(void)
{
    struct cet_entries e;
    struct cet_error err;
    const char *dup[] = {DATA "/canon", DATA "/canon"};
    CHECK(cet_corpus_scan(&e, dup, 2, &err) == -1);
    CHECK(strstr(err.msg, "package 'pages'") != NULL);

    const char *dirs[] = {DATA "/canon", DATA "/cleaneval", DATA "/article"};
    CHECK(cet_corpus_scan(&e, dirs, 3, &err) == 0);
    CHECK_EQ_INT(e.n, 7 + 2 + 4);

    char tmpl[] = "/tmp/cetune-sample-XXXXXX";
    int fd = mkstemp(tmpl);
    CHECK(fd >= 0);
    const char *sample = "# two documents\npages/utf8-bom\n\narticle/abc123\r\n";
    CHECK(write(fd, sample, strlen(sample)) == (ssize_t)strlen(sample));
    close(fd);
    char **names;
    size_t n;
    uint8_t want[16];
    CHECK(cet_sample_read(&names, &n, tmpl, &err) == 0);
    CHECK_EQ_INT(n, 2);
    CHECK(cet_sample_select(want, &e, names, n, tmpl, &err) == 0);
    struct cet_corpus c;
    CHECK(cet_corpus_load(&c, &e, want, 0, 1, &err) == 0);
    CHECK_EQ_INT(c.ndocs, 2);
    CHECK_EQ_INT(c.npkgs, 2);
    cet_corpus_free(&c);
    cet_sample_free(names, n);

    FILE *f = fopen(tmpl, "w");
    fputs("pages/utf8-bom\nnot-a-line\n", f);
    fclose(f);
    CHECK(cet_sample_read(&names, &n, tmpl, &err) == -1);
    CHECK(strstr(err.msg, ":2:1:") != NULL);
    f = fopen(tmpl, "w");
    fputs("pages/missing-doc\n", f);
    fclose(f);
    CHECK(cet_sample_read(&names, &n, tmpl, &err) == 0);
    CHECK(cet_sample_select(want, &e, names, n, tmpl, &err) == -1);
    CHECK(strstr(err.msg, "pages/missing-doc") != NULL);
    cet_sample_free(names, n);
    unlink(tmpl);
    cet_entries_free(&e);
}

static int write_file(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(s, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

/* Every document's scores of extractor name at its defaults under metric. */
static int scores(const struct cet_corpus *c, const char *name, enum cet_metric metric,
                  struct cet_score *s, struct cet_error *err)
{
    struct cet_evaluator *ev;
    const struct cet_extractor *ex = cet_extractor_find(name);
    double p[64];
    cet_params_default(ex, p);
    if (cet_evaluator_new(&ev, c, ex, metric, 1, err))
        return -1;
    int rc = cet_evaluate(ev, p, 1, NULL, 0, s, NULL, NULL, NULL, err);
    cet_evaluator_free(ev);
    return rc;
}

static void test_corpus__texts_only_when_asked(void)
{
    /* The decoded gold and the page's text stay only when asked for (the
     * character metrics, some extractors); the word metric scores the same
     * without them, and an evaluator that needs them refuses a corpus
     * loaded without them rather than score an empty text. */
    const char *dirs[] = {DATA "/canon", DATA "/cleaneval", DATA "/article"};
    struct cet_entries e;
    struct cet_error err;
    struct cet_corpus lean, full;
    CHECK(cet_corpus_scan(&e, dirs, 3, &err) == 0);
    CHECK(cet_corpus_load(&lean, &e, NULL, 0, 2, &err) == 0);
    CHECK(cet_corpus_load(&full, &e, NULL, CET_LOAD_GOLD_TEXT | CET_LOAD_TEXT, 2, &err) == 0);
    CHECK(lean.ndocs == full.ndocs && lean.ndocs >= 8);
    size_t with_text = 0;
    for (size_t i = 0; i < lean.ndocs && i < full.ndocs; i++) {
        CHECK(lean.docs[i]->gold_text == NULL && lean.docs[i]->gold_text_len == 0);
        CHECK(lean.docs[i]->text == NULL && lean.docs[i]->text_len == 0);
        CHECK(full.docs[i]->gold_text != NULL && full.docs[i]->text != NULL);
        CHECK(lean.docs[i]->nwords == full.docs[i]->nwords);
        with_text += full.docs[i]->gold_text_len > 0;
        CHECK(lean.docs[i]->ngold == full.docs[i]->ngold);
    }
    CHECK(with_text >= 6);
    struct cet_score a[32], b[32];
    CHECK(lean.ndocs <= 32);
    CHECK(scores(&lean, "lqf", CET_METRIC_WORD, a, &err) == 0);
    CHECK(scores(&full, "lqf", CET_METRIC_WORD, b, &err) == 0);
    for (size_t i = 0; i < lean.ndocs; i++)
        CHECK(a[i].n_extract == b[i].n_extract && a[i].n_gold == b[i].n_gold &&
              a[i].overlap == b[i].overlap && a[i].f1 == b[i].f1);
    CHECK(scores(&full, "lqf", CET_METRIC_CHARS, b, &err) == 0);
    CHECK(scores(&lean, "lqf", CET_METRIC_CHARS, a, &err) == -1);
    CHECK(strstr(err.msg, "gold text") && strstr(err.msg, lean.docs[0]->name));
    CHECK(scores(&lean, "lqf", CET_METRIC_LCSTRING, a, &err) == -1);
    /* Crunch counts letters in the text: it needs the text, and has it when asked. */
    CHECK(scores(&full, "crunch", CET_METRIC_WORD, b, &err) == 0);
    CHECK(scores(&lean, "crunch", CET_METRIC_WORD, a, &err) == -1);
    CHECK(strstr(err.msg, "crunch needs the page's text") && strstr(err.msg, "CET_LOAD_TEXT"));
    struct cet_sel sel = {0};
    struct cet_buf out = {0};
    CHECK(cet_sel_reset(&sel, lean.docs[0]) == 0 && cet_extract_text(lean.docs[0], &sel, &out) == -1);
    CHECK(cet_sel_reset(&sel, full.docs[0]) == 0 && cet_extract_text(full.docs[0], &sel, &out) == 0);
    cet_buf_free(&out);
    cet_sel_free(&sel);
    cet_corpus_free(&lean);
    cet_corpus_free(&full);
    cet_entries_free(&e);
}

static void test_corpus__extremes(void)
{
    char dir[] = "/tmp/cetune-extremes-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char pkg[512], path[600];
    snprintf(pkg, sizeof pkg, "%s/x", dir);
    mkdir(pkg, 0755);

    /* Elements nested 10,000 deep. */
    struct cet_buf b = {0};
    cet_buf_puts(&b, "<html><body>");
    for (int i = 0; i < 10000; i++)
        cet_buf_puts(&b, "<div>");
    cet_buf_puts(&b, "deep text");
    for (int i = 0; i < 10000; i++)
        cet_buf_puts(&b, "</div>");
    cet_buf_puts(&b, "<p>after</p></body></html>");
    snprintf(path, sizeof path, "%s/deep.html", pkg);
    CHECK(write_file(path, b.p, b.len) == 0);
    snprintf(path, sizeof path, "%s/deep.txt", pkg);
    CHECK(write_file(path, "deep text after", 15) == 0);

    /* A 10 MB page. */
    b.len = 0;
    cet_buf_puts(&b, "<html><body>");
    size_t paras = 0;
    while (b.len < 10u << 20) {
        cet_buf_puts(&b, "<div class=\"c\"><p>Lorem ipsum dolor sit amet, consectetur "
                         "adipiscing elit &amp; more words here.</p></div>\n");
        paras++;
    }
    cet_buf_puts(&b, "</body></html>");
    snprintf(path, sizeof path, "%s/big.html", pkg);
    CHECK(write_file(path, b.p, b.len) == 0);
    snprintf(path, sizeof path, "%s/big.txt", pkg);
    CHECK(write_file(path, "Lorem ipsum dolor sit amet", 26) == 0);

    struct cet_corpus c;
    CHECK(load(&c, dir) == 0);
    CHECK_EQ_INT(c.ndocs, 2);
    const struct cet_doc *d = find_doc(&c, "deep");
    CHECK(d != NULL);
    if (d) {
        uint32_t maxdepth = 0, *depth = calloc(d->nnodes, sizeof *depth);
        for (uint32_t i = 0; depth && i < d->nnodes; i++) {
            uint32_t p = d->nodes[i].parent;
            depth[i] = p == CET_NONE ? 0 : depth[p] + 1;
            maxdepth = depth[i] > maxdepth ? depth[i] : maxdepth;
        }
        CHECK(maxdepth >= 10000);
        if (depth)
            CHECK_EQ_INT(cet_node_depth(d, d->nnodes - 1), depth[d->nnodes - 1]);
        free(depth);
        CHECK_EQ_INT(d->nwords, 3);
        CHECK(alltext_f1(&c, index_of(&c, d)) == 1.0);
    }
    d = find_doc(&c, "big");
    CHECK(d && d->nwords == paras * 11); /* nothing truncated; '&' is no word */
    cet_corpus_free(&c);
    cet_buf_free(&b);

    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* A gold file of binary data (5 KB of pseudo-random bytes, NULs among them)
 * is skipped with its reason and counted, as a binary page is: scored, its
 * bytes read as windows-1252 matched a word here and there.  A gold in
 * UTF-16 (NUL bytes between the letters) is not text either. */
static void test_corpus__binary_gold_skipped(void)
{
    char dir[] = "/tmp/cetune-binary-gold-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char pkg[512], path[600];
    snprintf(pkg, sizeof pkg, "%s/p", dir);
    mkdir(pkg, 0755);
    static const char page[] = "<html><body><p>Some words of a page about the weather, "
                               "and more of them.</p></body></html>";
    const char *names[] = {"text", "random", "utf16"};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s.html", pkg, names[k]);
        CHECK(write_file(path, page, sizeof page - 1) == 0);
    }
    snprintf(path, sizeof path, "%s/text.txt", pkg);
    CHECK(write_file(path, "Some words of a page", 20) == 0);
    char junk[5000];
    uint32_t x = 12345, nul = 0;
    for (size_t i = 0; i < sizeof junk; i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (char)(x >> 24);
        nul += junk[i] == 0;
    }
    CHECK(nul > 0);
    snprintf(path, sizeof path, "%s/random.txt", pkg);
    CHECK(write_file(path, junk, sizeof junk) == 0);
    static const char utf16[] = "S\0o\0m\0e\0 \0w\0o\0r\0d\0s\0";
    snprintf(path, sizeof path, "%s/utf16.txt", pkg);
    CHECK(write_file(path, utf16, sizeof utf16 - 1) == 0);

    struct cet_corpus c;
    CHECK(load(&c, dir) == 0);
    CHECK_EQ_INT(c.ndocs, 1);
    CHECK(find_doc(&c, "text") != NULL);
    CHECK_EQ_INT(c.nskips, 2);
    const char *r;
    CHECK((r = find_skip(&c, "random")) && strstr(r, "gold standard: binary data, not text"));
    CHECK((r = find_skip(&c, "utf16")) && strstr(r, "gold standard: binary data, not text"));
    cet_corpus_free(&c);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* Names that would not read back plain are quoted and read back exactly;
 * plain ones are written as before, and old files still read. */
static void test_corpus__sample_names_read_back(void)
{
    static const char *const names[][2] = {
        {"#stadt", "a"}, {"news", "two\nlines"}, {"news", " lead"}, {"news", "trail "},
        {"\"q", "x"}, {"news", "back\\slash"}, {"news", "tab\there"}, {"news", "bell\a"},
        {"news", "plain-1"}, {"news", "caf\xc3\xa9 #1"}};
    size_t k = sizeof names / sizeof *names;
    struct cet_buf b = {0};
    for (size_t i = 0; i < k; i++)
        CHECK(cet_sample_line(&b, names[i][0], names[i][1]) == 0);
    CHECK(strstr(b.p, "\nnews/plain-1\nnews/caf\xc3\xa9 #1\n") != NULL); /* plain stays plain */
    CHECK(strstr(b.p, "\"#stadt/a\"\n\"news/two\\nlines\"\n") == b.p);
    char **got;
    size_t n;
    struct cet_error err;
    CHECK(cet_sample_parse(&got, &n, b.p, b.len, "s.txt", &err) == 0);
    CHECK_EQ_INT(n, k);
    for (size_t i = 0; i < k && i < n; i++) {
        char want[64];
        snprintf(want, sizeof want, "%s/%s", names[i][0], names[i][1]);
        CHECK_STR(got[i], want);
    }
    cet_sample_free(got, n);
    /* Malformed quoting is an error with the line. */
    char bad[] = "news/a\n\"news/b\\q\"\n";
    CHECK(cet_sample_parse(&got, &n, bad, sizeof bad - 1, "s.txt", &err) == -1);
    CHECK(strstr(err.msg, "s.txt:2:1: a quoted name") != NULL);
    char open_quote[] = "\"news/b\n";
    CHECK(cet_sample_parse(&got, &n, open_quote, sizeof open_quote - 1, "s.txt", &err) == -1);
    cet_buf_free(&b);
}

int main(void)
{
    RUN(test_corpus__canonical_charsets_and_skips);
    RUN(test_corpus__cleaneval_gold_decoding);
    RUN(test_corpus__article_json_gzip);
    RUN(test_corpus__several_dirs_and_samples);
    RUN(test_corpus__texts_only_when_asked);
    RUN(test_corpus__extremes);
    RUN(test_corpus__binary_gold_skipped);
    RUN(test_corpus__sample_names_read_back);
    TEST_END();
}
