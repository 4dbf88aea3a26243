/* cetune: tunes web content-extraction algorithms with a genetic algorithm.
 * main only dispatches to the table of commands; each command's options
 * are the table in its cmd_NAME.c (cli.h, "Option tables"). */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "cetune/serve.h"
#include "cetune/version.h"
#ifdef CETUNE_MPI
#include <mpi.h>
#include <signal.h>

#include "cluster.h"
#endif
#include "cli.h"
#ifdef CETUNE_MPI
#include "extract_warc.h"
#endif

const struct cli_command *const cli_commands[] = {
    &cli_evolve, &cli_evaluate, &cli_extract, &cli_serve, &cli_label, &cli_sample, &cli_report,
    &cli_list, &cli_routes, NULL,
};

static void usage(FILE *f)
{
    fprintf(f, "usage: cetune COMMAND [OPTIONS]\n       cetune --version\n\ncommands:\n");
    for (size_t i = 0; cli_commands[i]; i++)
        fprintf(f, "  %-9s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(f, "\n'cetune COMMAND --help' shows a command's options.\n");
}

/* cetune and the libraries it runs with. */
static int version(void)
{
    const struct cet_version *v;
    size_t n = cet_versions(&v);
    for (size_t i = 0; i < n; i++)
        printf("%-14s %s\n", v[i].name, v[i].version);
    /* Opened by serve when it starts (src/serve/server.c): found or not. */
    char why[256];
    const char *mhd = cet_server_library(why, sizeof why);
    printf("%-14s %s%s\n", "libmicrohttpd", mhd ? mhd : "not found: ", mhd ? "" : why);
#ifdef CETUNE_MPI
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(mpi, &len);
    len = (int)strcspn(mpi, "\n,"); /* Open MPI's string goes on with its build details */
    printf("%-14s %.*s\n", "MPI", len, mpi);
#endif
    return CLI_OK; /* run() checks that it was written */
}

/* Whatever a command printed must have reached standard output (a full
 * disk, a closed pipe): otherwise exit 1, whatever the command returned. */
static int output_written(int rc)
{
    int e = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;
    if (!e)
        return rc;
    if (rc == CLI_OK) /* a command that failed has said why already */
        cli_error("cannot write to standard output: %s", strerror(e));
    return rc == CLI_OK ? CLI_RUNTIME : rc;
}

static int run_command(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version"))
        return version();
    /* Hidden: --man [FILE] writes the man page, for the build (CMakeLists.txt). */
    if (!strcmp(argv[1], "--man")) {
        FILE *f = argc > 2 ? fopen(argv[2], "w") : stdout;
        if (!f) {
            cli_error("%s: %s", argv[2], strerror(errno));
            return CLI_RUNTIME;
        }
        cli_print_man(f);
        if (f == stdout ? fflush(f) != 0 : fclose(f) != 0) {
            cli_error("cannot write the man page");
            return CLI_RUNTIME;
        }
        return CLI_OK;
    }
    /* Loading a corpus allocates and frees page-sized buffers (the page,
     * its decoded copy, the parser's) between the models it keeps.  glibc
     * raises its mmap threshold each time such a buffer is freed, after
     * which they come from the heap and leave holes there that the models
     * pin: 9 MB of the peak on the four dev corpora with 2 threads.  A
     * fixed threshold keeps them mapped, and gives them back on free. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    xmlInitParser();
    for (size_t i = 0; cli_commands[i]; i++)
        if (!strcmp(argv[1], cli_commands[i]->name)) {
            int rc = cli_commands[i]->run(argc - 1, argv + 1);
            xmlCleanupParser();
            return rc == CLI_DONE ? CLI_OK : rc;
        }
    fprintf(stderr, "cetune: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}

static int run(int argc, char **argv)
{
    return output_written(run_command(argc, argv));
}

#ifdef CETUNE_MPI
/* A task of rank 0's (extract --warc, extract_warc_mpi.c): this rank runs
 * the same command line for its share. */
static void run_task(struct cet_cluster *cl, const char *data, size_t len)
{
    cli_warc_follow(cl, data, len, run_command);
}

/* After a command that evaluated: what the ranks exchanged per evaluation
 * batch (a generation evaluates its new individuals in batches of up to
 * 16), rank 0 and the busiest other rank (docs/distributed.md,
 * "Communication"). */
static void print_traffic(struct cet_cluster *cl)
{
    int n = cet_cluster_size(cl);
    struct cet_cluster_traffic *t = calloc((size_t)n, sizeof *t);
    struct cet_error err;
    /* A single process (the MPI build run without mpirun) exchanged nothing. */
    if (n < 2 || !t || cet_cluster_traffic(cl, t, &err) || !t[0].batches) {
        free(t);
        return;
    }
    double b = (double)t[0].batches, sent = 0, recv = 0;
    for (int r = 1; r < n; r++) {
        sent = t[r].sent / b > sent ? t[r].sent / b : sent;
        recv = t[r].received / b > recv ? t[r].received / b : recv;
    }
    fprintf(stderr, "cetune: MPI traffic per evaluation batch (%d ranks, %llu batches, %llu "
            "configurations): rank 0 sent %.0f and received %.0f bytes", n,
            (unsigned long long)t[0].batches, (unsigned long long)t[0].configs, t[0].sent / b,
            t[0].received / b);
    fprintf(stderr, "; every other rank at most sent %.0f and received %.0f\n", sent, recv);
    free(t);
}

/* Under MPI rank 0 runs the command; the other ranks serve its evaluations
 * (cluster.h) and leave when it ends. */
int main(int argc, char **argv)
{
    struct cet_error err;
    struct cet_cluster *cli_cluster;
    if (cet_cluster_init(&cli_cluster, &argc, &argv, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    int rc = CLI_OK;
    cli_cluster_set(cli_cluster);
    cet_cluster_on_task(cli_cluster, run_task);
    if (cet_cluster_rank(cli_cluster) > 0) {
        /* Rank 0 decides when to stop: it checkpoints first, then ends every rank. */
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        xmlInitParser();
        if (cet_cluster_serve(cli_cluster, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
        }
        xmlCleanupParser();
    } else {
        rc = run(argc, argv);
        print_traffic(cli_cluster);
    }
    cet_cluster_end(cli_cluster);
    return rc;
}
#else
int main(int argc, char **argv)
{
    return run(argc, argv);
}
#endif
