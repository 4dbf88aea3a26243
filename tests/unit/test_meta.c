/* The metadata reader (cet_meta_read) and the JSON format of
 * cet_page_extract: fixtures tests/data/meta/NAME.html with the fields
 * expected in NAME.json, the page's URL as the base of a relative
 * canonical link, and the scrapinghub pages of ../shared/corpora (valid
 * JSON for every page, the canonical URL the benchmark recorded, title and
 * date found on nearly all), skipped with a message when absent. */

#include <cjson/cJSON.h>

#include "cetune/meta.h"
#include "cetune/page.h"
#include "test.h"

static struct cet_page *pg;
static struct cet_config alltext;
static struct cet_buf out;

/* The page's JSON, parsed; NULL (and a failed check) when it is not valid JSON. */
static cJSON *page_json(const char *html, size_t len, const char *url)
{
    struct cet_error err;
    struct cet_page_opts o = {.format = CET_PAGE_JSON, .url = url};
    struct cet_page_info info;
    int rc = cet_page_extract(pg, &alltext, html, len, &o, &out, &info, &err);
    CHECK_EQ_INT(rc, 0);
    if (rc)
        return NULL;
    /* One object on one line: JSON Lines for several pages. */
    CHECK(out.len && out.p[out.len - 1] == '\n' && !memchr(out.p, '\n', out.len - 1));
    cJSON *j = cJSON_ParseWithLength(out.p, out.len);
    CHECK(cJSON_IsObject(j));
    if (j) {
        const cJSON *words = cJSON_GetObjectItemCaseSensitive(j, "words");
        CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "text")));
        CHECK(cJSON_IsNumber(words) && words->valuedouble == info.words);
        CHECK(info.meta != NULL);
    }
    return j;
}

static void check_fixture(const char *dir, const char *name)
{
    char path[4200];
    struct cet_buf html = {0}, want = {0};
    struct cet_error err;
    snprintf(path, sizeof path, "%s/%s.html", dir, name);
    CHECK(cet_read_file(&html, path, 1 << 20, &err) == 0);
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    CHECK(cet_read_file(&want, path, 1 << 20, &err) == 0);
    cJSON *w = cJSON_Parse(want.p ? want.p : "");
    cJSON *got = page_json(html.p ? html.p : "", html.len, NULL);
    CHECK(w != NULL);
    for (int f = 0; f < CET_META_N && w && got; f++) {
        const char *key = cet_meta_key(f);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(w, key);
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(got, key);
        int same = cJSON_IsNull(e) ? cJSON_IsNull(g)
                   : cJSON_IsString(e) && cJSON_IsString(g) && !strcmp(e->valuestring, g->valuestring);
        if (!same)
            fprintf(stderr, "%s: %s is %s\n", name, key, cJSON_IsString(g) ? g->valuestring : "null");
        CHECK(same);
    }
    cJSON_Delete(w);
    cJSON_Delete(got);
    cet_buf_free(&html);
    cet_buf_free(&want);
}

static void test_meta__fixtures(void)
{
    const char *dir = CETUNE_TEST_DATA "/meta";
    char **names;
    int n = test_files(dir, ".html", &names);
    for (int i = 0; i < n; i++) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(strlen(names[i]) - 5), names[i]);
        check_fixture(dir, name);
    }
    test_files_free(names, n);
    CHECK(n >= 7);
}

/* The caller's URL is the JSON's url and the base of a relative canonical
 * link: root-relative, path-relative and protocol-relative. */
static void test_meta__url_base(void)
{
    static const struct {
        const char *href, *url, *canonical;
    } cases[] = {
        {"/news/storm", "https://a.example/x/y?q=1", "https://a.example/news/storm"},
        {"storm.html", "https://a.example/x/y?q=1", "https://a.example/x/storm.html"},
        {"storm.html", "http://a.example", "http://a.example/storm.html"},
        {"//b.example/z", "https://a.example/", "https://b.example/z"},
        {"https://c.example/", "https://a.example/", "https://c.example/"},
        {"/rel", NULL, "/rel"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char html[256];
        snprintf(html, sizeof html, "<link rel=canonical href='%s'><p>x</p>", cases[i].href);
        struct cet_meta m;
        struct cet_error err;
        CHECK(cet_meta_read(&m, html, strlen(html), NULL, cases[i].url, &err) == 0);
        CHECK(m.v[CET_META_CANONICAL] && !strcmp(m.v[CET_META_CANONICAL], cases[i].canonical));
        CHECK(m.v[CET_META_URL] &&
              !strcmp(m.v[CET_META_URL], cases[i].url ? cases[i].url : cases[i].canonical));
        cet_meta_free(&m);
    }
}

/* Dates in other forms are not dates; the page's charset is honoured. */
static void test_meta__dates_and_charset(void)
{
    static const struct {
        const char *content, *date;
    } cases[] = {
        {"2019-11-19T21:05:00.000Z", "2019-11-19"}, {"2019/1/9", NULL}, {"19 Nov 2019", NULL},
        {"2019-13-01", NULL}, {"  2001.02.03 ", "2001-02-03"}, {"20190101", NULL},
        {"2019-11-190", NULL}, {"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char html[256];
        snprintf(html, sizeof html, "<meta name=date content='%s'>", cases[i].content);
        struct cet_meta m;
        struct cet_error err;
        CHECK(cet_meta_read(&m, html, strlen(html), NULL, NULL, &err) == 0);
        const char *d = m.v[CET_META_DATE];
        CHECK(cases[i].date ? d && !strcmp(d, cases[i].date) : d == NULL);
        cet_meta_free(&m);
    }
    const char latin[] = "<meta charset=iso-8859-1><title>Caf\xe9 cr\xe8me</title>";
    struct cet_meta m;
    struct cet_error err;
    CHECK(cet_meta_read(&m, latin, sizeof latin - 1, NULL, NULL, &err) == 0);
    CHECK(m.v[CET_META_TITLE] && !strcmp(m.v[CET_META_TITLE], "Café crème"));
    cet_meta_free(&m);
}

/* The metadata cet_page_extract reads from the events of the model's parse
 * (the page is parsed once) equals what cet_meta_read reads alone. */
static void check_one_parse(const char *what, const char *html, size_t len, const char *charset,
                            const char *url)
{
    struct cet_page_opts o = {.format = CET_PAGE_TEXT, .metadata = 1, .charset = charset, .url = url};
    struct cet_page_info info;
    struct cet_meta alone;
    struct cet_error err;
    CHECK_EQ_INT(cet_page_extract(pg, &alltext, html, len, &o, &out, &info, &err), 0);
    CHECK(cet_meta_read(&alone, html, len, charset, url, &err) == 0);
    CHECK(info.meta != NULL);
    for (int f = 0; f < CET_META_N && info.meta; f++) {
        const char *a = info.meta->v[f], *b = alone.v[f];
        int same = a && b ? !strcmp(a, b) : a == b;
        if (!same)
            fprintf(stderr, "%s: %s is '%s' from the model's parse, '%s' alone\n", what,
                    cet_meta_key(f), a ? a : "(null)", b ? b : "(null)");
        CHECK(same);
    }
    cet_meta_free(&alone);
}

static void test_meta__one_parse(void)
{
    const char *dir = CETUNE_TEST_DATA "/meta";
    char **names, path[4200];
    int n = test_files(dir, ".html", &names);
    for (int i = 0; i < n; i++) {
        struct cet_buf html = {0};
        struct cet_error err;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        CHECK(cet_read_file(&html, path, 1 << 20, &err) == 0);
        check_one_parse(names[i], html.p ? html.p : "", html.len, NULL, "https://a.example/x/y");
        cet_buf_free(&html);
    }
    test_files_free(names, n);
    CHECK(n >= 7);
    /* Not UTF-8: by <meta charset>, and by the transport's charset. */
    static const char latin[] = "<meta charset=iso-8859-1><title>Caf\xe9 cr\xe8me | Le Site</title>"
                                "<p>Un caf\xe9.</p>";
    check_one_parse("latin-1", latin, sizeof latin - 1, NULL, NULL);
    check_one_parse("declared", latin, sizeof latin - 1, "koi8-r", NULL);
    static const char koi8[] = "<title>\xf0\xd2\xc9\xd7\xc5\xd4</title><p>x</p>";
    check_one_parse("koi8-r", koi8, sizeof koi8 - 1, "koi8-r", NULL);
    struct cet_page_opts o = {.format = CET_PAGE_JSON, .charset = "koi8-r"};
    struct cet_page_info info;
    struct cet_error err;
    CHECK_EQ_INT(cet_page_extract(pg, &alltext, koi8, sizeof koi8 - 1, &o, &out, &info, &err), 0);
    CHECK(info.meta && info.meta->v[CET_META_TITLE] &&
          !strcmp(info.meta->v[CET_META_TITLE], "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82"));
    /* What the parser is given is the same for both: a stray end tag before
     * the page, a NUL byte, JSON-LD after a script that writes markup. */
    static const char odd[] = "</div><html><head><title>Odd\0page</title>"
                              "<script>document.write('<title>No</title></scr' + 'ipt>');</script>"
                              "<script type=application/ld+json>{\"@type\":\"NewsArticle\","
                              "\"headline\":\"The headline\",\"author\":{\"name\":\"A. Writer\"}}"
                              "</script></head><body><h1>Heading</h1><p>Text.</p></body></html>";
    check_one_parse("odd", odd, sizeof odd - 1, NULL, NULL);
    o = (struct cet_page_opts){.format = CET_PAGE_JSON};
    CHECK_EQ_INT(cet_page_extract(pg, &alltext, odd, sizeof odd - 1, &o, &out, &info, &err), 0);
    CHECK(info.meta && info.meta->v[CET_META_TITLE] && info.meta->v[CET_META_AUTHOR] &&
          !strcmp(info.meta->v[CET_META_TITLE], "The headline") &&
          !strcmp(info.meta->v[CET_META_AUTHOR], "A. Writer"));
    /* A page without metadata after one with it keeps none of it. */
    static const char bare[] = "<p>Nothing about this page.</p>";
    check_one_parse("bare", bare, sizeof bare - 1, NULL, NULL);
    CHECK_EQ_INT(cet_page_extract(pg, &alltext, bare, sizeof bare - 1, &o, &out, &info, &err), 0);
    for (int f = 0; f < CET_META_N && info.meta; f++)
        CHECK(info.meta->v[f] == NULL);
}

/* Real pages: the scrapinghub benchmark's 181 articles. */
static void test_meta__scrapinghub(void)
{
    const char *root = test_corpora();
    if (!root) {
        fprintf(stderr, "skipping the real pages: %s not found (set CETUNE_CORPORA)\n",
                test_corpora_path());
        return;
    }
    char path[4200];
    struct cet_buf gt = {0}, html = {0};
    struct cet_error err;
    snprintf(path, sizeof path, "%s/scrapinghub/ground-truth.json", root);
    CHECK(cet_read_file(&gt, path, 64u << 20, &err) == 0);
    cJSON *all = cJSON_Parse(gt.p ? gt.p : "");
    CHECK(cJSON_IsObject(all));
    int pages = 0, title = 0, date = 0, author = 0, canonical = 0;
    for (const cJSON *e = all ? all->child : NULL; e; e = e->next) {
        snprintf(path, sizeof path, "%s/scrapinghub/html/%s.html.gz", root, e->string);
        if (cet_read_file(&html, path, 64u << 20, &err))
            continue;
        cJSON *j = page_json(html.p, html.len, NULL);
        if (!j)
            continue;
        pages++;
        const char *url = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "url"));
        const char *c = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "canonical"));
        title += cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "title"));
        date += cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "date"));
        author += cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "author"));
        if (url && c) {
            size_t a = strlen(url), b = strlen(c);
            a -= a && url[a - 1] == '/';
            b -= b && c[b - 1] == '/';
            canonical += a == b && !strncmp(url, c, a);
        }
        cJSON_Delete(j);
    }
    /* Measured when written: 181 pages, title 181, canonical = the
     * benchmark's URL 165, author 163, date 152. */
    fprintf(stderr, "scrapinghub: %d pages, title %d, canonical %d, author %d, date %d\n", pages,
            title, canonical, author, date);
    CHECK_EQ_INT(pages, 181);
    CHECK(title >= 178 && canonical >= 160 && author >= 155 && date >= 145);
    cJSON_Delete(all);
    cet_buf_free(&gt);
    cet_buf_free(&html);
}

int main(void)
{
    struct cet_error err;
    CHECK(cet_page_new(&pg, &err) == 0 && cet_config_default(&alltext, "alltext", &err) == 0);
    if (!pg)
        TEST_END();
    RUN(test_meta__fixtures);
    RUN(test_meta__url_base);
    RUN(test_meta__dates_and_charset);
    RUN(test_meta__one_parse);
    RUN(test_meta__scrapinghub);
    cet_page_free(pg);
    cet_config_free(&alltext);
    cet_buf_free(&out);
    TEST_END();
}
