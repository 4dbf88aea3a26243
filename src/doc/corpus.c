/* Corpus layouts (docs/formats.md, "Corpora"): canonical, CleanEval and article JSON, detected
 * per directory.  Scanning lists documents without reading them, so a sample
 * loads only what it names; loading parses in parallel and records every
 * unusable document with a reason instead of failing. */
#include "cetune/corpus.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>
#include <omp.h>

#include "cetune/buf.h"
#include "cetune/warc.h"
#include "parse.h"
#include "util/array.h"

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    char *s = malloc(n + m + 2);
    if (s) {
        memcpy(s, a, n);
        s[n] = '/';
        memcpy(s + n + 1, b, m + 1);
    }
    return s;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The last path component, ignoring trailing slashes. */
static char *base_name(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t s = n;
    while (s > 0 && path[s - 1] != '/')
        s--;
    char *r = malloc(n - s + 1);
    if (r) {
        memcpy(r, path + s, n - s);
        r[n - s] = 0;
    }
    return r;
}

static const char *page_suffixes[] = {".html.gz", ".htm.gz", ".html", ".htm", NULL};

/* Length of name without its page suffix, or 0 if it is not a page. */
static size_t page_stem(const char *name)
{
    size_t n = strlen(name);
    for (const char **s = page_suffixes; *s; s++) {
        size_t m = strlen(*s);
        if (n > m && strcmp(name + n - m, *s) == 0)
            return n - m;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the regular files (or directories) in dir. */
static int list_dir(char ***out, size_t *n, const char *dir, int want_dirs, struct cet_error *err)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return cet_fail(err, "%s: %s", dir, strerror(errno));
    char **v = NULL;
    size_t cnt = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.')
            continue;
        char *p = join(dir, de->d_name);
        if (!p)
            goto oom;
        int ok = want_dirs ? is_dir(p) : is_file(p);
        free(p);
        if (!ok)
            continue;
        if (CET_GROW(v, cap, cnt + 1, 64))
            goto oom;
        if (!(v[cnt] = strdup(de->d_name)))
            goto oom;
        cnt++;
    }
    closedir(dp);
    if (cnt)
        qsort(v, cnt, sizeof *v, cmp_str);
    *out = v;
    *n = cnt;
    return 0;
oom:
    closedir(dp);
    for (size_t i = 0; i < cnt; i++)
        free(v[i]);
    free(v);
    return cet_fail(err, "%s: out of memory", dir);
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static struct cet_entry *push(struct cet_entries *e)
{
    if (CET_GROW(e->v, e->cap, e->n + 1, 256))
        return NULL;
    struct cet_entry *x = &e->v[e->n++];
    memset(x, 0, sizeof *x);
    return x;
}

static void entry_free(struct cet_entry *x)
{
    free(x->package);
    free(x->name);
    free(x->html_path);
    free(x->gold_path);
    free(x->gold_inline);
    free(x->unscored);
}

void cet_entries_free(struct cet_entries *e)
{
    for (size_t i = 0; i < e->n; i++)
        entry_free(&e->v[i]);
    free(e->v);
    memset(e, 0, sizeof *e);
}

int cet_corpus_layout(const char *dir, enum cet_layout *out, struct cet_error *err)
{
    if (!is_dir(dir))
        return cet_fail(err, "%s: not a directory", dir);
    char *gt = join(dir, "ground-truth.json"), *in = join(dir, "input"),
         *gs = join(dir, "GoldStandard");
    if (!gt || !in || !gs) {
        free(gt);
        free(in);
        free(gs);
        return cet_fail(err, "out of memory");
    }
    if (is_file(gt))
        *out = CET_LAYOUT_ARTICLE_JSON;
    else if (is_dir(in) && is_dir(gs))
        *out = CET_LAYOUT_CLEANEVAL;
    else
        *out = CET_LAYOUT_CANONICAL;
    free(gt);
    free(in);
    free(gs);
    return 0;
}

/* Adds the pages of dir (gold beside them as STEM.txt) as package pkg. */
static int scan_pages(struct cet_entries *e, const char *dir, const char *gold_dir,
                      const char *pkg, int cleaneval, size_t *found, struct cet_error *err)
{
    char **files;
    size_t n;
    if (list_dir(&files, &n, dir, 0, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t stem = page_stem(files[i]);
        if (!stem)
            continue;
        struct cet_entry *x = push(e);
        if (!x) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        x->package = strdup(pkg);
        x->name = strndup(files[i], stem);
        x->html_path = join(dir, files[i]);
        char *txt = x->name ? malloc(stem + 5) : NULL;
        if (txt) {
            memcpy(txt, x->name, stem);
            memcpy(txt + stem, ".txt", 5);
            x->gold_path = join(gold_dir, txt);
            free(txt);
        }
        if (!x->package || !x->name || !x->html_path || !x->gold_path) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        x->cleaneval = cleaneval;
        x->gold_missing = !is_file(x->gold_path);
        ++*found;
    }
    free_list(files, n);
    return rc;
}

static int scan_article_json(struct cet_entries *e, const char *dir, const char *pkg,
                             size_t *found, struct cet_error *err)
{
    char *path = join(dir, "ground-truth.json");
    struct cet_buf buf = {0};
    int rc = -1;
    cJSON *root = NULL;
    if (!path) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (cet_read_file(&buf, path, (size_t)1 << 30, err))
        goto done;
    root = cJSON_ParseWithLength(buf.p, buf.len);
    if (!root || !cJSON_IsObject(root)) {
        int line = 1, col = 1;
        const char *at = cJSON_GetErrorPtr();
        if (!root && at && at >= buf.p && at <= buf.p + buf.len)
            cet_line_col(buf.p, (size_t)(at - buf.p), &line, &col);
        cet_fail(err, "%s:%d:%d: %s", path, line, col,
                 root ? "expected an object of {id: {\"articleBody\": ...}}" : "malformed JSON");
        goto done;
    }
    /* Sorted ids keep the document order independent of the JSON file. */
    size_t n = (size_t)cJSON_GetArraySize(root), k = 0;
    char **ids = calloc(n ? n : 1, sizeof *ids);
    if (!ids) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (cJSON *it = root->child; it; it = it->next)
        ids[k++] = it->string;
    qsort(ids, k, sizeof *ids, cmp_str);
    char *html = join(dir, "html");
    rc = html ? 0 : cet_fail(err, "out of memory");
    for (size_t i = 0; i < k && rc == 0; i++) {
        cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, ids[i]);
        cJSON *body = cJSON_GetObjectItemCaseSensitive(obj, "articleBody");
        struct cet_entry *x = push(e);
        if (!x) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        x->package = strdup(pkg);
        x->name = strdup(ids[i]);
        size_t ln = strlen(html) + strlen(ids[i]) + 16;
        x->html_path = malloc(ln);
        if (!x->package || !x->name || !x->html_path) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        snprintf(x->html_path, ln, "%s/%s.html.gz", html, ids[i]);
        if (!is_file(x->html_path))
            snprintf(x->html_path, ln, "%s/%s.html", html, ids[i]);
        if (cJSON_IsString(body)) {
            if (!(x->gold_inline = strdup(body->valuestring)))
                rc = cet_fail(err, "out of memory");
        } else {
            x->gold_missing = 1;
        }
        ++*found;
    }
    free(html);
    free(ids);
done:
    cJSON_Delete(root);
    cet_buf_free(&buf);
    free(path);
    return rc;
}

/* A WARC's pages as documents (docs/warc.md, "Crawls as corpora"): one
 * package per host, named after it; a page is NNNNNN-LAST, its ordinal
 * among the file's pages (so names sort in record order and never collide)
 * and the last segment of its URL's path; html_path is PATH#OFFSET (or
 * PATH#OFFSET+SKIP in a file gzipped whole), which cet_entry_read_page
 * reads back.  No gold: a crawl is tuned with a pseudo-gold. */
static int scan_warc(struct cet_entries *e, const char *path, struct cet_error *err)
{
    struct cet_warc *w;
    if (cet_warc_open(&w, path, 0, err))
        return -1;
    struct cet_warc_record r;
    struct cet_error ignored;
    size_t pages = 0;
    int got, rc = 0;
    while (!rc && (got = cet_warc_next(w, &r, &ignored)) != 0) {
        char host[256], name[96], ref[64];
        if (got < 0 || r.kind != CET_WARC_PAGE || cet_warc_host(r.target_uri, host, sizeof host))
            continue;
        /* The path's last segment, in characters safe in a file name. */
        const char *u = strstr(r.target_uri, "://") + 3;
        u += strcspn(u, "/?#");
        size_t n = strcspn(u, "?#");
        while (n && u[n - 1] == '/')
            n--;
        const char *seg = u;
        for (size_t i = 0; i < n; i++)
            if (u[i] == '/')
                seg = u + i + 1;
        size_t k = (size_t)snprintf(name, sizeof name, "%06zu-", ++pages);
        for (const char *c = seg; c < u + n && k + 1 < 64; c++)
            name[k++] = isalnum((unsigned char)*c) || *c == '.' || *c == '-' || *c == '_' ? *c
                                                                                         : '_';
        if (seg == u + n)
            k += (size_t)snprintf(name + k, sizeof name - k, "index");
        name[k] = 0;
        if (r.skip)
            snprintf(ref, sizeof ref, "#%llu+%llu", (unsigned long long)r.offset,
                     (unsigned long long)r.skip);
        else
            snprintf(ref, sizeof ref, "#%llu", (unsigned long long)r.offset);
        struct cet_entry *x = push(e);
        if (!x) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        x->package = strdup(host);
        x->name = strdup(name);
        struct cet_buf hp = {0};
        if (cet_buf_printf(&hp, "%s%s", path, ref))
            cet_buf_free(&hp);
        x->html_path = hp.p;
        x->gold_missing = 1;
        if (!x->package || !x->name || !x->html_path)
            rc = cet_fail(err, "out of memory");
    }
    cet_warc_close(w);
    if (!rc && !pages)
        rc = cet_fail(err, "%s: no HTML pages in this WARC", path);
    return rc;
}

/* PATH#OFFSET[+SKIP] of a WARC entry: the file (allocated) and where the
 * record is; 0 when html_path is a plain file. */
static int warc_ref(const char *html_path, char **file, uint64_t *offset, uint64_t *skip)
{
    const char *hash = strrchr(html_path, '#');
    if (!hash || hash == html_path)
        return 0;
    char *end;
    unsigned long long off = strtoull(hash + 1, &end, 10), sk = 0;
    if (end == hash + 1 || (*end && *end != '+'))
        return 0;
    if (*end == '+') {
        const char *s = end + 1;
        sk = strtoull(s, &end, 10);
        if (end == s || *end)
            return 0;
    }
    if (!(*file = strndup(html_path, (size_t)(hash - html_path))))
        return -1;
    if (!cet_warc_path(*file)) {
        free(*file);
        *file = NULL;
        return 0;
    }
    *offset = off;
    *skip = sk;
    return 1;
}

/* The page of a WARC entry into html and its HTTP charset into charset. */
static int read_warc_page(struct cet_buf *html, char charset[40], const char *file,
                          uint64_t offset, uint64_t skip, size_t limit, struct cet_error *err)
{
    struct cet_warc *w;
    struct cet_warc_record r;
    struct cet_error werr;
    int rc = -1;
    if (cet_warc_open(&w, file, limit, &werr))
        return cet_fail(err, "cannot read page: %s", werr.msg);
    int got = cet_warc_seek(w, offset, skip, &werr) ? -1 : cet_warc_next(w, &r, &werr);
    if (got < 0)
        cet_fail(err, "cannot read page: %s", werr.msg);
    else if (got == 0 || r.kind != CET_WARC_PAGE)
        cet_fail(err, "cannot read page: %s: no page at offset %llu (the file changed?)", file,
                 (unsigned long long)offset);
    else if (html->len = 0, cet_buf_add(html, r.body, r.len))
        cet_fail(err, "out of memory");
    else {
        snprintf(charset, 40, "%s", r.charset && cet_charset_known(r.charset) ? r.charset : "");
        rc = 0;
    }
    cet_warc_close(w);
    return rc;
}

static int scan_dir(struct cet_entries *e, const char *dir, struct cet_error *err)
{
    if (is_file(dir) && cet_warc_path(dir))
        return scan_warc(e, dir, err);
    enum cet_layout layout;
    if (cet_corpus_layout(dir, &layout, err))
        return -1;
    char *pkg = base_name(dir);
    if (!pkg)
        return cet_fail(err, "out of memory");
    size_t found = 0;
    int rc = 0;
    if (layout == CET_LAYOUT_ARTICLE_JSON) {
        rc = scan_article_json(e, dir, pkg, &found, err);
    } else if (layout == CET_LAYOUT_CLEANEVAL) {
        char *in = join(dir, "input"), *gs = join(dir, "GoldStandard");
        rc = in && gs ? scan_pages(e, in, gs, pkg, 1, &found, err) : cet_fail(err, "out of memory");
        free(in);
        free(gs);
    } else {
        rc = scan_pages(e, dir, dir, pkg, 0, &found, err);
        char **subs = NULL;
        size_t n = 0;
        if (rc == 0)
            rc = list_dir(&subs, &n, dir, 1, err);
        for (size_t i = 0; i < n && rc == 0; i++) {
            char *sub = join(dir, subs[i]);
            rc = sub ? scan_pages(e, sub, sub, subs[i], 0, &found, err)
                     : cet_fail(err, "out of memory");
            free(sub);
        }
        free_list(subs, n);
    }
    free(pkg);
    if (rc == 0 && found == 0)
        rc = cet_fail(err, "%s: no pages found (expected PACKAGE/NAME.html, input/ and "
                           "GoldStandard/, or ground-truth.json)", dir);
    return rc;
}

static int cmp_entry(const void *a, const void *b)
{
    const struct cet_entry *x = a, *y = b;
    int c = strcmp(x->package, y->package);
    return c ? c : strcmp(x->name, y->name);
}

int cet_corpus_scan(struct cet_entries *out, const char *const *dirs, size_t ndirs,
                    struct cet_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < ndirs; i++) {
        size_t before = out->n;
        if (scan_dir(out, dirs[i], err))
            goto fail;
        /* Packages keep their names across -d, so two corpora must not share one. */
        for (size_t j = before; j < out->n; j++) {
            if (j > before && strcmp(out->v[j].package, out->v[j - 1].package) == 0)
                continue;
            for (size_t k = 0; k < before; k++)
                if (strcmp(out->v[k].package, out->v[j].package) == 0) {
                    cet_fail(err, "%s: package '%s' is also in an earlier corpus directory",
                             dirs[i], out->v[j].package);
                    goto fail;
                }
        }
    }
    if (out->n)
        qsort(out->v, out->n, sizeof *out->v, cmp_entry);
    return 0;
fail:
    cet_entries_free(out);
    return -1;
}

/* CleanEval inputs may start with a <text id=... > wrapper line. */
static void strip_text_wrapper(struct cet_buf *b)
{
    if (b->len >= 6 && strncmp(b->p, "<text ", 6) == 0) {
        char *nl = memchr(b->p, '\n', b->len);
        size_t cut = nl ? (size_t)(nl - b->p) + 1 : b->len;
        memmove(b->p, b->p + cut, b->len - cut + 1);
        b->len -= cut;
    }
}

/* The entry's gold, decoded (and cleaned up for CleanEval) into *gold. */
static int read_gold(const struct cet_entry *e, char **gold, size_t *gold_len,
                     struct cet_error *err)
{
    struct cet_buf raw = {0};
    const char *g = e->gold_inline;
    size_t len = g ? strlen(g) : 0;
    if (!g) {
        struct cet_error ferr;
        if (cet_read_file(&raw, e->gold_path, (size_t)256 << 20, &ferr))
            return cet_fail(err, "cannot read gold: %s", ferr.msg);
        g = raw.p;
        len = raw.len;
    }
    int rc = cet_decode_text(gold, gold_len, g, len, err);
    cet_buf_free(&raw);
    if (rc) { /* the reason names the gold, not the page the document is known by */
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        cet_fail(err, "gold standard: %s", why);
    }
    if (rc == 0 && e->cleaneval && !e->gold_pseudo)
        *gold_len = cet_gold_cleanup(*gold, *gold_len);
    return rc;
}

/* The page and, for a WARC's, the charset HTTP declared ("" for none). */
static int read_page(struct cet_buf *html, char charset[40], const struct cet_entry *e,
                     struct cet_error *err)
{
    struct cet_error ferr;
    /* One byte over the model's own limit, so that the parser says the page
     * is too large; a caller's smaller limit is the reader's. */
    size_t limit = e->max_bytes && e->max_bytes <= CET_MAX_PAGE_BYTES ? e->max_bytes
                                                                      : CET_MAX_PAGE_BYTES + 1;
    char *file = NULL;
    uint64_t offset, skip;
    charset[0] = 0;
    int warc = warc_ref(e->html_path, &file, &offset, &skip);
    if (warc < 0)
        return cet_fail(err, "out of memory");
    if (warc) {
        int rc = read_warc_page(html, charset, file, offset, skip, limit, err);
        free(file);
        return rc;
    }
    if (cet_read_file(html, e->html_path, limit, &ferr))
        return cet_fail(err, "cannot read page: %s", ferr.msg);
    if (e->cleaneval)
        strip_text_wrapper(html);
    return 0;
}

int cet_entry_read_page(struct cet_buf *html, const struct cet_entry *e, struct cet_error *err)
{
    char charset[40];
    return read_page(html, charset, e, err);
}

int cet_entry_load(struct cet_doc **out, const struct cet_entry *e, unsigned flags,
                   struct cet_error *err)
{
    struct cet_buf html = {0};
    char *gold = NULL;
    size_t gold_len = 0;
    int rc = -1;
    *out = NULL;
    if (e->gold_missing && !(flags & CET_LOAD_PAGE_ONLY)) {
        cet_fail(err, CET_NO_GOLD);
        goto done;
    }
    char charset[40];
    if (read_page(&html, charset, e, err))
        goto done;
    if (!(flags & CET_LOAD_PAGE_ONLY) && read_gold(e, &gold, &gold_len, err))
        goto done;
    if (cet_doc_parse_declared(out, html.p, html.len, charset[0] ? charset : NULL, gold,
                               gold_len, err))
        goto done;
    struct cet_doc *d = *out;
    for (size_t j = 0; j < e->nunscored && !(flags & CET_LOAD_PAGE_ONLY); j++) {
        uint32_t a = e->unscored[2 * j], b = e->unscored[2 * j + 1];
        if (a > b || b > d->ntexts) {
            cet_doc_free(d);
            *out = NULL;
            cet_fail(err, "the page changed since its pseudo-gold was made");
            goto done;
        }
        for (uint32_t k = a; k < b; k++)
            d->nodes[d->texts[k]].flags |= CET_NF_UNSCORED;
    }
    if (!(flags & CET_LOAD_GOLD_TEXT)) {
        free(d->gold_text);
        d->gold_text = NULL;
        d->gold_text_len = 0;
    }
    if (!(flags & CET_LOAD_TEXT)) {
        free(d->text);
        d->text = NULL;
        d->text_len = 0;
    }
    d->package = strdup(e->package);
    d->name = strdup(e->name);
    d->path = strdup(e->html_path);
    if (!d->package || !d->name || !d->path) {
        cet_doc_free(d);
        *out = NULL;
        cet_fail(err, "out of memory");
        goto done;
    }
    rc = 0;
done:
    cet_buf_free(&html);
    free(gold);
    return rc;
}

int cet_corpus_load(struct cet_corpus *c, const struct cet_entries *e, const uint8_t *want,
                    unsigned flags, int threads, struct cet_error *err)
{
    memset(c, 0, sizeof *c);
    size_t n = e->n;
    struct cet_doc **docs = calloc(n ? n : 1, sizeof *docs);
    char **reasons = calloc(n ? n : 1, sizeof *reasons);
    if (!docs || !reasons) {
        free(docs);
        free(reasons);
        return cet_fail(err, "out of memory");
    }
    int oom = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (size_t i = 0; i < n; i++) {
        if (want && !want[i])
            continue;
        struct cet_error derr;
        if (cet_entry_load(&docs[i], &e->v[i], flags, &derr)) {
            reasons[i] = strdup(derr.msg);
            if (!reasons[i]) {
#pragma omp atomic write
                oom = 1;
            }
        }
    }
    int rc = cet_corpus_assemble(c, e, docs, reasons, oom, err);
    free(docs);
    free(reasons);
    return rc;
}

int cet_corpus_labelled(const struct cet_corpus *c, const struct cet_entries *e,
                        uint8_t *labelled, size_t *n, struct cet_error *err)
{
    /* The pages of the entries with gold of their own, sorted, to find
     * each document's by its path. */
    const char **own = malloc((e->n ? e->n : 1) * sizeof *own);
    size_t nown = 0;
    if (!own)
        return cet_fail(err, "out of memory");
    for (size_t i = 0; i < e->n; i++)
        if (!e->v[i].gold_pseudo && !e->v[i].gold_missing)
            own[nown++] = e->v[i].html_path;
    qsort(own, nown, sizeof *own, cmp_str);
    *n = 0;
    for (size_t i = 0; i < c->ndocs; i++) {
        const char *key = c->docs[i]->path;
        labelled[i] = bsearch(&key, own, nown, sizeof *own, cmp_str) != NULL;
        *n += labelled[i];
    }
    free(own);
    return 0;
}

int cet_corpus_assemble(struct cet_corpus *c, const struct cet_entries *e, struct cet_doc **docs,
                        char **reasons, int oom, struct cet_error *err)
{
    memset(c, 0, sizeof *c);
    size_t n = e->n;
    int rc = 0;
    size_t kept = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        kept += docs[i] != NULL;
        skipped += reasons[i] != NULL;
    }
    c->docs = calloc(kept ? kept : 1, sizeof *c->docs);
    c->skips = calloc(skipped ? skipped : 1, sizeof *c->skips);
    c->pkgs = calloc(kept ? kept : 1, sizeof *c->pkgs);
    if (oom || !c->docs || !c->skips || !c->pkgs)
        rc = cet_fail(err, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && docs[i]) {
            struct cet_doc *d = docs[i];
            c->bytes += d->bytes;
            if (!c->npkgs || strcmp(c->pkgs[c->npkgs - 1].name, d->package) != 0) {
                c->pkgs[c->npkgs].name = strdup(d->package);
                c->pkgs[c->npkgs].first = (uint32_t)c->ndocs;
                if (!c->pkgs[c->npkgs].name)
                    rc = cet_fail(err, "out of memory");
                c->npkgs++;
            }
            c->pkgs[c->npkgs - 1].count++;
            c->docs[c->ndocs++] = d;
            docs[i] = NULL;
        } else if (rc == 0 && reasons[i]) {
            c->skips[c->nskips].path = strdup(e->v[i].html_path);
            c->skips[c->nskips].reason = reasons[i];
            reasons[i] = NULL;
            c->nskips++;
        }
        cet_doc_free(docs[i]);
        free(reasons[i]);
    }
    if (rc)
        cet_corpus_free(c);
    return rc;
}

void cet_corpus_free(struct cet_corpus *c)
{
    if (c->docs)
        for (size_t i = 0; i < c->ndocs; i++)
            cet_doc_free(c->docs[i]);
    if (c->pkgs)
        for (size_t i = 0; i < c->npkgs; i++)
            free(c->pkgs[i].name);
    if (c->skips)
        for (size_t i = 0; i < c->nskips; i++) {
            free(c->skips[i].path);
            free(c->skips[i].reason);
        }
    free(c->docs);
    free(c->pkgs);
    free(c->skips);
    memset(c, 0, sizeof *c);
}

/* ---- sample files ---- */

/* 1 when c cannot stand as it is in an unquoted line. */
static int needs_escape(unsigned char c)
{
    return c < 0x20 || c == 0x7f || c == '\\' || c == '"';
}

static int needs_quotes(const char *package, const char *name)
{
    const char *parts[] = {package, name};
    if (*package == '#' || *package == '"')
        return 1;
    for (int k = 0; k < 2; k++) {
        const char *s = parts[k];
        size_t n = strlen(s);
        if (n && (s[0] == ' ' || s[n - 1] == ' '))
            return 1;
        for (; *s; s++)
            if (needs_escape((unsigned char)*s))
                return 1;
    }
    return 0;
}

static int put_escaped(struct cet_buf *b, const char *s)
{
    int bad = 0;
    for (; *s && !bad; s++) {
        unsigned char c = (unsigned char)*s;
        bad = !needs_escape(c) ? cet_buf_add(b, s, 1)
              : c == '\n'     ? cet_buf_puts(b, "\\n")
              : c == '\r'     ? cet_buf_puts(b, "\\r")
              : c == '\t'     ? cet_buf_puts(b, "\\t")
              : c == '\\' || c == '"' ? cet_buf_printf(b, "\\%c", c)
                                      : cet_buf_printf(b, "\\x%02x", c);
    }
    return bad;
}

int cet_sample_line(struct cet_buf *out, const char *package, const char *name)
{
    if (!needs_quotes(package, name))
        return cet_buf_printf(out, "%s/%s\n", package, name);
    return cet_buf_puts(out, "\"") || put_escaped(out, package) || cet_buf_puts(out, "/") ||
           put_escaped(out, name) || cet_buf_puts(out, "\"\n");
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A quoted line "..." (s at its opening quote), unescaped in place into s;
 * -1 when malformed. */
static int unquote(char *s)
{
    char *o = s;
    for (const char *p = s + 1;; p++) {
        if (!*p)
            return -1; /* no closing quote */
        if (*p == '"') {
            for (p++; *p == ' ' || *p == '\t'; p++)
                ;
            *o = 0;
            return *p ? -1 : 0;
        }
        if (*p != '\\') {
            *o++ = *p;
            continue;
        }
        p++;
        int h1, h2;
        if (*p == 'n' || *p == 'r' || *p == 't')
            *o++ = *p == 'n' ? '\n' : *p == 'r' ? '\r' : '\t';
        else if (*p == '\\' || *p == '"')
            *o++ = *p;
        else if (*p == 'x' && (h1 = hex_digit(p[1])) >= 0 && (h2 = hex_digit(p[2])) >= 0 &&
                 (h1 || h2)) {
            *o++ = (char)(h1 * 16 + h2);
            p += 2;
        } else {
            return -1;
        }
    }
}

int cet_sample_read(char ***names, size_t *n, const char *path, struct cet_error *err)
{
    struct cet_buf b = {0};
    *names = NULL;
    *n = 0;
    if (cet_read_file(&b, path, (size_t)64 << 20, err))
        return -1;
    int rc = cet_sample_parse(names, n, b.p, b.len, path, err);
    cet_buf_free(&b);
    return rc;
}

int cet_sample_parse(char ***names, size_t *n, char *text, size_t text_len, const char *path,
                     struct cet_error *err)
{
    struct cet_buf b = {text, text_len, text_len};
    *names = NULL;
    *n = 0;
    char **v = NULL;
    size_t cnt = 0, cap = 0;
    int line = 0, rc = 0;
    for (size_t pos = 0; pos < b.len && rc == 0;) {
        char *s = b.p + pos, *nl = memchr(s, '\n', b.len - pos);
        size_t len = nl ? (size_t)(nl - s) : b.len - pos;
        pos += len + 1;
        line++;
        if (memchr(s, 0, len)) {
            rc = cet_fail(err, "%s:%d:1: NUL byte: this is not a sample file", path, line);
            break;
        }
        s[len] = 0;
        while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
            s[--len] = 0;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        if (*s == '"' && unquote(s)) {
            rc = cet_fail(err, "%s:%d:1: a quoted name must be \"PACKAGE/NAME\" with \\\\, \\\", "
                               "\\n, \\r, \\t or \\xHH escapes, got '%.60s'", path, line, s);
            break;
        }
        char *slash = strchr(s, '/');
        if (!slash || slash == s || !slash[1]) {
            rc = cet_fail(err, "%s:%d:1: expected PACKAGE/NAME, got '%.60s'", path, line, s);
            break;
        }
        if (CET_GROW(v, cap, cnt + 1, 64)) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        if (!(v[cnt] = strdup(s))) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        cnt++;
    }
    if (rc == 0 && cnt == 0)
        rc = cet_fail(err, "%s: the sample lists no documents", path);
    if (rc) {
        cet_sample_free(v, cnt);
        return -1;
    }
    *names = v;
    *n = cnt;
    return 0;
}

void cet_sample_free(char **names, size_t n)
{
    free_list(names, n);
}

int cet_sample_select(uint8_t *want, const struct cet_entries *e, char *const *names, size_t n,
                      const char *path, struct cet_error *err)
{
    memset(want, 0, e->n);
    for (size_t i = 0; i < n; i++) {
        const char *slash = strchr(names[i], '/');
        size_t plen = (size_t)(slash - names[i]);
        /* Entries are sorted, so a binary search finds the document. */
        size_t lo = 0, hi = e->n;
        int found = 0;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            const struct cet_entry *x = &e->v[mid];
            int c = strncmp(x->package, names[i], plen);
            if (c == 0 && x->package[plen])
                c = 1;
            if (c == 0)
                c = strcmp(x->name, slash + 1);
            if (c == 0) {
                want[mid] = 1;
                found = 1;
                break;
            }
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (!found)
            return cet_fail(err, "%s: '%s' is not a document of the given corpora", path, names[i]);
    }
    return 0;
}
