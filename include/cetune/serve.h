/* cetune serve: tuned configurations as an HTTP extraction service
 * (libmicrohttpd), routed by host (include/cetune/routes.h).
 *
 *   POST /extract   the page as the body; its URL in the X-Url header or the
 *                   url query parameter picks the configuration; the charset
 *                   of Content-Type is honoured.  Answers text/plain, text/html
 *                   with ?format=html, or JSON (the page's metadata too) with
 *                   ?format=json or Accept: application/json.
 *   GET  /health    "ok"
 *   GET  /configs   the loaded configurations, their fitness and hosts (JSON)
 *
 * Every request is logged as one line through the log callback, once it is
 * finished.  The server never prints; docs/serve.md has the details.
 *
 * Another service runs on the same server through a handler
 * (cet_server_opts.handler): it answers every request instead of the
 * endpoints above (cetune label, include/cetune/label.h). */
#ifndef CETUNE_SERVE_H
#define CETUNE_SERVE_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/error.h"
#include "cetune/routes.h"

CET_BEGIN_DECL

struct cet_server;

/* A request for a handler: the body is complete (at most max_body bytes,
 * a larger one was refused with 413 before). */
struct cet_http_req {
    const char *method; /* "GET", "POST", ... */
    const char *path;   /* without the query string */
    const char *body;   /* NUL-terminated; "" when there is none */
    size_t body_len;
    void *conn;         /* the server's, for cet_http_arg */
};
/* The value of query parameter name, or of header name, or NULL. */
const char *cet_http_arg(const struct cet_http_req *q, const char *name);
const char *cet_http_header(const struct cet_http_req *q, const char *name);

/* A handler's answer.  The server takes body (malloc'd, or NULL for an
 * empty body); headers[] are added as they are (NULL names end them). */
struct cet_http_reply {
    unsigned status;
    const char *type; /* Content-Type */
    char *body;
    size_t len;
    struct { const char *name, *value; } headers[4];
    char note[200];   /* the log line's tail, or "" */
};
typedef void (*cet_http_handler)(void *ctx, const struct cet_http_req *q,
                                 struct cet_http_reply *r);

struct cet_server_opts {
    const char *listen;    /* "HOST:PORT" ("[::1]:8080" for IPv6); port 0 = any free port */
    unsigned threads;      /* worker threads, at least 1 */
    size_t max_body;       /* bytes; a larger body gets 413 */
    double time_limit;     /* seconds per extraction (cet_page_opts), 0 = none */
    unsigned idle_timeout; /* seconds a connection may stay silent (slow or gone clients) */
    /* One line per request (without a newline), and the server's own errors;
     * called from any worker thread. */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
    /* When set, answers every request (called from any worker thread), and
     * routes may be NULL. */
    cet_http_handler handler;
    void *handler_ctx;
};

/* Checks a listen address: "HOST:PORT" or "[V6]:PORT", a host and a decimal
 * port from 0 to 65535 (the host is resolved only when the server starts).
 * Returns 0, or -1 with err filled. */
int cet_listen_check(const char *spec, struct cet_error *err);

/* The version of libmicrohttpd that serve opens (at run time, not linked),
 * or NULL with why it cannot be opened in why[0..size). */
const char *cet_server_library(char *why, size_t size);

/* Starts serving routes (the server owns them from now on, also on failure);
 * source names them in /configs (the routes file, or the configuration).
 * With opts->handler, routes may be NULL and source names the service. */
int cet_server_start(struct cet_server **out, struct cet_routes *routes, const char *source,
                     const struct cet_server_opts *opts, struct cet_error *err);
/* The port it listens on (useful after port 0). */
unsigned cet_server_port(const struct cet_server *s);
/* Replaces the routes atomically: requests already running finish with the
 * old ones, which are freed after the last of them. */
void cet_server_set_routes(struct cet_server *s, struct cet_routes *routes, const char *source);
/* Stops accepting connections, lets every request in flight finish (at most
 * `wait` seconds), then stops and frees the server.  Returns the number of
 * requests that were still running when it gave up (0 after a clean drain). */
unsigned cet_server_stop(struct cet_server *s, double wait);

CET_END_DECL

#endif
