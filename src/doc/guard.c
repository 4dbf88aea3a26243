/* The corpus guard (include/cetune/guard.h): outputs never replace a page or
 * a gold file, nor land inside a corpus directory. */
#include "cetune/guard.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/buf.h"

enum what { CORPUS_FILE, PAGE, GOLD };

struct item {
    dev_t dev;
    ino_t ino;
    char *path; /* as the user named it, for messages */
    enum what what;
};

struct set {
    struct item *v;
    size_t n, cap;
    int sorted;
};

struct cet_guard {
    struct set files, dirs;
};

struct cet_guard *cet_guard_new(void)
{
    return calloc(1, sizeof(struct cet_guard));
}

static void set_free(struct set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].path);
    free(s->v);
}

void cet_guard_free(struct cet_guard *g)
{
    if (!g)
        return;
    set_free(&g->files);
    set_free(&g->dirs);
    free(g);
}

static int set_add(struct set *s, const struct stat *st, const char *path, enum what what)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct item *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    char *p = strdup(path);
    if (!p)
        return -1;
    s->v[s->n++] = (struct item){st->st_dev, st->st_ino, p, what};
    s->sorted = 0;
    return 0;
}

static int cmp_item(const void *a, const void *b)
{
    const struct item *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static const struct item *set_find(struct set *s, const struct stat *st)
{
    if (!s->n)
        return NULL;
    if (!s->sorted) {
        qsort(s->v, s->n, sizeof *s->v, cmp_item);
        s->sorted = 1;
    }
    struct item key = {.dev = st->st_dev, .ino = st->st_ino};
    return bsearch(&key, s->v, s->n, sizeof *s->v, cmp_item);
}

static int refuse_file(const char *shown, const struct item *it, struct cet_error *err)
{
    static const char *const words[] = {"a file of the corpus", "the input page",
                                        "the gold standard"};
    return cet_fail(err, "%s would overwrite %s %s; corpora are never written", shown,
                    words[it->what], it->path);
}

/* What is under dir, depth levels down (links followed): with check 0 its
 * regular files are protected; with check 1 a protected file or directory
 * among them is refused. */
static int walk(struct cet_guard *g, const char *dir, int depth, int check, struct cet_error *err)
{
    DIR *d = opendir(dir);
    if (!d) /* a corpus must be read; writing elsewhere fails with its own message */
        return check ? 0 : cet_fail(err, "%s: %s", dir, strerror(errno));
    struct cet_buf p = {0};
    int rc = 0;
    for (struct dirent *de; rc == 0 && (de = readdir(d));) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        struct stat st;
        p.len = 0;
        if (cet_buf_printf(&p, "%s/%s", dir, de->d_name)) {
            rc = cet_fail(err, "out of memory");
            break;
        }
        if (stat(p.p, &st))
            continue; /* a dangling link: nothing there */
        const struct item *it = NULL;
        if (!check && S_ISREG(st.st_mode) && set_add(&g->files, &st, p.p, CORPUS_FILE))
            rc = cet_fail(err, "out of memory");
        else if (check && S_ISREG(st.st_mode) && (it = set_find(&g->files, &st)))
            rc = refuse_file(p.p, it, err);
        else if (check && S_ISDIR(st.st_mode) && (it = set_find(&g->dirs, &st)))
            rc = cet_fail(err, "%s is the corpus %s; corpora are never written", p.p, it->path);
        else if (S_ISDIR(st.st_mode) && depth > 1)
            rc = walk(g, p.p, depth - 1, check, err);
    }
    closedir(d);
    cet_buf_free(&p);
    return rc;
}

int cet_guard_corpora(struct cet_guard *g, const char *const *dirs, size_t ndirs,
                      struct cet_error *err)
{
    for (size_t i = 0; i < ndirs; i++) {
        struct stat st;
        if (stat(dirs[i], &st) || !S_ISDIR(st.st_mode))
            continue; /* loading says what is wrong with it */
        if (set_add(&g->dirs, &st, dirs[i], CORPUS_FILE))
            return cet_fail(err, "out of memory");
        /* CORPUS/PACKAGE/NAME, CORPUS/input/NAME, CORPUS/html/ID: two levels. */
        if (walk(g, dirs[i], 2, 0, err))
            return -1;
    }
    return 0;
}

static int add_file(struct cet_guard *g, const char *path, enum what what)
{
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return 0;
    return set_add(&g->files, &st, path, what);
}

int cet_guard_page(struct cet_guard *g, const char *page, struct cet_error *err)
{
    struct stat st;
    if (stat(page, &st) || !S_ISREG(st.st_mode))
        return 0;
    const char *slash = strrchr(page, '/'), *base = slash ? slash + 1 : page;
    int dir_len = slash ? (int)(slash - page) : 1;
    const char *dir = slash ? page : ".";
    size_t stem = strlen(base);
    static const char *const suffixes[] = {".gz", ".html", ".htm"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(suffixes[k]);
        if (stem > n && !strncmp(base + stem - n, suffixes[k], n)) {
            stem -= n;
            if (k == 1)
                break; /* .html: .htm cannot follow */
        }
    }
    struct cet_buf p = {0};
    int bad = add_file(g, page, PAGE) ||
              cet_buf_printf(&p, "%.*s/%.*s.txt", dir_len, dir, (int)stem, base) ||
              add_file(g, p.p, GOLD);
    /* CleanEval: CORPUS/input/NAME.html has its gold in CORPUS/GoldStandard/. */
    int in_input = slash && dir_len >= 5 && !strncmp(slash - 5, "input", 5) &&
                   (dir_len == 5 || slash[-6] == '/');
    if (!bad && in_input) {
        p.len = 0;
        bad = cet_buf_printf(&p, "%.*s/../GoldStandard/%.*s.txt", dir_len, dir, (int)stem, base) ||
              add_file(g, p.p, GOLD);
    }
    cet_buf_free(&p);
    return bad ? cet_fail(err, "out of memory") : 0;
}

/* The realpath of path's longest existing prefix, with *missing set to the
 * number of components after it that do not exist yet; NULL when out of
 * memory or the prefix cannot be resolved (errno says why). */
static char *resolve(const char *path, size_t *missing)
{
    char *cur = strdup(path), *real = NULL;
    char **tail = NULL; /* the stripped components, last first */
    size_t ntail = 0;
    if (!cur)
        return NULL;
    while (!(real = realpath(cur, NULL))) {
        if (errno != ENOENT && errno != ENOTDIR)
            goto done;
        char *slash = strrchr(cur, '/');
        char **t = realloc(tail, (ntail + 1) * sizeof *t);
        if (!t)
            goto done;
        tail = t;
        if (!slash) {
            tail[ntail++] = cur;
            cur = strdup(".");
        } else {
            tail[ntail++] = strdup(slash + 1);
            slash[slash == cur] = 0; /* "/x" leaves "/" */
        }
        if (!cur || !tail[ntail - 1])
            goto done;
    }
    /* The missing components; ".." among them climbs back toward what exists. */
    struct cet_buf rest = {0};
    size_t n = 0;
    int climbed = 0, bad = 0;
    for (size_t i = ntail; i-- > 0 && !bad;) {
        const char *c = tail[i];
        if (!*c || !strcmp(c, "."))
            continue;
        if (strcmp(c, "..")) {
            bad = cet_buf_printf(&rest, "/%s", c);
            n++;
            continue;
        }
        climbed = 1;
        if (n) {
            rest.len = (size_t)(strrchr(rest.p, '/') - rest.p);
            rest.p[rest.len] = 0;
            n--;
        } else {
            char *s = strrchr(real, '/');
            s[s == real] = 0;
        }
    }
    if (bad) {
        free(real);
        real = NULL;
    } else if (climbed && n) {
        /* What remains may exist after all: resolve it afresh. */
        struct cet_buf again = {0};
        char *r = cet_buf_printf(&again, "%s%s", strcmp(real, "/") ? real : "", rest.p)
                      ? NULL
                      : resolve(again.p, missing);
        cet_buf_free(&again);
        free(real);
        real = r;
    } else {
        *missing = n;
    }
    cet_buf_free(&rest);
done:
    for (size_t i = 0; i < ntail; i++)
        free(tail[i]);
    free(tail);
    free(cur);
    return real;
}

/* Refuses dir (a container of what is written) when it or any directory
 * above it is protected. */
static int check_container(struct cet_guard *g, const char *shown, const char *dir,
                           struct cet_error *err)
{
    size_t missing = 0;
    errno = 0;
    char *real = resolve(dir, &missing);
    if (!real) /* unreachable or unsearchable: writing there fails with its own message */
        return errno == ENOMEM ? cet_fail(err, "out of memory") : 0;
    int rc = 0;
    for (;;) {
        struct stat st;
        const struct item *it = stat(real, &st) ? NULL : set_find(&g->dirs, &st);
        if (it) {
            rc = cet_fail(err, "%s is inside the corpus %s; corpora are never written", shown,
                          it->path);
            break;
        }
        if (!strcmp(real, "/"))
            break;
        char *s = strrchr(real, '/');
        s[s == real] = 0;
    }
    free(real);
    return rc;
}

/* A NAME.txt beside NAME.html (.htm, .html.gz, .htm.gz) is that page's gold:
 * a folder of such pairs is a corpus whether or not -d named it. */
static int beside_page(const char *path, struct cet_error *err)
{
    size_t n = strlen(path);
    if (n < 5 || strcmp(path + n - 4, ".txt"))
        return 0;
    static const char *const pages[] = {".html", ".htm", ".html.gz", ".htm.gz"};
    struct cet_buf p = {0};
    int rc = 0;
    for (size_t k = 0; k < 4 && !rc; k++) {
        struct stat st;
        p.len = 0;
        if (cet_buf_printf(&p, "%.*s%s", (int)(n - 4), path, pages[k]))
            rc = cet_fail(err, "out of memory");
        else if (stat(p.p, &st) == 0 && S_ISREG(st.st_mode))
            rc = cet_fail(err, "%s would be the gold standard of the page %s (a folder of NAME.html "
                          "and NAME.txt is a corpus); corpora are never written", path, p.p);
    }
    cet_buf_free(&p);
    return rc;
}

int cet_guard_file(struct cet_guard *g, const char *path, struct cet_error *err)
{
    const char *slash = strrchr(path, '/');
    struct cet_buf dir = {0};
    if (slash ? cet_buf_printf(&dir, "%.*s", slash == path ? 1 : (int)(slash - path), path)
              : cet_buf_puts(&dir, "."))
        return cet_fail(err, "out of memory");
    int rc = check_container(g, path, dir.p, err);
    cet_buf_free(&dir);
    struct stat st;
    const struct item *it = rc || stat(path, &st) ? NULL : set_find(&g->files, &st);
    return it ? refuse_file(path, it, err) : rc ? rc : beside_page(path, err);
}

int cet_guard_dir(struct cet_guard *g, const char *dir, struct cet_error *err)
{
    return check_container(g, dir, dir, err) || walk(g, dir, 4, 1, err) ? -1 : 0;
}
