/* The HTTP extraction service (include/cetune/serve.h) on libmicrohttpd: a
 * pool of threads, each with its own epoll loop on the shared listening
 * socket and its own cet_page context; every page goes through
 * cet_page_extract with the configuration its URL's host routes to. */
#define _GNU_SOURCE /* accept4 */
#include "cetune/serve.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <microhttpd.h>

#include "cetune/clock.h"
#include "cetune/buf.h"
#include "cetune/page.h"

/* libmicrohttpd is opened when a server starts, not linked: with GnuTLS and
 * the rest it pulls in, it made 2.5 MB of every cetune process resident,
 * which only `cetune serve` uses (docs/distributed.md, "Memory per page"). */
#define MHD_FUNCTIONS(X)                                                                  \
    X(start_daemon) X(stop_daemon) X(quiesce_daemon) X(add_connection)                    \
    X(create_response_from_buffer) X(add_response_header) X(queue_response)               \
    X(destroy_response) X(lookup_connection_value) X(get_connection_info) X(get_version)   \
    X(get_connection_values)
#define MHD_POINTER(f) __typeof__(MHD_##f) *f;
static struct {
    MHD_FUNCTIONS(MHD_POINTER)
} mhd;
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;
static char mhd_error[256];

static void mhd_open(void)
{
    void *h = dlopen(CETUNE_MHD_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(mhd_error, sizeof mhd_error, "%s", dlerror());
        return;
    }
#define MHD_LOAD(f)                                                                       \
    if (!(*(void **)&mhd.f = dlsym(h, "MHD_" #f))) {                                      \
        snprintf(mhd_error, sizeof mhd_error, "%s: no MHD_%s", CETUNE_MHD_LIB, #f);       \
        return;                                                                           \
    }
    MHD_FUNCTIONS(MHD_LOAD)
}

const char *cet_server_library(char *why, size_t size)
{
    pthread_once(&mhd_once, mhd_open);
    if (mhd_error[0]) {
        snprintf(why, size, "%s", mhd_error);
        return NULL;
    }
    return mhd.get_version();
}

/* Routes in use, counted: each request holds the table it started with, so
 * a reload never frees routes under a running extraction. */
struct table {
    struct cet_routes *routes;
    char *source;
    unsigned refs; /* requests using it, plus one while it is current */
};

struct cet_server {
    struct MHD_Daemon *d;
    int fd;
    unsigned port;
    struct cet_server_opts o;
    pthread_mutex_t lock; /* guards current and every table's refs */
    struct table *current;
    atomic_uint in_flight; /* requests begun and not yet completed */
    atomic_int draining;
    pthread_key_t page_key; /* each worker thread's struct cet_page */
    /* libmicrohttpd's messages, at most MHD_LOG_BURST a minute (mhd_logger) */
    pthread_mutex_t mhd_lock;
    time_t mhd_window;
    unsigned long mhd_count;
};

enum { MHD_LOG_BURST = 10, MHD_LOG_WINDOW = 60 };

enum endpoint { EP_NONE, EP_EXTRACT, EP_HEALTH, EP_CONFIGS };

/* One request, from its headers to its log line. */
struct req {
    double t0;
    char method[12];
    char path[160];
    struct cet_buf body;
    size_t received; /* body bytes, kept or not */
    int too_large;
    unsigned status;
    size_t out_bytes;
    char note[700]; /* the log line's tail: route and words, or why it failed */
};

/* One log line.  Paths and URLs come percent-decoded from clients: control
 * characters become '?', so that a request can never forge a line. */
static void say(struct cet_server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct cet_server *s, const char *fmt, ...)
{
    if (!s->o.log)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    s->o.log(s->o.log_ctx, line);
}

/* libmicrohttpd's own messages, in the log's format (a timestamp first) and
 * rate-limited: thousands of half-open connections each make one, and the
 * log must stay readable.  The first MHD_LOG_BURST of a minute are logged,
 * the rest counted in one line when the next minute's first comes. */
static void mhd_logger(void *cls, const char *fmt, va_list ap)
{
    struct cet_server *s = cls;
    if (!s->o.log)
        return;
    char msg[512], when[32];
    vsnprintf(msg, sizeof msg, fmt, ap);
    msg[strcspn(msg, "\r\n")] = 0;
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    pthread_mutex_lock(&s->mhd_lock);
    unsigned long dropped = 0;
    if (t - s->mhd_window >= MHD_LOG_WINDOW) {
        dropped = s->mhd_count > MHD_LOG_BURST ? s->mhd_count - MHD_LOG_BURST : 0;
        s->mhd_window = t;
        s->mhd_count = 0;
    }
    int show = ++s->mhd_count <= MHD_LOG_BURST;
    pthread_mutex_unlock(&s->mhd_lock);
    if (dropped)
        say(s, "%s libmicrohttpd: %lu more message%s not logged (at most %d a minute)", when,
            dropped, dropped == 1 ? "" : "s", MHD_LOG_BURST);
    if (show)
        say(s, "%s libmicrohttpd: %s", when, msg);
}

static struct table *table_new(struct cet_routes *routes, const char *source)
{
    struct table *t = calloc(1, sizeof *t);
    if (t && !(t->source = strdup(source))) {
        free(t);
        t = NULL;
    }
    if (!t) {
        cet_routes_free(routes);
        return NULL;
    }
    t->routes = routes;
    t->refs = 1;
    return t;
}

static void table_unref(struct cet_server *s, struct table *t)
{
    pthread_mutex_lock(&s->lock);
    int last = --t->refs == 0;
    pthread_mutex_unlock(&s->lock);
    if (last) {
        cet_routes_free(t->routes);
        free(t->source);
        free(t);
    }
}

static struct table *table_get(struct cet_server *s)
{
    pthread_mutex_lock(&s->lock);
    struct table *t = s->current;
    t->refs++;
    pthread_mutex_unlock(&s->lock);
    return t;
}

void cet_server_set_routes(struct cet_server *s, struct cet_routes *routes, const char *source)
{
    struct table *t = table_new(routes, source);
    if (!t) {
        say(s, "out of memory: the routes stay as they were");
        return;
    }
    pthread_mutex_lock(&s->lock);
    struct table *old = s->current;
    s->current = t;
    pthread_mutex_unlock(&s->lock);
    table_unref(s, old);
}

/* Answers with body[0..len) (malloc'd, handed to libmicrohttpd). */
static enum MHD_Result respond(struct cet_server *s, struct MHD_Connection *c, struct req *q,
                               unsigned status, const char *type, char *body, size_t len,
                               const char *allow)
{
    struct MHD_Response *r = mhd.create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (allow)
        mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    if (atomic_load(&s->draining)) /* shutting down: no next request on this connection */
        mhd.add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    q->status = status;
    q->out_bytes = len;
    enum MHD_Result ret = mhd.queue_response(c, status, r);
    mhd.destroy_response(r);
    return ret;
}

static int wants_json(struct MHD_Connection *c)
{
    const char *a = mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    return a && strstr(a, "application/json");
}

/* An error answer: "message\n", or {"error": "message"} for JSON clients. */
static enum MHD_Result fail(struct cet_server *s, struct MHD_Connection *c, struct req *q,
                            unsigned status, const char *allow, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static enum MHD_Result fail(struct cet_server *s, struct MHD_Connection *c, struct req *q,
                            unsigned status, const char *allow, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(q->note, sizeof q->note, "error=\"%s\"", msg);
    char *body = NULL;
    const char *type = "text/plain; charset=utf-8";
    if (wants_json(c)) {
        cJSON *o = cJSON_CreateObject();
        if (o && cJSON_AddStringToObject(o, "error", msg))
            body = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
        type = "application/json";
    } else {
        struct cet_buf b = {0};
        if (cet_buf_printf(&b, "%s\n", msg) == 0)
            body = b.p;
    }
    if (!body)
        return MHD_NO;
    return respond(s, c, q, status, type, body, strlen(body), allow);
}

/* The charset parameter of a Content-Type value into cs, or NULL. */
static const char *content_charset(const char *type, char *cs, size_t size)
{
    for (const char *p = type; p && (p = strchr(p, ';')); ) {
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, "charset=", 8))
            continue;
        p += 8;
        size_t n = strcspn(p, ";");
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        snprintf(cs, size, "%.*s", (int)n, p);
        return cs;
    }
    return NULL;
}

static struct cet_page *thread_page(struct cet_server *s)
{
    struct cet_page *pg = pthread_getspecific(s->page_key);
    if (!pg && cet_page_new(&pg, NULL) == 0 && pthread_setspecific(s->page_key, pg)) {
        cet_page_free(pg);
        pg = NULL;
    }
    return pg;
}

/* The first query parameter /extract does not know (a typo would
 * otherwise be ignored silently), into cls: a char[64]. */
static enum MHD_Result unknown_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    char *first = cls;
    (void)kind;
    (void)value;
    if (!key || !strcmp(key, "url") || !strcmp(key, "format"))
        return MHD_YES;
    snprintf(first, 64, "%s", key);
    return MHD_NO; /* one is enough */
}

static enum MHD_Result extract(struct cet_server *s, struct MHD_Connection *c, struct req *q)
{
    if (q->too_large)
        return fail(s, c, q, MHD_HTTP_CONTENT_TOO_LARGE, NULL,
                    "the page is larger than the limit of %zu bytes", s->o.max_body);
    char unknown[64] = "";
    mhd.get_connection_values(c, MHD_GET_ARGUMENT_KIND, unknown_arg, unknown);
    if (unknown[0])
        return fail(s, c, q, MHD_HTTP_BAD_REQUEST, NULL,
                    "unknown query parameter '%s' (/extract takes url and format)", unknown);
    const char *url = mhd.lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "url");
    if (!url)
        url = mhd.lookup_connection_value(c, MHD_HEADER_KIND, "X-Url");
    const char *format = mhd.lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "format");
    int render = format ? cet_page_format_find(format) : CET_PAGE_TEXT;
    if (render < 0)
        return fail(s, c, q, MHD_HTTP_BAD_REQUEST, NULL,
                    "format must be text, html, markdown or json, not '%.40s'", format);
    /* ?format=json and Accept: application/json answer one JSON object: the
     * metadata, the text in the format asked for (text with json), and how
     * it was extracted. */
    int json = render == CET_PAGE_JSON || wants_json(c);
    if (render == CET_PAGE_JSON)
        render = CET_PAGE_TEXT;
    int html = render == CET_PAGE_HTML;
    if (q->body.len == 0)
        return fail(s, c, q, MHD_HTTP_BAD_REQUEST, NULL, "empty body: POST the page as the request body");
    char host[256], cs[64];
    struct cet_error err;
    if (url && cet_url_host(url, host, sizeof host, &err))
        return fail(s, c, q, MHD_HTTP_BAD_REQUEST, NULL, "%s", err.msg);
    struct table *t = table_get(s);
    const char *pattern = NULL;
    const struct cet_config *cfg = cet_routes_pick(t->routes, url, &pattern, &err);
    if (!cfg) {
        table_unref(s, t);
        return fail(s, c, q, url ? MHD_HTTP_UNPROCESSABLE_CONTENT : MHD_HTTP_BAD_REQUEST, NULL,
                    "%s%s", err.msg, url ? "" : " (send the page's URL as X-Url or ?url=)");
    }
    struct cet_page *pg = thread_page(s);
    struct cet_page_opts opts = {
        .format = (enum cet_page_format)render, .url = url, .metadata = json,
        .charset = content_charset(mhd.lookup_connection_value(c, MHD_HEADER_KIND,
                                                               MHD_HTTP_HEADER_CONTENT_TYPE),
                                   cs, sizeof cs),
        .time_limit = s->o.time_limit};
    struct cet_buf out = {0};
    struct cet_page_info info;
    double t0 = cet_now();
    int rc = pg ? cet_page_extract(pg, cfg, q->body.p, q->body.len, &opts, &out, &info, &err)
                : cet_fail(&err, "out of memory");
    double ms = (cet_now() - t0) * 1e3;
    /* The request body is not needed any more: free it before answering. */
    cet_buf_free(&q->body);
    enum MHD_Result ret;
    if (rc) {
        cet_buf_free(&out);
        unsigned status = rc == CET_ECHARSET    ? MHD_HTTP_UNSUPPORTED_MEDIA_TYPE
                          : rc == CET_EUNUSABLE ? MHD_HTTP_UNPROCESSABLE_CONTENT
                          : rc == CET_ETIMEOUT  ? MHD_HTTP_SERVICE_UNAVAILABLE
                                                    : MHD_HTTP_INTERNAL_SERVER_ERROR;
        ret = fail(s, c, q, status, NULL, "%s", err.msg);
    } else if (json) {
        cJSON *o = cJSON_CreateObject();
        char *body = NULL;
        int ok = o != NULL;
        for (int f = 0; f < CET_META_N && ok; f++) {
            const char *v = info.meta ? info.meta->v[f] : NULL;
            ok = (v ? cJSON_AddStringToObject(o, cet_meta_key(f), v)
                    : cJSON_AddNullToObject(o, cet_meta_key(f))) != NULL;
        }
        if (ok && cJSON_AddStringToObject(o, "text", out.p) &&
            cJSON_AddStringToObject(o, "format", cet_page_format_name(render)) &&
            cJSON_AddStringToObject(o, "config", cfg->label) &&
            cJSON_AddStringToObject(o, "extractor", cfg->ex->name) &&
            cJSON_AddStringToObject(o, "route", pattern) &&
            (!url || cJSON_AddStringToObject(o, "host", host)) &&
            cJSON_AddStringToObject(o, "charset", info.charset) &&
            cJSON_AddNumberToObject(o, "words", info.words) &&
            cJSON_AddNumberToObject(o, "page_words", info.page_words) &&
            cJSON_AddNumberToObject(o, "bytes", (double)info.bytes) &&
            cJSON_AddNumberToObject(o, "ms", ms))
            body = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
        cet_buf_free(&out);
        ret = body ? respond(s, c, q, MHD_HTTP_OK, "application/json", body, strlen(body), NULL)
                   : fail(s, c, q, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL, "out of memory");
    } else {
        ret = respond(s, c, q, MHD_HTTP_OK,
                      html ? "text/html; charset=utf-8"
                      : render == CET_PAGE_MARKDOWN ? "text/markdown; charset=utf-8"
                                                    : "text/plain; charset=utf-8", out.p,
                      out.len, NULL);
    }
    if (rc == 0)
        snprintf(q->note, sizeof q->note, "host=%s route=%s config=%s words=%u charset=%s",
                 url ? host : "-", pattern, cfg->label, info.words, info.charset);
    table_unref(s, t);
    return ret;
}

/* GET /configs: every configuration with its file, values, fitness and hosts. */
static enum MHD_Result configs(struct cet_server *s, struct MHD_Connection *c, struct req *q)
{
    struct table *t = table_get(s);
    const struct cet_routes *r = t->routes;
    cJSON *root = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(root, "configs");
    int ok = root && list && cJSON_AddStringToObject(root, "source", t->source);
    for (size_t i = 0; ok && i < cet_routes_nconfigs(r); i++) {
        const char *path;
        const struct cet_config *cfg = cet_routes_config(r, i, &path);
        struct cet_buf b = {0};
        cJSON *o = cJSON_CreateObject(), *hosts = cJSON_AddArrayToObject(o, "hosts");
        ok = o && hosts && cJSON_AddItemToArray(list, o) && cJSON_AddStringToObject(o, "file", path) &&
             cJSON_AddStringToObject(o, "extractor", cfg->ex->name) &&
             cet_config_json(&b, cfg->ex, cfg->params, NULL, 0, -1) == 0;
        cJSON *values = ok ? cJSON_Parse(b.p) : NULL;
        cet_buf_free(&b);
        ok = ok && values && cJSON_AddItemToObject(o, "config", values);
        ok = ok && (cfg->has_fitness ? cJSON_AddNumberToObject(o, "fitness", cfg->fitness)
                                     : cJSON_AddNullToObject(o, "fitness")) &&
             (cfg->docs >= 0 ? cJSON_AddNumberToObject(o, "docs", (double)cfg->docs)
                             : cJSON_AddNullToObject(o, "docs")) &&
             cJSON_AddBoolToObject(o, "default", cet_routes_default(r) == (long)i);
        for (size_t k = 0; ok && k < cet_routes_count(r); k++) {
            size_t ci;
            const char *pattern = cet_routes_route(r, k, &ci);
            ok = ci != i || cJSON_AddItemToArray(hosts, cJSON_CreateString(pattern));
        }
    }
    table_unref(s, t);
    char *body = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!body)
        return fail(s, c, q, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL, "out of memory");
    return respond(s, c, q, MHD_HTTP_OK, "application/json", body, strlen(body), NULL);
}

const char *cet_http_arg(const struct cet_http_req *q, const char *name)
{
    return mhd.lookup_connection_value(q->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *cet_http_header(const struct cet_http_req *q, const char *name)
{
    return mhd.lookup_connection_value(q->conn, MHD_HEADER_KIND, name);
}

/* A request for the handler of another service (cet_server_opts.handler). */
static enum MHD_Result call_handler(struct cet_server *s, struct MHD_Connection *c, struct req *q)
{
    if (q->too_large)
        return fail(s, c, q, MHD_HTTP_CONTENT_TOO_LARGE, NULL,
                    "the body is larger than the limit of %zu bytes", s->o.max_body);
    char path[sizeof q->path];
    snprintf(path, sizeof path, "%.*s", (int)strcspn(q->path, "?"), q->path);
    struct cet_http_req hq = {.method = q->method, .path = path,
                              .body = q->body.p ? q->body.p : "", .body_len = q->body.len,
                              .conn = c};
    struct cet_http_reply r = {.status = MHD_HTTP_INTERNAL_SERVER_ERROR,
                               .type = "text/plain; charset=utf-8"};
    s->o.handler(s->o.handler_ctx, &hq, &r);
    cet_buf_free(&q->body);
    snprintf(q->note, sizeof q->note, "%s", r.note);
    struct MHD_Response *resp =
        mhd.create_response_from_buffer(r.len, r.body ? r.body : (char *)"",
                                        r.body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        free(r.body);
        return MHD_NO;
    }
    mhd.add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r.type);
    for (size_t i = 0; i < sizeof r.headers / sizeof *r.headers && r.headers[i].name; i++)
        mhd.add_response_header(resp, r.headers[i].name, r.headers[i].value);
    if (atomic_load(&s->draining))
        mhd.add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    q->status = r.status;
    q->out_bytes = r.len;
    enum MHD_Result ret = mhd.queue_response(c, r.status, resp);
    mhd.destroy_response(resp);
    return ret;
}

/* What answers a request once its body is in. */
static enum MHD_Result finish(struct cet_server *s, struct MHD_Connection *c, struct req *q)
{
    return s->o.handler ? call_handler(s, c, q) : extract(s, c, q);
}

/* Before the body: refuses one that is too large before reading a byte of it. */
static enum MHD_Result expect_body(struct cet_server *s, struct MHD_Connection *c, struct req *q)
{
    const char *len = mhd.lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (len) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(len, &end, 10);
        if (errno || *end || n > s->o.max_body)
            return finish(s, c, (q->too_large = 1, q));
        if (cet_buf_reserve(&q->body, (size_t)n))
            return fail(s, c, q, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL, "out of memory");
    }
    return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *data,
                              size_t *size, void **con_cls)
{
    struct cet_server *s = cls;
    struct req *q = *con_cls;
    (void)version;
    if (!q) { /* the headers are in */
        if (!(q = calloc(1, sizeof *q)))
            return MHD_NO;
        *con_cls = q;
        atomic_fetch_add(&s->in_flight, 1);
        q->t0 = cet_now();
        snprintf(q->method, sizeof q->method, "%s", method);
        snprintf(q->path, sizeof q->path, "%s", url);
        if (s->o.handler)
            return expect_body(s, c, q);
        enum endpoint ep = !strcmp(url, "/extract") ? EP_EXTRACT
                           : !strcmp(url, "/health") ? EP_HEALTH
                           : !strcmp(url, "/configs") ? EP_CONFIGS
                                                      : EP_NONE;
        int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
        if (ep == EP_NONE)
            return fail(s, c, q, MHD_HTTP_NOT_FOUND, NULL,
                        "no such path: use POST /extract, GET /health or GET /configs");
        if (ep == EP_EXTRACT && strcmp(method, "POST"))
            return fail(s, c, q, MHD_HTTP_METHOD_NOT_ALLOWED, "POST", "/extract takes POST");
        if (ep != EP_EXTRACT && !get)
            return fail(s, c, q, MHD_HTTP_METHOD_NOT_ALLOWED, "GET, HEAD", "%s takes GET", url);
        if (ep == EP_HEALTH)
            return respond(s, c, q, MHD_HTTP_OK, "text/plain; charset=utf-8", strdup("ok\n"), 3, NULL);
        if (ep == EP_CONFIGS)
            return configs(s, c, q);
        return expect_body(s, c, q);
    }
    if (*size) { /* a piece of the body; beyond the limit it is read and dropped */
        q->received += *size;
        if (!q->too_large && q->received <= s->o.max_body) {
            if (cet_buf_add(&q->body, data, *size))
                return MHD_NO;
        } else if (!q->too_large) {
            q->too_large = 1;
            cet_buf_free(&q->body);
        }
        *size = 0;
        return MHD_YES;
    }
    return finish(s, c, q);
}

static void client_ip(struct MHD_Connection *c, char *ip, size_t size)
{
    const union MHD_ConnectionInfo *ci = mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(ip, size, "-");
    if (!ci || !ci->client_addr)
        return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, ip, (socklen_t)size);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, ip, (socklen_t)size);
}

/* The access log: one line per request, when it is over. */
static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    struct cet_server *s = cls;
    struct req *q = *con_cls;
    if (!q)
        return;
    static const char *const why[] = {"", " aborted=error", " aborted=timeout",
                                      " aborted=shutdown", " aborted=read-error",
                                      " aborted=client-gone"};
    char ip[64], when[32], status[16] = "-";
    client_ip(c, ip, sizeof ip);
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    if (q->status && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
        snprintf(status, sizeof status, "%u", q->status);
    say(s, "%s %s \"%s %s\" %s in=%zu out=%zu ms=%.2f%s%s%s", when, ip, q->method, q->path,
          status, q->received, q->out_bytes, (cet_now() - q->t0) * 1e3, q->note[0] ? " " : "", q->note,
          (unsigned)toe < 6 ? why[toe] : " aborted");
    cet_buf_free(&q->body);
    free(q);
    *con_cls = NULL;
    atomic_fetch_sub(&s->in_flight, 1);
}

/* Splits "HOST:PORT" into host (brackets of [v6] removed) and the port's
 * digits (*port points into spec). */
static int split_listen(const char *spec, char *host, size_t size, const char **port,
                        struct cet_error *err)
{
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || !colon[1])
        return cet_fail(err, "listen address '%s' must be HOST:PORT", spec);
    size_t n = (size_t)(colon - spec), digits = strspn(colon + 1, "0123456789");
    /* getaddrinfo would take 99999 modulo 65536, and a service name. */
    if (colon[1 + digits] || digits > 5 || strtol(colon + 1, NULL, 10) > 65535)
        return cet_fail(err, "listen address '%s': the port must be 0-65535", spec);
    if (spec[0] == '[' && n >= 2 && spec[n - 1] == ']')
        spec++, n -= 2; /* [v6] */
    if (n >= size)
        return cet_fail(err, "listen address '%s': the host is too long", spec);
    snprintf(host, size, "%.*s", (int)n, spec);
    *port = colon + 1;
    return 0;
}

int cet_listen_check(const char *spec, struct cet_error *err)
{
    char host[256];
    const char *port;
    return split_listen(spec, host, sizeof host, &port, err);
}

/* A bound, listening, non-blocking socket for "HOST:PORT". */
static int listen_on(const char *spec, int *family, struct cet_error *err)
{
    char host[256];
    const char *port = NULL; /* set by split_listen; -O3 cannot tell */
    if (split_listen(spec, host, sizeof host, &port, err))
        return -1;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV}, *ai;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc)
        return cet_fail(err, "listen address '%s': %s", spec, gai_strerror(rc));
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1024)) {
        cet_fail(err, "cannot listen on %s: %s", spec, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return -1;
    }
    *family = ai->ai_family;
    freeaddrinfo(ai);
    return fd;
}

static void free_page(void *pg)
{
    cet_page_free(pg);
}

int cet_server_start(struct cet_server **out, struct cet_routes *routes, const char *source,
                     const struct cet_server_opts *opts, struct cet_error *err)
{
    *out = NULL;
    pthread_once(&mhd_once, mhd_open);
    if (mhd_error[0]) {
        cet_routes_free(routes);
        return cet_fail(err, "cannot open libmicrohttpd: %s", mhd_error);
    }
    struct cet_server *s = calloc(1, sizeof *s);
    if (!s) {
        cet_routes_free(routes);
        return cet_fail(err, "out of memory");
    }
    s->o = *opts;
    s->fd = -1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->mhd_lock, NULL);
    pthread_key_create(&s->page_key, free_page);
    if (!(s->current = table_new(routes, source))) {
        cet_fail(err, "out of memory");
        goto fail;
    }
    int family;
    if ((s->fd = listen_on(opts->listen, &family, err)) < 0)
        goto fail;
    struct sockaddr_storage sa;
    socklen_t salen = sizeof sa;
    getsockname(s->fd, (struct sockaddr *)&sa, &salen);
    s->port = ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                       : ((struct sockaddr_in *)&sa)->sin_port);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC |
                     MHD_USE_ERROR_LOG | (family == AF_INET6 ? MHD_USE_IPv6 : 0);
    unsigned threads = opts->threads ? opts->threads : 1;
    /* A thread pool only for several threads: a size of 0 or 1 makes
     * libmicrohttpd warn ("Zero size, specified for thread pool size"). */
    struct MHD_OptionItem pool[] = {
        {threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, threads, NULL},
        {MHD_OPTION_END, 0, NULL}};
    s->d = mhd.start_daemon(flags, 0, NULL, NULL, handle, s,
                            MHD_OPTION_EXTERNAL_LOGGER, mhd_logger, s, /* first, as it must be */
                            MHD_OPTION_LISTEN_SOCKET, s->fd,
                            MHD_OPTION_ARRAY, pool,
                            MHD_OPTION_CONNECTION_TIMEOUT, opts->idle_timeout,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, s,
                            MHD_OPTION_END);
    if (!s->d) {
        cet_fail(err, "libmicrohttpd could not start on %s", opts->listen);
        goto fail;
    }
    *out = s;
    return 0;
fail:
    if (s->fd >= 0)
        close(s->fd);
    if (s->current)
        table_unref(s, s->current);
    pthread_key_delete(s->page_key);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->mhd_lock);
    free(s);
    return -1;
}

unsigned cet_server_port(const struct cet_server *s)
{
    return s->port;
}

unsigned cet_server_stop(struct cet_server *s, double wait)
{
    atomic_store(&s->draining, 1);
    /* No new connections: those arriving from now on are refused.  Those the
     * kernel already accepted are handed to the server, not reset. */
    mhd.quiesce_daemon(s->d);
    for (;;) {
        struct sockaddr_storage sa;
        socklen_t len = sizeof sa;
        int fd = accept4(s->fd, (struct sockaddr *)&sa, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0 && errno == EINTR)
            continue;
        if (fd < 0)
            break;
        if (mhd.add_connection(s->d, fd, (struct sockaddr *)&sa, len) != MHD_YES)
            close(fd);
    }
    /* Refuses new connections; the descriptor stays open until the daemon
     * has stopped, as libmicrohttpd's threads may still look at it. */
    shutdown(s->fd, SHUT_RDWR);
    /* Requests in flight finish; a connection accepted just before may still
     * be sending its headers, so the server must stay idle for a moment. */
    double start = cet_now(), idle_since = start;
    while (cet_now() - start < wait) {
        if (atomic_load(&s->in_flight))
            idle_since = cet_now();
        else if (cet_now() - idle_since > 0.1)
            break;
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    unsigned left = atomic_load(&s->in_flight);
    mhd.stop_daemon(s->d);
    close(s->fd);
    table_unref(s, s->current);
    pthread_key_delete(s->page_key);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->mhd_lock);
    free(s);
    return left;
}
