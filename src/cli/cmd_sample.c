/* cetune sample: writes a seeded training sample (one PACKAGE/NAME per
 * line), drawn in proportion to the packages (or with the same share per
 * package with --by-package).  It is the very sample `cetune evolve
 * --sample-size N --seed S` trains on, so a sample can be inspected or
 * fixed before a run and reused with -s. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/ga.h"
#include "cli.h"

int cli_sample_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                      size_t ndirs, size_t n, uint64_t seed, int by_package, int threads)
{
    struct cet_error err;
    memset(c, 0, sizeof *c);
    if (cet_corpus_scan(e, dirs, ndirs, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    uint8_t *want = malloc(e->n ? e->n : 1), *usable = malloc(e->n ? e->n : 1);
    int rc = CLI_RUNTIME;
    if (!want || !usable) {
        cli_error("out of memory");
        goto done;
    }
    for (size_t i = 0; i < e->n; i++)
        usable[i] = !e->v[i].gold_missing;
    for (;;) {
        size_t drawn;
        if (cet_sample_draw(want, e, usable, n, seed, by_package, &drawn, &err)) {
            cli_error("%s", err.msg);
            goto done;
        }
        if (drawn < n)
            cli_warn("the corpora have only %zu usable documents; the sample takes them all", drawn);
        if ((rc = cli_load_want(c, e, want, threads)))
            goto done;
        if (!c->nskips)
            break;
        /* Unusable documents leave the draw; their packages take the next ones. */
        size_t marked = 0;
        for (size_t k = 0; k < c->nskips; k++)
            for (size_t i = 0; i < e->n; i++)
                if (want[i] && usable[i] && !strcmp(e->v[i].html_path, c->skips[k].path)) {
                    usable[i] = 0;
                    marked++;
                }
        if (!marked)
            break;
        fprintf(stderr, "cetune: drawing %zu replacement%s for the skipped documents\n", marked,
                marked == 1 ? "" : "s");
        cet_corpus_free(c);
    }
    rc = 0;
done:
    free(want);
    free(usable);
    return rc;
}

int cmd_sample(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"dir", required_argument, NULL, 'd'},  {"size", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 'S'}, {"by-package", no_argument, NULL, 'b'},
        {"output", required_argument, NULL, 'o'}, {"force", no_argument, NULL, 'f'},
        {"threads", required_argument, NULL, 't'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    struct cli_list dirs = {0};
    struct cet_corpus corpus = {0};
    struct cet_entries entries = {0};
    struct cet_buf text = {0};
    const char *out = NULL;
    long n = -1, threads = 0;
    uint64_t seed = 1;
    int by_package = 0, force = 0, rc = CLI_OK, opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":d:n:o:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'd':
            if (cli_list_add(&dirs, optarg)) {
                cli_error("out of memory");
                rc = CLI_RUNTIME;
                goto done;
            }
            break;
        case 'n':
            if ((rc = cli_uint("sample", "-n", optarg, 100000000, &n)))
                goto done;
            break;
        case 'S':
            if ((rc = cli_seed("sample", optarg, &seed)))
                goto done;
            break;
        case 'b': by_package = 1; break;
        case 'o': out = optarg; break;
        case 'f': force = 1; break;
        case 't':
            if ((rc = cli_uint("sample", "--threads", optarg, 1024, &threads)))
                goto done;
            break;
        case 'h':
            cli_help("sample");
            goto done;
        default:
            rc = cli_bad_option("sample", opt, argv);
            goto done;
        }
    }
    if (optind < argc) {
        rc = cli_usage("sample", "unexpected argument '%s'", argv[optind]);
        goto done;
    }
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
    struct stat st;
    if (strcmp(out, "-") && !force && stat(out, &st) == 0) {
        cli_error("%s exists; use --force to overwrite it", out);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_sample_corpus(&corpus, &entries, dirs.v, dirs.n, (size_t)n, seed, by_package,
                                (int)threads)))
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
        char parent[4096];
        snprintf(parent, sizeof parent, "%s", out);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = 0;
            if (cli_mkdirs(parent)) {
                cli_error("%s: cannot create directory: %s", parent, strerror(errno));
                rc = CLI_RUNTIME;
                goto done;
            }
        }
        if (cet_write_atomic(out, text.p, text.len, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
            goto done;
        }
        printf("%s: %zu documents from %zu packages (", out, corpus.ndocs, corpus.npkgs);
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
