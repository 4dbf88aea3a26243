/* cetune extract --warc (extract_warc.c). */
#ifndef CETUNE_CLI_EXTRACT_WARC_H
#define CETUNE_CLI_EXTRACT_WARC_H

#include <stddef.h>

#include "cetune/config.h"
#include "cetune/routes.h"
#include "cli.h"

struct cli_warc_job {
    const struct cet_config *cfg;    /* the configuration, or NULL with routes */
    const struct cet_routes *routes; /* --routes: each page's by its WARC-Target-URI */
    size_t max_body;                 /* a larger page is skipped as too large */
    int threads;                     /* 0: all cores */
};

/* Prints the pages of the WARC files as JSON Lines, in record order, and
 * the counts of what was passed over on stderr.  Returns CLI_OK, or
 * CLI_RUNTIME when a record was corrupt, a page failed or a file was
 * unreadable (every other record still printed), or the run could not go on. */
int cli_extract_warc(const struct cli_warc_job *job, char *const *files, size_t nfiles);

#endif
