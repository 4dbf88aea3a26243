/* A minimal test harness: each suite is one executable of test_<suite>__<what>
 * functions; a failed check prints file:line and the suite exits non-zero. */
#ifndef CETUNE_TEST_H
#define CETUNE_TEST_H

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "cetune/error.h"

static int test_failures;
static int test_checks;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        test_checks++;                                                               \
        if (!(cond)) {                                                               \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);  \
        }                                                                            \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                           \
    do {                                                                             \
        long long _a = (long long)(a), _b = (long long)(b);                          \
        test_checks++;                                                               \
        if (_a != _b) {                                                              \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, \
                    #a, _a, _b);                                                     \
        }                                                                            \
    } while (0)

#define CHECK_NEAR(a, b, eps)                                                        \
    do {                                                                             \
        double _a = (a), _b = (b);                                                   \
        test_checks++;                                                               \
        if (!(fabs(_a - _b) <= (eps))) {                                             \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: %s == %.9g, expected %.9g\n", __FILE__, __LINE__, \
                    #a, _a, _b);                                                     \
        }                                                                            \
    } while (0)

#define CHECK_STR(a, b)                                                              \
    do {                                                                             \
        const char *_a = (a), *_b = (b);                                             \
        test_checks++;                                                               \
        if (!_a || strcmp(_a, _b) != 0) {                                            \
            test_failures++;                                                         \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,       \
                    __LINE__, #a, _a ? _a : "(null)", _b);                           \
        }                                                                            \
    } while (0)

#define RUN(fn)                                                                      \
    do {                                                                             \
        int _before = test_failures;                                                 \
        fn();                                                                        \
        fprintf(stderr, "%-60s %s\n", #fn, test_failures == _before ? "ok" : "FAILED"); \
    } while (0)

#define TEST_END()                                                                   \
    do {                                                                             \
        fprintf(stderr, "%d checks, %d failed\n", test_checks, test_failures);       \
        return test_failures ? 1 : 0;                                                \
    } while (0)

/* The files of dir whose names end with suffix (""; every entry but . and
 * ..), sorted by name (so that a suite reads them in one order everywhere):
 * *names gets the names, and the count is returned; -1 (and a failed check)
 * when dir cannot be read.  test_files_free frees them. */
static inline int test_cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}
static inline int test_files(const char *dir, const char *suffix, char ***names)
{
    DIR *d = opendir(dir);
    size_t n = 0, cap = 0, m = strlen(suffix);
    char **v = NULL;
    *names = NULL;
    if (!d) {
        fprintf(stderr, "cannot read %s\n", dir);
        CHECK(d != NULL);
        return -1;
    }
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len <= m || strcmp(de->d_name + len - m, suffix) || !strcmp(de->d_name, "..") ||
            !strcmp(de->d_name, "."))
            continue;
        if (n == cap) {
            char **nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *nv);
            CHECK(nv != NULL);
            if (!nv)
                break;
            v = nv;
        }
        v[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (n)
        qsort(v, n, sizeof *v, test_cmp_names);
    *names = v;
    return (int)n;
}
static inline void test_files_free(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Calls fn(path, page, ctx) with the bytes of each page (a .html or
 * .html.gz file, up to 64 MB; one that cannot be read fails a check) of dir
 * in name order, then for those of its subdirectories down to depth levels
 * (a corpus keeps its pages in package folders); hidden names are passed
 * over.  Returns the pages read. */
typedef void (*test_page_fn)(const char *path, const struct cet_buf *page, void *ctx);
static inline int test_pages(const char *dir, int depth, test_page_fn fn, void *ctx)
{
    char **names;
    int n = test_files(dir, "", &names), pages = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            char path[4200];
            struct stat st;
            size_t len = strlen(names[i]);
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            int page = (len > 5 && !strcmp(names[i] + len - 5, ".html")) ||
                       (len > 8 && !strcmp(names[i] + len - 8, ".html.gz"));
            if (names[i][0] == '.') {
                continue;
            } else if (pass == 0 && page) {
                struct cet_buf b = {0};
                struct cet_error err;
                int rc = cet_read_file(&b, path, 64u << 20, &err);
                if (rc)
                    fprintf(stderr, "%s\n", err.msg);
                CHECK(rc == 0);
                if (!rc) {
                    fn(path, &b, ctx);
                    pages++;
                }
                cet_buf_free(&b);
            } else if (pass == 1 && !page && depth > 0 && !stat(path, &st) &&
                       S_ISDIR(st.st_mode)) {
                pages += test_pages(path, depth - 1, fn, ctx);
            }
        }
    test_files_free(names, n);
    return pages;
}

/* Writes text to the file dir/name (a fixture), checked. */
static inline void test_put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        CHECK(fclose(f) == 0);
    }
}

/* Where the shared corpora are looked for: $CETUNE_CORPORA, else beside
 * the checkout. */
static inline const char *test_corpora_path(void)
{
    const char *env = getenv("CETUNE_CORPORA");
    return env && *env ? env : CETUNE_SOURCE_DIR "/../shared/corpora";
}

/* The shared corpora; integration tests skip (and say where they looked,
 * test_corpora_path) when they are absent.  Returns NULL when absent. */
static inline const char *test_corpora(void)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s", test_corpora_path());
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fclose(f);
    return path;
}

#endif
