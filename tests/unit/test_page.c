/* cet_page_extract: one page from bytes to text or HTML, with the charset
 * a transport declares, its failures and what it reports. */
#include "cetune/page.h"
#include "test.h"

static struct cet_page *pg;
static struct cet_buf out;

static int extract(const char *extractor, const char *html, size_t len,
                   const struct cet_page_opts *opts, struct cet_page_info *info,
                   struct cet_error *err)
{
    struct cet_config cfg = {0};
    if (cet_config_default(&cfg, extractor, err))
        return 99;
    int rc = cet_page_extract(pg, &cfg, html, len, opts, &out, info, err);
    cet_config_free(&cfg);
    return rc;
}

static void test_page__text_and_html(void)
{
    const char *html = "<html><body><ul><li><a href=\"/a\">Home</a></li></ul>"
                       "<p>First words here.</p><p>Second <b>para</b>.</p></body></html>";
    struct cet_error err;
    struct cet_page_info info;
    CHECK_EQ_INT(extract("alltext", html, strlen(html), NULL, &info, &err), 0);
    CHECK_STR(out.p, "Home\n\nFirst words here.\n\nSecond para.\n");
    CHECK(!strcmp(info.charset, "utf-8"));
    CHECK_EQ_INT(info.words, 6);
    CHECK_EQ_INT(info.page_words, 6);
    CHECK_EQ_INT(info.bytes, strlen(html));
    CHECK_EQ_INT(extract("lqf", html, strlen(html), NULL, &info, &err), 0);
    CHECK_STR(out.p, "First words here.\n\nSecond para.\n");
    CHECK_EQ_INT(info.words, 5);
    struct cet_page_opts o = {.format = CET_PAGE_HTML};
    CHECK_EQ_INT(extract("lqf", html, strlen(html), &o, NULL, &err), 0);
    CHECK(!strncmp(out.p, "<!DOCTYPE html>", 15) && strstr(out.p, "<p>First words here.</p>") &&
          !strstr(out.p, "Home"));
}

static void test_page__declared_charset(void)
{
    /* "Привет" in koi8-r; undeclared these bytes would be read as windows-1252. */
    const char html[] = "<p>\xf0\xd2\xc9\xd7\xc5\xd4 mir</p>";
    struct cet_error err;
    struct cet_page_info info;
    CHECK_EQ_INT(extract("alltext", html, strlen(html), NULL, &info, &err), 0);
    CHECK(!strcmp(info.charset, "windows-1252"));
    struct cet_page_opts o = {.charset = "KOI8-R"};
    CHECK_EQ_INT(extract("alltext", html, strlen(html), &o, &info, &err), 0);
    CHECK(!strcmp(out.p, "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 mir\n"));
    CHECK(!strcmp(info.charset, "koi8-r"));
    /* The declared charset beats <meta>, a BOM beats both. */
    const char meta[] = "<meta charset=utf-8><p>caf\xe9</p>";
    o.charset = "\"iso-8859-1\"";
    CHECK_EQ_INT(extract("alltext", meta, strlen(meta), &o, &info, &err), 0);
    CHECK(!strcmp(out.p, "caf\xc3\xa9\n") && !strcmp(info.charset, "windows-1252"));
    const char bom[] = "\xef\xbb\xbf<p>caf\xc3\xa9</p>";
    CHECK_EQ_INT(extract("alltext", bom, strlen(bom), &o, &info, &err), 0);
    CHECK(!strcmp(out.p, "caf\xc3\xa9\n") && !strcmp(info.charset, "utf-8 (bom)"));
    /* UTF-16 without a BOM is usable only when declared. */
    const char u16[] = "<\0p\0>\0h\0i\0<\0/\0p\0>\0";
    o.charset = "utf-16le";
    CHECK_EQ_INT(extract("alltext", u16, sizeof u16 - 1, &o, &info, &err), 0);
    CHECK(!strcmp(out.p, "hi\n"));
    o.charset = "no-such-charset";
    CHECK_EQ_INT(extract("alltext", meta, strlen(meta), &o, &info, &err), CET_ECHARSET);
    CHECK(strstr(err.msg, "unknown charset 'no-such-charset'") != NULL);
    CHECK(!strcmp(out.p, ""));
    CHECK(cet_charset_known("Shift_JIS") && cet_charset_known(" utf-8 ") &&
          !cet_charset_known("") && !cet_charset_known("x-nope"));
}

static void test_page__failures(void)
{
    struct cet_error err;
    CHECK_EQ_INT(extract("alltext", "", 0, NULL, NULL, &err), CET_EUNUSABLE);
    CHECK(strstr(err.msg, "empty") != NULL);
    const char bin[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0";
    CHECK_EQ_INT(extract("alltext", bin, sizeof bin - 1, NULL, NULL, &err), CET_EUNUSABLE);
    CHECK(strstr(err.msg, "binary") != NULL);
    /* A limit already passed when parsing ends. */
    struct cet_page_opts o = {.time_limit = 1e-12};
    const char *html = "<p>some text</p>";
    CHECK_EQ_INT(extract("accb", html, strlen(html), &o, NULL, &err), CET_ETIMEOUT);
    CHECK(strstr(err.msg, "time limit") != NULL);
    /* A 9 MB page stops early: after decoding, or at the first megabyte
     * parsed past the limit.  The context is still good after failures. */
    struct cet_buf big = {0};
    for (int i = 0; i < 200000; i++)
        cet_buf_puts(&big, "<div><p>some words in a paragraph</p></div>\n");
    o.time_limit = 1e-4;
    CHECK_EQ_INT(extract("alltext", big.p, big.len, &o, NULL, &err), CET_ETIMEOUT);
    CHECK(strstr(err.msg, "time limit of 0.0001 s exceeded") != NULL);
    cet_buf_free(&big);
    CHECK_EQ_INT(extract("alltext", html, strlen(html), NULL, NULL, &err), 0);
    CHECK(!strcmp(out.p, "some text\n"));
}

/* A NULL configuration is the shipped one: the test program is in
 * build/tests, so it is found as build/share/cetune/configs/article.json. */
static void test_page__shipped_configuration(void)
{
    struct cet_error err;
    struct cet_page *p2 = NULL;
    const char *html = "<div><a href=\"/\">Home</a></div><article><p>The article's text, "
                       "long enough to be kept as the main content of this page.</p></article>";
    char path[4096];
    CHECK(cet_config_shipped_path(path, sizeof path, "/nonexistent/article.json", &err) == -1);
    CHECK(strstr(err.msg, "/nonexistent/article.json: the file cannot be read") != NULL);
    CHECK(cet_config_shipped_path(path, sizeof path, NULL, &err) == 0);
    CHECK(strstr(path, "share/cetune/configs/article.json") != NULL);
    CHECK(cet_config_shipped_path(path, sizeof path, CETUNE_SOURCE_DIR "/configs/article.json",
                                  &err) == 0 &&
          !strcmp(path, CETUNE_SOURCE_DIR "/configs/article.json"));
    struct cet_config cfg;
    CHECK(cet_config_load(&cfg, path, &err) == 0 && !strcmp(cfg.ex->name, "score"));
    struct cet_buf want = {0};
    CHECK(cet_page_new(&p2, &err) == 0);
    CHECK_EQ_INT(cet_page_extract(p2, &cfg, html, strlen(html), NULL, &want, NULL, &err), 0);
    CHECK_EQ_INT(cet_page_extract(p2, NULL, html, strlen(html), NULL, &out, NULL, &err), 0);
    CHECK(want.len > 0 && !strcmp(out.p, want.p));
    cet_buf_free(&want);
    cet_config_free(&cfg);
    cet_page_free(p2);
}

int main(void)
{
    struct cet_error err;
    CHECK(cet_page_new(&pg, &err) == 0);
    if (!pg)
        TEST_END();
    RUN(test_page__text_and_html);
    RUN(test_page__declared_charset);
    RUN(test_page__failures);
    RUN(test_page__shipped_configuration);
    cet_page_free(pg);
    cet_buf_free(&out);
    TEST_END();
}
