/* The Markdown format is the text format marked up: without its link
 * targets and ordered-list numbers, its words are exactly the text's, on
 * the fixtures of tests/data/extract and on the pages of ../shared/corpora
 * (skipped with a message when absent), with the shipped extractor and
 * alltext.  The exact Markdown of two fixtures is checked by
 * test_extract_cases (alltext-markdown.expect, score-markdown.expect). */
#include "cetune/page.h"
#include "cetune/text.h"
#include "test.h"

struct words {
    struct cet_buf b; /* the words, each followed by a NUL */
};

static int add_word(const char *w, size_t n, void *ctx)
{
    struct words *s = ctx;
    return cet_buf_add(&s->b, w, n) || cet_buf_add(&s->b, "", 1);
}

/* The Markdown without what it adds that has words: "](target)" after a
 * link's text, "1. " at the start of an ordered list item. */
static void strip_markup(const char *md, size_t len, struct cet_buf *out)
{
    int line_start = 1;
    for (size_t i = 0; i < len; i++) {
        if (md[i] == ']' && i + 1 < len && md[i + 1] == '(' && (i == 0 || md[i - 1] != '\\')) {
            const char *close = memchr(md + i, ')', len - i);
            if (close) {
                i = (size_t)(close - md);
                continue;
            }
        }
        if (line_start) {
            size_t k = i;
            while (k < len && (md[k] == ' ' || md[k] == '>'))
                k++;
            if (k + 2 < len && md[k] == '1' && md[k + 1] == '.' && md[k + 2] == ' ')
                i = k + 2;
        }
        line_start = md[i] == '\n';
        cet_buf_add(out, md + i, 1);
    }
}

static int pages, differing;

static void compare(struct cet_page *pg, const struct cet_config *cfg, const char *html, size_t len,
                    const char *name)
{
    struct cet_buf text = {0}, md = {0}, bare = {0};
    struct words a = {{0}}, b = {{0}};
    struct cet_error err;
    struct cet_page_opts t = {.format = CET_PAGE_TEXT}, m = {.format = CET_PAGE_MARKDOWN};
    if (cet_page_extract(pg, cfg, html, len, &t, &text, NULL, &err) ||
        cet_page_extract(pg, cfg, html, len, &m, &md, NULL, &err))
        goto done; /* a page the model refuses: nothing to compare */
    pages++;
    strip_markup(md.p, md.len, &bare);
    CHECK(cet_words(text.p, text.len, add_word, &a) == 0);
    CHECK(cet_words(bare.p ? bare.p : "", bare.len, add_word, &b) == 0);
    if (a.b.len != b.b.len || (a.b.len && memcmp(a.b.p, b.b.p, a.b.len))) {
        differing++;
        fprintf(stderr, "%s (%s): the Markdown's words differ from the text's\n", name,
                cfg->ex->name);
    }
done:
    cet_buf_free(&text);
    cet_buf_free(&md);
    cet_buf_free(&bare);
    cet_buf_free(&a.b);
    cet_buf_free(&b.b);
}

/* What each page is rendered with. */
struct renderers {
    struct cet_page *pg;
    const struct cet_config *cfgs;
    int ncfg;
};

static void each_page(const char *path, const struct cet_buf *page, void *ctx)
{
    const struct renderers *r = ctx;
    for (int c = 0; c < r->ncfg; c++)
        compare(r->pg, &r->cfgs[c], page->p, page->len, path);
}

int main(void)
{
    struct cet_error err;
    struct cet_page *pg = NULL;
    struct cet_config cfgs[2];
    CHECK(cet_page_new(&pg, &err) == 0);
    CHECK(cet_config_default(&cfgs[0], "score", &err) == 0);
    CHECK(cet_config_default(&cfgs[1], "alltext", &err) == 0);
    if (!pg)
        TEST_END();
    struct renderers r = {pg, cfgs, 2};
    test_pages(CETUNE_TEST_DATA "/extract", 2, each_page, &r);
    CHECK(pages >= 20);
    fprintf(stderr, "fixtures: %d renderings, %d differing\n", pages, differing);
    const char *root = test_corpora();
    if (!root) {
        fprintf(stderr, "skipping the real pages: %s not found (set CETUNE_CORPORA)\n",
                test_corpora_path());
    } else {
        int before = pages;
        const char *corpora[] = {"portals", "cleaneval-dev/input", "big5", "scrapinghub/html"};
        for (int i = 0; i < 4; i++) {
            char dir[4200];
            snprintf(dir, sizeof dir, "%s/%s", root, corpora[i]);
            test_pages(dir, 2, each_page, &r);
        }
        fprintf(stderr, "real pages: %d renderings\n", pages - before);
        CHECK(pages - before >= 900);
    }
    CHECK_EQ_INT(differing, 0);
    cet_page_free(pg);
    cet_config_free(&cfgs[0]);
    cet_config_free(&cfgs[1]);
    TEST_END();
}
