/* Drawing training samples: in proportion to the packages, seeded, and
 * stable when a drawn document turns out unusable. */
#include "cetune/run.h"
#include "space/space.h"
#include "test.h"

/* Entries of packages a (10 documents), b (30) and c (60), sorted as a scan sorts them. */
static void make_entries(struct cet_entries *e)
{
    static const struct {
        const char *name;
        int n;
    } pk[] = {{"a", 10}, {"b", 30}, {"c", 60}};
    memset(e, 0, sizeof *e);
    e->cap = 100;
    e->v = calloc(e->cap, sizeof *e->v);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < pk[k].n; i++) {
            struct cet_entry *x = &e->v[e->n++];
            char name[32];
            snprintf(name, sizeof name, "doc%02d", i);
            x->package = strdup(pk[k].name);
            x->name = strdup(name);
            x->html_path = strdup(name);
        }
}

static void count(const struct cet_entries *e, const uint8_t *want, int *per)
{
    per[0] = per[1] = per[2] = 0;
    for (size_t i = 0; i < e->n; i++)
        if (want[i])
            per[e->v[i].package[0] - 'a']++;
}

static void test_ga_sample__proportional_to_packages(void)
{
    struct cet_entries e;
    struct cet_error err;
    make_entries(&e);
    uint8_t want[100];
    size_t drawn;
    int per[3];
    CHECK_EQ_INT(cet_sample_draw(want, &e, NULL, 10, 7, 0, &drawn, &err), 0);
    CHECK_EQ_INT(drawn, 10);
    count(&e, want, per);
    CHECK_EQ_INT(per[0], 1);
    CHECK_EQ_INT(per[1], 3);
    CHECK_EQ_INT(per[2], 6);
    /* 15 = 1.5 + 4.5 + 9: one left over, a and b tie on the remainder, a wins. */
    CHECK_EQ_INT(cet_sample_draw(want, &e, NULL, 15, 7, 0, &drawn, &err), 0);
    count(&e, want, per);
    CHECK_EQ_INT(per[0] + per[1] + per[2], 15);
    CHECK_EQ_INT(per[2], 9);
    CHECK(per[0] == 2 && per[1] == 4);
    /* More than there are: everything. */
    CHECK_EQ_INT(cet_sample_draw(want, &e, NULL, 500, 7, 0, &drawn, &err), 0);
    CHECK_EQ_INT(drawn, 100);
    cet_entries_free(&e);
}

static void test_ga_sample__same_share_by_package(void)
{
    struct cet_entries e;
    struct cet_error err;
    make_entries(&e);
    uint8_t want[100];
    size_t drawn;
    int per[3];
    CHECK_EQ_INT(cet_sample_draw(want, &e, NULL, 30, 7, 1, &drawn, &err), 0);
    count(&e, want, per);
    CHECK(per[0] == 10 && per[1] == 10 && per[2] == 10);
    /* Package a runs out at 10; the others share the rest. */
    CHECK_EQ_INT(cet_sample_draw(want, &e, NULL, 50, 7, 1, &drawn, &err), 0);
    count(&e, want, per);
    CHECK(per[0] == 10 && per[1] == 20 && per[2] == 20);
    cet_entries_free(&e);
}

static void test_ga_sample__seeded(void)
{
    struct cet_entries e;
    struct cet_error err;
    make_entries(&e);
    uint8_t a[100], b[100], c[100];
    size_t drawn;
    cet_sample_draw(a, &e, NULL, 20, 7, 0, &drawn, &err);
    cet_sample_draw(b, &e, NULL, 20, 7, 0, &drawn, &err);
    cet_sample_draw(c, &e, NULL, 20, 8, 0, &drawn, &err);
    CHECK(!memcmp(a, b, sizeof a));
    CHECK(memcmp(a, c, sizeof a) != 0);
    /* Every document of package c is drawn about equally often over seeds. */
    int hits[60] = {0};
    for (uint64_t s = 0; s < 2000; s++) {
        cet_sample_draw(a, &e, NULL, 20, s, 0, &drawn, &err);
        for (int i = 0; i < 60; i++)
            hits[i] += a[40 + i];
    }
    int lo = 2000, hi = 0;
    for (int i = 0; i < 60; i++) {
        lo = hits[i] < lo ? hits[i] : lo;
        hi = hits[i] > hi ? hits[i] : hi;
    }
    /* 12 of 60 per draw: 400 expected each. */
    CHECK(lo > 320 && hi < 480);
    CHECK(cet_seed_derive(7, CET_STREAM_SAMPLE) != cet_seed_derive(7, CET_STREAM_GA));
    cet_entries_free(&e);
}

static void test_ga_sample__unusable_documents_are_replaced(void)
{
    struct cet_entries e;
    struct cet_error err;
    make_entries(&e);
    uint8_t a[100], b[100], usable[100];
    size_t drawn;
    memset(usable, 1, sizeof usable);
    cet_sample_draw(a, &e, usable, 20, 3, 0, &drawn, &err);
    /* Drop one drawn document of package b: the rest of the sample stays. */
    size_t gone = 0;
    for (size_t i = 10; i < 40; i++)
        if (a[i]) {
            gone = i;
            break;
        }
    usable[gone] = 0;
    cet_sample_draw(b, &e, usable, 20, 3, 0, &drawn, &err);
    CHECK_EQ_INT(drawn, 20);
    CHECK_EQ_INT(b[gone], 0);
    int moved = 0, same_b = 0;
    for (size_t i = 0; i < 100; i++) {
        moved += a[i] != b[i];
        if (i >= 10 && i < 40)
            same_b += b[i];
    }
    CHECK_EQ_INT(moved, 2); /* one out, one in */
    CHECK_EQ_INT(same_b, 6);
    cet_entries_free(&e);
}

static void test_ga_sample__file_format(void)
{
    const char *dirs[] = {CETUNE_TEST_DATA "/ga/corpus"};
    struct cet_entries e = {0};
    struct cet_corpus c = {0};
    struct cet_error err;
    uint8_t want[8] = {0, 1, 0, 0, 0, 0, 0, 1};
    CHECK_EQ_INT(cet_corpus_scan(&e, dirs, 1, &err), 0);
    CHECK_EQ_INT(e.n, 8);
    CHECK_EQ_INT(cet_corpus_load(&c, &e, want, 0, 1, &err), 0);
    struct cet_buf b = {0};
    CHECK_EQ_INT(cet_sample_format(&b, &c), 0);
    CHECK_STR(b.p, "blog/blog-2\nnews/news-4\n");
    /* It reads back as a sample selecting the same entries. */
    char **names;
    size_t n;
    uint8_t back[8];
    CHECK_EQ_INT(cet_sample_parse(&names, &n, b.p, b.len, "mem", &err), 0);
    CHECK_EQ_INT(cet_sample_select(back, &e, names, n, "mem", &err), 0);
    CHECK(!memcmp(back, want, sizeof want));
    cet_sample_free(names, n);
    cet_buf_free(&b);
    cet_corpus_free(&c);
    cet_entries_free(&e);
}

int main(void)
{
    RUN(test_ga_sample__proportional_to_packages);
    RUN(test_ga_sample__same_share_by_package);
    RUN(test_ga_sample__seeded);
    RUN(test_ga_sample__unusable_documents_are_replaced);
    RUN(test_ga_sample__file_format);
    TEST_END();
}
