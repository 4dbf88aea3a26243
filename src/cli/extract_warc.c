/* cetune extract --warc: the HTML pages of crawls (include/cetune/warc.h)
 * as JSON Lines, one object per page in record order (docs/warc.md).
 *
 * The reader streams; pages are gathered in batches of at most BATCH_PAGES
 * pages or BATCH_BYTES bytes, extracted in parallel (one page context per
 * thread), then printed in order, so memory stays flat whatever the size
 * of the crawl and the output does not depend on the number of threads.
 * Under mpirun the files are spread over the ranks (extract_warc_mpi.c),
 * each rank's part written through a sink: stdout and stderr on rank 0,
 * spool files on the others, which rank 0 then prints in rank order. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <omp.h>

#include "cetune/page.h"
#include "cetune/warc.h"
#include "extract_warc.h"
#include "msgs.h"

#define BATCH_PAGES 256
#define BATCH_BYTES (32u << 20)

struct item {
    char *body, *uri, *id, *date, *file;
    size_t len;
    char charset[40];
    unsigned long long offset;
    struct cet_buf out;
    char *error; /* why the page failed, or NULL */
    int fatal;   /* the extractor itself failed (not the page) */
};

struct batch {
    struct item v[BATCH_PAGES];
    size_t n, bytes;
};

/* A message of the part: on stderr, or into its sink's message spool. */
static void sink_error(const struct cli_warc_sink *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sink_error(const struct cli_warc_sink *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (s->msgs)
        cli_vmessage_to(s->msgs, "", fmt, ap);
    else
        cli_vmessage("", fmt, ap);
    va_end(ap);
}

static void item_clear(struct item *it)
{
    free(it->body);
    free(it->uri);
    free(it->id);
    free(it->date);
    free(it->error);
    struct cet_buf out = it->out;
    memset(it, 0, sizeof *it);
    it->out = out; /* kept for the next batch */
    it->out.len = 0;
}

/* Copies a page record into the batch: 0, or -1 when out of memory. */
static int batch_add(struct batch *b, const struct cet_warc_record *r, const char *file)
{
    struct item *it = &b->v[b->n];
    it->body = malloc(r->len + 1);
    it->uri = strdup(r->target_uri);
    it->id = strdup(r->record_id);
    it->date = strdup(r->date);
    it->file = (char *)file;
    if (!it->body || !it->uri || !it->id || !it->date) {
        item_clear(it);
        return -1;
    }
    memcpy(it->body, r->body, r->len + 1);
    it->len = r->len;
    it->offset = r->offset;
    /* A charset the transport names but nobody knows is ignored, as browsers do. */
    snprintf(it->charset, sizeof it->charset, "%s",
             r->charset && cet_charset_known(r->charset) ? r->charset : "");
    b->n++;
    b->bytes += r->len;
    return 0;
}

/* Adds the record's three WARC keys to the page's JSON object (one line). */
static int add_warc_keys(struct cet_buf *out, const struct item *it)
{
    while (out->len && (out->p[out->len - 1] == '\n' || out->p[out->len - 1] == '}'))
        if (out->p[--out->len] == '}')
            break;
    const char *keys[3] = {"WARC-Target-URI", "WARC-Record-ID", "WARC-Date"};
    const char *vals[3] = {it->uri, it->id, it->date};
    for (int k = 0; k < 3; k++) {
        cJSON *s = cJSON_CreateString(vals[k]);
        char *j = s ? cJSON_PrintUnformatted(s) : NULL;
        cJSON_Delete(s);
        int bad = !j || cet_buf_printf(out, ",\"%s\":%s", keys[k], j);
        free(j);
        if (bad)
            return -1;
    }
    return cet_buf_puts(out, "}\n");
}

static void extract_item(struct item *it, struct cet_page *pg, const struct cli_warc_job *job)
{
    struct cet_error err;
    const struct cet_config *cfg = job->cfg;
    if (job->routes && !(cfg = cet_routes_pick(job->routes, it->uri, NULL, &err))) {
        it->error = strdup(err.msg);
        return;
    }
    struct cet_page_opts opts = {.format = CET_PAGE_JSON, .url = it->uri[0] ? it->uri : NULL,
                                 .charset = it->charset[0] ? it->charset : NULL};
    int r = cet_page_extract(pg, cfg, it->body, it->len, &opts, &it->out, NULL, &err);
    if (!r && add_warc_keys(&it->out, it)) {
        r = CET_ERROR;
        snprintf(err.msg, sizeof err.msg, "out of memory");
    }
    if (r) {
        it->error = strdup(err.msg);
        it->fatal = r == CET_ERROR;
        if (!it->error)
            it->fatal = 1;
    }
}

/* Extracts the batch's pages in parallel and prints them in order: 0, or
 * CLI_RUNTIME when the run cannot go on. */
static int flush_batch(struct batch *b, struct cet_page **pgs, int threads,
                       const struct cli_warc_job *job, const struct cli_warc_sink *s,
                       struct cli_warc_totals *t)
{
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t i = 0; i < b->n; i++)
        extract_item(&b->v[i], pgs[omp_get_thread_num()], job);
    int rc = 0;
    for (size_t i = 0; i < b->n && !rc; i++) {
        struct item *it = &b->v[i];
        if (it->error) {
            sink_error(s, "%s: record at offset %llu (%s): %s", it->file, it->offset, it->uri,
                       it->error ? it->error : "out of memory");
            t->failed++;
            if (it->fatal)
                rc = CLI_RUNTIME;
        } else if (fwrite(it->out.p, 1, it->out.len, s->out) != it->out.len || ferror(s->out)) {
            sink_error(s, "cannot write to %s: %s", s->out_name, strerror(errno));
            rc = CLI_RUNTIME;
        }
    }
    for (size_t i = 0; i < b->n; i++)
        item_clear(&b->v[i]);
    b->n = b->bytes = 0;
    return rc;
}

/* One file's records into the batch (flushed when full): 0, or CLI_RUNTIME. */
static int read_file(const char *file, struct batch *b, struct cet_page **pgs, int threads,
                     const struct cli_warc_job *job, const struct cli_warc_sink *s,
                     struct cli_warc_totals *t)
{
    struct cet_warc *w;
    struct cet_error err;
    if (cet_warc_open(&w, file, job->max_body, &err)) {
        sink_error(s, "%s", err.msg);
        t->files_failed++;
        return 0;
    }
    struct cet_warc_record r;
    int got, rc = 0;
    while (!rc && (got = cet_warc_next(w, &r, &err)) != 0) {
        if (cli_signal) {
            rc = CLI_RUNTIME;
            break;
        }
        if (got < 0) {
            sink_error(s, "%s", err.msg);
            t->corrupt++;
            continue;
        }
        t->records++;
        t->kinds[r.kind]++;
        if (r.kind != CET_WARC_PAGE)
            continue;
        if (batch_add(b, &r, file)) {
            sink_error(s, "%s: out of memory", file);
            rc = CLI_RUNTIME;
            break;
        }
        if (b->n == BATCH_PAGES || b->bytes >= BATCH_BYTES)
            rc = flush_batch(b, pgs, threads, job, s, t);
    }
    /* The batch may hold this file's pages: they print before the file is
     * closed, as its name is in their messages. */
    if (!rc)
        rc = flush_batch(b, pgs, threads, job, s, t);
    cet_warc_close(w);
    return rc;
}

int cli_warc_part(const struct cli_warc_job *job, char *const *files, size_t nfiles,
                  const struct cli_warc_sink *s, struct cli_warc_totals *t)
{
    int threads = job->threads > 0 ? job->threads : omp_get_max_threads();
    struct cet_page **pgs = calloc((size_t)threads, sizeof *pgs);
    struct batch *b = calloc(1, sizeof *b);
    struct cet_error err;
    int rc = 0;
    if (!pgs || !b) {
        sink_error(s, "out of memory");
        rc = CLI_RUNTIME;
        goto done;
    }
    for (int i = 0; i < threads; i++)
        if (cet_page_new(&pgs[i], &err)) {
            sink_error(s, "%s", err.msg);
            rc = CLI_RUNTIME;
            goto done;
        }
    for (size_t f = 0; f < nfiles && !rc; f++)
        rc = read_file(files[f], b, pgs, threads, job, s, t);
done:
    if (pgs)
        for (int i = 0; i < threads; i++)
            cet_page_free(pgs[i]);
    free(pgs);
    if (b)
        for (size_t i = 0; i < BATCH_PAGES; i++)
            cet_buf_free(&b->v[i].out);
    free(b);
    return rc;
}

int cli_warc_finish(const struct cli_warc_totals *t, size_t nfiles, int rc)
{
    if (!rc && fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        rc = CLI_RUNTIME;
    }
    if (cli_signal) {
        cli_error("stopped by %s", cli_signal_name());
        rc = CLI_RUNTIME;
    }
    /* The counts, always: a crawl's reader wants to know what was passed over. */
    fprintf(stderr, "cetune: %zu record%s in %zu file%s: %zu page%s extracted", t->records,
            cli_s(t->records), nfiles, cli_s(nfiles), t->kinds[CET_WARC_PAGE] - t->failed,
            cli_s(t->kinds[CET_WARC_PAGE] - t->failed));
    if (t->failed)
        fprintf(stderr, ", %zu failed", t->failed);
    const char *sep = "; skipped: ";
    for (int k = 1; k < CET_WARC_NKINDS; k++)
        if (t->kinds[k]) {
            fprintf(stderr, "%s%zu %s", sep, t->kinds[k], cet_warc_kind_name(k));
            sep = ", ";
        }
    fprintf(stderr, "; %zu corrupt or truncated", t->corrupt);
    if (t->files_failed)
        fprintf(stderr, "; %zu unreadable file%s", t->files_failed, cli_s(t->files_failed));
    fputc('\n', stderr);
    if (!rc && (t->failed || t->corrupt || t->files_failed))
        rc = CLI_RUNTIME;
    return rc;
}

int cli_extract_warc(const struct cli_warc_job *job, char *const *files, size_t nfiles)
{
    struct cli_warc_sink s = {stdout, NULL, "standard output"};
    struct cli_warc_totals t = {0};
    int rc = cli_warc_part(job, files, nfiles, &s, &t);
    return cli_warc_finish(&t, nfiles, rc);
}
