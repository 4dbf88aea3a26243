/* Routes files: parsing with positioned errors, URL hosts, most specific wins. */
#include <unistd.h>

#include "cetune/routes.h"
#include "test.h"

static char dir[] = "/tmp/cetune-routes.XXXXXX";

static void put(const char *name, const char *text)
{
    test_put(dir, name, text);
}

/* Loads text as routes.json; returns the routes or NULL with err. */
static struct cet_routes *load(const char *text, struct cet_error *err)
{
    put("routes.json", text);
    char path[256];
    snprintf(path, sizeof path, "%s/routes.json", dir);
    struct cet_routes *r = NULL;
    cet_routes_load(&r, path, err);
    return r;
}

static const char *pick(const struct cet_routes *r, const char *url)
{
    const char *pattern = NULL;
    static struct cet_error err;
    const struct cet_config *c = cet_routes_pick(r, url, &pattern, &err);
    return c ? c->ex->name : err.msg;
}

static void test_routes__most_specific_wins(void)
{
    struct cet_error err;
    struct cet_routes *r = load("{\"routes\": [\n"
                                "  {\"host\": \"*.example.com\", \"config\": \"lqf.json\"},\n"
                                "  {\"host\": \"news.Example.com.\", \"config\": \"accb.json\"},\n"
                                "  {\"host\": \"example.org\", \"config\": \"lqf.json\"}],\n"
                                " \"default\": \"alltext.json\"}\n",
                                &err);
    CHECK(r != NULL);
    if (!r) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    CHECK(!strcmp(pick(r, "http://example.com/a"), "lqf"));
    CHECK(!strcmp(pick(r, "https://www.EXAMPLE.com:8443/a?b#c"), "lqf"));
    CHECK(!strcmp(pick(r, "http://news.example.com/x"), "accb"));
    CHECK(!strcmp(pick(r, "http://user:pw@a.b.news.example.com./x"), "accb"));
    CHECK(!strcmp(pick(r, "//example.org"), "lqf"));
    CHECK(!strcmp(pick(r, "http://notexample.com/"), "alltext"));
    CHECK(!strcmp(pick(r, "http://com/"), "alltext"));
    CHECK(!strcmp(pick(r, "http://[::1]:80/"), "alltext"));
    CHECK(!strcmp(pick(r, NULL), "alltext"));
    const char *pattern;
    cet_routes_pick(r, "http://a.news.example.com/", &pattern, &err);
    CHECK(!strcmp(pattern, "news.example.com"));
    cet_routes_pick(r, "http://elsewhere.net/", &pattern, &err);
    CHECK(!strcmp(pattern, "default"));
    /* Two routes share lqf.json: loaded once. */
    CHECK_EQ_INT(cet_routes_nconfigs(r), 3);
    CHECK_EQ_INT(cet_routes_count(r), 3);
    CHECK_EQ_INT(cet_routes_default(r), 2);
    size_t ci;
    CHECK(!strcmp(cet_routes_route(r, 1, &ci), "news.example.com") && ci == 1);
    const char *path;
    cet_routes_config(r, 1, &path);
    CHECK(strstr(path, "/accb.json") != NULL);
    /* Malformed URLs are refused, never routed to the default. */
    const char *bad[] = {"example.com/x", "http://", "http:///x", "http://a..b/", "http://a b/",
                         "http://[::1/", "http://x.com:80a/", "1http://x.com/", "http://x.com:123456/"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *got = pick(r, bad[i]);
        if (!strstr(got, "malformed URL"))
            fprintf(stderr, "%s: %s\n", bad[i], got);
        CHECK(strstr(got, "malformed URL") != NULL);
    }
    cet_routes_free(r);
    /* Without a default an unrouted host is an error. */
    r = load("{\"routes\": [{\"host\": \"a.com\", \"config\": \"lqf.json\"}]}", &err);
    CHECK(r && strstr(pick(r, "http://b.com/"), "no route for host 'b.com'"));
    CHECK(r && strstr(pick(r, NULL), "no URL given"));
    cet_routes_free(r);
}

static void test_routes__errors_have_positions(void)
{
    struct cet_error err;
    struct {
        const char *text, *want;
    } cases[] = {
        {"[1]", "routes.json:1:1: a routes file must be a JSON object"},
        {"{\"routes\": []}", "routes.json:1:1: no routes and no \"default\""},
        {"{\"routes\": {}}", "routes.json:1:12: \"routes\" must be an array"},
        {"{\"default\": \"lqf.json\",\n \"extra\": 1}", "routes.json:2:2: unknown member \"extra\""},
        {"{\"routes\": [\n 7]}", "routes.json:2:2: a route must be an object"},
        {"{\"routes\": [{\"host\": 1, \"config\": \"lqf.json\"}]}", "routes.json:1:22: \"host\" must be"},
        {"{\"routes\": [{\"host\": \"a b.com\", \"config\": \"lqf.json\"}]}",
         "routes.json:1:22: host pattern \"a b.com\" has a character"},
        {"{\"routes\": [{\"host\": \"*.\", \"config\": \"lqf.json\"}]}", "routes.json:1:22: host pattern \"*.\" has an empty host"},
        {"{\"routes\": [{\"host\": \"a.com\"}]}", "routes.json:1:13: a route needs \"config\""},
        {"{\"routes\": [{\"host\": \"a.com\", \"config\": \"lqf.json\", \"x\": 1}]}",
         "routes.json:1:53: unknown member \"x\" in a route"},
        {"{\"routes\": [{\"host\": \"a.com\", \"config\": \"lqf.json\"},\n"
         "            {\"host\": \"*.A.com\", \"config\": \"lqf.json\"}]}",
         "routes.json:2:22: host pattern \"*.A.com\" is routed twice"},
        {"{\"default\": \"missing.json\"}", "routes.json:1:13: "},
        {"{\"default\": \"bad.json\"}", "bad.json:1:15: unknown extractor 'nope'"},
        {"{\"routes\": [", "routes.json:1:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct cet_routes *r = load(cases[i].text, &err);
        CHECK(r == NULL);
        int ok = !r && strstr(err.msg, cases[i].want);
        if (!ok)
            fprintf(stderr, "case %zu: got '%s', want '%s'\n", i, r ? "success" : err.msg, cases[i].want);
        CHECK(ok);
        cet_routes_free(r);
    }
    /* A configuration's own error keeps its position, after the route's. */
    struct cet_routes *r = load("{\"routes\": [{\"host\": \"a.com\",\n \"config\": \"bad.json\"}]}", &err);
    CHECK(!r && strstr(err.msg, "routes.json:2:12: ") && strstr(err.msg, "bad.json:1:15:"));
}

static void test_routes__single(void)
{
    struct cet_error err;
    struct cet_config cfg;
    CHECK(cet_config_default(&cfg, "accb", &err) == 0);
    struct cet_routes *r;
    CHECK(cet_routes_single(&r, &cfg, "accb", &err) == 0);
    CHECK(cfg.params == NULL);
    CHECK(!strcmp(pick(r, "http://anything.example/"), "accb"));
    CHECK(!strcmp(pick(r, NULL), "accb"));
    CHECK(strstr(pick(r, "not a url"), "malformed URL") != NULL);
    CHECK_EQ_INT(cet_routes_count(r), 0);
    CHECK_EQ_INT(cet_routes_nconfigs(r), 1);
    cet_routes_free(r);
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL);
    put("lqf.json", "{\"extractor\": \"lqf\", \"params\": {\"t\": 0.3}, \"fitness\": 0.8, \"docs\": 10}\n");
    put("accb.json", "{\"extractor\": \"accb\", \"params\": {}}\n");
    put("alltext.json", "{\"extractor\": \"alltext\"}\n");
    put("bad.json", "{\"extractor\": \"nope\"}\n");
    RUN(test_routes__most_specific_wins);
    RUN(test_routes__errors_have_positions);
    RUN(test_routes__single);
    const char *files[] = {"lqf.json", "accb.json", "alltext.json", "bad.json", "routes.json"};
    for (size_t i = 0; i < 5; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
    TEST_END();
}
