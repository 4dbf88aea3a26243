/* A growable byte buffer. */
#ifndef CETUNE_BUF_H
#define CETUNE_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"

CET_BEGIN_DECL

struct cet_buf {
    char *p;     /* always NUL-terminated once anything was added */
    size_t len, cap;
};

/* Each returns 0, or -1 when out of memory (the buffer keeps what it held). */
int cet_buf_reserve(struct cet_buf *b, size_t extra);
int cet_buf_add(struct cet_buf *b, const char *s, size_t n);
int cet_buf_puts(struct cet_buf *b, const char *s);
int cet_buf_printf(struct cet_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s[0..n) escaped for HTML: & < > as entities, and " too in an
 * attribute value (attr != 0). */
int cet_buf_escape(struct cet_buf *b, const char *s, size_t n, int attr);
/* Appends a space and word as a POSIX shell reads it back (quoted unless
 * it is plain): how run.json records command lines. */
int cet_buf_shell_word(struct cet_buf *b, const char *word);
void cet_buf_free(struct cet_buf *b);

/* Reads a whole file (transparently gunzipping *.gz) into *out; out->p is
 * NUL-terminated.  Returns -1 with "PATH: reason" in err, and out freed. */
struct cet_error;
int cet_read_file(struct cet_buf *out, const char *path, size_t limit, struct cet_error *err);
/* Writes data to path atomically: a temporary file in the same directory,
 * fsync, then rename.  No partial file is left behind on failure.  Only a
 * regular file is ever replaced: a symbolic link's target is replaced and
 * the link kept; a character device or a FIFO is written through (not
 * waiting for a FIFO no process reads); a directory, block device or
 * socket is refused.  Returns -1 with "PATH: cannot write: reason" in err. */
int cet_write_atomic(const char *path, const char *data, size_t len, struct cet_error *err);
/* Removes path when it is a regular file; 0 also when it does not exist,
 * -1 with the reason in err for anything else (a link, device, FIFO, ...),
 * which is left as it is. */
int cet_remove_file(const char *path, struct cet_error *err);
/* 64-bit FNV-1a hash of p[0..n): identities of lists and files. */
uint64_t cet_hash64(const void *p, size_t n);
/* Creates a directory and its missing parents; 0 or -1 with errno set. */
int cet_mkdirs(const char *path);

CET_END_DECL

#endif
