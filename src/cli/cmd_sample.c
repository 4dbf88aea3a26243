/* cetune sample: writes a seeded training sample (one PACKAGE/NAME per
 * line), drawn in proportion to the packages (or with the same share per
 * package with --by-package).  It is the very sample `cetune evolve
 * --sample-size N --seed S` trains on, so a sample can be inspected or
 * fixed before a run and reused with -s. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/run.h"
#include "cli.h"

struct args {
    struct cli_list dirs;
    long n, threads;
    uint64_t seed;
    int by_package, force;
    const char *out;
};
#define ARG(field) offsetof(struct args, field)

static void init(void *p)
{
    struct args *a = p;
    a->seed = 1;
}

/* The option table (cli.h): one row per option. */
static const struct cli_opt options[] = {
    {.name = "dir", .letter = 'd', .arg = "CORPUS", .type = CLI_LIST, .off = ARG(dirs),
     .flags = CLI_REQ | CLI_MANY, .help = "a corpus directory; repeatable"},
    {.name = "size", .letter = 'n', .arg = "N", .type = CLI_LONG, .off = ARG(n), .min = 1,
     .max = 100000000, .flags = CLI_REQ, .help = "documents to draw"},
    {.name = "seed", .arg = "S", .type = CLI_SEED, .off = ARG(seed),
     .help = "the seed of the draw (the run seed of evolve --sample-size)"},
    {.name = "by-package", .type = CLI_FLAG, .off = ARG(by_package),
     .help = "the same number of documents per package, not in proportion to their sizes"},
    {.name = "output", .letter = 'o', .arg = "FILE", .type = CLI_STR, .off = ARG(out),
     .flags = CLI_REQ, .help = "the sample file to write (- for standard output)"},
    {.name = "force", .type = CLI_FLAG, .off = ARG(force), .help = "overwrite an existing FILE"},
    {.name = "threads", .arg = "N", .type = CLI_LONG, .off = ARG(threads), .max = 1024,
     .help = "threads that load the documents; 0: all cores"},
    {0}};

static int cmd_sample(int argc, char **argv);
const struct cli_command cli_sample = {
    .name = "sample", .run = cmd_sample, .opts = options, .size = sizeof(struct args),
    .init = init, .summary = "draw a seeded training sample, in proportion to the packages",
    .about = "Writes one PACKAGE/NAME per line: exactly the sample that evolve --sample-size N "
             "--seed S draws.\nDocuments without gold are never drawn; unreadable ones are "
             "replaced by the next of their package."};

static int cmd_sample(int argc, char **argv)
{
    struct args a;
    int rc = cli_parse(&cli_sample, &a, argc, argv);
    struct cli_list dirs = a.dirs;
    struct cet_corpus corpus = {0};
    struct cet_entries entries = {0};
    struct cet_buf text = {0};
    const char *out = a.out;
    long n = a.n, threads = a.threads;
    uint64_t seed = a.seed;
    int by_package = a.by_package, force = a.force;
    if (rc)
        goto done;
    if (!dirs.n) {
        rc = cli_usage("sample", "give at least one corpus with -d CORPUS");
        goto done;
    }
    if (n <= 0) {
        rc = cli_usage("sample", "give the sample size with -n N (at least 1)");
        goto done;
    }
    if (!out) {
        rc = cli_usage("sample", "give the sample file with -o FILE (- for standard output)");
        goto done;
    }
    if (strcmp(out, "-") && (rc = cli_guard_output(dirs.v, dirs.n, "-o", out, 0)))
        goto done;
    struct stat st;
    /* A device or FIFO is written through (cet_write_atomic): nothing to lose. */
    if (strcmp(out, "-") && !force && stat(out, &st) == 0 && !S_ISCHR(st.st_mode) &&
        !S_ISFIFO(st.st_mode)) {
        cli_error("%s exists; use --force to overwrite it", out);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_sample_corpus(&corpus, &entries, dirs.v, dirs.n, (size_t)n, seed, by_package,
                                0, (int)threads, NULL)))
        goto done;
    int bad = cet_buf_printf(&text, "# cetune sample -n %ld --seed %llu%s:", n,
                             (unsigned long long)seed, by_package ? " --by-package" : "");
    for (size_t k = 0; k < corpus.npkgs && !bad; k++)
        bad = cet_buf_printf(&text, " %s %u", corpus.pkgs[k].name, corpus.pkgs[k].count);
    bad = bad || cet_buf_puts(&text, "\n") || cet_sample_format(&text, &corpus);
    if (bad) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
        goto done;
    }
    if (!strcmp(out, "-")) {
        fwrite(text.p, 1, text.len, stdout);
    } else {
        struct cet_error err;
        char *parent = strdup(out), *slash = parent ? strrchr(parent, '/') : NULL;
        int bad = !parent;
        if (bad)
            cli_error("out of memory");
        else if (slash && slash != parent) {
            *slash = 0;
            if ((bad = cet_mkdirs(parent) != 0))
                cli_error("%s: cannot create directory: %s", parent, strerror(errno));
        }
        free(parent);
        if (bad) {
            rc = CLI_RUNTIME;
            goto done;
        }
        if (cet_write_atomic(out, text.p, text.len, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
            goto done;
        }
        printf("%s: %zu document%s from %zu package%s (", out, corpus.ndocs, cli_s(corpus.ndocs),
               corpus.npkgs, cli_s(corpus.npkgs));
        for (size_t k = 0; k < corpus.npkgs; k++)
            printf("%s%s %u", k ? ", " : "", corpus.pkgs[k].name, corpus.pkgs[k].count);
        printf("), seed %llu\n", (unsigned long long)seed);
    }
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        rc = CLI_RUNTIME;
    }
done:
    cli_list_free(&dirs);
    cet_corpus_free(&corpus);
    cet_entries_free(&entries);
    cet_buf_free(&text);
    return rc;
}
