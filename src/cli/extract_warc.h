/* cetune extract --warc (extract_warc.c; under mpirun extract_warc_mpi.c). */
#ifndef CETUNE_CLI_EXTRACT_WARC_H
#define CETUNE_CLI_EXTRACT_WARC_H

#include <stddef.h>
#include <stdio.h>

#include "cetune/config.h"
#include "cetune/routes.h"
#include "cetune/warc.h"
#include "cli.h"

struct cli_warc_job {
    const struct cet_config *cfg;    /* the configuration, or NULL with routes */
    const struct cet_routes *routes; /* --routes: each page's by its WARC-Target-URI */
    size_t max_body;                 /* a larger page is skipped as too large */
    int threads;                     /* 0: all cores */
    int argc;                        /* the command's arguments ("extract" first): */
    char *const *argv;               /* what the other MPI ranks run */
};

/* Prints the pages of the WARC files as JSON Lines, in record order, and
 * the counts of what was passed over on stderr.  Returns CLI_OK, or
 * CLI_RUNTIME when a record was corrupt, a page failed or a file was
 * unreadable (every other record still printed), or the run could not go on. */
int cli_extract_warc(const struct cli_warc_job *job, char *const *files, size_t nfiles);

/* What a part of the files gave. */
struct cli_warc_totals {
    size_t records, kinds[CET_WARC_NKINDS], corrupt, failed, files_failed;
};
/* Where a part's pages and messages go: stdout and stderr (msgs NULL), or
 * spool files; out_name names out in a message. */
struct cli_warc_sink {
    FILE *out, *msgs;
    const char *out_name;
};
/* The pages of the files into s, adding to *t: 0, or CLI_RUNTIME when the
 * run cannot go on (the files after the one it stopped in are not read). */
int cli_warc_part(const struct cli_warc_job *job, char *const *files, size_t nfiles,
                  const struct cli_warc_sink *s, struct cli_warc_totals *t);
/* Flushes stdout and prints the counts: the command's exit status. */
int cli_warc_finish(const struct cli_warc_totals *t, size_t nfiles, int rc);

#ifdef CETUNE_MPI
#include "cluster.h"
/* cli_extract_warc over the ranks: the same output, on rank 0. */
int cli_extract_warc_mpi(const struct cli_warc_job *job, char *const *files, size_t nfiles);
/* The other ranks' side: runs rank 0's command line (the task's bytes:
 * NUL-terminated arguments) with run, silently, to do this rank's share. */
void cli_warc_follow(struct cet_cluster *cl, const char *data, size_t len,
                     int (*run)(int argc, char **argv));
#endif

#endif
