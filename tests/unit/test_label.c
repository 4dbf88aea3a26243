/* cetune label's endpoints (include/cetune/label.h) on a real server on a
 * loopback port: what is refused (paths out of the corpus, bad bodies, gold
 * of another layout), and that a save writes exactly the selection's text,
 * atomically, never touching a page.  The browser side is
 * tests/browser/label.test.mjs. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cetune/label.h"
#include "cetune/serve.h"
#include "test.h"

static char dir[] = "/tmp/cetune-label-XXXXXX";

static void put(const char *name, const char *text)
{
    test_put(dir, name, text);
}

static char *slurp(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    struct cet_buf b = {0};
    struct cet_error err;
    return cet_read_file(&b, path, 1 << 20, &err) ? NULL : b.p;
}

static const char page[] =
    "<html><head><title>T</title><script>alert(1)</script></head><body>"
    "<h1>Harbour closed</h1><p onclick=\"x()\">Waves broke over the wall.</p>"
    "<div>Copyright</div></body></html>";

/* The Host header request() sends, or NULL for none. */
static const char *req_host;

/* One request over HTTP/1.0; the status, and the body into out. */
static int request(unsigned port, const char *method, const char *path, const char *body,
                   struct cet_buf *out)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct cet_buf q = {0};
    if (req_host)
        cet_buf_printf(&q, "%s %s HTTP/1.0\r\nHost: %s\r\n", method, path, req_host);
    else
        cet_buf_printf(&q, "%s %s HTTP/1.0\r\n", method, path);
    cet_buf_printf(&q, "Content-Type: %s\r\nContent-Length: %zu\r\n\r\n%s",
                   strcmp(path, "/api/save?as=text") ? "application/json" : "text/plain",
                   body ? strlen(body) : 0, body ? body : "");
    CHECK(write(fd, q.p, q.len) == (ssize_t)q.len);
    cet_buf_free(&q);
    struct cet_buf all = {0};
    char chunk[4096];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0)
        cet_buf_add(&all, chunk, (size_t)n);
    close(fd);
    int status = -1;
    if (all.p)
        sscanf(all.p, "HTTP/%*s %d", &status);
    const char *start = all.p ? strstr(all.p, "\r\n\r\n") : NULL;
    out->len = 0;
    cet_buf_puts(out, start ? start + 4 : "");
    cet_buf_free(&all);
    return status;
}

struct service {
    struct cet_label *l;
    struct cet_server *s;
    struct cet_config cfg;
};

static int start(struct service *sv, const char *corpus, const char *out, struct cet_error *err)
{
    memset(sv, 0, sizeof *sv);
    if (cet_config_default(&sv->cfg, "alltext", err))
        return -1;
    struct cet_label_opts o = {.corpus = corpus, .out = out, .cfg = &sv->cfg,
                               .assets = CETUNE_SOURCE_DIR "/share/label"};
    if (cet_label_new(&sv->l, &o, err)) {
        cet_config_free(&sv->cfg);
        return -1;
    }
    struct cet_server_opts so = {.listen = "127.0.0.1:0", .threads = 1, .max_body = 4096,
                                 .idle_timeout = 30, .handler = cet_label_handle,
                                 .handler_ctx = sv->l};
    if (cet_server_start(&sv->s, NULL, "test", &so, err)) {
        cet_label_free(sv->l);
        cet_config_free(&sv->cfg);
        return -1;
    }
    return 0;
}

static void stop(struct service *sv)
{
    cet_server_stop(sv->s, 5);
    cet_label_free(sv->l);
    cet_config_free(&sv->cfg);
}

static void test_label__pages_and_refusals(void)
{
    struct service sv;
    struct cet_error err;
    char corpus[512];
    snprintf(corpus, sizeof corpus, "%s/c", dir);
    if (start(&sv, corpus, NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    unsigned port = cet_server_port(sv.s);
    struct cet_buf b = {0};
    CHECK_EQ_INT(request(port, "GET", "/api/pages", NULL, &b), 200);
    CHECK(strstr(b.p, "\"id\":\"news/a\"") && strstr(b.p, "\"labelled\":0"));
    CHECK_EQ_INT(request(port, "GET", "/", NULL, &b), 200);
    CHECK(strstr(b.p, "label.js") != NULL);
    /* Pages are named, never opened by a path from the client. */
    CHECK_EQ_INT(request(port, "GET", "/api/page?id=../../etc/passwd", NULL, &b), 404);
    CHECK(strstr(b.p, "no page") != NULL);
    CHECK_EQ_INT(request(port, "GET", "/page?id=news/../news/a", NULL, &b), 404);
    CHECK_EQ_INT(request(port, "GET", "/../../etc/passwd", NULL, &b), 404);
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"../a\", \"keep\": []}", &b), 404);
    CHECK_EQ_INT(request(port, "GET", "/api/save", NULL, &b), 405);
    CHECK_EQ_INT(request(port, "DELETE", "/api/pages", NULL, &b), 405);
    /* DNS rebinding: a page of another name resolved to loopback is refused;
     * the loopback addresses and localhost are served. */
    static const struct {
        const char *host;
        int status;
    } hosts[] = {{"evil.example:8080", 403}, {"evil.example", 403}, {"localhost.evil.example", 403},
                 {"127.0.0.1:8080", 200}, {"localhost:8080", 200}, {"LOCALHOST", 200},
                 {"app.localhost", 200}, {"[::1]:8080", 200}, {"10.0.0.7", 200}};
    for (size_t i = 0; i < sizeof hosts / sizeof *hosts; i++) {
        req_host = hosts[i].host;
        CHECK_EQ_INT(request(port, "GET", "/api/pages", NULL, &b), hosts[i].status);
        req_host = NULL;
    }
    req_host = "evil.example";
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"news/a\", \"keep\": []}", &b), 403);
    CHECK(strstr(b.p, "DNS rebinding") != NULL);
    req_host = NULL;
    /* JSON only: what a form of another site could send is refused. */
    CHECK_EQ_INT(request(port, "POST", "/api/save?as=text", "{\"id\": \"news/a\", \"keep\": []}", &b), 415);
    CHECK(strstr(b.p, "application/json") != NULL);
    /* Bad bodies: 400 with the reason. */
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"news/a\",\n \"keep\": [1,", &b), 400);
    CHECK(strstr(b.p, "the body:2:") && strstr(b.p, "malformed JSON"));
    CHECK_EQ_INT(request(port, "POST", "/api/save", "[1, 2]", &b), 400);
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"news/a\", \"keep\": [-1]}", &b), 400);
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"news/a\", \"keep\": [0]}", &b), 400);
    CHECK(strstr(b.p, "0 is not a text node of news/a") != NULL);
    char big[5000];
    memset(big, ' ', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK_EQ_INT(request(port, "POST", "/api/save", big, &b), 413);
    /* The marked page: scripts and handlers left out, text nodes named. */
    CHECK_EQ_INT(request(port, "GET", "/page?id=news/a", NULL, &b), 200);
    CHECK(!strstr(b.p, "<script") && !strstr(b.p, "alert") && !strstr(b.p, "onclick"));
    CHECK(strstr(b.p, ">Harbour closed</span>") != NULL);
    /* A package that is a link out of the corpus is refused on save. */
    CHECK_EQ_INT(request(port, "GET", "/api/page?id=evil/b", NULL, &b), 200);
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"evil/b\", \"keep\": []}", &b), 403);
    CHECK(strstr(b.p, "outside") != NULL);
    char *outside = slurp("elsewhere/b.txt");
    CHECK(outside == NULL);
    free(outside);
    /* A gold file that is a link is refused too. */
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"news/linked\", \"keep\": []}", &b), 403);
    CHECK(strstr(b.p, "symbolic link") != NULL);
    cet_buf_free(&b);
    stop(&sv);
}

/* The node number of the text that begins with text on the marked page. */
static unsigned node_of(const char *marked, const char *text)
{
    const char *at = strstr(marked, text);
    while (at && at > marked && strncmp(at, "data-cet=\"", 10))
        at--;
    return at ? (unsigned)atoi(at + 10) : 0;
}

/* The text node numbers of "Harbour closed" and of the paragraph. */
static void nodes_of(unsigned port, unsigned *h1, unsigned *p)
{
    struct cet_buf b = {0};
    request(port, "GET", "/page?id=news/a", NULL, &b);
    *h1 = node_of(b.p, ">Harbour closed");
    *p = node_of(b.p, ">Waves broke");
    cet_buf_free(&b);
}

static void test_label__save_is_atomic_and_exact(void)
{
    struct service sv;
    struct cet_error err;
    char corpus[512], path[600], body[200];
    snprintf(corpus, sizeof corpus, "%s/c", dir);
    snprintf(path, sizeof path, "%s/c/news/a.txt", dir);
    put("c/news/a.txt", "old gold\n");
    struct stat before, after;
    CHECK(stat(path, &before) == 0);
    if (start(&sv, corpus, NULL, &err)) {
        CHECK(0);
        return;
    }
    unsigned port = cet_server_port(sv.s), h1, p;
    nodes_of(port, &h1, &p);
    CHECK(h1 > 0 && p > h1);
    struct cet_buf b = {0};
    snprintf(body, sizeof body, "{\"id\": \"news/a\", \"keep\": [%u, %u]}", h1, p);
    CHECK_EQ_INT(request(port, "POST", "/api/save", body, &b), 200);
    CHECK(strstr(b.p, "\"words\":7") && strstr(b.p, "\"labelled\":1"));
    char *gold = slurp("c/news/a.txt"), *html = slurp("c/news/a.html");
    CHECK_STR(gold, "Harbour closed\n\nWaves broke over the wall.\n");
    CHECK_STR(html, page);
    free(gold);
    free(html);
    /* Replaced by a rename: a new file, and no temporary one left. */
    CHECK(stat(path, &after) == 0 && after.st_ino != before.st_ino);
    char **names;
    char news[600];
    snprintf(news, sizeof news, "%s/c/news", dir);
    int n = test_files(news, "", &names), tmp = 0, files = 0;
    for (int i = 0; i < n; i++) {
        tmp += strstr(names[i], ".tmp") != NULL;
        files += names[i][0] != '.';
    }
    CHECK_EQ_INT(files, 5); /* a.html, a.txt, a.txt.~1~, linked.html, linked.txt */
    CHECK_EQ_INT(tmp, 0);
    test_files_free(names, n);
    /* The gold it replaced is kept beside it. */
    char *prev = slurp("c/news/a.txt.~1~");
    CHECK_STR(prev, "old gold\n");
    free(prev);
    /* Shown again from its gold, exactly. */
    CHECK_EQ_INT(request(port, "GET", "/api/page?id=news/a", NULL, &b), 200);
    char want[100];
    snprintf(want, sizeof want, "\"keep\":[%u,%u]", h1, p);
    CHECK(strstr(b.p, want) && strstr(b.p, "\"source\":\"gold\""));
    cet_buf_free(&b);
    stop(&sv);
    unlink(path);
    snprintf(path, sizeof path, "%s/c/news/a.txt.~1~", dir);
    unlink(path);
}

/* 1 when node is among the "keep" numbers of a GET /api/page answer. */
static int kept(const char *answer, unsigned node)
{
    const char *p = answer ? strstr(answer, "\"keep\":[") : NULL;
    if (!p)
        return 0;
    for (p += 8; *p && *p != ']';) {
        char *end;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p)
            break;
        if (x == node)
            return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* Gold made by hand (not a selection of the page's texts) is shown by the
 * word alignment the metric makes: the article's texts marked, and the
 * menu's "News", "Sport" and "Weather" not, although the gold has those
 * words (at its end, after the article).  Saved as shown, the file stays
 * byte for byte; saved changed, the previous gold is kept as NAME.txt.~N~. */
static void test_label__hand_made_gold(void)
{
    static const char gold[] =
        "Storm closes the harbour for two days\n\n"
        "The harbour master closed the port on Sunday after waves of more than six metres broke "
        "over the outer wall. Fishing boats stayed at their moorings and the ferry to the islands "
        "was cancelled.\n\n"
        "Forecasters expect the wind to ease on Tuesday. Until then the coast road stays shut "
        "between the lighthouse and the old customs house, the council said.\n\n"
        "Residents were asked to keep away from the sea front.\n\n"
        "More weather, news and sport at Coast News.\n";
    struct service sv;
    struct cet_error err;
    struct cet_buf html = {0}, b = {0}, marked = {0};
    char corpus[512], path[600], body[400];
    CHECK(cet_read_file(&html, CETUNE_TEST_DATA "/label/news/storm.html", 1 << 20, &err) == 0);
    snprintf(corpus, sizeof corpus, "%s/hand", dir);
    snprintf(path, sizeof path, "%s/hand/news", dir);
    CHECK(mkdir(corpus, 0755) == 0 && mkdir(path, 0755) == 0);
    put("hand/news/storm.html", html.p ? html.p : "");
    put("hand/news/storm.txt", gold);
    snprintf(path, sizeof path, "%s/hand/news/storm.txt", dir);
    struct stat before, after;
    CHECK(stat(path, &before) == 0);
    if (start(&sv, corpus, NULL, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    unsigned port = cet_server_port(sv.s);
    CHECK_EQ_INT(request(port, "GET", "/page?id=news/storm", NULL, &marked), 200);
    CHECK_EQ_INT(request(port, "GET", "/api/page?id=news/storm", NULL, &b), 200);
    CHECK(strstr(b.p, "\"source\":\"gold-approx\"") != NULL);
    const char *menu[] = {">Home</span>", ">News</span>", ">Sport</span>", ">Weather</span>",
                          ">Most read</span>"};
    for (size_t k = 0; k < sizeof menu / sizeof *menu; k++) {
        unsigned node = node_of(marked.p, menu[k]);
        CHECK(node > 0);
        if (kept(b.p, node))
            fprintf(stderr, "marked, not in the gold's alignment: %s\n", menu[k]);
        CHECK(!kept(b.p, node));
    }
    unsigned h1 = node_of(marked.p, ">Storm closes the harbour for"), p1 = node_of(marked.p, ">The harbour master"),
             p3 = node_of(marked.p, ">Residents were");
    CHECK(h1 && kept(b.p, h1) && kept(b.p, p1) && kept(b.p, p3));
    /* Saved as shown (Enter on an unchanged page): the file is untouched. */
    const char *k0 = strstr(b.p, "\"keep\":"), *k1 = k0 ? strchr(k0, ']') : NULL;
    CHECK(k0 && k1);
    snprintf(body, sizeof body, "{\"id\": \"news/storm\", %.*s}", k0 && k1 ? (int)(k1 - k0 + 1) : 0,
             k0 ? k0 : "");
    CHECK_EQ_INT(request(port, "POST", "/api/save", body, &b), 200);
    CHECK(strstr(b.p, "\"unchanged\":true") != NULL);
    char *now = slurp("hand/news/storm.txt"), *prev = slurp("hand/news/storm.txt.~1~");
    CHECK_STR(now, gold);
    CHECK(prev == NULL);
    CHECK(stat(path, &after) == 0 && after.st_ino == before.st_ino &&
          after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    free(now);
    free(prev);
    /* Changed: the selection's text replaces it, the hand-made gold is kept;
     * changed again, that one is kept too, under the next number. */
    snprintf(body, sizeof body, "{\"id\": \"news/storm\", \"keep\": [%u, %u]}", h1, p1);
    CHECK_EQ_INT(request(port, "POST", "/api/save", body, &b), 200);
    CHECK(strstr(b.p, "\"unchanged\":false") && strstr(b.p, "storm.txt.~1~"));
    snprintf(body, sizeof body, "{\"id\": \"news/storm\", \"keep\": [%u]}", h1);
    CHECK_EQ_INT(request(port, "POST", "/api/save", body, &b), 200);
    now = slurp("hand/news/storm.txt");
    prev = slurp("hand/news/storm.txt.~1~");
    char *prev2 = slurp("hand/news/storm.txt.~2~");
    CHECK_STR(now, "Storm closes the harbour for two days\n");
    CHECK_STR(prev, gold);
    CHECK(prev2 && !strncmp(prev2, "Storm closes the harbour for two days\n\nThe harbour master", 57));
    free(now);
    free(prev);
    free(prev2);
    /* Label's own gold reads back exactly, and saving it unchanged writes nothing. */
    CHECK_EQ_INT(request(port, "GET", "/api/page?id=news/storm", NULL, &b), 200);
    CHECK(strstr(b.p, "\"source\":\"gold\"") != NULL);
    snprintf(body, sizeof body, "{\"id\": \"news/storm\", \"keep\": [%u]}", h1);
    CHECK_EQ_INT(request(port, "POST", "/api/save", body, &b), 200);
    CHECK(strstr(b.p, "\"unchanged\":true") != NULL);
    char *prev3 = slurp("hand/news/storm.txt.~3~");
    CHECK(prev3 == NULL);
    free(prev3);
    cet_buf_free(&b);
    cet_buf_free(&marked);
    cet_buf_free(&html);
    stop(&sv);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", corpus);
    CHECK(system(cmd) == 0);
}

static void test_label__other_layouts_need_out(void)
{
    struct service sv;
    struct cet_error err;
    char ce[512], out[512], path[600];
    snprintf(ce, sizeof ce, "%s/ce", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    CHECK(start(&sv, ce, NULL, &err) == -1);
    CHECK(strstr(err.msg, "CleanEval corpus") && strstr(err.msg, "--out DIR"));
    /* An output corpus of another layout is refused as well. */
    CHECK(start(&sv, ce, ce, &err) == -1);
    CHECK(strstr(err.msg, "--out") && strstr(err.msg, "is a CleanEval corpus"));
    if (start(&sv, ce, out, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    struct cet_buf b = {0};
    unsigned port = cet_server_port(sv.s);
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"ce/1\", \"keep\": []}", &b), 200);
    char *gold = slurp("out/ce/1.txt"), *copy = slurp("out/ce/1.html");
    CHECK_STR(gold, "");
    /* The copy is what a load reads: the <text> wrapper line is gone. */
    CHECK_STR(copy, page);
    free(gold);
    free(copy);
    /* Another page already of that name in the output corpus is kept. */
    put("out/ce/1.html", "<p>another page</p>");
    CHECK_EQ_INT(request(port, "POST", "/api/save", "{\"id\": \"ce/1\", \"keep\": []}", &b), 403);
    CHECK(strstr(b.p, "never replaces a page") != NULL);
    cet_buf_free(&b);
    stop(&sv);
    const char *files[] = {"out/ce/1.txt", "out/ce/1.html"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/out/ce", dir);
    rmdir(path);
    rmdir(out);
}

int main(void)
{
    char why[256];
    if (!cet_server_library(why, sizeof why)) {
        printf("skipping: libmicrohttpd cannot be opened: %s\n", why);
        return 77;
    }
    CHECK(mkdtemp(dir) != NULL);
    const char *dirs[] = {"c", "c/news", "elsewhere", "ce", "ce/input", "ce/GoldStandard"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        CHECK(mkdir(path, 0755) == 0);
    }
    put("c/news/a.html", page);
    put("c/news/linked.html", page);
    put("elsewhere/b.html", page);
    put("ce/GoldStandard/1.txt", "<p>Waves");
    char text[sizeof page + 40];
    snprintf(text, sizeof text, "<text id=\"1\">\n%s", page);
    put("ce/input/1.html", text);
    char link[512], target[512];
    snprintf(link, sizeof link, "%s/c/evil", dir);
    snprintf(target, sizeof target, "%s/elsewhere", dir);
    CHECK(symlink(target, link) == 0);
    snprintf(link, sizeof link, "%s/c/news/linked.txt", dir);
    snprintf(target, sizeof target, "%s/elsewhere/linked.txt", dir);
    CHECK(symlink(target, link) == 0);
    RUN(test_label__pages_and_refusals);
    RUN(test_label__save_is_atomic_and_exact);
    RUN(test_label__other_layouts_need_out);
    RUN(test_label__hand_made_gold);
    const char *files[] = {"c/news/a.html", "c/news/linked.html", "c/news/linked.txt", "c/evil",
                           "elsewhere/b.html", "ce/GoldStandard/1.txt", "ce/input/1.html"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    for (size_t i = sizeof dirs / sizeof *dirs; i-- > 0;) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        rmdir(path);
    }
    rmdir(dir);
    TEST_END();
}
