/* Crunch's ad-server lists, and the parameter descriptions of crunch and
 * mantratzis against their extractors' tables. */
#include "cetune/adhosts.h"
#include "cetune/params.h"
#include "test.h"

static const char list_text[] =
    "# ad servers\n"
    "doubleclick.net\n"
    "\n"
    "  Ads.Example.COM   # trailing comment\n"
    "0.0.0.0 tracker.example.org\n"
    "*.wild.example\n"
    "doubleclick.net\n";

static void test_crunch__adhosts_parse(void)
{
    struct cet_adhosts *h = NULL;
    struct cet_error err;
    CHECK(cet_adhosts_parse(&h, list_text, sizeof list_text - 1, "list", &err) == 0);
    if (!h)
        return;
    CHECK_EQ_INT(cet_adhosts_count(h), 4); /* the duplicate counts once */
    cet_adhosts_free(h);
}

static void test_crunch__adhosts_match(void)
{
    struct cet_adhosts *h = NULL;
    struct cet_error err;
    CHECK(cet_adhosts_parse(&h, list_text, sizeof list_text - 1, "list", &err) == 0);
    if (!h)
        return;
    CHECK(cet_adhosts_match_url(h, "http://doubleclick.net/x"));
    CHECK(cet_adhosts_match_url(h, "https://ad.g.doubleclick.net/pagead?x=1"));
    CHECK(cet_adhosts_match_url(h, "//AD.DoubleClick.NET/"));
    CHECK(cet_adhosts_match_url(h, "http://user:pw@doubleclick.net:8080/x"));
    CHECK(cet_adhosts_match_url(h, "https://doubleclick.net./"));
    CHECK(cet_adhosts_match_url(h, "  https://ads.example.com"));
    CHECK(cet_adhosts_match_url(h, "http://tracker.example.org?q"));
    CHECK(cet_adhosts_match_url(h, "http://a.wild.example/"));
    CHECK(!cet_adhosts_match_url(h, "http://notdoubleclick.net/"));
    CHECK(!cet_adhosts_match_url(h, "http://doubleclick.net.example.com/"));
    CHECK(!cet_adhosts_match_url(h, "http://example.com/doubleclick.net"));
    CHECK(!cet_adhosts_match_url(h, "/doubleclick.net/ad.js"));
    CHECK(!cet_adhosts_match_url(h, "doubleclick.net/ad.js"));
    CHECK(!cet_adhosts_match_url(h, "mailto:ads@doubleclick.net"));
    CHECK(!cet_adhosts_match_url(h, "javascript:void(0)"));
    CHECK(!cet_adhosts_match_url(h, "http://example.com"));
    CHECK(!cet_adhosts_match_url(h, ""));
    cet_adhosts_free(h);
}

static void test_crunch__adhosts_errors(void)
{
    struct cet_adhosts *h = NULL;
    struct cet_error err;
    const char bad[] = "good.example\nthis is wrong\n";
    CHECK(cet_adhosts_parse(&h, bad, sizeof bad - 1, "my.txt", &err) == -1);
    CHECK(h == NULL);
    CHECK(strstr(err.msg, "my.txt:2:") == err.msg);
    const char badchar[] = "ok.example\n\nexa$mple.com\n";
    CHECK(cet_adhosts_parse(&h, badchar, sizeof badchar - 1, "my.txt", &err) == -1);
    CHECK(strstr(err.msg, "my.txt:3:") == err.msg);
    CHECK(cet_adhosts_load(&h, "/nonexistent/adhosts.txt", &err) == -1);
    CHECK(strstr(err.msg, "/nonexistent/adhosts.txt") != NULL);
    CHECK(cet_adhosts_parse(&h, "", 0, "empty", &err) == 0);
    if (h) {
        CHECK_EQ_INT(cet_adhosts_count(h), 0);
        CHECK(!cet_adhosts_match_url(h, "http://doubleclick.net/"));
        cet_adhosts_free(h);
    }
}

/* The compiled-in list is data/adhosts.txt, byte for byte in meaning. */
static void test_crunch__adhosts_builtin(void)
{
    struct cet_error err;
    const struct cet_adhosts *cur = cet_adhosts_current(&err);
    CHECK(cur != NULL);
    struct cet_adhosts *file = NULL;
    CHECK(cet_adhosts_load(&file, CETUNE_SOURCE_DIR "/data/adhosts.txt", &err) == 0);
    if (!cur || !file)
        return;
    CHECK(cet_adhosts_count(cur) > 50);
    CHECK_EQ_INT(cet_adhosts_count(cur), cet_adhosts_count(file));
    CHECK(cet_adhosts_match_url(cur, "https://securepubads.g.doubleclick.net/tag/js/gpt.js"));
    cet_adhosts_free(file);
}

/* params/NAME.json describes every parameter with the extractor's defaults. */
static void check_params_file(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/params/%s.json", CETUNE_SOURCE_DIR, name);
    struct cet_params_desc d;
    struct cet_error err;
    int rc = cet_params_load(&d, path, NULL, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    CHECK(rc == 0);
    if (rc)
        return;
    const struct cet_extractor *ex = cet_extractor_find(name);
    CHECK(ex != NULL && d.ex == ex);
    CHECK_EQ_INT(d.ngenes, ex->nparams);
    for (size_t g = 0; g < d.ngenes; g++) {
        CHECK_EQ_INT(d.genes[g].index, g);
        CHECK_NEAR(d.genes[g].def, ex->params[g].def, 0);
    }
    CHECK(d.nseeds >= 1);
    cet_params_free(&d);
}

static void test_crunch__params_files(void)
{
    check_params_file("crunch");
    check_params_file("mantratzis");
}

int main(void)
{
    RUN(test_crunch__adhosts_parse);
    RUN(test_crunch__adhosts_match);
    RUN(test_crunch__adhosts_errors);
    RUN(test_crunch__adhosts_builtin);
    RUN(test_crunch__params_files);
    TEST_END();
}
