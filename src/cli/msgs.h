/* Diagnostics on stderr, "cetune: ..." (msgs.c); usage errors are
 * cli_usage's (options.h). */
#ifndef CETUNE_CLI_MSGS_H
#define CETUNE_CLI_MSGS_H

#include <stdarg.h>

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "cetune: ", prefix ("warning: " or ""), the message and a newline. */
void cli_vmessage(const char *prefix, const char *fmt, va_list ap);

#endif
