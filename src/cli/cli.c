/* Shared front-end pieces: messages, numbers, configurations, corpora. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_list_add(struct cli_list *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        const char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

void cli_list_free(struct cli_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
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
            return cli_usage(cmd, "%s", err.msg);
        return 0;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4;
        struct cet_config *v = realloc(c->v, cap * sizeof *v);
        const char **files = v ? realloc(c->files, cap * sizeof *files) : NULL;
        if (v)
            c->v = v;
        if (!v || !files) {
            cli_error("out of memory");
            return CLI_RUNTIME;
        }
        c->files = files;
        c->cap = cap;
    }
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

int cli_load_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                    size_t ndirs, const char *sample, int threads)
{
    struct cet_error err;
    memset(c, 0, sizeof *c);
    if (cet_corpus_scan(e, dirs, ndirs, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    uint8_t *want = NULL;
    if (sample) {
        char **names;
        size_t n;
        want = malloc(e->n ? e->n : 1);
        if (!want || cet_sample_read(&names, &n, sample, &err)) {
            cli_error("%s", want ? err.msg : "out of memory");
            free(want);
            return CLI_RUNTIME;
        }
        int rc = cet_sample_select(want, e, names, n, sample, &err);
        cet_sample_free(names, n);
        if (rc) {
            cli_error("%s", err.msg);
            free(want);
            return CLI_RUNTIME;
        }
    }
    int rc = cli_load_want(c, e, want, threads);
    free(want);
    return rc;
}

int cli_load_want(struct cet_corpus *c, const struct cet_entries *e, const uint8_t *want,
                  int threads)
{
    struct cet_error err;
    if (cet_corpus_load(c, e, want, threads, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    for (size_t i = 0; i < c->nskips; i++)
        fprintf(stderr, "cetune: skipped %s: %s\n", c->skips[i].path, c->skips[i].reason);
    fprintf(stderr, "cetune: loaded %zu documents in %zu packages (%.1f MB of HTML), skipped %zu\n",
            c->ndocs, c->npkgs, (double)c->bytes / 1e6, c->nskips);
    if (!c->ndocs) {
        cli_error("no usable documents left");
        cet_corpus_free(c);
        return CLI_RUNTIME;
    }
    return 0;
}

int cli_is_tty(void)
{
    return isatty(STDERR_FILENO);
}

