/* cetune routes: from a crawl to tuned routes (docs/warc.md, "Tuning the
 * sites of a crawl").  Every host (package) with enough pages is tuned with
 * `evolve --fitness template` on its pages, then the tuned configuration and
 * the shipped one are scored by `evaluate --fitness template` against the
 * same pseudo-gold (the same references: the description's defaults, then
 * the shipped configuration); a host whose tuned configuration scores
 * higher gets a route to it, the others keep the default, the shipped
 * configuration.  Each step is this program run as a child, its output in a
 * log file beside the run, so that a host's run is exactly what the same
 * `cetune evolve` command gives by hand (and can be resumed or reported). */
#define _GNU_SOURCE /* environ, from unistd.h */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cetune/buf.h"
#include "cetune/corpus.h"
#include "cetune/datadir.h"
#include "cetune/params.h"
#include "cli.h"

struct args {
    struct cli_list dirs;
    const char *out, *params;
    long min_pages, max_pages, max_evals, seed, threads;
    int force;
};
#define ARG(field) offsetof(struct args, field)

static void init(void *p)
{
    struct args *a = p;
    a->min_pages = 10;
    a->max_pages = 200;
    a->max_evals = 200;
    a->seed = 1;
}

static const struct cli_opt options[] = {
    {.name = "dir", .letter = 'd', .arg = "CRAWL", .type = CLI_LIST, .off = ARG(dirs),
     .flags = CLI_REQ | CLI_MANY,
     .help = "a WARC file (its pages grouped by host) or a corpus directory; repeatable"},
    {.name = "out", .letter = 'o', .arg = "DIR", .type = CLI_STR, .off = ARG(out),
     .flags = CLI_REQ,
     .help = "writes DIR/routes.json, DIR/HOST/ (each host's run) and DIR/HOST.log"},
    {.name = "params", .letter = 'p', .arg = "PARAMS.json", .type = CLI_STR, .off = ARG(params),
     .def = "share/cetune/params/score.json", .help = "the parameter description to tune"},
    {.name = "min-pages", .arg = "N", .type = CLI_LONG, .off = ARG(min_pages), .min = 6,
     .max = 1000000, .help = "a host with fewer pages keeps the default route"},
    {.name = "max-pages", .arg = "N", .type = CLI_LONG, .off = ARG(max_pages), .min = 6,
     .max = 1000000, .help = "pages of a host used at most (its first, in record order)"},
    {.name = "max-evals", .arg = "N", .type = CLI_LONG, .off = ARG(max_evals), .min = 1,
     .max = 100000000, .help = "evaluations of each host's search"},
    {.name = "seed", .arg = "S", .type = CLI_LONG, .off = ARG(seed), .min = 0,
     .max = 4294967295.0, .help = "the seed of every host's search"},
    {.name = "threads", .arg = "N", .type = CLI_LONG, .off = ARG(threads), .max = 1024,
     .help = "threads of each search; 0: all cores"},
    {.name = "force", .type = CLI_FLAG, .off = ARG(force),
     .help = "replace the routes and runs of an earlier `cetune routes -o DIR`"},
    {0}};

static int cmd_routes(int argc, char **argv);
const struct cli_command cli_routes = {
    .name = "routes", .run = cmd_routes, .opts = options, .size = sizeof(struct args),
    .init = init,
    .summary = "tune every site of a crawl and write the routes that serve them",
    .about = "Tunes each host (package) of the crawl with at least --min-pages pages with "
             "`evolve --fitness\ntemplate`, scores the tuned and the shipped configuration "
             "against the same pseudo-gold,\nand writes DIR/routes.json: a route for each host "
             "whose tuned configuration scores higher,\nthe shipped configuration as the "
             "default.  Prints per host the pages, the pages used, both\nscores and the "
             "estimated gain (docs/warc.md)."};

/* Runs this program with argv (NULL-terminated), stdout and stderr to log
 * (appended): its exit status, or -1 when it could not start. */
static int run_self(char *const *argv, const char *log)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0666);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* The macro F1 of each configuration in `evaluate --format json` output. */
static int read_scores(const char *path, double *f1, size_t n)
{
    struct cet_buf b = {0};
    struct cet_error err;
    if (cet_read_file(&b, path, (size_t)64 << 20, &err))
        return -1;
    /* The JSON follows the log's lines: it starts at the first '{' of a line. */
    char *start = b.p;
    while (start && *start != '{')
        start = (start = strchr(start, '\n')) ? start + 1 : NULL;
    cJSON *root = start ? cJSON_Parse(start) : NULL;
    cet_buf_free(&b);
    cJSON *cfgs = cJSON_GetObjectItem(root, "configurations");
    int rc = cJSON_GetArraySize(cfgs) == (int)n ? 0 : -1;
    for (size_t i = 0; i < n && !rc; i++) {
        cJSON *m = cJSON_GetObjectItem(cJSON_GetArrayItem(cfgs, (int)i), "macro");
        cJSON *f = cJSON_GetObjectItem(m, "f1");
        if (cJSON_IsNumber(f))
            f1[i] = f->valuedouble;
        else
            rc = -1;
    }
    cJSON_Delete(root);
    return rc;
}

/* DIR/defaults.json: the description's defaults as a configuration, the
 * first reference of evolve's pseudo-gold, for evaluate to use the same. */
static int write_defaults(const char *params, const char *path)
{
    struct cet_params_desc d;
    struct cet_error err;
    if (cet_params_load(&d, params, NULL, &err)) {
        cli_error("%s", err.msg);
        return CLI_USAGE;
    }
    double *g = calloc(d.ngenes + 1, sizeof *g), *full = calloc(d.ex->nparams + 1, sizeof *full);
    struct cet_buf b = {0};
    int rc = CLI_OK;
    if (!g || !full) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
    } else {
        cet_params_default_genome(&d, g);
        cet_params_expand(&d, g, full);
        if (cet_config_json(&b, d.ex, full, NULL, 0, -1) || cet_buf_puts(&b, "\n") ||
            cet_write_atomic(path, b.p, b.len, &err)) {
            cli_error("%s", b.p ? err.msg : "out of memory");
            rc = CLI_RUNTIME;
        }
    }
    cet_buf_free(&b);
    free(g);
    free(full);
    cet_params_free(&d);
    return rc;
}

struct host {
    const char *name;
    size_t first, pages, used;
    double shipped, tuned;
    int tuned_ok, routed;
};

static char *path_of(const char *dir, const char *name, const char *ext)
{
    struct cet_buf b = {0};
    if (cet_buf_printf(&b, "%s/%s%s", dir, name, ext))
        cet_buf_free(&b);
    return b.p;
}

/* Tunes host h and scores it: 0, or CLI_RUNTIME after printing why. */
static int tune_host(const struct args *a, struct host *h, const struct cet_entries *e,
                     const char *params, const char *shipped, const char *defaults)
{
    char *sample = path_of(a->out, h->name, ".sample"), *log = path_of(a->out, h->name, ".log"),
         *run = path_of(a->out, h->name, ""), *best = path_of(a->out, h->name, "/best.json"),
         *scores = path_of(a->out, h->name, ".scores.json");
    struct cet_buf list = {0}, num[4] = {{0}};
    const char *av[64];
    size_t n = 0;
    int rc = CLI_RUNTIME;
    if (!sample || !log || !run || !best || !scores)
        goto oom;
    for (size_t i = 0; i < h->used; i++)
        if (cet_buf_printf(&list, "%s/%s\n", e->v[h->first + i].package,
                           e->v[h->first + i].name))
            goto oom;
    struct cet_error err;
    if (cet_write_atomic(sample, list.p, list.len, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    unlink(log);
    if (cet_buf_printf(&num[0], "%ld", a->max_evals) || cet_buf_printf(&num[1], "%ld", a->seed) ||
        cet_buf_printf(&num[2], "%ld", a->threads))
        goto oom;
    av[n++] = "cetune";
    av[n++] = "evolve";
    av[n++] = "-p";
    av[n++] = params;
    for (size_t i = 0; i < a->dirs.n && n < 40; i++) {
        av[n++] = "-d";
        av[n++] = a->dirs.v[i];
    }
    const char *tail[] = {"-s", sample, "--fitness", "template", "--max-evals", num[0].p, "--seed",
                          num[1].p, "--threads", num[2].p, "-o", run, "--force", "--quiet"};
    for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
        av[n++] = tail[i];
    av[n] = NULL;
    int st = run_self((char *const *)av, log);
    if (st) {
        cli_error("%s: evolve failed (exit %d); see %s", h->name, st, log);
        goto done;
    }
    n = 2;
    av[1] = "evaluate";
    const char *eval[] = {"--fitness", "template", "--template-ref", defaults, "--template-ref",
                          shipped, "-c", best, "-c", shipped, "-s", sample, "--format", "json",
                          "--threads", num[2].p};
    for (size_t i = 0; i < a->dirs.n && n < 40; i++) {
        av[n++] = "-d";
        av[n++] = a->dirs.v[i];
    }
    for (size_t i = 0; i < sizeof eval / sizeof *eval; i++)
        av[n++] = eval[i];
    av[n] = NULL;
    unlink(scores);
    if ((st = run_self((char *const *)av, scores))) {
        cli_error("%s: evaluate failed (exit %d); see %s", h->name, st, scores);
        goto done;
    }
    double f1[2];
    if (read_scores(scores, f1, 2)) {
        cli_error("%s: cannot read the scores of %s", h->name, scores);
        goto done;
    }
    h->tuned = f1[0];
    h->shipped = f1[1];
    h->tuned_ok = 1;
    rc = 0;
    goto done;
oom:
    cli_error("out of memory");
done:
    cet_buf_free(&list);
    for (int i = 0; i < 4; i++)
        cet_buf_free(&num[i]);
    free(sample);
    free(log);
    free(run);
    free(best);
    free(scores);
    return rc;
}

static int write_routes(const char *out, const struct host *hosts, size_t n, const char *shipped)
{
    cJSON *root = cJSON_CreateObject(), *routes = cJSON_AddArrayToObject(root, "routes");
    int ok = root && routes;
    for (size_t i = 0; i < n && ok; i++) {
        if (!hosts[i].routed)
            continue;
        char *cfg = path_of(hosts[i].name, "best.json", "");
        cJSON *r = cJSON_CreateObject();
        ok = cfg && r && cJSON_AddStringToObject(r, "host", hosts[i].name) &&
             cJSON_AddStringToObject(r, "config", cfg) && cJSON_AddItemToArray(routes, r);
        free(cfg);
    }
    ok = ok && cJSON_AddStringToObject(root, "default", shipped);
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    char *path = path_of(out, "routes.json", "");
    struct cet_buf b = {0};
    struct cet_error err;
    int rc = CLI_OK;
    if (!text || !path || cet_buf_puts(&b, text) || cet_buf_puts(&b, "\n")) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
    } else if (cet_write_atomic(path, b.p, b.len, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
    }
    free(text);
    free(path);
    cet_buf_free(&b);
    return rc;
}

static int cmd_routes(int argc, char **argv)
{
    struct args a;
    int rc = cli_parse(&cli_routes, &a, argc, argv);
    struct cet_entries e = {0};
    struct host *hosts = NULL;
    char *defaults = NULL, *routes_path = NULL;
    if (rc)
        goto done;
    char params[PATH_MAX + 64], shipped[PATH_MAX + 64], abs_shipped[PATH_MAX];
    struct cet_error err;
    if (a.params)
        snprintf(params, sizeof params, "%s", a.params);
    else if (cet_data_path(params, sizeof params, "params/score.json", &err)) {
        rc = cli_usage("routes", "%s; give one with -p", err.msg);
        goto done;
    }
    if ((rc = cli_readable(params)) || (rc = cli_shipped_config(shipped, sizeof shipped)))
        goto done;
    /* The routes file names the default by its absolute path: it is read
     * from wherever the routes file is. */
    if (!realpath(shipped, abs_shipped)) {
        cli_error("%s: %s", shipped, strerror(errno));
        rc = CLI_RUNTIME;
        goto done;
    }
    if (cet_corpus_scan(&e, a.dirs.v, a.dirs.n, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
        goto done;
    }
    if (mkdir(a.out, 0777) && errno != EEXIST) {
        cli_error("%s: cannot create directory: %s", a.out, strerror(errno));
        rc = CLI_RUNTIME;
        goto done;
    }
    routes_path = path_of(a.out, "routes.json", "");
    defaults = path_of(a.out, "defaults.json", "");
    hosts = calloc(e.n + 1, sizeof *hosts);
    if (!routes_path || !defaults || !hosts) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
        goto done;
    }
    if (!a.force && access(routes_path, F_OK) == 0) {
        cli_error("%s exists: give --force to tune again", routes_path);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = write_defaults(params, defaults)))
        goto done;
    size_t nh = 0;
    for (size_t i = 0; i < e.n; i++) {
        if (!nh || strcmp(hosts[nh - 1].name, e.v[i].package))
            hosts[nh++] = (struct host){.name = e.v[i].package, .first = i};
        hosts[nh - 1].pages++;
    }
    size_t tuned = 0;
    for (size_t i = 0; i < nh && !rc; i++) {
        struct host *h = &hosts[i];
        if (h->pages < (size_t)a.min_pages)
            continue;
        h->used = h->pages < (size_t)a.max_pages ? h->pages : (size_t)a.max_pages;
        fprintf(stderr, "cetune: tuning %s on %zu pages\n", h->name, h->used);
        rc = tune_host(&a, h, &e, params, abs_shipped, defaults);
        h->routed = h->tuned_ok && h->tuned > h->shipped;
        tuned += h->tuned_ok;
    }
    if (rc)
        goto done;
    if ((rc = write_routes(a.out, hosts, nh, abs_shipped)))
        goto done;
    printf("%-32s %7s %6s %9s %9s %8s  %s\n", "host", "pages", "used", "shipped", "tuned", "gain",
           "route");
    size_t routed = 0, small = 0;
    for (size_t i = 0; i < nh; i++) {
        const struct host *h = &hosts[i];
        if (!h->tuned_ok) {
            small++;
            printf("%-32s %7zu %6s %9s %9s %8s  %s\n", h->name, h->pages, "-", "-", "-", "-",
                   "default (too few pages)");
            continue;
        }
        routed += h->routed;
        printf("%-32s %7zu %6zu %9.4f %9.4f %+8.4f  %s\n", h->name, h->pages, h->used, h->shipped,
               h->tuned, h->tuned - h->shipped, h->routed ? "tuned" : "default (no gain)");
    }
    printf("(F1 against the pseudo-gold of each host's pages, docs/template.md)\n");
    fprintf(stderr, "cetune: %zu host%s tuned, %zu routed to their tuned configuration, %zu with "
            "fewer than %ld pages; wrote %s\n", tuned, cli_s(tuned), routed, small,
            a.min_pages, routes_path);
    rc = CLI_OK;
done:
    free(hosts);
    free(defaults);
    free(routes_path);
    cet_entries_free(&e);
    cli_list_free(&a.dirs);
    return rc;
}
