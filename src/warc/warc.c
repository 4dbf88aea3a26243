/* The WARC reader (include/cetune/warc.h, docs/warc.md).  Three layers:
 *   - bytes: the file read in 64 kB blocks, through zlib when it is gzip
 *     (members are inflated one after the other, so a file gzipped per
 *     record and one gzipped whole read the same way; a corrupt member is
 *     passed over by looking for the next gzip header);
 *   - records: the version line, the named fields, then Content-Length
 *     bytes of content, kept only for pages, passed over otherwise;
 *   - HTTP: the status line and headers of a response, then its body with
 *     the transfer encoding (chunked) and content encoding (gzip, deflate)
 *     undone.
 * Nothing grows with the file: a page is held only up to the size limit. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <zlib.h>

#include "cetune/buf.h"
#include "cetune/warc.h"

#define BLOCK (1u << 16)
#define MAX_LINE (1u << 16)   /* a longer header line is cut (it is junk anyway) */
#define MAX_HTTP_HEAD (1u << 18)

struct cet_warc {
    char *name;
    int fd;                        /* -1 when reading memory */
    const unsigned char *in;       /* the input block (or all the memory) */
    unsigned char *in_buf;
    size_t in_pos, in_len;
    uint64_t in_off;               /* file offset of in[0] */
    int in_eof, fatal;
    size_t max_bytes;

    int gz;                        /* the file is gzip */
    z_stream zs;
    int zs_init, zs_live;          /* inflating a member */
    uint64_t member;               /* file offset of the member being inflated */
    unsigned char out[BLOCK];      /* decompressed bytes (copied bytes of a plain file) */
    size_t out_pos, out_len;
    uint64_t out_member, out_base; /* member of out's bytes, and position of out[0] in it */
    int broken;                    /* the byte stream jumped (a bad member): cut the record */
    int quiet;                     /* resynchronising after an error: junk is not reported */
    int have_version;              /* the version line of the next record was already read */
    int in_record;                 /* cet_warc_next is past the record's version line */
    uint64_t ver_member, ver_pos;  /* where that line began */

    uint64_t block_left;           /* content bytes of the record not yet read */
    struct cet_buf line, fields, head, body, tmp;
    /* Offsets into fields of the values the record gives. */
    size_t f_type, f_uri, f_id, f_date, f_ctype, f_len;
    int has_len;
    uint64_t content_length;
    char mime[128], charset[40];
};

static const char *const kind_names[CET_WARC_NKINDS] = {
    "page", "not HTML", "not 2xx", "revisit", "request", "other", "too large"};

const char *cet_warc_kind_name(enum cet_warc_kind k)
{
    return (unsigned)k < CET_WARC_NKINDS ? kind_names[k] : "?";
}

int cet_warc_path(const char *path)
{
    size_t n = strlen(path);
    return (n > 5 && !strcmp(path + n - 5, ".warc")) ||
           (n > 8 && !strcmp(path + n - 8, ".warc.gz"));
}

int cet_warc_host(const char *uri, char *host, size_t size)
{
    const char *p = strstr(uri, "://");
    if (!p || p == uri)
        return -1;
    p += 3;
    size_t n = strcspn(p, "/?#");
    const char *at = memchr(p, '@', n);
    if (at) {
        n -= (size_t)(at + 1 - p);
        p = at + 1;
    }
    size_t k = 0;
    if (*p == '[') { /* an IPv6 literal, kept with its brackets */
        const char *close = memchr(p, ']', n);
        if (!close)
            return -1;
        k = (size_t)(close + 1 - p);
    } else {
        while (k < n && p[k] != ':')
            k++;
    }
    while (k && p[k - 1] == '.')
        k--;
    if (!k || k >= size)
        return -1;
    for (size_t i = 0; i < k; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c <= ' ' || c == '\\' || c == '"' || c == '<' || c == '>' || c == '%')
            return -1;
        host[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    host[k] = 0;
    return 0;
}

/* ---- bytes ---- */

/* More input when in[] is used up: 1, 0 at the end of the file, -1 on a
 * read error (fatal, err set). */
static int raw_fill(struct cet_warc *w, struct cet_error *err)
{
    if (w->in_pos < w->in_len)
        return 1;
    if (w->in_eof || w->fatal)
        return 0;
    w->in_off += w->in_len;
    w->in_pos = w->in_len = 0;
    for (;;) {
        ssize_t n = read(w->fd, w->in_buf, BLOCK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            w->fatal = 1;
            return cet_fail(err, "%s: %s", w->name, strerror(errno));
        }
        if (n == 0) {
            w->in_eof = 1;
            return 0;
        }
        w->in_len = (size_t)n;
        return 1;
    }
}

/* Input byte at in_pos + k, or -1 past the end of the file (reads ahead
 * by moving the unread bytes to the start of the block). */
static int raw_peek(struct cet_warc *w, size_t k, struct cet_error *err)
{
    if (w->in_pos + k < w->in_len)
        return w->in[w->in_pos + k];
    if (w->fd < 0 || w->in_eof || w->fatal)
        return -1;
    size_t keep = w->in_len - w->in_pos;
    memmove(w->in_buf, w->in_buf + w->in_pos, keep);
    w->in_off += w->in_pos;
    w->in_pos = 0;
    w->in_len = keep;
    while (w->in_len <= k) {
        ssize_t n = read(w->fd, w->in_buf + w->in_len, BLOCK - w->in_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            w->fatal = 1;
            cet_fail(err, "%s: %s", w->name, strerror(errno));
            return -1;
        }
        if (n == 0) {
            w->in_eof = 1;
            return -1;
        }
        w->in_len += (size_t)n;
    }
    return w->in[w->in_pos + k];
}

static int gzip_magic_at(struct cet_warc *w, struct cet_error *err)
{
    return raw_peek(w, 0, err) == 0x1f && raw_peek(w, 1, err) == 0x8b && raw_peek(w, 2, err) == 8;
}

/* Passes over input up to the next gzip header (after at least one byte). */
static void next_member(struct cet_warc *w, struct cet_error *err)
{
    struct cet_error ignored;
    w->in_pos++;
    for (;;) {
        if (raw_fill(w, err) <= 0)
            return;
        const unsigned char *p = memchr(w->in + w->in_pos, 0x1f, w->in_len - w->in_pos);
        if (!p) {
            w->in_pos = w->in_len;
            continue;
        }
        w->in_pos = (size_t)(p - w->in);
        if (gzip_magic_at(w, &ignored) || w->fatal || w->in_pos >= w->in_len)
            return;
        w->in_pos++;
    }
}

/* Fills out[] when it is used up: 1 when it holds bytes, 0 at the end of
 * the file, -1 when the data are corrupt (err names the member; the stream
 * goes on at the next member) or unreadable. */
static int fill(struct cet_warc *w, struct cet_error *err)
{
    if (w->out_pos < w->out_len)
        return 1;
    w->out_base += w->out_len;
    w->out_pos = w->out_len = 0;
    if (!w->gz) {
        int r = raw_fill(w, err);
        if (r <= 0)
            return r;
        size_t n = w->in_len - w->in_pos;
        n = n < BLOCK ? n : BLOCK;
        w->out_member = 0;
        w->out_base = w->in_off + w->in_pos;
        memcpy(w->out, w->in + w->in_pos, n);
        w->in_pos += n;
        w->out_len = n;
        return 1;
    }
    for (;;) {
        if (!w->zs_live) {
            int r = raw_fill(w, err);
            if (r <= 0)
                return r;
            uint64_t at = w->in_off + w->in_pos;
            if (!gzip_magic_at(w, err)) {
                if (w->fatal)
                    return -1;
                if (raw_peek(w, 0, err) < 0) /* nothing left: an empty tail */
                    return 0;
                next_member(w, err);
                w->broken = 1;
                if (w->quiet)
                    continue;
                w->quiet = 1;
                return cet_fail(err, "%s: offset %llu: not gzip data; going on at the next "
                                "gzip member", w->name, (unsigned long long)at);
            }
            if (inflateReset2(&w->zs, 16 + 15) != Z_OK)
                return cet_fail(err, "%s: zlib cannot restart", w->name);
            w->zs_live = 1;
            w->member = at;
            w->out_member = at;
            w->out_base = 0;
        }
        if (raw_fill(w, err) <= 0) {
            if (w->fatal)
                return -1;
            w->zs_live = 0;
            w->broken = 1;
            if (w->quiet)
                return 0;
            w->quiet = 1;
            return cet_fail(err, "%s: offset %llu: gzip member cut short (truncated file)",
                            w->name, (unsigned long long)w->member);
        }
        w->zs.next_in = (unsigned char *)w->in + w->in_pos;
        w->zs.avail_in = (unsigned)(w->in_len - w->in_pos);
        w->zs.next_out = w->out;
        w->zs.avail_out = BLOCK;
        size_t in_before = w->in_pos;
        int zr = inflate(&w->zs, Z_NO_FLUSH);
        w->in_pos = (size_t)(w->zs.next_in - w->in);
        w->out_len = BLOCK - w->zs.avail_out;
        if (zr == Z_STREAM_END) {
            w->zs_live = 0;
            if (w->out_len)
                return 1;
            continue;
        }
        if (zr == Z_OK || (zr == Z_BUF_ERROR && w->in_pos > in_before)) {
            if (w->out_len)
                return 1;
            continue;
        }
        /* Z_DATA_ERROR, Z_NEED_DICT, Z_MEM_ERROR: the member is lost. */
        const char *why = w->zs.msg ? w->zs.msg : zr == Z_MEM_ERROR ? "out of memory" : "corrupt";
        uint64_t at = w->member;
        w->zs_live = 0;
        w->out_len = 0;
        w->broken = 1;
        char reason[96];
        snprintf(reason, sizeof reason, "%s", why);
        w->in_pos = (size_t)(at >= w->in_off ? at - w->in_off : 0);
        if (at < w->in_off) /* the member's start left the block: go on from here */
            w->in_pos = 0;
        next_member(w, err);
        if (w->quiet)
            continue;
        w->quiet = 1;
        return cet_fail(err, "%s: offset %llu: corrupt gzip member (%s); going on at the next "
                        "member", w->name, (unsigned long long)at, reason);
    }
}

/* The stream position of the next byte: its member and offset in it. */
static void here(const struct cet_warc *w, uint64_t *member, uint64_t *pos)
{
    *member = w->out_member;
    *pos = w->out_base + w->out_pos;
    if (w->out_pos == w->out_len && !w->zs_live && w->gz) { /* between members */
        *member = w->in_off + w->in_pos;
        *pos = 0;
    } else if (!w->gz && w->out_pos == w->out_len) {
        *pos = w->in_off + w->in_pos;
    }
}

/* A line of at most MAX_LINE bytes (longer ones cut) into w->line, without
 * its CR LF: 1, 0 at the end of the file (nothing read), -1 corrupt data,
 * -2 the file ends inside the line. */
static int read_line(struct cet_warc *w, struct cet_error *err)
{
    w->line.len = 0;
    if (cet_buf_reserve(&w->line, 1))
        return cet_fail(err, "%s: out of memory", w->name);
    int any = 0;
    for (;;) {
        int r = fill(w, err);
        if (r < 0)
            return -1;
        if (r == 0) {
            w->line.p[w->line.len] = 0;
            return any ? -2 : 0;
        }
        any = 1;
        const unsigned char *s = w->out + w->out_pos;
        size_t n = w->out_len - w->out_pos;
        const unsigned char *nl = memchr(s, '\n', n);
        size_t take = nl ? (size_t)(nl - s) : n;
        size_t room = MAX_LINE - w->line.len;
        if (cet_buf_add(&w->line, (const char *)s, take < room ? take : room))
            return cet_fail(err, "%s: out of memory", w->name);
        w->out_pos += nl ? take + 1 : take;
        if (nl) {
            if (w->line.len && w->line.p[w->line.len - 1] == '\r')
                w->line.p[--w->line.len] = 0;
            return 1;
        }
    }
}

/* ---- the record's content ---- */

/* Up to n content bytes appended to b (NULL: passed over): bytes read, -1
 * on corrupt data, or fewer than asked at the end of the file. */
static long long block_read(struct cet_warc *w, struct cet_buf *b, uint64_t n,
                            struct cet_error *err)
{
    uint64_t done = 0;
    if (n > w->block_left)
        n = w->block_left;
    while (done < n) {
        int r = fill(w, err);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        size_t k = w->out_len - w->out_pos;
        if (k > n - done)
            k = (size_t)(n - done);
        if (b && cet_buf_add(b, (const char *)w->out + w->out_pos, k))
            return cet_fail(err, "%s: out of memory", w->name);
        w->out_pos += k;
        done += k;
    }
    w->block_left -= done;
    return (long long)done;
}

/* A content line (up to LF) appended to w->head, at most max bytes in all:
 * 1, 0 when the content or the file ends first, -1 corrupt data, -3 too long. */
static int block_line(struct cet_warc *w, size_t max, struct cet_error *err)
{
    for (;;) {
        if (!w->block_left)
            return 0;
        int r = fill(w, err);
        if (r <= 0)
            return r;
        const unsigned char *s = w->out + w->out_pos;
        size_t n = w->out_len - w->out_pos;
        if (n > w->block_left)
            n = (size_t)w->block_left;
        const unsigned char *nl = memchr(s, '\n', n);
        size_t take = nl ? (size_t)(nl - s) + 1 : n;
        if (w->head.len + take > max)
            return -3;
        if (cet_buf_add(&w->head, (const char *)s, take))
            return cet_fail(err, "%s: out of memory", w->name);
        w->out_pos += take;
        w->block_left -= take;
        if (nl)
            return 1;
    }
}

/* ---- fields ---- */

static const char *field(const struct cet_warc *w, size_t off)
{
    return off == (size_t)-1 ? "" : w->fields.p + off;
}

static void trim(char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t'))
        (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\r'))
        (*n)--;
}

/* Parses a Content-Type value: the media type (lowercase) into mime and
 * the charset parameter (unquoted) into charset, "" when absent. */
static void parse_ctype(const char *v, size_t n, char *mime, size_t msize, char *charset,
                        size_t csize)
{
    size_t i = 0, k = 0;
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
        i++;
    for (; i < n && v[i] != ';' && v[i] != ' ' && k + 1 < msize; i++)
        mime[k++] = (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] + 32 : v[i]);
    mime[k] = 0;
    charset[0] = 0;
    for (; i < n; i++) {
        if (v[i] != ';')
            continue;
        size_t j = i + 1;
        while (j < n && (v[j] == ' ' || v[j] == '\t'))
            j++;
        if (n - j > 8 && !strncasecmp(v + j, "charset=", 8)) {
            j += 8;
            if (j < n && (v[j] == '"' || v[j] == '\''))
                j++;
            k = 0;
            while (j < n && v[j] != '"' && v[j] != '\'' && v[j] != ';' && v[j] != ' ' &&
                   k + 1 < csize)
                charset[k++] = v[j++];
            charset[k] = 0;
            return;
        }
    }
}

/* Reads the record's named fields up to the blank line: 1, -1 corrupt
 * data, -2 the file ends first (err set for both). */
static int read_fields(struct cet_warc *w, uint64_t at, struct cet_error *err)
{
    w->fields.len = 0;
    w->f_type = w->f_uri = w->f_id = w->f_date = w->f_ctype = w->f_len = (size_t)-1;
    w->has_len = 0;
    size_t *last = NULL;
    for (;;) {
        int r = read_line(w, err);
        if (r == -1)
            return -1;
        if (r <= 0)
            return cet_fail(err, "%s: record at offset %llu: the file ends in its header "
                            "(truncated)", w->name, (unsigned long long)at), -2;
        if (!w->line.len)
            break;
        char *s = w->line.p;
        size_t n = w->line.len;
        if ((s[0] == ' ' || s[0] == '\t') && last) {
            /* A folded line continues the field before it (the value is last). */
            trim(&s, &n);
            w->fields.len--; /* its NUL */
            if (cet_buf_add(&w->fields, " ", 1) || cet_buf_add(&w->fields, s, n) ||
                cet_buf_add(&w->fields, "", 1))
                return cet_fail(err, "%s: out of memory", w->name);
            continue;
        }
        char *colon = memchr(s, ':', n);
        if (!colon)
            return cet_fail(err, "%s: record at offset %llu: header line without a colon: "
                            "\"%.60s\"", w->name, (unsigned long long)at, s);
        size_t kn = (size_t)(colon - s);
        char *v = colon + 1;
        size_t vn = n - kn - 1;
        trim(&v, &vn);
        size_t *slot = NULL;
        if (kn == 9 && !strncasecmp(s, "WARC-Type", kn))
            slot = &w->f_type;
        else if (kn == 15 && !strncasecmp(s, "WARC-Target-URI", kn))
            slot = &w->f_uri;
        else if (kn == 14 && !strncasecmp(s, "WARC-Record-ID", kn))
            slot = &w->f_id;
        else if (kn == 9 && !strncasecmp(s, "WARC-Date", kn))
            slot = &w->f_date;
        else if (kn == 12 && !strncasecmp(s, "Content-Type", kn))
            slot = &w->f_ctype;
        else if (kn == 14 && !strncasecmp(s, "Content-Length", kn))
            slot = &w->f_len;
        last = slot;
        if (!slot)
            continue;
        if (slot == &w->f_uri && vn >= 2 && v[0] == '<' && v[vn - 1] == '>')
            v++, vn -= 2; /* WARC 1.1's own example wraps the URI in <> */
        *slot = w->fields.len;
        if (cet_buf_add(&w->fields, v, vn) || cet_buf_add(&w->fields, "", 1))
            return cet_fail(err, "%s: out of memory", w->name);
    }
    if (w->f_len == (size_t)-1)
        return cet_fail(err, "%s: record at offset %llu: no Content-Length", w->name,
                        (unsigned long long)at);
    const char *len = field(w, w->f_len);
    char *end;
    errno = 0;
    unsigned long long cl = strtoull(len, &end, 10);
    if (!*len || *end || errno || len[0] == '-')
        return cet_fail(err, "%s: record at offset %llu: bad Content-Length \"%.40s\"", w->name,
                        (unsigned long long)at, len);
    w->content_length = cl;
    return 1;
}

/* ---- HTTP ---- */

static int is_html(const char *mime)
{
    return !strcmp(mime, "text/html") || !strcmp(mime, "application/xhtml+xml");
}

/* Without a media type: HTML when the body opens like a page. */
static int looks_html(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
        (unsigned char)s[2] == 0xBF)
        i = 3;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
        i++;
    static const char *const starts[] = {"<!doctype html", "<html", "<head", "<!--"};
    for (size_t k = 0; k < sizeof starts / sizeof *starts; k++) {
        size_t m = strlen(starts[k]);
        if (n - i >= m && !strncasecmp(s + i, starts[k], m))
            return 1;
    }
    return 0;
}

/* The chunked transfer coding of src undone into dst: 0, or -1 when src
 * is not chunked (then it is used as it is: some tools undo the coding but
 * keep the header), or 1 when the result would pass max. */
static int dechunk(struct cet_buf *dst, const char *src, size_t n, size_t max)
{
    size_t i = 0;
    dst->len = 0;
    for (;;) {
        size_t j = i;
        unsigned long long size = 0;
        int digits = 0;
        for (; j < n; j++) {
            char c = src[j];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0)
                break;
            if (size > (1ull << 40))
                return -1;
            size = size * 16 + (unsigned)d;
            digits++;
        }
        if (!digits)
            return dst->len || i ? 0 : -1; /* the end without a last chunk: keep what came */
        const char *nl = memchr(src + j, '\n', n - j); /* chunk extensions end at the line end */
        if (!nl)
            return i ? 0 : -1;
        j = (size_t)(nl - src) + 1;
        if (size == 0)
            return 0;
        if (size > n - j)
            size = n - j; /* cut short: keep what there is */
        if (dst->len + size > max)
            return 1;
        if (cet_buf_add(dst, src + j, (size_t)size))
            return -2;
        j += (size_t)size;
        if (j < n && src[j] == '\r')
            j++;
        if (j < n && src[j] == '\n')
            j++;
        i = j;
        if (i >= n)
            return 0;
    }
}

/* The gzip or deflate content coding of src undone into dst: 0, -1 when
 * the data are not of that coding, 1 when the result would pass max,
 * -2 out of memory. */
static int decode_content(struct cet_buf *dst, const char *src, size_t n, int gzip, size_t max)
{
    /* deflate: zlib-wrapped as the standard says, or raw as some servers send it. */
    int wbits = gzip ? 16 + 15 : (n >= 2 && ((unsigned char)src[0] * 256 + (unsigned char)src[1]) % 31 == 0 &&
                                  (src[0] & 0x0f) == 8) ? 15 : -15;
    z_stream zs = {0};
    if (inflateInit2(&zs, wbits) != Z_OK)
        return -2;
    dst->len = 0;
    zs.next_in = (unsigned char *)src;
    zs.avail_in = (unsigned)n;
    int rc = 0;
    for (;;) {
        if (cet_buf_reserve(dst, BLOCK)) {
            rc = -2;
            break;
        }
        zs.next_out = (unsigned char *)dst->p + dst->len;
        zs.avail_out = (unsigned)(dst->cap - dst->len - 1);
        size_t before = zs.avail_out;
        int zr = inflate(&zs, Z_NO_FLUSH);
        dst->len += before - zs.avail_out;
        if (dst->len > max) {
            rc = 1;
            break;
        }
        if (zr == Z_STREAM_END)
            break;
        if (zr == Z_BUF_ERROR || (zr == Z_OK && zs.avail_in == 0 && zs.avail_out)) {
            rc = dst->len ? 0 : -1; /* cut short: keep what came */
            break;
        }
        if (zr != Z_OK) {
            rc = -1;
            break;
        }
    }
    inflateEnd(&zs);
    return rc;
}

/* Whether the comma-separated header value v names coding. */
static int has_coding(const char *v, const char *coding)
{
    size_t m = strlen(coding);
    for (const char *p = v; *p;) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        size_t k = strcspn(p, ", \t;");
        if (k == m && !strncasecmp(p, coding, m))
            return 1;
        p += k;
        while (*p && *p != ',')
            p++;
    }
    return 0;
}

/* ---- records ---- */

/* Finds the next version line: 1 found, 0 end of the file, -1 an error
 * to report (corrupt data, or junk before the record). */
static int find_version(struct cet_warc *w, uint64_t *member, uint64_t *pos,
                        struct cet_error *err)
{
    int junk = 0;
    uint64_t jm = 0, jp = 0;
    for (;;) {
        uint64_t m, p;
        here(w, &m, &p);
        w->broken = 0;
        int r = read_line(w, err);
        if (r == -1)
            return -1;
        if (r == 0 || r == -2) {
            if (junk && !w->quiet) {
                w->quiet = 1;
                return cet_fail(err, "%s: offset %llu: bytes that are not a WARC record up "
                                "to the end of the file", w->name, (unsigned long long)(jm ? jm : jp));
            }
            return 0;
        }
        if (w->line.len >= 6 && !memcmp(w->line.p, "WARC/", 5) && w->line.p[5] >= '0' &&
            w->line.p[5] <= '9') {
            *member = m;
            *pos = p;
            int report = junk && !w->quiet;
            w->quiet = 0; /* a record begins: what follows is worth reporting again */
            if (report) {
                w->have_version = 1;
                w->ver_member = m;
                w->ver_pos = p;
                return cet_fail(err, "%s: offset %llu: bytes that are not a WARC record "
                                "passed over", w->name, (unsigned long long)(jm ? jm : jp));
            }
            return 1;
        }
        if (w->line.len && !junk) {
            junk = 1;
            jm = m;
            jp = p;
        }
    }
}

/* Passes over the rest of a record's content and the blank lines after it. */
static int finish_block(struct cet_warc *w, uint64_t at, struct cet_error *err)
{
    long long r = block_read(w, NULL, w->block_left, err);
    if (r < 0)
        return -1;
    if (w->block_left)
        return cet_fail(err, "%s: record at offset %llu: the file ends in its content "
                        "(truncated)", w->name, (unsigned long long)at);
    return 0;
}

/* The HTTP head of a response (status line and headers) into w->head, and
 * from it the status, media type, charset and codings: 0, or -1 (err set). */
static int read_http_head(struct cet_warc *w, uint64_t at, int *status, int *chunked,
                          int *coding, struct cet_error *err)
{
    w->head.len = 0;
    if (cet_buf_reserve(&w->head, 1))
        return cet_fail(err, "%s: out of memory", w->name);
    *status = 0;
    *chunked = *coding = 0;
    w->mime[0] = w->charset[0] = 0;
    int first = 1;
    for (;;) {
        size_t start = w->head.len;
        int r = block_line(w, MAX_HTTP_HEAD, err);
        if (r < 0) {
            if (r == -3)
                return cet_fail(err, "%s: record at offset %llu: HTTP header over %u bytes",
                                w->name, (unsigned long long)at, MAX_HTTP_HEAD);
            return -1;
        }
        char *s = w->head.p + start;
        size_t n = w->head.len - start;
        while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
            n--;
        if (r == 0 && !n) {
            if (w->block_left)
                return cet_fail(err, "%s: record at offset %llu: the file ends in its HTTP "
                                "header (truncated)", w->name, (unsigned long long)at);
            return first ? cet_fail(err, "%s: record at offset %llu: empty response", w->name,
                                    (unsigned long long)at) : 0;
        }
        if (first) {
            if (n < 12 || strncmp(s, "HTTP/", 5))
                return cet_fail(err, "%s: record at offset %llu: not an HTTP response: "
                                "\"%.40s\"", w->name, (unsigned long long)at, s);
            const char *sp = memchr(s, ' ', n);
            *status = sp ? atoi(sp + 1) : 0;
            first = 0;
        } else if (!n) {
            return 0;
        } else {
            char *colon = memchr(s, ':', n);
            if (colon) {
                size_t kn = (size_t)(colon - s);
                char *v = colon + 1;
                size_t vn = n - kn - 1;
                trim(&v, &vn);
                char save = v[vn];
                v[vn] = 0;
                if (kn == 12 && !strncasecmp(s, "Content-Type", kn))
                    parse_ctype(v, vn, w->mime, sizeof w->mime, w->charset, sizeof w->charset);
                else if (kn == 17 && !strncasecmp(s, "Transfer-Encoding", kn))
                    *chunked = has_coding(v, "chunked");
                else if (kn == 16 && !strncasecmp(s, "Content-Encoding", kn))
                    *coding = has_coding(v, "gzip") || has_coding(v, "x-gzip") ? 1
                            : has_coding(v, "deflate") ? 2
                            : has_coding(v, "identity") || !vn ? 0 : 3;
                v[vn] = save;
            }
        }
        if (r == 0)
            return 0; /* the content ends with the header */
    }
}

/* The result d of undoing a transfer or content coding into w->tmp, taken
 * into the record: 0 swaps the decoded bytes in as the body, -1 (not of
 * that coding) keeps the body as it is; both return 0 to go on. A result
 * over max_bytes settles the record as too large (1); out of memory is an
 * error (-1). */
static int take_decoded(struct cet_warc *w, int d, struct cet_warc_record *rec,
                        uint64_t at, struct cet_error *err)
{
    if (d == -2)
        return cet_fail(err, "%s: record at offset %llu: out of memory", w->name,
                        (unsigned long long)at);
    if (d == 1) {
        rec->kind = CET_WARC_TOO_LARGE;
        return 1;
    }
    if (d == 0) {
        struct cet_buf t = w->body;
        w->body = w->tmp;
        w->tmp = t;
    }
    return 0;
}

static int next_record(struct cet_warc *w, struct cet_warc_record *rec, struct cet_error *err)
{
    if (w->fatal)
        return 0;
    uint64_t member = 0, pos = 0;
    if (w->have_version) {
        w->have_version = 0;
        member = w->ver_member;
        pos = w->ver_pos;
    } else {
        int r = find_version(w, &member, &pos, err);
        if (r <= 0)
            return r;
    }
    uint64_t at = w->gz ? member : pos;
    rec->offset = at;
    rec->skip = w->gz ? pos : 0;
    w->in_record = 1;
    int r = read_fields(w, at, err);
    if (r < 0) {
        w->quiet = 1;
        return -1;
    }
    w->block_left = w->content_length;
    rec->type = field(w, w->f_type);
    rec->target_uri = field(w, w->f_uri);
    rec->record_id = field(w, w->f_id);
    rec->date = field(w, w->f_date);
    rec->mime = "";
    const char *type = rec->type;
    char wmime[128], wcs[40];
    const char *ct = field(w, w->f_ctype);
    parse_ctype(ct, strlen(ct), wmime, sizeof wmime, wcs, sizeof wcs);
    int response = !strcasecmp(type, "response"), resource = !strcasecmp(type, "resource");
    int http = response && (!*ct || !strcmp(wmime, "application/http"));
    if (!strcasecmp(type, "revisit"))
        rec->kind = CET_WARC_REVISIT;
    else if (!strcasecmp(type, "request"))
        rec->kind = CET_WARC_REQUEST;
    else if (!http && !resource)
        rec->kind = CET_WARC_OTHER;
    if (rec->kind != CET_WARC_PAGE) {
        if (finish_block(w, at, err)) {
            w->quiet = 1;
            return -1;
        }
        return 1;
    }
    int status = 0, chunked = 0, coding = 0;
    if (http) {
        if (read_http_head(w, at, &status, &chunked, &coding, err)) {
            /* The WARC framing may still be sound: pass over the rest. */
            struct cet_error ignored;
            if (w->broken || finish_block(w, at, &ignored))
                w->quiet = 1;
            return -1;
        }
        rec->status = status;
    } else {
        snprintf(w->mime, sizeof w->mime, "%s", wmime);
        snprintf(w->charset, sizeof w->charset, "%s", wcs);
    }
    rec->mime = w->mime;
    rec->charset = w->charset[0] ? w->charset : NULL;
    if (http && (status < 200 || status > 299))
        rec->kind = CET_WARC_STATUS;
    else if (w->mime[0] && !is_html(w->mime))
        rec->kind = CET_WARC_NOT_HTML;
    else if (w->block_left > w->max_bytes)
        rec->kind = CET_WARC_TOO_LARGE;
    if (rec->kind != CET_WARC_PAGE) {
        if (finish_block(w, at, err)) {
            w->quiet = 1;
            return -1;
        }
        return 1;
    }
    w->body.len = 0;
    if (cet_buf_reserve(&w->body, (size_t)w->block_left)) {
        finish_block(w, at, err);
        return cet_fail(err, "%s: record at offset %llu: out of memory", w->name,
                        (unsigned long long)at);
    }
    if (block_read(w, &w->body, w->block_left, err) < 0) {
        w->quiet = 1;
        return -1;
    }
    if (w->block_left) {
        w->quiet = 1;
        return cet_fail(err, "%s: record at offset %llu: the file ends in its content "
                        "(truncated)", w->name, (unsigned long long)at);
    }
    if (chunked) {
        int d = take_decoded(w, dechunk(&w->tmp, w->body.p, w->body.len, w->max_bytes), rec,
                             at, err);
        if (d != 0)
            return d;
    }
    if (coding == 3)
        return cet_fail(err, "%s: record at offset %llu (%s): content encoding not supported "
                        "(gzip and deflate are)", w->name, (unsigned long long)at,
                        rec->target_uri);
    if (coding) {
        int d = decode_content(&w->tmp, w->body.p, w->body.len, coding == 1, w->max_bytes);
        if (d == -1 && w->body.len >= 2 && (unsigned char)w->body.p[0] == 0x1f &&
            (unsigned char)w->body.p[1] == 0x8b)
            return cet_fail(err, "%s: record at offset %llu (%s): corrupt gzip content "
                            "encoding", w->name, (unsigned long long)at, rec->target_uri);
        /* else (-1): already decoded by the crawler, the header kept */
        if ((d = take_decoded(w, d, rec, at, err)) != 0)
            return d;
    }
    if (!w->mime[0] && !looks_html(w->body.p, w->body.len < 1024 ? w->body.len : 1024)) {
        rec->kind = CET_WARC_NOT_HTML;
        return 1;
    }
    if (w->body.len > w->max_bytes) {
        rec->kind = CET_WARC_TOO_LARGE;
        return 1;
    }
    if (cet_buf_reserve(&w->body, 0))
        return cet_fail(err, "%s: out of memory", w->name);
    w->body.p[w->body.len] = 0;
    rec->body = w->body.p;
    rec->len = w->body.len;
    return 1;
}

int cet_warc_next(struct cet_warc *w, struct cet_warc_record *rec, struct cet_error *err)
{
    memset(rec, 0, sizeof *rec);
    w->in_record = 0;
    int r = next_record(w, rec, err);
    if (r < 0 && w->in_record && w->broken && err) {
        /* The gzip data failed inside a record: name the record, whose
         * offset is what a user looks for. */
        char why[sizeof err->msg];
        size_t n = strlen(w->name);
        const char *m = err->msg;
        if (!strncmp(m, w->name, n) && !strncmp(m + n, ": ", 2))
            m += n + 2;
        if (!strncmp(m, "offset ", 7) && strstr(m, ": "))
            m = strstr(m, ": ") + 2;
        snprintf(why, sizeof why, "%s", m);
        if (rec->skip)
            cet_fail(err, "%s: record at offset %llu (byte %llu of its gzip member): %s",
                     w->name, (unsigned long long)rec->offset, (unsigned long long)rec->skip, why);
        else
            cet_fail(err, "%s: record at offset %llu: %s", w->name,
                     (unsigned long long)rec->offset, why);
    }
    return r;
}

/* ---- opening ---- */

static int start(struct cet_warc *w, const char *name, size_t max_bytes, struct cet_error *err)
{
    w->name = strdup(name);
    w->max_bytes = max_bytes ? max_bytes : CET_WARC_MAX_PAGE;
    if (!w->name || inflateInit2(&w->zs, 16 + 15) != Z_OK)
        return cet_fail(err, "%s: out of memory", name);
    w->zs_init = 1;
    struct cet_error ignored;
    w->gz = gzip_magic_at(w, &ignored);
    if (w->fatal)
        return cet_fail(err, "%s", ignored.msg);
    return 0;
}

int cet_warc_open(struct cet_warc **out, const char *path, size_t max_bytes,
                  struct cet_error *err)
{
    *out = NULL;
    struct cet_warc *w = calloc(1, sizeof *w);
    if (!w)
        return cet_fail(err, "%s: out of memory", path);
    w->fd = open(path, O_RDONLY);
    if (w->fd < 0) {
        cet_fail(err, "%s: %s", path, strerror(errno));
        free(w);
        return -1;
    }
    w->in = w->in_buf = malloc(BLOCK);
    if (!w->in_buf || start(w, path, max_bytes, err)) {
        if (!w->in_buf)
            cet_fail(err, "%s: out of memory", path);
        cet_warc_close(w);
        return -1;
    }
    *out = w;
    return 0;
}

int cet_warc_open_mem(struct cet_warc **out, const void *data, size_t len, const char *name,
                      size_t max_bytes, struct cet_error *err)
{
    *out = NULL;
    struct cet_warc *w = calloc(1, sizeof *w);
    if (!w)
        return cet_fail(err, "%s: out of memory", name);
    w->fd = -1;
    w->in = data;
    w->in_len = len;
    w->in_eof = 1;
    if (start(w, name, max_bytes, err)) {
        cet_warc_close(w);
        return -1;
    }
    *out = w;
    return 0;
}

int cet_warc_seek(struct cet_warc *w, uint64_t offset, uint64_t skip, struct cet_error *err)
{
    if (w->fd < 0) {
        if (offset > w->in_len)
            return cet_fail(err, "%s: offset %llu is past the end", w->name,
                            (unsigned long long)offset);
        w->in_pos = (size_t)offset;
    } else {
        if (lseek(w->fd, (off_t)offset, SEEK_SET) < 0)
            return cet_fail(err, "%s: cannot seek to %llu: %s", w->name,
                            (unsigned long long)offset, strerror(errno));
        w->in_off = offset;
        w->in_pos = w->in_len = 0;
        w->in_eof = 0;
    }
    w->fatal = 0;
    w->zs_live = 0;
    w->out_pos = w->out_len = 0;
    w->out_base = offset;
    w->out_member = 0;
    w->broken = w->quiet = w->have_version = 0;
    if (w->gz && skip) {
        /* Inflate from the member's start up to the record. */
        int r = fill(w, err);
        if (r <= 0)
            return r < 0 ? -1 : cet_fail(err, "%s: offset %llu: nothing there", w->name,
                                         (unsigned long long)offset);
        while (w->out_base + w->out_len < skip) {
            w->out_pos = w->out_len;
            if ((r = fill(w, err)) <= 0 || w->out_member != offset)
                return r < 0 ? -1 : cet_fail(err, "%s: offset %llu: its member ends before "
                                             "byte %llu", w->name, (unsigned long long)offset,
                                             (unsigned long long)skip);
        }
        w->out_pos = (size_t)(skip - w->out_base);
    }
    return 0;
}

void cet_warc_close(struct cet_warc *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd);
    if (w->zs_init)
        inflateEnd(&w->zs);
    free(w->in_buf);
    free(w->name);
    cet_buf_free(&w->line);
    cet_buf_free(&w->fields);
    cet_buf_free(&w->head);
    cet_buf_free(&w->body);
    cet_buf_free(&w->tmp);
    free(w);
}
