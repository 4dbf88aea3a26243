/* cetune extract: applies one configuration (a tuned best.json, or an
 * extractor with -P settings) to pages and prints their main text, or the
 * cleaned HTML.  Pages are handled one at a time and everything a page needs
 * is freed before the next, so memory stays flat over any number of files.
 * Each page goes through cet_page_extract (include/cetune/page.h), which
 * renders the text as `evaluate --extracts` writes it, so both give the same
 * words for a page.  Several pages on standard output are separated by a
 * line holding a form feed, or each follows a header line with --headers. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/adhosts.h"
#include "cetune/guard.h"
#include "cetune/page.h"
#include "cetune/routes.h"
#include "cli.h"
#include "extract_warc.h"

struct job {
    const struct cet_config *cfg;
    int format, headers;   /* enum cet_page_format */
    int printed, open_line; /* pages on stdout so far; the last one's text lacks its '\n' */
    size_t max_body;        /* --max-body: larger pages fail */
    const char *out_dir, *url;
    int force;             /* --force: --out-dir may replace existing files */
    struct cet_page *pg;   /* reused across pages */
    struct cet_buf page, out;
    uint64_t *written;     /* hashes of the --out-dir files written so far */
    size_t nwritten, cap;  /* cap: a power of two, or 0 */
};

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1; /* 0 marks an empty slot */
}

/* Records that target was written; returns 1 when it already was in this
 * run (two pages with one name, e.g. a/x.html and b/x.html), -1 when out of
 * memory.  Eight bytes per file, so memory stays flat in practice. */
static int mark_written(struct job *j, const char *target)
{
    if (2 * (j->nwritten + 1) > j->cap) {
        size_t cap = j->cap ? 2 * j->cap : 1024;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < j->cap; i++)
            if (j->written[i])
                for (size_t k = j->written[i] & (cap - 1);; k = (k + 1) & (cap - 1))
                    if (!t[k]) {
                        t[k] = j->written[i];
                        break;
                    }
        free(j->written);
        j->written = t;
        j->cap = cap;
    }
    uint64_t h = hash_name(target);
    size_t k = h & (j->cap - 1);
    for (; j->written[k]; k = (k + 1) & (j->cap - 1))
        if (j->written[k] == h)
            return 1;
    j->written[k] = h;
    j->nwritten++;
    return 0;
}

/* DIR/NAME.txt (.html, .md, .json as --format says): NAME is the file name without .gz and
 * .html/.htm; allocated, NULL when out of memory. */
static char *out_path(const struct job *j, const char *input)
{
    const char *base = strcmp(input, "-") ? strrchr(input, '/') : NULL;
    base = !strcmp(input, "-") ? "stdin" : base ? base + 1 : input;
    size_t n = strlen(base);
    if (n > 3 && !strcmp(base + n - 3, ".gz"))
        n -= 3;
    if (n > 5 && !strncmp(base + n - 5, ".html", 5))
        n -= 5;
    else if (n > 4 && !strncmp(base + n - 4, ".htm", 4))
        n -= 4;
    struct cet_buf b = {0};
    if (cet_buf_printf(&b, "%s/%.*s.%s", j->out_dir, (int)n, base,
                       (const char *[]){"txt", "html", "md", "json"}[j->format]))
        cet_buf_free(&b);
    return b.p;
}

/* Refuses, before anything is written, an --out-dir file that would replace
 * an input page or its gold file (cetune/guard.h). */
static int guard_outputs(const struct job *j, char *const *inputs, size_t n)
{
    struct cet_guard *g;
    struct cet_error err;
    int rc = cli_guard_new(&g, NULL, 0);
    for (size_t i = 0; i < n && !rc; i++)
        if (cet_guard_page(g, inputs[i], &err)) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
        }
    for (size_t i = 0; i < n && !rc; i++) {
        char *target = out_path(j, inputs[i]);
        if (!target) {
            cli_error("out of memory");
            rc = CLI_RUNTIME;
        } else {
            rc = cli_guard_check(g, "--out-dir", target, 0) ||
                 cli_refuse_existing("--out-dir", target, j->force);
        }
        free(target);
    }
    cet_guard_free(g);
    return rc;
}

/* One page: 0, or -1 after printing why the page failed, or CLI_RUNTIME
 * when the run cannot go on (the extractor fails, stdout fails). */
static int extract_one(struct job *j, const char *input)
{
    const char *path = strcmp(input, "-") ? input : "/dev/stdin";
    const char *shown = strcmp(input, "-") ? input : "standard input";
    struct cet_error err;
    char *target = NULL;
    int rc = -1;
    if (cet_read_file(&j->page, path, j->max_body, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    struct cet_page_opts opts = {.format = j->format, .url = j->url};
    int r = cet_page_extract(j->pg, j->cfg, j->page.p, j->page.len, &opts, &j->out, NULL, &err);
    if (r) {
        cli_error("%s: %s", shown, err.msg);
        if (r == CET_ERROR)
            rc = CLI_RUNTIME;
        goto done;
    }
    if (j->out_dir) {
        if (!(target = out_path(j, input))) {
            cli_error("%s: out of memory", shown);
            goto done;
        }
        int seen = mark_written(j, target);
        if (seen) {
            cli_error(seen > 0 ? "%s: %s was already written from another page of the same name"
                               : "%s: out of memory", shown, target);
            goto done;
        }
        if (cet_write_atomic(target, j->out.p ? j->out.p : "", j->out.len, &err)) {
            cli_error("%s", err.msg);
            goto done;
        }
    } else {
        if (j->open_line)
            putchar('\n');
        if (j->headers)
            printf("==> %s <==\n", shown);
        else if (j->printed && j->format != CET_PAGE_JSON) /* JSON Lines need no separator */
            fputs("\f\n", stdout);
        if ((j->out.len && fwrite(j->out.p, 1, j->out.len, stdout) != j->out.len) ||
            ferror(stdout)) {
            cli_error("cannot write to standard output: %s", strerror(errno));
            rc = CLI_RUNTIME;
            goto done;
        }
        j->printed++;
        j->open_line = j->out.len && j->out.p[j->out.len - 1] != '\n';
    }
    rc = 0;
done:
    free(target);
    return rc;
}

struct args {
    struct cli_configs cfgs;
    int format, headers, warc;
    long threads;
    const char *out_dir, *adhosts, *routes, *url;
    size_t max_body;
    int force;
};
#define ARG(field) offsetof(struct args, field)

static void init(void *p)
{
    ((struct args *)p)->max_body = CET_MAX_PAGE_BYTES;
}

/* In the order of enum cet_page_format. */
static const char *const formats[] = {"text", "html", "markdown", "json", NULL};

/* The option table (cli.h): one row per option. */
static const struct cli_opt options[] = {
    {.name = "config", .letter = 'c', .arg = "CONFIG.json", .type = CLI_FUNC, .off = ARG(cfgs),
     .parse = cli_configs_opt, .flags = CLI_ONE_OF, .help = "the configuration, e.g. a run's best.json"},
    {.name = "extractor", .letter = 'x', .arg = "EXTRACTOR", .type = CLI_FUNC, .off = ARG(cfgs),
     .parse = cli_configs_opt, .flags = CLI_ONE_OF,
     .help = "an extractor at its defaults (cetune list)"},
    {.name = "routes", .arg = "FILE", .type = CLI_STR, .off = ARG(routes), .flags = CLI_ONE_OF,
     .help = "a routes file: the configuration is the one --url's host routes to"},
    {.name = "param", .letter = 'P', .arg = "name=value", .type = CLI_FUNC, .off = ARG(cfgs),
     .parse = cli_configs_opt, .flags = CLI_MANY,
     .help = "sets a parameter of the configuration; repeatable"},
    {.name = "format", .letter = 'f', .type = CLI_ENUM, .off = ARG(format), .values = formats,
     .help = "the main text, the cleaned page as UTF-8 HTML, the main text as Markdown, or JSON "
             "with the page's metadata (docs/formats.md)"},
    {.name = "out-dir", .letter = 'o', .arg = "DIR", .type = CLI_STR, .off = ARG(out_dir),
     .def = "standard output",
     .help = "write DIR/NAME.txt (NAME.html with --format html) for each page"},
    {.name = "force", .type = CLI_FLAG, .off = ARG(force),
     .help = "let --out-dir replace files that exist already"},
    {.name = "url", .arg = "URL", .type = CLI_STR, .off = ARG(url),
     .help = "the pages' URL: picks the configuration with --routes, and is the JSON's url"},
    {.name = "max-body", .arg = "BYTES", .type = CLI_SIZE, .off = ARG(max_body), .min = 1,
     .max = CET_MAX_PAGE_BYTES, .help = "largest page read (as serve's); a larger one fails"},
    {.name = "warc", .type = CLI_FLAG, .off = ARG(warc),
     .help = "the operands are WARC files (.warc, .warc.gz): print each HTML response as one "
             "JSON line with its WARC-Target-URI, WARC-Record-ID and WARC-Date (docs/warc.md)"},
    {.name = "threads", .arg = "N", .type = CLI_LONG, .off = ARG(threads), .max = 1024,
     .help = "threads extracting a crawl's pages (--warc); 0: all cores"},
    {.name = "headers", .type = CLI_FLAG, .off = ARG(headers),
     .help = "on standard output, a line ==> FILE <== before each page instead of a form feed "
             "line between pages"},
    {.name = "adhosts", .arg = "FILE", .type = CLI_STR, .off = ARG(adhosts),
     .def = "$CETUNE_ADHOSTS, else the built-in list",
     .help = "crunch's ad-server hosts, one per line"},
    {0}};

/* -o is --out-dir here, a directory, while evolve's and sample's -o is their
 * output itself: a file name for it (out.txt) is the other meaning, refused
 * rather than made into a directory. */
static int check_out_dir(const char *dir)
{
    static const char *const exts[] = {".txt", ".html", ".htm", ".json", ".md", ".csv"};
    struct stat st;
    size_t n = strlen(dir);
    int file = stat(dir, &st) == 0 && !S_ISDIR(st.st_mode);
    for (size_t k = 0; k < sizeof exts / sizeof *exts && !file; k++)
        file = n > strlen(exts[k]) && !strcmp(dir + n - strlen(exts[k]), exts[k]) &&
               stat(dir, &st) != 0;
    if (file)
        return cli_usage("extract", "-o/--out-dir %s: names a directory that gets NAME.txt for "
                                    "each page; for one page's text in a file, redirect standard "
                                    "output (> %s)", dir, dir);
    return 0;
}

static int cmd_extract(int argc, char **argv);
const struct cli_command cli_extract = {
    .name = "extract", .run = cmd_extract, .opts = options, .size = sizeof(struct args),
    .init = init,
    .operands = "[FILE.html... | -] | --warc FILE.warc[.gz]...",
    .summary = "print the main text of pages with one configuration",
    .about = "Prints the main text of each page (standard input when no FILE is given) with the "
             "configuration\ngiven, else the shipped one (share/cetune/configs/article.json, or "
             "$CETUNE_CONFIG), or with\n--out-dir writes\nDIR/NAME.txt.  On standard output a line holding a form feed "
             "separates pages (--headers:\na line ==> FILE <== before each).  Exit status 1 when "
             "any page failed."};

static int cmd_extract(int argc, char **argv)
{
    struct args a;
    int rc = cli_parse(&cli_extract, &a, argc, argv);
    struct cli_configs cfgs = a.cfgs;
    struct job j = {0};
    struct cet_routes *routes = NULL;
    struct cet_config shipped = {0};
    const char *adhosts = a.adhosts;
    j.format = a.format;
    j.url = a.url;
    j.headers = a.headers;
    j.out_dir = a.out_dir;
    j.force = a.force;
    j.max_body = a.max_body;
    if (rc)
        goto done;
    if (cfgs.n + !!a.routes > 1) {
        rc = cli_usage("extract", "give only one configuration (-c, -x or --routes)");
        goto done;
    }
    if (j.out_dir && (rc = check_out_dir(j.out_dir)))
        goto done;
    if (a.warc && (a.url || j.out_dir || a.headers || optind >= argc ||
                   (a.format != CET_PAGE_TEXT && a.format != CET_PAGE_JSON))) {
        rc = cli_usage("extract", "--warc takes WARC files and prints JSON Lines: it goes with "
                                  "neither --url, --out-dir, --headers nor another --format, "
                                  "and needs at least one FILE");
        goto done;
    }
    if (a.routes && !a.url && !a.warc) {
        rc = cli_usage("extract", "--routes needs --url URL");
        goto done;
    }
    if (a.headers && a.format == CET_PAGE_JSON) {
        rc = cli_usage("extract", "--headers does not go with --format json (one object a line)");
        goto done;
    }
    struct cet_error err;
    if (a.routes) {
        if ((rc = cli_readable(a.routes)))
            goto done;
        if (cet_routes_load(&routes, a.routes, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_USAGE;
            goto done;
        }
        if (a.warc)
            ; /* each page's own configuration, by its URI */
        else if (!(j.cfg = cet_routes_pick(routes, a.url, NULL, &err))) {
            cli_error("--url: %s", err.msg);
            rc = CLI_USAGE;
            goto done;
        }
    } else if (cfgs.n) {
        j.cfg = &cfgs.v[0];
    } else { /* none given: the shipped configuration */
        char path[PATH_MAX + 64];
        if ((rc = cli_shipped_config(path, sizeof path)))
            goto done;
        if (cet_config_load(&shipped, path, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_USAGE;
            goto done;
        }
        j.cfg = &shipped;
    }
    if ((rc = cli_adhosts(adhosts)))
        goto done;
    if (j.cfg && j.cfg->adhosts[0]) { /* tuned with another ad-host list: the text may differ */
        const struct cet_adhosts *h = cet_adhosts_current(&err);
        char now[17];
        if (h && (cet_adhosts_digest(h, now), strcmp(now, j.cfg->adhosts)))
            cli_warn("the configuration was tuned with the ad-host list of digest %s; this "
                     "extraction uses %s (digest %s): give the run's list with --adhosts",
                     j.cfg->adhosts, cet_adhosts_source(h) ? cet_adhosts_source(h) : "the built-in list",
                     now);
    }
    if (a.warc) {
        struct cli_warc_job wj = {.cfg = j.cfg, .routes = j.cfg ? NULL : routes,
                                  .max_body = a.max_body, .threads = (int)a.threads,
                                  .argc = argc, .argv = argv};
#ifdef CETUNE_MPI
        if (cet_cluster_size(cli_cluster_get()) > 1)
            rc = cli_extract_warc_mpi(&wj, argv + optind, (size_t)(argc - optind));
        else
#endif
            rc = cli_extract_warc(&wj, argv + optind, (size_t)(argc - optind));
        goto done;
    }
    if (cet_page_new(&j.pg, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
        goto done;
    }
    const char *stdin_only[] = {"-"};
    char *const *inputs = optind < argc ? argv + optind : (char *const *)stdin_only;
    size_t ninputs = optind < argc ? (size_t)(argc - optind) : 1;
    if (j.out_dir && (rc = guard_outputs(&j, inputs, ninputs)))
        goto done;
    if (j.out_dir && mkdir(j.out_dir, 0777) && errno != EEXIST) {
        cli_error("%s: cannot create directory: %s", j.out_dir, strerror(errno));
        rc = CLI_RUNTIME;
        goto done;
    }
    size_t pages = 0, failed = 0;
    for (size_t i = 0; i < ninputs; i++) {
        int r = extract_one(&j, inputs[i]);
        if (r > 0) {
            rc = r;
            goto done;
        }
        pages++;
        failed += r != 0;
    }
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        rc = CLI_RUNTIME;
        goto done;
    }
    if (failed || j.out_dir)
        fprintf(stderr, "cetune: extracted %zu of %zu pages%s%s, %zu failed\n", pages - failed,
                pages, j.out_dir ? " into " : "", j.out_dir ? j.out_dir : "", failed);
    rc = failed ? CLI_RUNTIME : CLI_OK;
done:
    cet_page_free(j.pg);
    free(j.written);
    cet_buf_free(&j.page);
    cet_buf_free(&j.out);
    cli_configs_free(&cfgs);
    cet_config_free(&shipped);
    cet_routes_free(routes);
    return rc;
}
