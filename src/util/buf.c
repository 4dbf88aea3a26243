#include "cetune/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cetune/error.h"

int cet_buf_reserve(struct cet_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    b->p[b->len] = 0; /* an empty buffer that was reserved is an empty string */
    return 0;
}

int cet_buf_add(struct cet_buf *b, const char *s, size_t n)
{
    if (cet_buf_reserve(b, n))
        return -1;
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
    return 0;
}

int cet_buf_puts(struct cet_buf *b, const char *s)
{
    return cet_buf_add(b, s, strlen(s));
}

int cet_buf_shell_word(struct cet_buf *b, const char *word)
{
    int plain = *word != 0;
    for (const char *p = word; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%",
                       *p) != NULL;
    if (cet_buf_puts(b, " "))
        return -1;
    if (plain)
        return cet_buf_puts(b, word);
    int bad = cet_buf_puts(b, "'");
    for (const char *p = word; *p && !bad; p++)
        bad = *p == '\'' ? cet_buf_puts(b, "'\\''") : cet_buf_add(b, p, 1);
    return bad || cet_buf_puts(b, "'");
}

int cet_buf_escape(struct cet_buf *b, const char *s, size_t n, int attr)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = attr ? "&quot;" : NULL; break;
        default: break;
        }
        if (!rep)
            continue;
        if (cet_buf_add(b, s + start, i - start) || cet_buf_puts(b, rep))
            return -1;
        start = i + 1;
    }
    return cet_buf_add(b, s + start, n - start);
}

int cet_buf_printf(struct cet_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || cet_buf_reserve(b, (size_t)n))
        return -1;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

void cet_buf_free(struct cet_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* gzread handles both compressed and plain files; the limit stops a
 * decompression bomb from taking all memory. */
/* A read limit for messages: "64 MB" when it is whole megabytes (or one
 * byte more: a caller that reads one byte over to see that a file is too
 * large), else bytes. */
static const char *limit_text(char *buf, size_t size, size_t limit)
{
    if (limit >= (1u << 20) && (limit & ((1u << 20) - 1)) <= 1)
        snprintf(buf, size, "%zu MB", limit >> 20);
    else
        snprintf(buf, size, "the limit of %zu bytes", limit);
    return buf;
}

static int read_gz(struct cet_buf *out, const char *path, size_t limit, struct cet_error *err)
{
    char lt[48];
    gzFile f = gzopen(path, "rb");
    if (!f)
        return cet_fail(err, "%s: %s", path, strerror(errno ? errno : ENOENT));
    char chunk[1 << 16];
    for (;;) {
        int n = gzread(f, chunk, sizeof chunk);
        if (n < 0) {
            int zerr;
            /* The message lives in f (format it before gzclose frees it)
             * and starts with the path zlib was given. */
            const char *msg = gzerror(f, &zerr);
            size_t n = strlen(path);
            if (!strncmp(msg, path, n) && !strncmp(msg + n, ": ", 2))
                msg += n + 2;
            cet_fail(err, "%s: corrupt gzip data (%s)", path, msg);
            gzclose(f);
            return -1;
        }
        if (n == 0)
            break;
        if (out->len + (size_t)n > limit) {
            gzclose(f);
            return cet_fail(err, "%s: larger than %s when decompressed", path,
                            limit_text(lt, sizeof lt, limit));
        }
        if (cet_buf_add(out, chunk, (size_t)n)) {
            gzclose(f);
            return cet_fail(err, "%s: out of memory", path);
        }
    }
    /* A stream cut short reads as a shorter page: zlib reports it only as
     * Z_BUF_ERROR, in gzerror and in gzclose's return value. */
    int zerr;
    gzerror(f, &zerr);
    int closed = gzclose(f);
    if (zerr == Z_BUF_ERROR || closed == Z_BUF_ERROR)
        return cet_fail(err, "%s: truncated gzip data (unexpected end of file)", path);
    if (closed != Z_OK)
        return cet_fail(err, "%s: cannot read (zlib error %d)", path, closed);
    return 0;
}

static int read_file(struct cet_buf *out, const char *path, size_t limit, struct cet_error *err);

int cet_read_file(struct cet_buf *out, const char *path, size_t limit, struct cet_error *err)
{
    int rc = read_file(out, path, limit, err);
    if (rc)
        cet_buf_free(out); /* callers own nothing after a failure */
    return rc;
}

static int read_file(struct cet_buf *out, const char *path, size_t limit, struct cet_error *err)
{
    char lt[48];
    out->len = 0;
    if (cet_buf_reserve(out, 0))
        return cet_fail(err, "%s: out of memory", path);
    out->p[0] = 0;
    if (ends_with(path, ".gz"))
        return read_gz(out, path, limit, err);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return cet_fail(err, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return cet_fail(err, "%s: is a directory", path);
    }
    if (fstat(fd, &st) == 0 && (size_t)st.st_size > limit) {
        close(fd);
        return cet_fail(err, "%s: larger than %s", path, limit_text(lt, sizeof lt, limit));
    }
    for (;;) {
        if (cet_buf_reserve(out, 1 << 16)) {
            close(fd);
            return cet_fail(err, "%s: out of memory", path);
        }
        ssize_t n = read(fd, out->p + out->len, out->cap - out->len - 1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            return cet_fail(err, "%s: %s", path, strerror(e));
        }
        if (n == 0)
            break;
        out->len += (size_t)n;
        if (out->len > limit) {
            close(fd);
            return cet_fail(err, "%s: larger than %s", path, limit_text(lt, sizeof lt, limit));
        }
    }
    out->p[out->len] = 0;
    close(fd);
    return 0;
}

/* Writes all of data to fd; 0 or the errno of the failure. */
static int write_all(int fd, const char *data, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        done += (size_t)w;
    }
    return 0;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket"
                                                                              : "not a regular file";
}

/* A character device (/dev/null, a terminal, /dev/stdout) or a FIFO is
 * written to as it is, never replaced: opened without O_CREAT, and without
 * waiting for a FIFO that no process reads. */
static int write_through(const char *path, const char *data, size_t len, struct cet_error *err)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cet_fail(err, "%s: cannot write: %s", path,
                        errno == ENXIO ? "a FIFO that no process reads" : strerror(errno));
    int fl = fcntl(fd, F_GETFL), e = 0;
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
        e = errno;
    e = e ? e : write_all(fd, data, len);
    if (close(fd) != 0 && !e)
        e = errno;
    return e ? cet_fail(err, "%s: cannot write: %s", path, strerror(e)) : 0;
}

int cet_write_atomic(const char *path, const char *data, size_t len, struct cet_error *err)
{
    /* Only a regular file (or nothing) is replaced: rename over a device,
     * a FIFO or a link would put a plain file in its place. */
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        return write_through(path, data, len, err);
    if (exists && !S_ISREG(st.st_mode))
        return cet_fail(err, "%s: cannot write: %s; cetune replaces only regular files", path,
                        file_kind(st.st_mode));
    char *real = NULL; /* a symbolic link: its target is replaced, the link stays */
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && !(real = realpath(path, NULL)))
        return cet_fail(err, "%s: cannot write: a symbolic link to %s", path,
                        exists ? "a file that cannot be resolved" : "nothing");
    const char *target = real ? real : path;
    size_t n = strlen(target);
    char *tmp = malloc(n + 32);
    if (!tmp) {
        free(real);
        return cet_fail(err, "%s: out of memory", path);
    }
    snprintf(tmp, n + 32, "%s.tmp.%ld", target, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int e = fd < 0 ? errno : write_all(fd, data, len);
    if (fd >= 0 && !e && fsync(fd) != 0)
        e = errno;
    if (fd >= 0 && close(fd) != 0 && !e)
        e = errno;
    if (!e && rename(tmp, target) != 0)
        e = errno;
    if (e && fd >= 0)
        unlink(tmp);
    free(tmp);
    free(real);
    return e ? cet_fail(err, "%s: cannot write: %s", path, strerror(e)) : 0;
}

int cet_remove_file(const char *path, struct cet_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : cet_fail(err, "%s: cannot remove: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return cet_fail(err, "%s: cannot remove: %s; cetune removes only regular files", path,
                        S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISCHR(st.st_mode) ? "a character device"
                        : S_ISFIFO(st.st_mode) ? "a FIFO" : file_kind(st.st_mode));
    if (unlink(path) != 0 && errno != ENOENT)
        return cet_fail(err, "%s: cannot remove: %s", path, strerror(errno));
    return 0;
}

uint64_t cet_hash64(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

int cet_mkdirs(const char *path)
{
    char *tmp = strdup(path);
    int rc = tmp ? 0 : -1; /* errno ENOMEM */
    for (char *p = tmp ? tmp + 1 : NULL; !rc && p && *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        rc = mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
        *p = '/';
    }
    if (!rc && tmp)
        rc = mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
    int e = errno;
    free(tmp);
    errno = e;
    return rc;
}
