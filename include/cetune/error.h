/* Error values: functions below the CLI return 0 on success or -1 and fill a
 * caller-owned struct cet_error; only src/cli prints it, once, at the edge.
 * Out of memory says so ("out of memory", with what was being done when
 * that helps); nothing falls back silently to another algorithm or to a
 * partial file.  The one exception: a function whose only possible failure
 * is out of memory may take no struct cet_error and return -1 (its comment
 * says so); its caller then fills the error. */
#ifndef CETUNE_ERROR_H
#define CETUNE_ERROR_H

#include <stddef.h>

struct cet_error {
    char msg[1024];
};

/* Formats the message into err (if non-NULL) and returns -1, so callers can
 * write `return cet_fail(err, "...")`. */
int cet_fail(struct cet_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Line and column (1-based) of byte offset off in text, for file:line:col messages. */
void cet_line_col(const char *text, size_t off, int *line, int *col);

#endif
