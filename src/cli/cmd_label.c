/* cetune label: a labelling page in the browser (include/cetune/label.h,
 * docs/label.md), served in the foreground by the server of `serve` until
 * SIGINT or SIGTERM.  The access log goes to stderr with --verbose. */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cetune/datadir.h"
#include "cetune/guard.h"
#include "cetune/label.h"
#include "cetune/serve.h"
#include "cli.h"

struct args {
    const char *corpus, *config, *out, *listen;
    int verbose;
};
#define ARG(field) offsetof(struct args, field)

static void init(void *p)
{
    struct args *a = p;
    a->listen = "127.0.0.1:8080";
}

static const struct cli_opt options[] = {
    {.name = "corpus", .letter = 'd', .arg = "CORPUS", .type = CLI_STR, .off = ARG(corpus),
     .flags = CLI_REQ, .help = "the pages to label: a corpus directory in any layout"},
    {.name = "config", .letter = 'c', .arg = "CONFIG.json", .type = CLI_STR, .off = ARG(config),
     .def = "the shipped configuration", .help = "whose kept blocks are shown first"},
    {.name = "out", .arg = "DIR", .type = CLI_STR, .off = ARG(out),
     .def = "beside the pages (a canonical corpus)",
     .help = "write the gold into this canonical corpus, each page copied beside it"},
    {.name = "listen", .arg = "HOST:PORT", .type = CLI_FUNC, .off = ARG(listen),
     .parse = cli_parse_listen, .help = "address to listen on (port 0: any free port)"},
    {.name = "verbose", .letter = 'v', .type = CLI_FLAG, .off = ARG(verbose),
     .help = "log every request on stderr"},
    {0}};

static int cmd_label(int argc, char **argv);
const struct cli_command cli_label = {
    .name = "label", .run = cmd_label, .opts = options, .size = sizeof(struct args),
    .init = init, .summary = "label pages in the browser: gold text by clicking blocks",
    .about = "Open the address it prints in a browser.  Each page is shown as the browser renders "
             "it, scripts\noff, with the blocks the configuration keeps highlighted.  Click a block "
             "to keep or drop it\n(Alt+click: one piece of text), or select a region and press K "
             "(keep) or D (drop); S saves,\nEnter saves and opens the next page, the arrow keys move "
             "between pages.  Saving writes the\ntext exactly as `extract` prints it: PAGE.txt beside "
             "PAGE.html, or --out DIR/PACKAGE/PAGE.txt.\nA CleanEval or article-JSON corpus needs "
             "--out (docs/label.md)."};

static void log_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

static int cmd_label(int argc, char **argv)
{
    struct args a;
    int rc = cli_parse(&cli_label, &a, argc, argv);
    if (rc)
        return rc;
    if (!a.corpus)
        return cli_usage("label", "-d CORPUS is required");
    char shipped[PATH_MAX + 64], assets[PATH_MAX + 64];
    if (!a.config) {
        if ((rc = cli_shipped_config(shipped, sizeof shipped)))
            return rc;
        a.config = shipped;
    }
    if ((rc = cli_readable(a.config)))
        return rc;
    const char *dirs[] = {a.corpus};
    /* An output corpus inside the corpus would be scanned as a package of it. */
    if (a.out && (rc = cli_guard_output(dirs, 1, "--out", a.out, 1)))
        return rc;
    struct cet_error err;
    if (cet_data_path(assets, sizeof assets, "label/index.html", &err)) {
        cli_error("the labelling page: %s", err.msg);
        return CLI_RUNTIME;
    }
    *strrchr(assets, '/') = 0;
    struct cet_config cfg;
    if (cet_config_load(&cfg, a.config, &err)) {
        cli_error("%s", err.msg);
        return CLI_USAGE;
    }
    struct cet_label *l = NULL;
    struct cet_server *s = NULL;
    struct cet_label_opts lo = {.corpus = a.corpus, .out = a.out, .cfg = &cfg, .assets = assets};
    if (cet_label_new(&l, &lo, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
        goto done;
    }
    sigset_t sigs;
    cli_server_signals(&sigs);
    /* One worker: a single person labels, and saves go one after the other. */
    struct cet_server_opts o = {.listen = a.listen, .threads = 1, .max_body = 16u << 20,
                                .idle_timeout = 60, .log = a.verbose ? log_line : NULL,
                                .handler = cet_label_handle, .handler_ctx = l};
    if (cet_server_start(&s, NULL, "cetune label", &o, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
        goto done;
    }
    fprintf(stderr, "cetune: labelling %zu page%s of %s (%zu labelled), blocks of %s; gold goes "
                    "to %s\n", cet_label_pages(l), cli_s(cet_label_pages(l)), a.corpus,
            cet_label_labelled(l), a.config, a.out ? a.out : "beside the pages");
    fprintf(stderr, "cetune: open http://%.*s:%u/ in a browser; Ctrl-C stops\n",
            (int)(strrchr(a.listen, ':') - a.listen), a.listen, cet_server_port(s));
    for (int sig = SIGHUP; sig == SIGHUP;)
        if (sigwait(&sigs, &sig))
            sig = SIGHUP;
    cet_server_stop(s, 5);
    fprintf(stderr, "cetune: stopped with %zu of %zu pages labelled\n", cet_label_labelled(l),
            cet_label_pages(l));
    rc = CLI_OK;
done:
    cet_label_free(l);
    cet_config_free(&cfg);
    return rc;
}
