/* Cross-validation folds (src/space/split.c): a partition into folds of sizes
 * differing by at most one, each package dealt evenly, the same for the
 * same seed and different for another; only the documents that may be held
 * out are dealt (the pages with gold of their own on pseudo-gold). */
#include "cetune/split.h"
#include "test.h"

/* Packages of 7, 5 and 1 documents. */
static void three_packages(struct cet_corpus *c, struct cet_package *pk)
{
    memset(c, 0, sizeof *c);
    pk[0] = (struct cet_package){.first = 0, .count = 7};
    pk[1] = (struct cet_package){.first = 7, .count = 5};
    pk[2] = (struct cet_package){.first = 12, .count = 1};
    c->pkgs = pk;
    c->npkgs = 3;
    c->ndocs = 13;
}

static void test_folds__balanced_and_stratified(void)
{
    struct cet_corpus c;
    struct cet_package pk[3];
    struct cet_error err;
    uint32_t fold[13];
    three_packages(&c, pk);
    CHECK(cet_folds_split(fold, &c, 4, 9, &err) == 0);
    size_t size[4] = {0}, per[3][4] = {{0}};
    for (size_t i = 0; i < 13; i++) {
        CHECK(fold[i] < 4);
        size[fold[i]]++;
        per[i < 7 ? 0 : i < 12 ? 1 : 2][fold[i]]++;
    }
    for (size_t k = 0; k < 4; k++) {
        CHECK(size[k] == 3 || size[k] == 4);
        CHECK(per[0][k] == 1 || per[0][k] == 2); /* 7 documents over 4 folds */
        CHECK(per[1][k] <= 2);
    }
}

static void test_folds__seeded(void)
{
    struct cet_corpus c;
    struct cet_package pk[3];
    struct cet_error err;
    uint32_t a[13], b[13], d[13];
    three_packages(&c, pk);
    CHECK(cet_folds_split(a, &c, 3, 1, &err) == 0);
    CHECK(cet_folds_split(b, &c, 3, 1, &err) == 0);
    CHECK(cet_folds_split(d, &c, 3, 2, &err) == 0);
    CHECK(!memcmp(a, b, sizeof a));
    CHECK(memcmp(a, d, sizeof a) != 0);
    CHECK(cet_folds_split(a, &c, 14, 1, &err) < 0 && strstr(err.msg, "13 documents"));
    CHECK(cet_folds_split(a, &c, 1, 1, &err) < 0);
}

static void test_folds__held(void)
{
    struct cet_corpus c;
    struct cet_package pk[3];
    struct cet_error err;
    uint32_t a[13], b[13];
    uint8_t held[13] = {1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1}, all[13];
    three_packages(&c, pk);
    CHECK(cet_folds_split_held(a, &c, held, 3, 4, &err) == 0);
    size_t size[3] = {0};
    for (size_t i = 0; i < 13; i++) {
        CHECK(held[i] ? a[i] < 3 : a[i] == CET_NONE);
        if (held[i] && a[i] < 3)
            size[a[i]]++;
    }
    CHECK(size[0] == 2 && size[1] == 2 && size[2] == 2);
    /* Every document marked: the split of all of them. */
    memset(all, 1, sizeof all);
    CHECK(cet_folds_split_held(a, &c, all, 3, 4, &err) == 0);
    CHECK(cet_folds_split(b, &c, 3, 4, &err) == 0);
    CHECK(!memcmp(a, b, sizeof a));
    CHECK(cet_folds_split_held(a, &c, held, 7, 4, &err) < 0 &&
          strstr(err.msg, "there are 6 labelled documents"));
}

int main(void)
{
    RUN(test_folds__balanced_and_stratified);
    RUN(test_folds__seeded);
    RUN(test_folds__held);
    TEST_END();
}
