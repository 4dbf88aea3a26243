/* Error values: functions below the CLI return 0 on success or a negative
 * enum cet_status (-1, CET_ERROR, unless their comment names another) and
 * fill a caller-owned struct cet_error; only src/cli prints it, once, at
 * the edge.
 * Out of memory says so ("out of memory", with what was being done when
 * that helps); nothing falls back silently to another algorithm or to a
 * partial file.  The one exception: a function whose only possible failure
 * is out of memory may take no struct cet_error and return -1 (its comment
 * says so); its caller then fills the error. */
#ifndef CETUNE_ERROR_H
#define CETUNE_ERROR_H

#include <stddef.h>

#include "cetune/common.h"

CET_BEGIN_DECL

/* What the functions of libcetune return (after libgit2's git_error_code):
 * 0, a negative failure with the reason in the struct cet_error, or
 * CET_CANCELLED when the caller's cancel callback stopped the work. */
enum cet_status {
    CET_OK = 0,
    CET_ERROR = -1,     /* failed: out of memory, bad input, I/O (err says which) */
    CET_ETIMEOUT = -2,  /* a time limit passed (cet_doc_parse_as, cet_page_extract) */
    CET_EUNUSABLE = -3, /* the page cannot be used: empty, binary, over 64 MB, too deep */
    CET_ECHARSET = -4,  /* the declared charset is unknown (cet_page_extract) */
    CET_EEXISTS = -5,   /* the run directory holds files (cet_run_claim without force) */
    CET_ENOTFOUND = -6, /* nothing to return (cet_search_lookup, cet_search_best); err is not used */
    CET_CANCELLED = 1,  /* cancelled (cet_search_generation, cet_run_step, cet_run_folds) */
};

struct cet_error {
    char msg[1024];
};

/* Formats the message into err (if non-NULL) and returns -1, so callers can
 * write `return cet_fail(err, "...")`. */
int cet_fail(struct cet_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Line and column (1-based) of byte offset off in text, for file:line:col messages. */
void cet_line_col(const char *text, size_t off, int *line, int *col);

CET_END_DECL

#endif
