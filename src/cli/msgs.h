/* Diagnostics on stderr, "cetune: ..." (msgs.c); usage errors are
 * cli_usage's (options.h). */
#ifndef CETUNE_CLI_MSGS_H
#define CETUNE_CLI_MSGS_H

#include <stdarg.h>
#include <stdio.h>

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "cetune: ", prefix ("warning: " or ""), the message and a newline, on
 * stderr (cli_vmessage) or f. */
void cli_vmessage(const char *prefix, const char *fmt, va_list ap);
void cli_vmessage_to(FILE *f, const char *prefix, const char *fmt, va_list ap);

/* Set on MPI ranks other than 0, which run rank 0's command line for their
 * share of the work (extract_warc_mpi.c): rank 0 says everything, so their
 * cli_vmessage prints nothing. */
extern int cli_silent;

#endif
