/* The HTTP side of cetune label (include/cetune/label.h): the endpoints
 * on the server of `serve`, JSON in and out; the pages and their gold are
 * label_pages.c's. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "label_pages.h"

static const char *const json_type = "application/json";

static void answer(struct cet_http_reply *r, unsigned status, const char *type, char *body)
{
    r->status = body ? status : 500;
    r->type = body ? type : "text/plain; charset=utf-8";
    r->body = body ? body : strdup("out of memory\n");
    r->len = r->body ? strlen(r->body) : 0;
}

/* {"error": "message"}, also in the log line. */
static void fail(struct cet_http_reply *r, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct cet_http_reply *r, unsigned status, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->note, sizeof r->note, "error=\"%.180s\"", msg);
    cJSON *o = cJSON_CreateObject();
    char *body = o && cJSON_AddStringToObject(o, "error", msg) ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    answer(r, status, json_type, body);
}

/* Answers o (taken), or 500 when building it ran out of memory (ok 0). */
static void reply_json(struct cet_http_reply *r, cJSON *o, int ok)
{
    char *body = o && ok ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    answer(r, 200, json_type, body);
}

/* The page named by ?id=, or -1 after answering 400 or 404. */
static long page_arg(struct cet_label *l, const struct cet_http_req *q, struct cet_http_reply *r)
{
    const char *id = cet_http_arg(q, "id");
    if (!id) {
        fail(r, 400, "%s needs ?id=PACKAGE/NAME", q->path);
        return -1;
    }
    long i = label_find(l, id);
    if (i < 0)
        fail(r, 404, "no page '%.200s' in %s", id, l->corpus);
    return i;
}

static void pages(struct cet_label *l, struct cet_http_reply *r)
{
    static const char *const layouts[] = {"canonical", "cleaneval", "article-json"};
    cJSON *o = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(o, "pages");
    pthread_mutex_lock(&l->lock);
    int ok = o && list && cJSON_AddStringToObject(o, "corpus", l->corpus) &&
             cJSON_AddStringToObject(o, "layout", layouts[l->layout]) &&
             cJSON_AddStringToObject(o, "config", l->cfg->label) &&
             cJSON_AddStringToObject(o, "gold", l->out ? l->out : l->corpus) &&
             cJSON_AddNumberToObject(o, "labelled", (double)l->nlabelled);
    for (size_t i = 0; ok && i < l->e.n; i++) {
        cJSON *p = cJSON_CreateObject();
        char id[PATH_MAX];
        snprintf(id, sizeof id, "%s/%s", l->e.v[i].package, l->e.v[i].name);
        ok = p && cJSON_AddItemToArray(list, p) && cJSON_AddStringToObject(p, "id", id) &&
             cJSON_AddBoolToObject(p, "labelled", l->labelled[i]);
    }
    pthread_mutex_unlock(&l->lock);
    reply_json(r, o, ok);
}

static void page(struct cet_label *l, const struct cet_http_req *q, struct cet_http_reply *r)
{
    long i = page_arg(l, q, r);
    if (i < 0)
        return;
    uint32_t *keep;
    size_t n;
    const char *source = "config";
    char path[PATH_MAX];
    struct cet_error err;
    int rc = label_selection(l, (size_t)i, &keep, &n, &source, &err);
    if (rc == 0)
        rc = label_gold_path(l, (size_t)i, path, sizeof path, &err);
    if (rc) {
        free(keep);
        fail(r, (unsigned)rc, "%s", err.msg);
        return;
    }
    cJSON *o = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(o, "keep");
    pthread_mutex_lock(&l->lock);
    int ok = o && list && cJSON_AddStringToObject(o, "id", cet_http_arg(q, "id")) &&
             cJSON_AddBoolToObject(o, "labelled", l->labelled[i]) &&
             cJSON_AddStringToObject(o, "source", source) &&
             cJSON_AddStringToObject(o, "file", path);
    pthread_mutex_unlock(&l->lock);
    for (size_t k = 0; ok && k < n; k++)
        ok = cJSON_AddItemToArray(list, cJSON_CreateNumber(keep[k]));
    free(keep);
    reply_json(r, o, ok);
}

/* The marked page: scripts are refused by the policy as well as left out,
 * and the labelling page shows it in a frame sandboxed without scripts. */
static void marked(struct cet_label *l, const struct cet_http_req *q, struct cet_http_reply *r)
{
    long i = page_arg(l, q, r);
    if (i < 0)
        return;
    struct cet_buf b = {0};
    struct cet_error err;
    int rc = label_marked(l, (size_t)i, &b, &err);
    if (rc) {
        cet_buf_free(&b);
        fail(r, (unsigned)rc, "%s", err.msg);
        return;
    }
    r->status = 200;
    r->type = "text/html; charset=utf-8";
    r->body = b.p;
    r->len = b.len;
    r->headers[0].name = "Content-Security-Policy";
    r->headers[0].value = "script-src 'none'; object-src 'none'; frame-src 'none'; "
                          "base-uri 'none'; form-action 'none'";
    r->headers[1].name = "X-Content-Type-Options";
    r->headers[1].value = "nosniff";
}

/* POST /api/save {"id": "PACKAGE/NAME", "keep": [node, ...]}. */
static void save(struct cet_label *l, const struct cet_http_req *q, struct cet_http_reply *r)
{
    /* JSON only: a form or a "simple" cross-origin POST from another site
     * open in the browser cannot send it without a preflight, which this
     * server does not answer, so no page elsewhere can write gold here. */
    const char *type = cet_http_header(q, "Content-Type");
    if (!type || strncasecmp(type, "application/json", 16)) {
        fail(r, 415, "POST /api/save takes Content-Type: application/json");
        return;
    }
    cJSON *in = cJSON_ParseWithLength(q->body, q->body_len);
    if (!in) {
        int line = 1, col = 1;
        const char *at = cJSON_GetErrorPtr();
        if (at && at >= q->body && at <= q->body + q->body_len)
            cet_line_col(q->body, (size_t)(at - q->body), &line, &col);
        cJSON_Delete(in);
        fail(r, 400, "the body:%d:%d: malformed JSON (expected {\"id\": \"PACKAGE/NAME\", "
                     "\"keep\": [node, ...]})", line, col);
        return;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(in, "id"),
                *keep = cJSON_GetObjectItemCaseSensitive(in, "keep");
    long i = cJSON_IsString(id) ? label_find(l, id->valuestring) : -2;
    uint32_t *nodes = NULL;
    size_t n = 0;
    if (i == -2 || !cJSON_IsArray(keep)) {
        fail(r, 400, "the body must be {\"id\": \"PACKAGE/NAME\", \"keep\": [node, ...]}");
    } else if (i < 0) {
        fail(r, 404, "no page '%.200s' in %s", id->valuestring, l->corpus);
    } else if (!(nodes = malloc(((size_t)cJSON_GetArraySize(keep) + 1) * sizeof *nodes))) {
        fail(r, 500, "out of memory");
    } else {
        const cJSON *v;
        int bad = 0;
        cJSON_ArrayForEach(v, keep) {
            double x = cJSON_IsNumber(v) ? v->valuedouble : -1;
            if (x < 0 || x > 4294967295.0 || x != (double)(uint32_t)x) {
                bad = 1;
                break;
            }
            nodes[n++] = (uint32_t)x;
        }
        struct label_saved *s = calloc(1, sizeof *s);
        struct cet_error err;
        int rc = bad  ? (cet_fail(&err, "keep: every element must be a node number"), 400)
                 : !s ? (cet_fail(&err, "out of memory"), 500)
                      : label_save(l, (size_t)i, nodes, n, s, &err);
        if (rc) {
            fail(r, (unsigned)rc, "%s", err.msg);
        } else {
            cJSON *o = cJSON_CreateObject();
            pthread_mutex_lock(&l->lock);
            size_t labelled = l->nlabelled;
            pthread_mutex_unlock(&l->lock);
            int ok = o && cJSON_AddStringToObject(o, "file", s->path) &&
                     cJSON_AddNumberToObject(o, "words", s->words) &&
                     cJSON_AddNumberToObject(o, "bytes", (double)s->bytes) &&
                     cJSON_AddNumberToObject(o, "labelled", (double)labelled) &&
                     cJSON_AddBoolToObject(o, "unchanged", s->unchanged) &&
                     (!s->backup[0] || cJSON_AddStringToObject(o, "previous", s->backup));
            /* The previous gold is PATH.~N~: its number is enough. */
            const char *num = s->backup[0] ? strrchr(s->backup, '~') : NULL;
            while (num && num > s->backup && num[-1] != '~')
                num--;
            if (snprintf(r->note, sizeof r->note, "%s=%.150s words=%u%s%.8s",
                         s->unchanged ? "unchanged" : "saved", s->path, (unsigned)s->words,
                         num ? " previous=~" : "", num ? num : "") >= (int)sizeof r->note)
                r->note[sizeof r->note - 1] = 0; /* a long path: the line is cut */
            reply_json(r, o, ok);
        }
        free(s);
    }
    free(nodes);
    cJSON_Delete(in);
}

/* The labelling page's own files: a fixed list, no path from the client. */
static void asset(struct cet_label *l, const char *name, const char *type,
                  struct cet_http_reply *r)
{
    char path[PATH_MAX];
    struct cet_buf b = {0};
    struct cet_error err;
    snprintf(path, sizeof path, "%s/%s", l->assets, name);
    if (cet_read_file(&b, path, (size_t)4 << 20, &err)) {
        fail(r, 500, "%s", err.msg);
        return;
    }
    r->status = 200;
    r->type = type;
    r->body = b.p ? b.p : strdup("");
    r->len = b.len;
    r->headers[0].name = "Cache-Control";
    r->headers[0].value = "no-cache";
}

/* Whether a request's Host may reach the labelling page.  A web page can
 * rebind its own domain name to 127.0.0.1 (DNS rebinding) and then read
 * the corpus and save gold as if it were this page; its requests still
 * name that domain in Host.  So only an IP literal, "localhost" or a name
 * under .localhost is served; a request without Host (HTTP/1.0, not a
 * browser) is too. */
static int host_allowed(const char *host)
{
    if (!host)
        return 1;
    size_t n = strlen(host);
    if (host[0] == '[') /* an IPv6 literal, with or without its port */
        return strchr(host, ']') != NULL;
    const char *colon = strchr(host, ':');
    if (colon)
        n = (size_t)(colon - host);
    if (n == 0)
        return 0;
    if (strspn(host, "0123456789.") >= n)
        return 1;
    static const char lh[] = "localhost", sub[] = ".localhost";
    return (n == sizeof lh - 1 && !strncasecmp(host, lh, n)) ||
           (n > sizeof sub - 1 && !strncasecmp(host + n - (sizeof sub - 1), sub, sizeof sub - 1));
}

void cet_label_handle(void *ctx, const struct cet_http_req *q, struct cet_http_reply *r)
{
    struct cet_label *l = ctx;
    const char *host = cet_http_header(q, "Host");
    if (!host_allowed(host)) {
        fail(r, 403, "Host '%.100s' refused: open the labelling page by its address, such as "
                     "http://127.0.0.1:PORT/ (a guard against DNS rebinding)", host);
        return;
    }
    static const struct {
        const char *path, *file, *type;
    } assets[] = {{"/", "index.html", "text/html; charset=utf-8"},
                  {"/label.js", "label.js", "text/javascript; charset=utf-8"},
                  {"/label.css", "label.css", "text/css; charset=utf-8"}};
    int get = !strcmp(q->method, "GET") || !strcmp(q->method, "HEAD");
    int post_path = !strcmp(q->path, "/api/save");
    if (post_path ? strcmp(q->method, "POST") != 0 : !get) {
        r->headers[0].name = "Allow";
        r->headers[0].value = post_path ? "POST" : "GET, HEAD";
        fail(r, 405, "%s takes %s", q->path, post_path ? "POST" : "GET");
        return;
    }
    if (post_path) {
        save(l, q, r);
        return;
    }
    for (size_t i = 0; i < sizeof assets / sizeof *assets; i++)
        if (!strcmp(q->path, assets[i].path)) {
            asset(l, assets[i].file, assets[i].type, r);
            return;
        }
    if (!strcmp(q->path, "/api/pages"))
        pages(l, r);
    else if (!strcmp(q->path, "/api/page"))
        page(l, q, r);
    else if (!strcmp(q->path, "/page"))
        marked(l, q, r);
    else
        fail(r, 404, "no such path %.200s: the labelling page is at /", q->path);
}
