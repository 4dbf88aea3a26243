/* Shared front-end pieces: messages, numbers, configurations, corpora. */
#include "cli.h"

#include "cetune/adhosts.h"
#include "cetune/buf.h"
#include "cetune/eval.h"
#include "cetune/guard.h"
#include "cetune/run.h"
#include "cetune/serve.h"
#include "util/array.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *cli_command_line(int argc, char **argv)
{
    struct cet_buf b = {0};
    int bad = cet_buf_puts(&b, "cetune");
    for (int i = 0; i < argc && !bad; i++)
        bad = cet_buf_shell_word(&b, argv[i]);
    if (bad) {
        cet_buf_free(&b);
        return NULL;
    }
    return b.p;
}

int cli_configs_opt(const char *cmd, const struct cli_opt *o, void *field, const char *arg)
{
    struct cli_configs *c = field;
    struct cet_error err;
    int opt = o->letter;
    if (opt == 'P') {
        if (!c->n)
            return cli_usage(cmd, "-P %s must follow -x EXTRACTOR or -c CONFIG.json", arg);
        if (cet_config_set(&c->v[c->n - 1], arg, &err))
            return cli_usage(cmd, "-P: %s", err.msg);
        return 0;
    }
    size_t vcap = c->cap, fcap = c->cap; /* one capacity for both */
    if (CET_GROW(c->v, vcap, c->n + 1, 4) || CET_GROW(c->files, fcap, c->n + 1, 4)) {
        cli_error("out of memory");
        return CLI_RUNTIME;
    }
    c->cap = vcap;
    int rc;
    if (opt == 'x') {
        if (cet_config_default(&c->v[c->n], arg, &err))
            return cli_usage(cmd, "%s", err.msg);
    } else if ((rc = cli_readable(arg))) {
        return rc;
    } else if (cet_config_load(&c->v[c->n], arg, &err)) {
        cli_error("%s", err.msg);
        return CLI_USAGE;
    }
    c->files[c->n++] = opt == 'x' ? NULL : arg;
    return 0;
}

int cli_readable(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) || S_ISDIR(st.st_mode)) {
        cli_error("%s: %s", path, fd < 0 ? strerror(errno) : "is a directory");
        if (fd >= 0)
            close(fd);
        return CLI_RUNTIME;
    }
    close(fd);
    return 0;
}

void cli_configs_free(struct cli_configs *c)
{
    for (size_t i = 0; i < c->n; i++)
        cet_config_free(&c->v[i]);
    free(c->v);
    free(c->files);
    memset(c, 0, sizeof *c);
}

/* Prints the skipped documents and the summary of a loaded corpus; fails
 * when nothing is usable. */
void cli_print_skips(const struct cet_corpus *c)
{
    for (size_t i = 0; i < c->nskips; i++)
        fprintf(stderr, "cetune: skipped %s: %s\n", c->skips[i].path, c->skips[i].reason);
}

static int report_corpus(struct cet_corpus *c)
{
    cli_print_skips(c);
    fprintf(stderr, "cetune: loaded %zu document%s in %zu package%s (%.1f MB of HTML), skipped %zu\n",
            c->ndocs, cli_s(c->ndocs), c->npkgs, cli_s(c->npkgs), (double)c->bytes / 1e6, c->nskips);
    if (!c->ndocs) {
        cli_error("no usable documents left");
        cet_corpus_free(c);
        return CLI_RUNTIME;
    }
    return 0;
}

int cli_load_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                    size_t ndirs, const char *sample, unsigned flags, int threads,
                    const struct cet_backend *be)
{
    struct cet_error err;
    if (cet_corpus_load_dirs(c, e, dirs, ndirs, sample, flags, threads, be, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    return report_corpus(c);
}

int cli_sample_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                      size_t ndirs, size_t n, uint64_t seed, int by_package, unsigned flags,
                      int threads, const struct cet_backend *be)
{
    struct cet_error err;
    size_t drawn, replaced;
    if (cet_sample_load(c, e, dirs, ndirs, n, seed, by_package, flags, threads, be, &drawn,
                        &replaced, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    if (drawn < n)
        cli_warn("the corpora have only %zu usable documents; the sample takes them all", drawn);
    if (replaced)
        fprintf(stderr, "cetune: drawing %zu replacement%s for the skipped documents\n", replaced,
                replaced == 1 ? "" : "s");
    return report_corpus(c);
}

int cli_guard_new(struct cet_guard **g, const char *const *dirs, size_t ndirs)
{
    struct cet_error err;
    if (!(*g = cet_guard_new())) {
        cli_error("out of memory");
        return CLI_RUNTIME;
    }
    if (cet_guard_corpora(*g, dirs, ndirs, &err)) {
        cli_error("%s", err.msg);
        cet_guard_free(*g);
        *g = NULL;
        return CLI_RUNTIME;
    }
    return 0;
}

int cli_guard_check(struct cet_guard *g, const char *opt, const char *path, int is_dir)
{
    struct cet_error err;
    if (is_dir ? cet_guard_dir(g, path, &err) : cet_guard_file(g, path, &err)) {
        cli_error("%s: %s", opt, err.msg);
        return CLI_RUNTIME;
    }
    return 0;
}

int cli_refuse_existing(const char *opt, const char *path, int force)
{
    struct stat st;
    if (force || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    cli_error("%s: %s exists; use --force to overwrite it", opt, path);
    return CLI_RUNTIME;
}

int cli_guard_output(const char *const *dirs, size_t ndirs, const char *opt, const char *path,
                     int is_dir)
{
    struct cet_guard *g;
    int rc = cli_guard_new(&g, dirs, ndirs);
    if (!rc)
        rc = cli_guard_check(g, opt, path, is_dir);
    cet_guard_free(g);
    return rc;
}

volatile sig_atomic_t cli_signal;

static void on_signal(int sig)
{
    if (!cli_signal || sig != SIGPIPE)
        cli_signal = sig;
}

void cli_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A closed pipe (evolve ... 2>&1 | head -1) ends the run like SIGTERM
     * does, recording where it stopped, instead of killing it silently; the
     * handler stays, so later writes to the pipe just fail. */
    sa.sa_flags = SA_RESTART;
    sigaction(SIGPIPE, &sa, NULL);
}

int cli_cancelled(void *ctx)
{
    (void)ctx;
    return cli_signal != 0;
}

const char *cli_signal_name(void)
{
    return cli_signal == SIGINT ? "SIGINT" : cli_signal == SIGPIPE ? "SIGPIPE" : "SIGTERM";
}

int cli_adhosts(const char *opt)
{
    struct cet_error err;
    const char *env = getenv("CETUNE_ADHOSTS");
    const char *path = opt ? opt : env && *env ? env : NULL;
    int rc = path ? cli_readable(path) : 0;
    if (!rc && path && cet_adhosts_use_file(path, &err)) {
        cli_error("%s: %s", opt ? "--adhosts" : "CETUNE_ADHOSTS", err.msg);
        rc = CLI_USAGE;
    }
    if (rc && !opt)
        cli_error("the file comes from the environment variable CETUNE_ADHOSTS");
    return rc;
}

int cli_template_scan(struct cet_entries *e, const char *const *dirs, size_t ndirs,
                      struct cli_list *refs, const struct cet_params_desc *defaults, char *buf,
                      size_t size, int threads, unsigned *flags)
{
    struct cet_error err;
    int rc;
    if (!refs->n) {
        if ((rc = cli_shipped_config(buf, size)))
            return rc;
        if (cli_list_add(refs, buf)) {
            cli_error("out of memory");
            return CLI_RUNTIME;
        }
    }
    fprintf(stderr, "cetune: pseudo-gold from each family's repetition for the pages without "
                    "gold, correcting %s", defaults ? "the description's defaults" : refs->v[0]);
    for (size_t i = !defaults; i < refs->n; i++)
        fprintf(stderr, "%s%s", i + 1 == refs->n ? " and " : ", ", refs->v[i]);
    fprintf(stderr, "\n");
    if (cet_template_scan(e, dirs, ndirs, refs->v, refs->n, defaults, threads, &err)) {
        cli_error("--fitness template: %s", err.msg);
        return CLI_RUNTIME;
    }
    *flags |= CET_LOAD_SCANNED;
    return 0;
}

int cli_shipped_config(char *out, size_t size)
{
    struct cet_error err;
    const char *env = getenv("CETUNE_CONFIG");
    /* A file that is missing or unreadable is a runtime error (exit 1), as
     * for -c and CETUNE_ADHOSTS, wherever its name came from. */
    if (env && *env && cli_readable(env)) {
        cli_error("the file comes from the environment variable CETUNE_CONFIG");
        return CLI_RUNTIME;
    }
    if (cet_config_shipped_path(out, size, env, &err) == 0)
        return 0;
    cli_error(env && *env ? "CETUNE_CONFIG: %s" : "%s; or set CETUNE_CONFIG to one", err.msg);
    return CLI_RUNTIME;
}

int cli_parse_listen(const char *cmd, const struct cli_opt *o, void *field, const char *arg)
{
    struct cet_error err;
    (void)o;
    if (cet_listen_check(arg, &err))
        return cli_usage(cmd, "--listen: %s", err.msg);
    *(const char **)field = arg;
    return 0;
}

void cli_server_signals(sigset_t *sigs)
{
    sigemptyset(sigs);
    sigaddset(sigs, SIGHUP);
    sigaddset(sigs, SIGTERM);
    sigaddset(sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, sigs, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int cli_is_tty(void)
{
    return isatty(STDERR_FILENO);
}

