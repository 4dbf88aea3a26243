/* cetune serve: the HTTP extraction service (src/serve/server.c) in the
 * foreground.  Signals are taken by this thread alone with sigwait: SIGHUP
 * reloads the routes (a bad file is refused and the old routes stay),
 * SIGTERM and SIGINT drain the requests in flight and exit 0.  The access
 * log goes to stderr, one line per request. */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cetune/adhosts.h"
#include "cetune/routes.h"
#include "cetune/serve.h"
#include "cli.h"

struct args {
    const char *config, *routes, *listen, *adhosts;
    long threads;
    size_t max_body;
    double time_limit;
    long timeout;
};
#define ARG(field) offsetof(struct args, field)

static void init(void *p)
{
    struct args *a = p;
    a->listen = "127.0.0.1:8080";
    a->max_body = 64u << 20;
    a->time_limit = 10;
    a->timeout = 30;
}

static const struct cli_opt options[] = {
    {.name = "config", .letter = 'c', .arg = "CONFIG.json", .type = CLI_STR, .off = ARG(config),
     .flags = CLI_ONE_OF, .help = "serve one configuration for every host"},
    {.name = "routes", .arg = "FILE", .type = CLI_STR, .off = ARG(routes), .flags = CLI_ONE_OF,
     .help = "a routes file: a configuration per host pattern (docs/serve.md)"},
    {.name = "listen", .arg = "HOST:PORT", .type = CLI_FUNC, .off = ARG(listen), .parse = cli_parse_listen,
     .help = "address to listen on (port 0: any free port)"},
    {.name = "threads", .arg = "N", .type = CLI_LONG, .off = ARG(threads), .max = 1024,
     .help = "worker threads; 0: all cores"},
    {.name = "max-body", .arg = "BYTES", .type = CLI_SIZE, .off = ARG(max_body), .min = 1,
     .max = 64u << 20, .help = "largest page accepted; larger gets 413"},
    {.name = "time-limit", .arg = "SECONDS", .type = CLI_DOUBLE, .off = ARG(time_limit),
     .max = 86400, .help = "per extraction, 0: none; over it gets 503"},
    {.name = "timeout", .arg = "SECONDS", .type = CLI_LONG, .off = ARG(timeout), .min = 1,
     .max = 86400, .help = "a client silent this long is disconnected"},
    {.name = "adhosts", .arg = "FILE", .type = CLI_STR, .off = ARG(adhosts),
     .def = "$CETUNE_ADHOSTS, else the built-in list",
     .help = "crunch's ad-server hosts, one per line"},
    {0}};

static int cmd_serve(int argc, char **argv);
const struct cli_command cli_serve = {
    .name = "serve", .run = cmd_serve, .opts = options, .size = sizeof(struct args),
    .init = init, .summary = "serve tuned configurations over HTTP, routed by host",
    .about = "Without -c or --routes, serves the shipped configuration (share/cetune/configs/"
             "article.json,\nor $CETUNE_CONFIG).  "
             "POST /extract with the page as the body (its URL in X-Url or ?url= picks the "
             "configuration;\n?format=html or json; Accept: application/json), GET /health, GET /configs.  "
             "SIGHUP reloads the\nroutes or configuration, SIGTERM drains the requests in flight "
             "and exits 0.  One log line\nper request on stderr (docs/serve.md)."};

static void log_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line); /* one call: lines of several threads never mix */
}

/* The routes of the command line: the routes file, or one configuration
 * for every host.  Read again on SIGHUP. */
static int load(struct cet_routes **r, const struct args *a, struct cet_error *err)
{
    if (a->routes)
        return cet_routes_load(r, a->routes, err);
    struct cet_config cfg;
    return cet_config_load(&cfg, a->config, err) ? -1 : cet_routes_single(r, &cfg, a->config, err);
}

static int cmd_serve(int argc, char **argv)
{
    struct args a;
    int rc = cli_parse(&cli_serve, &a, argc, argv);
    struct cet_error err;
    struct cet_routes *routes = NULL;
    if (rc)
        return rc;
    if (a.config && a.routes)
        return cli_usage("serve", "give either -c CONFIG.json or --routes FILE, not both");
    char shipped[PATH_MAX + 64];
    if (!a.config && !a.routes) { /* none given: the shipped configuration */
        if ((rc = cli_shipped_config(shipped, sizeof shipped)))
            return rc;
        a.config = shipped;
    }
    if ((rc = cli_adhosts(a.adhosts)) || (rc = cli_readable(a.routes ? a.routes : a.config)))
        return rc;
    if (load(&routes, &a, &err)) {
        cli_error("%s", err.msg);
        return CLI_USAGE;
    }
    sigset_t sigs;
    cli_server_signals(&sigs);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct cet_server_opts o = {
        .listen = a.listen, .threads = (unsigned)(a.threads ? a.threads : cores > 0 ? cores : 1),
        .max_body = a.max_body, .time_limit = a.time_limit, .idle_timeout = (unsigned)a.timeout,
        .log = log_line};
    const char *source = a.routes ? a.routes : a.config;
    size_t nconfigs = cet_routes_nconfigs(routes);
    struct cet_server *s;
    if (cet_server_start(&s, routes, source, &o, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    fprintf(stderr, "cetune: serving %zu configuration%s from %s on http://%.*s:%u/ with %u threads\n",
            nconfigs, nconfigs == 1 ? "" : "s", source, (int)(strrchr(a.listen, ':') - a.listen),
            a.listen, cet_server_port(s), o.threads);
    for (;;) {
        int sig;
        if (sigwait(&sigs, &sig))
            continue;
        if (sig != SIGHUP)
            break;
        struct cet_routes *fresh;
        if (load(&fresh, &a, &err)) {
            cli_error("reload refused, the routes stay as they were: %s", err.msg);
            continue;
        }
        size_t n = cet_routes_nconfigs(fresh);
        cet_server_set_routes(s, fresh, source);
        fprintf(stderr, "cetune: reloaded %zu configuration%s from %s\n", n, n == 1 ? "" : "s", source);
    }
    fprintf(stderr, "cetune: stopping: finishing the requests in flight\n");
    unsigned left = cet_server_stop(s, (double)a.timeout + a.time_limit + 1);
    if (left) {
        cli_error("stopped with %u request%s still running", left, left == 1 ? "" : "s");
        return CLI_RUNTIME;
    }
    fprintf(stderr, "cetune: stopped\n");
    return CLI_OK;
}
