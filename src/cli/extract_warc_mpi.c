/* cetune extract --warc under mpirun (docs/warc.md, docs/distributed.md):
 * the files are spread over the ranks, the output is the single process's.
 *
 * Rank 0 hands its command line to the other ranks (cet_cluster_task),
 * which run it silently up to cli_extract_warc, so every rank has the same
 * configuration, routes and ad-host list without sending them.  Rank 0
 * splits the files into one contiguous range per rank, balanced by bytes
 * (cet_shard_plan, as evaluate shards documents).  Every rank extracts its
 * range with its threads at the same time: rank 0 prints its own as it
 * goes, the others write theirs to spool files (tmpfile(): $TMPDIR), so
 * memory stays flat.  Rank 0 then receives each other rank's spools in
 * rank order, in blocks of CHUNK bytes, and prints them: the files' pages
 * come out in the order of the files and of their records, byte for byte
 * what one process prints, and the counts are summed. */
#ifdef CETUNE_MPI
#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/buf.h"
#include "extract_warc.h"
#include "msgs.h"

#define CHUNK (1u << 20)
#define TAG_PART 4471 /* tags of the task's own point-to-point messages */
#define TAG_DATA 4472

/* What a rank tells rank 0 about its part, before its spools' bytes. */
struct part_head {
    uint64_t rc, out_bytes, msg_bytes;
    uint64_t records, kinds[CET_WARC_NKINDS], corrupt, failed, files_failed;
    char error[512]; /* why the rank could not do its part ("" if it could) */
};

/* Set when this rank's command reached cli_extract_warc_mpi: a rank whose
 * command stopped before still answers the roll call (cli_warc_follow). */
static int joined;

/* Every rank: 1 from a rank that runs its part, 0 from one that cannot;
 * returns the first rank that cannot (to every rank), or -1. */
static int roll_call(int here)
{
    int rank, size, missing = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *all = rank == 0 ? malloc((size_t)size * sizeof *all) : NULL;
    if (rank == 0 && !all) /* rank 0 out of memory for a few ints: the job is done for */
        MPI_Abort(MPI_COMM_WORLD, 12);
    MPI_Gather(&here, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size && missing < 0; r++)
        if (!all[r])
            missing = r;
    free(all);
    MPI_Bcast(&missing, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return missing;
}

/* Rank 0: the files' ranges; every rank gets first[0 .. size]. */
static void plan(uint64_t *first, char *const *files, size_t nfiles, int rank, int size)
{
    if (rank == 0) {
        uint64_t *cost = calloc(nfiles ? nfiles : 1, sizeof *cost);
        size_t *f = calloc((size_t)size + 1, sizeof *f);
        if (!cost || !f)
            MPI_Abort(MPI_COMM_WORLD, 12);
        for (size_t i = 0; i < nfiles; i++) {
            struct stat sb;
            /* A file rank 0 cannot see costs little: its rank says why it fails. */
            cost[i] = 1 + (stat(files[i], &sb) == 0 ? (uint64_t)sb.st_size : 0);
        }
        cet_shard_plan(cost, nfiles, size, f);
        for (int r = 0; r <= size; r++)
            first[r] = f[r];
        free(cost);
        free(f);
    }
    MPI_Bcast(first, size + 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

static void totals_to_head(struct part_head *h, const struct cli_warc_totals *t)
{
    h->records = t->records;
    for (int k = 0; k < CET_WARC_NKINDS; k++)
        h->kinds[k] = t->kinds[k];
    h->corrupt = t->corrupt;
    h->failed = t->failed;
    h->files_failed = t->files_failed;
}

static void add_head(struct cli_warc_totals *t, const struct part_head *h)
{
    t->records += h->records;
    for (int k = 0; k < CET_WARC_NKINDS; k++)
        t->kinds[k] += h->kinds[k];
    t->corrupt += h->corrupt;
    t->failed += h->failed;
    t->files_failed += h->files_failed;
}

/* Sends n bytes of the spool f to rank 0 in CHUNK blocks (rank 0 cuts
 * them the same way). */
static void send_spool(FILE *f, uint64_t n, char *buf)
{
    if (f)
        rewind(f);
    for (uint64_t at = 0; at < n;) {
        size_t k = n - at < CHUNK ? (size_t)(n - at) : CHUNK;
        if (fread(buf, 1, k, f) != k) {
            /* rank 0 was promised these bytes and would print a hole */
            fprintf(stderr, "cetune: cannot read back a spool file: %s\n", strerror(errno));
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Send(buf, (int)k, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
        at += k;
    }
}

/* A spool's size after writing it, or -1 when it could not be written. */
static long spool_size(FILE *f)
{
    return f && fflush(f) == 0 && !ferror(f) ? ftell(f) : -1;
}

/* Ranks other than 0: the part into spools, then to rank 0. */
static void worker_part(const struct cli_warc_job *job, char *const *files, size_t nfiles,
                        int rank, char *buf)
{
    struct part_head h = {0};
    struct cli_warc_totals t = {0};
    FILE *out = tmpfile(), *msgs = tmpfile();
    long nout = -1, nmsg = -1;
    if (!out || !msgs) {
        snprintf(h.error, sizeof h.error, "rank %d: cannot create a spool file: %s", rank,
                 strerror(errno));
        h.rc = CLI_RUNTIME;
    } else {
        struct cli_warc_sink s = {out, msgs, "a spool file"};
        h.rc = (uint64_t)cli_warc_part(job, files, nfiles, &s, &t);
        totals_to_head(&h, &t);
        nout = spool_size(out);
        nmsg = spool_size(msgs);
        if (nout < 0 || nmsg < 0) {
            snprintf(h.error, sizeof h.error, "rank %d: cannot write its spool files: %s", rank,
                     strerror(errno));
            h.rc = CLI_RUNTIME;
            nout = nmsg = -1;
        }
    }
    h.out_bytes = nout < 0 ? 0 : (uint64_t)nout;
    h.msg_bytes = nmsg < 0 ? 0 : (uint64_t)nmsg;
    MPI_Send(&h, sizeof h, MPI_BYTE, 0, TAG_PART, MPI_COMM_WORLD);
    send_spool(out, h.out_bytes, buf);
    send_spool(msgs, h.msg_bytes, buf);
    if (out)
        fclose(out);
    if (msgs)
        fclose(msgs);
}

/* Rank 0: receives n bytes from rank r and writes them to f when f is not
 * NULL; -1 when f could not be written. */
static int take_spool(int r, uint64_t n, FILE *f, char *buf)
{
    int bad = 0;
    for (uint64_t at = 0; at < n;) {
        size_t k = n - at < CHUNK ? (size_t)(n - at) : CHUNK;
        MPI_Recv(buf, (int)k, MPI_BYTE, r, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (f && !bad && fwrite(buf, 1, k, f) != k)
            bad = -1;
        at += k;
    }
    return bad;
}

int cli_extract_warc_mpi(const struct cli_warc_job *job, char *const *files, size_t nfiles)
{
    struct cet_cluster *cl = cli_cluster_get();
    int rank = cet_cluster_rank(cl), size = cet_cluster_size(cl);
    joined = 1;
    if (rank == 0) {
        /* The command line, NUL-terminated arguments, to the other ranks. */
        struct cet_buf args = {0};
        struct cet_error err;
        for (int i = 0; i < job->argc; i++)
            if (cet_buf_add(&args, job->argv[i], strlen(job->argv[i]) + 1)) {
                cet_buf_free(&args);
                cli_error("out of memory");
                return CLI_RUNTIME;
            }
        int bad = cet_cluster_task(cl, args.p, args.len, &err);
        cet_buf_free(&args);
        if (bad) {
            cli_error("%s", err.msg);
            return CLI_RUNTIME;
        }
    }
    int missing = roll_call(1);
    if (missing >= 0) {
        if (rank == 0)
            cli_error("rank %d could not start 'extract --warc' with rank 0's arguments (every "
                      "rank must see the configuration, routes and WARC files at the same paths)",
                      missing);
        return CLI_RUNTIME;
    }
    uint64_t *first = calloc((size_t)size + 1, sizeof *first);
    char *buf = malloc(CHUNK);
    if (!first || !buf) /* a rank out of memory for a megabyte: the job is done for */
        MPI_Abort(MPI_COMM_WORLD, 12);
    plan(first, files, nfiles, rank, size);
    char *const *mine = files + first[rank];
    size_t nmine = (size_t)(first[rank + 1] - first[rank]);
    int rc = 0;
    if (rank > 0) {
        worker_part(job, mine, nmine, rank, buf);
    } else {
        /* Rank 0's range comes first: printed as it goes. */
        struct cli_warc_sink s = {stdout, NULL, "standard output"};
        struct cli_warc_totals t = {0};
        rc = cli_warc_part(job, mine, nmine, &s, &t);
        for (int r = 1; r < size; r++) {
            /* After a part that stopped the run, the single process would
             * not have read the later files: their parts are taken, not
             * printed. */
            struct part_head h;
            MPI_Recv(&h, sizeof h, MPI_BYTE, r, TAG_PART, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            h.error[sizeof h.error - 1] = 0;
            int print = !rc;
            int out_bad = take_spool(r, h.out_bytes, print ? stdout : NULL, buf);
            take_spool(r, h.msg_bytes, print ? stderr : NULL, buf);
            if (!print)
                continue;
            if (h.error[0])
                cli_error("%s", h.error);
            add_head(&t, &h);
            if (h.rc)
                rc = (int)h.rc;
            if (out_bad && !rc) {
                cli_error("cannot write to standard output: %s", strerror(errno));
                rc = CLI_RUNTIME;
            }
        }
        rc = cli_warc_finish(&t, nfiles, rc);
        /* How the files were spread (only under mpirun: the lines above are
         * the single process's). */
        fprintf(stderr, "cetune: MPI: %zu file%s spread over %d ranks by bytes:", nfiles,
                cli_s(nfiles), size);
        for (int r = 0; r < size; r++)
            fprintf(stderr, "%s %llu", r ? "," : "", (unsigned long long)(first[r + 1] - first[r]));
        fprintf(stderr, " file%s\n", cli_s(nfiles));
    }
    free(first);
    free(buf);
    return rc;
}

void cli_warc_follow(struct cet_cluster *cl, const char *data, size_t len,
                     int (*run)(int argc, char **argv))
{
    (void)cl;
    /* "cetune", then the arguments */
    int argc = 1;
    for (size_t i = 0; i < len; i++)
        argc += data[i] == 0;
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    if (!argv)
        MPI_Abort(MPI_COMM_WORLD, 12);
    argv[0] = "cetune";
    for (size_t i = 0, k = 1; i < len; i += strlen(data + i) + 1)
        argv[k++] = (char *)data + i;
    cli_silent = 1;
    joined = 0;
    run(argc, argv);
    if (!joined) /* the command stopped before its part: rank 0 says so */
        roll_call(0);
    free(argv);
}
#endif
