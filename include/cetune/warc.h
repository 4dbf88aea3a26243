/* Reading crawls: WARC files (ISO 28500, WARC 1.0 and 1.1), plain, gzipped
 * per record (one gzip member a record, as wget, Heritrix and Common Crawl
 * write them) or gzipped whole (docs/warc.md).
 *
 *   struct cet_warc *w;
 *   struct cet_warc_record r;
 *   if (cet_warc_open(&w, "crawl.warc.gz", 0, &err) == 0) {
 *       int rc;
 *       while ((rc = cet_warc_next(w, &r, &err)) != 0)
 *           if (rc < 0)
 *               fprintf(stderr, "%s\n", err.msg);  (a bad record, passed over)
 *           else if (r.kind == CET_WARC_PAGE)
 *               use(r.target_uri, r.body, r.len, r.charset);
 *       cet_warc_close(w);
 *   }
 *
 * The reader streams: it holds one record's page at a time (at most the
 * size limit) and passes over every other record's content without keeping
 * it, so memory stays the same whatever the size of the file.  A truncated
 * or corrupt record is reported with its offset and passed over; the reader
 * goes on at the next record (the next gzip member when the member itself
 * is corrupt).  A reader is not shared between threads. */
#ifndef CETUNE_WARC_H
#define CETUNE_WARC_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

struct cet_warc;

/* The default size limit of a page: the document model's (CET_MAX_PAGE_BYTES). */
#define CET_WARC_MAX_PAGE (64u << 20)

/* What a record is, for the reader's caller: a page to extract, or why not. */
enum cet_warc_kind {
    CET_WARC_PAGE = 0,  /* an HTML response (2xx) or resource: body holds the page */
    CET_WARC_NOT_HTML,  /* a response or resource of another media type */
    CET_WARC_STATUS,    /* an HTTP response whose status is not 2xx (errors, redirects) */
    CET_WARC_REVISIT,   /* a revisit: a page seen before, without its content */
    CET_WARC_REQUEST,   /* a request */
    CET_WARC_OTHER,     /* warcinfo, metadata, conversion, continuation, DNS */
    CET_WARC_TOO_LARGE, /* an HTML page larger than the size limit */
    CET_WARC_NKINDS
};
/* A short name of kind k ("page", "not HTML", "not 2xx", "revisit", "request",
 * "other", "too large"), for counts. */
const char *cet_warc_kind_name(enum cet_warc_kind k);

/* One record.  The strings and the body belong to the reader and are valid
 * until its next call. */
struct cet_warc_record {
    enum cet_warc_kind kind;
    /* Where the record is: the gzip member that holds it (the record's own
     * offset in a plain file), and how many bytes of that member's
     * decompressed data come before it (0 but in a file gzipped whole).
     * cet_warc_seek goes back to it. */
    uint64_t offset, skip;
    const char *type;       /* WARC-Type as written, e.g. "response" */
    const char *target_uri; /* WARC-Target-URI without angle brackets; "" when absent */
    const char *record_id;  /* WARC-Record-ID, e.g. "<urn:uuid:...>"; "" when absent */
    const char *date;       /* WARC-Date, e.g. "2026-11-28T01:02:03Z"; "" when absent */
    int status;             /* the HTTP status of a response; 0 for a resource */
    const char *mime;       /* the content's media type, lowercase, without parameters; "" */
    const char *charset;    /* the charset parameter of the HTTP Content-Type, or NULL */
    /* CET_WARC_PAGE: the page's bytes, the transfer encoding (chunked) and
     * the content encoding (gzip, deflate) undone; NUL-terminated.  NULL for
     * the other kinds. */
    const char *body;
    size_t len;
};

/* Opens the WARC file at path.  max_bytes bounds a page's decoded size
 * (0: CET_WARC_MAX_PAGE); a larger page is CET_WARC_TOO_LARGE.  Returns
 * 0, or -1 with "PATH: reason" in err. */
int cet_warc_open(struct cet_warc **out, const char *path, size_t max_bytes,
                  struct cet_error *err);
/* The same over data[0..len) in memory (not copied; it must outlive the
 * reader); name stands for the file in messages. */
int cet_warc_open_mem(struct cet_warc **out, const void *data, size_t len, const char *name,
                      size_t max_bytes, struct cet_error *err);
void cet_warc_close(struct cet_warc *w);

/* The next record into *rec: returns 1, or 0 at the end of the file, or
 * CET_ERROR with "PATH: record at offset N: reason" in err when a record is
 * truncated or corrupt, or bytes between records are not a record.  After
 * CET_ERROR the reader has moved past the bad bytes: call it again for the
 * records that follow.  A read error of the file ends it (the next call
 * returns 0). */
int cet_warc_next(struct cet_warc *w, struct cet_warc_record *rec, struct cet_error *err);

/* Moves the reader to the record that a record's offset and skip name, so
 * that the next cet_warc_next reads it.  Returns 0, or -1 with the reason. */
int cet_warc_seek(struct cet_warc *w, uint64_t offset, uint64_t skip, struct cet_error *err);

/* 1 when path names a WARC file: it ends in .warc or .warc.gz. */
int cet_warc_path(const char *path);

/* The host of an absolute URI ("scheme://[user@]host[:port]/..."), lowercase,
 * without a final dot, into host[size]: 0, or -1 when uri has none. */
int cet_warc_host(const char *uri, char *host, size_t size);

CET_END_DECL

#endif
