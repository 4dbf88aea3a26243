/* The data a run trains on, by content (run->info.data): every page and
 * gold file of its training sample with a digest of its bytes, recorded
 * when the run starts and checked when it resumes.  A resume on edited
 * gold would mix the fitness of two gold standards in one run; it is
 * refused, naming the first file that differs.  Pseudo-gold is made from
 * the pages again on resume, so only its pages are recorded. */
#include "run_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cetune/buf.h"
#include "cetune/corpus.h"

/* The digest of path's content (gunzipped, as a load reads it) into out;
 * -1 with errno's reason in err. */
static int digest_of(const char *path, char out[17], struct cet_error *err)
{
    struct cet_buf b = {0};
    /* A WARC's page is PATH#OFFSET (corpus.c): its record's page, as a load reads it. */
    const char *hash = strrchr(path, '#');
    struct cet_entry page = {.html_path = (char *)path};
    if (hash && hash[1] >= '0' && hash[1] <= '9' ? cet_entry_read_page(&b, &page, err)
                                                 : cet_read_file(&b, path, (size_t)256 << 20, err))
        return -1;
    snprintf(out, 17, "%016llx", (unsigned long long)cet_hash64(b.p, b.len));
    cet_buf_free(&b);
    return 0;
}

static int add_file(struct cet_run_info *info, size_t *cap, const char *path,
                    struct cet_error *err)
{
    for (size_t i = info->ndata; i-- > 0 && i + 4 >= info->ndata;)
        if (!strcmp(info->data[i].path, path))
            return 0; /* ground-truth.json, once for its documents */
    if (info->ndata == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        struct cet_run_file *v = realloc(info->data, c * sizeof *v);
        if (!v)
            return cet_fail(err, "out of memory");
        info->data = v;
        *cap = c;
    }
    struct cet_run_file *f = &info->data[info->ndata];
    if (!(f->path = strdup(path)))
        return cet_fail(err, "out of memory");
    if (digest_of(path, f->digest, err)) {
        free(f->path);
        return -1;
    }
    info->ndata++;
    return 0;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cet_run_data_record(struct cet_run *run, struct cet_error *err)
{
    struct cet_run_info *info = &run->info;
    const struct cet_corpus *c = &run->train;
    const struct cet_entries *e = &run->entries;
    size_t cap = 0;
    int rc = 0;
    /* The training documents' pages, sorted, to find their entries. */
    const char **paths = malloc((c->ndocs ? c->ndocs : 1) * sizeof *paths);
    if (!paths)
        return cet_fail(err, "out of memory");
    for (size_t i = 0; i < c->ndocs; i++)
        paths[i] = c->docs[i]->path;
    qsort(paths, c->ndocs, sizeof *paths, cmp_path);
    for (size_t i = 0; i < e->n && !rc; i++) {
        const struct cet_entry *x = &e->v[i];
        const char *key = x->html_path;
        if (!bsearch(&key, paths, c->ndocs, sizeof *paths, cmp_path))
            continue;
        rc = add_file(info, &cap, x->html_path, err);
        if (rc || x->gold_pseudo)
            continue;
        if (x->gold_path) {
            rc = add_file(info, &cap, x->gold_path, err);
        } else if (x->gold_inline) { /* CORPUS/html/ID.html: CORPUS/ground-truth.json */
            struct cet_buf gt = {0};
            const char *s = strrchr(x->html_path, '/');
            size_t n = s ? (size_t)(s - x->html_path) : 0;
            while (n && x->html_path[n - 1] != '/')
                n--;
            rc = cet_buf_printf(&gt, "%.*sground-truth.json", (int)n, x->html_path)
                     ? cet_fail(err, "out of memory") : add_file(info, &cap, gt.p, err);
            cet_buf_free(&gt);
        }
    }
    free(paths);
    info->data_recorded = rc == 0;
    return rc;
}

int cet_run_data_check(const struct cet_run *run, struct cet_error *err)
{
    const struct cet_run_info *info = &run->info;
    for (size_t i = 0; i < info->ndata; i++) {
        const struct cet_run_file *f = &info->data[i];
        char now[17], why[300];
        struct cet_error ferr;
        if (digest_of(f->path, now, &ferr) == 0) {
            if (!strcmp(now, f->digest))
                continue;
            snprintf(why, sizeof why, "its digest was %s, now %s", f->digest, now);
        } else {
            int gone = access(f->path, F_OK) != 0 && errno == ENOENT;
            snprintf(why, sizeof why, "%.250s", gone ? "it was removed" : ferr.msg);
        }
        return cet_fail(err, "%s: the data changed since the run started: %s is not as it was "
                             "(%s); a run resumes only on the data it started with (put it "
                             "back, or start a new run)", run->dir, f->path, why);
    }
    return 0;
}
