/* The one-pass name matcher of the block scorer (src/extract/names.c): for
 * every list it says exactly what a strstr per name says. */
#include <gsl/gsl_rng.h>

#include "extract/names.h"
#include "test.h"

static const char *const a[] = {"ad", "-ad-", "nav", "navigation", "comment", NULL};
static const char *const b[] = {"comment", "com-", "a", NULL}; /* "comment" in two lists */
static const char *const c[] = {"x", "xx", "xxx", "-", NULL};
static const char *const *const lists[] = {a, b, c};

static uint32_t by_strstr(const char *s)
{
    uint32_t found = 0;
    for (int l = 0; l < 3; l++)
        for (const char *const *w = lists[l]; *w; w++)
            if (strstr(s, *w))
                found |= 1u << l;
    return found;
}

static void test_names__fixed(void)
{
    struct name_index x;
    CHECK_EQ_INT(name_index_build(&x, lists, 3), 0);
    CHECK_EQ_INT(x.n, 11); /* "comment" once */
    CHECK_EQ_INT(name_index_match(&x, "", 0), 0);
    CHECK_EQ_INT(name_index_match(&x, "main-nav", 8), 1 | 2 | 4);
    CHECK_EQ_INT(name_index_match(&x, "comments", 8), 3);
    CHECK_EQ_INT(name_index_match(&x, "foo-ad-", 7), 1 | 2 | 4);
    CHECK_EQ_INT(name_index_match(&x, "xy", 2), 4);
    /* A name cut by the end of the given length is not found. */
    CHECK_EQ_INT(name_index_match(&x, "navigation", 2), 2);
    CHECK_EQ_INT(name_index_match(&x, "bring", 5), 0);
    /* Bytes above 127 are bytes like any other. */
    CHECK_EQ_INT(name_index_match(&x, "\xc3\xa9nav\xff", 6), 1 | 2);
}

static void test_names__random(void)
{
    struct name_index x;
    CHECK_EQ_INT(name_index_build(&x, lists, 3), 0);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 34);
    static const char alphabet[] = "adnvigtoncme-x \xc3";
    char s[40];
    int bad = 0;
    for (int t = 0; t < 20000; t++) {
        size_t len = gsl_rng_uniform_int(rng, sizeof s);
        for (size_t i = 0; i < len; i++)
            s[i] = alphabet[gsl_rng_uniform_int(rng, sizeof alphabet - 1)];
        s[len] = 0;
        bad += name_index_match(&x, s, len) != by_strstr(s);
    }
    CHECK_EQ_INT(bad, 0);
    gsl_rng_free(rng);
}

static void test_names__limits(void)
{
    struct name_index x;
    static const char *const empty[] = {"ok", "", NULL}, *const spaced[] = {"a b", NULL};
    CHECK_EQ_INT(name_index_build(&x, (const char *const *const[]){empty}, 1), -1);
    CHECK_EQ_INT(name_index_build(&x, (const char *const *const[]){spaced}, 1), -1);
    static char names[NAMES_MAX + 1][8];
    static const char *many[NAMES_MAX + 2];
    for (int i = 0; i <= NAMES_MAX; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i);
        many[i] = names[i];
    }
    many[NAMES_MAX] = NULL;
    CHECK_EQ_INT(name_index_build(&x, (const char *const *const[]){many}, 1), 0);
    CHECK_EQ_INT(name_index_match(&x, "xn255x", 6), 1);
    many[NAMES_MAX] = names[NAMES_MAX];
    many[NAMES_MAX + 1] = NULL;
    CHECK_EQ_INT(name_index_build(&x, (const char *const *const[]){many}, 1), -1);
}

int main(void)
{
    RUN(test_names__fixed);
    RUN(test_names__random);
    RUN(test_names__limits);
    TEST_END();
}
