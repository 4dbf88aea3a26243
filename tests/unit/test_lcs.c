/* The bit-parallel LCS against the textbook dynamic programming, and the
 * metric's worked example (Gottron 2007, as Gottron 2008, section 3, gives it). */
#include <gsl/gsl_rng.h>

#include "cetune/eval.h"
#include "cetune/lcs.h"
#include "cetune/text.h"
#include "test.h"

static uint32_t bits(const uint32_t *a, size_t n, const uint32_t *b, uint32_t m, uint32_t nsym)
{
    struct cet_peq t;
    CHECK(cet_peq_build(&t, b, m, nsym) == 0);
    uint64_t *v = malloc((t.blocks + 1) * sizeof *v);
    uint32_t r = cet_lcs_bits(&t, a, n, v);
    free(v);
    cet_peq_free(&t);
    return r;
}

static void test_lcs__random_pairs_match_dp(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12345);
    uint32_t *a = malloc(3000 * sizeof *a), *b = malloc(3000 * sizeof *b);
    int mismatches = 0;
    for (int iter = 0; iter < 3000; iter++) {
        /* Mostly short pairs, some empty, some long; alphabets from 1 to 1000. */
        size_t n = gsl_rng_uniform_int(rng, iter % 50 == 0 ? 3000 : 200);
        uint32_t m = (uint32_t)gsl_rng_uniform_int(rng, iter % 50 == 1 ? 3000 : 200);
        if (iter % 97 == 0)
            n = 0;
        if (iter % 89 == 0)
            m = 0;
        uint32_t nsym = 1 + (uint32_t)gsl_rng_uniform_int(rng, iter % 3 ? 8 : 1000);
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)gsl_rng_uniform_int(rng, nsym);
        for (size_t j = 0; j < m; j++)
            b[j] = (uint32_t)gsl_rng_uniform_int(rng, nsym);
        uint32_t want = cet_lcs_dp(a, n, b, m), got = bits(a, n, b, m, nsym);
        if (want != got && mismatches++ < 5)
            fprintf(stderr, "n=%zu m=%u nsym=%u: dp %u, bits %u\n", n, m, nsym, want, got);
    }
    CHECK_EQ_INT(mismatches, 0);
    free(a);
    free(b);
    gsl_rng_free(rng);
}

static void test_lcs__block_boundaries(void)
{
    /* Identical sequences of lengths around multiples of 64 exercise the carry. */
    static uint32_t a[300];
    for (int i = 0; i < 300; i++)
        a[i] = (uint32_t)(i % 7);
    for (uint32_t m = 60; m <= 260; m++)
        CHECK_EQ_INT(bits(a, m, a, m, 7), m);
    CHECK_EQ_INT(bits(a, 0, a, 10, 7), 0);
    CHECK_EQ_INT(bits(a, 10, a, 0, 7), 0);
}

static void test_lcs__match_table(void)
{
    /* 640 positions of distinct symbols, but symbol 0 at 0, 1 and 639. */
    static uint32_t b[640], a[700];
    for (uint32_t j = 0; j < 640; j++)
        b[j] = j;
    b[1] = b[639] = 0;
    struct cet_peq t;
    CHECK(cet_peq_build(&t, b, 640, 640) == 0);
    CHECK_EQ_INT(t.blocks, 10);
    CHECK_EQ_INT(t.nrows, 638);
    uint32_t r = t.row[0];
    CHECK(t.bits[(size_t)r * 10] == 3 && t.bits[(size_t)r * 10 + 9] == 1ull << 63);
    CHECK(t.row[1] == CET_NONE);
    CHECK_EQ_INT(cet_peq_bytes(&t), 640 * 4 + (638 * 10 + 1) * 8);
    cet_peq_free(&t);
    /* Carries across blocks: the page runs through the gold backwards,
     * then forwards, against DP. */
    for (uint32_t i = 0; i < 700; i++)
        a[i] = i < 350 ? 639 - i : (i * 7) % 640;
    CHECK_EQ_INT(bits(a, 700, b, 640, 640), cet_lcs_dp(a, 700, b, 640));
    CHECK_EQ_INT(bits(b, 640, b, 640, 640), 640);
}

/* b[0..m) numbered as rows (distinct symbols in order of first occurrence)
 * into rows, a[0..n) into arows with symbols absent from b left out; returns
 * the number of rows, *na the words kept of a. */
static uint32_t number_rows(const uint32_t *a, size_t n, const uint32_t *b, uint32_t m,
                            uint32_t nsym, uint32_t *rows, uint32_t *arows, size_t *na)
{
    uint32_t *row = malloc(nsym * sizeof *row), nrows = 0;
    for (uint32_t i = 0; i < nsym; i++)
        row[i] = CET_NONE;
    for (uint32_t j = 0; j < m; j++) {
        if (row[b[j]] == CET_NONE)
            row[b[j]] = nrows++;
        rows[j] = row[b[j]];
    }
    *na = 0;
    for (size_t i = 0; i < n; i++)
        if (row[a[i]] != CET_NONE)
            arows[(*na)++] = row[a[i]];
    free(row);
    return nrows;
}

static void test_lcs__reused_table_matches_dp(void)
{
    /* Slots take pattern after pattern, as an evaluating thread takes
     * document after document: small and multi-block patterns, and the
     * same pattern again (kept, not rebuilt); tables whole (the default
     * budget) and in strips (budgets of a block, and of a few blocks).  The
     * table must hold exactly the current pattern's bits, whatever came
     * before, and the LCS must be the DP's. */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 777);
    enum { N = 2000, P = 3, S = 3 };
    uint32_t *a = malloc(N * sizeof *a), *arows = malloc(N * sizeof *arows);
    uint32_t *b[P], *rows[P], m[P] = {0}, nrows[P] = {0};
    for (int k = 0; k < P; k++) {
        b[k] = malloc(N * sizeof *b[k]);
        rows[k] = malloc(N * sizeof *rows[k]);
    }
    struct cet_peq_slot slot[S] = {{.max_bytes = 0}, {.max_bytes = 64}, {.max_bytes = 2048}};
    int bad = 0, bad_bits = 0, strips = 0, wholes = 0;
    uint64_t v[N / 64 + 1];
    for (int iter = 0; iter < 600; iter++) {
        int k = (int)gsl_rng_uniform_int(rng, P);
        uint32_t nsym = 1 + (uint32_t)gsl_rng_uniform_int(rng, iter % 2 ? 10 : 800);
        if (iter < P || gsl_rng_uniform_int(rng, 3)) { /* a new pattern in array k */
            for (int q = 0; q < S; q++)
                if (slot[q].b == rows[k]) /* it changes: first take it out */
                    cet_peq_unload(&slot[q]);
            m[k] = (uint32_t)gsl_rng_uniform_int(rng, iter % 7 == 0 ? N : 300);
            for (uint32_t j = 0; j < m[k]; j++)
                b[k][j] = (uint32_t)gsl_rng_uniform_int(rng, nsym);
            size_t na;
            nrows[k] = number_rows(a, 0, b[k], m[k], 800, rows[k], arows, &na);
        }
        size_t n = gsl_rng_uniform_int(rng, iter % 5 == 0 ? N : 400), na;
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)gsl_rng_uniform_int(rng, nsym);
        number_rows(a, n, b[k], m[k], 800, rows[k], arows, &na);
        uint32_t want = cet_lcs_dp(a, n, b[k], m[k]);
        for (int q = 0; q < S; q++) {
            struct cet_peq_slot *s = &slot[q];
            CHECK(cet_peq_load(s, rows[k], m[k], nrows[k]) == 0);
            CHECK(s->t.m == m[k] && s->t.nrows == nrows[k] && s->t.blocks == (m[k] + 63) / 64);
            uint32_t got = cet_lcs_slot(s, arows, na, v);
            if (got != want && bad++ < 5)
                fprintf(stderr, "n=%zu m=%u budget %zu: dp %u, table %u\n", n, m[k],
                        s->max_bytes, want, got);
            /* whole: the pattern's bits; in strips: none left between calls */
            uint64_t ones = 0;
            for (size_t w = 0; w < s->cap; w++)
                ones += (uint64_t)__builtin_popcountll(s->t.bits[w]);
            bad_bits += ones != (s->whole ? m[k] : 0);
            strips += !s->whole && s->t.blocks > s->width && s->width > 1;
            wholes += s->whole && s->t.blocks > 1;
            /* the budget holds, but for a block of every row (at most 800 rows) */
            if (s->max_bytes)
                CHECK(s->cap * 8 <= (s->max_bytes > 800 * 8 ? s->max_bytes : 800 * 8));
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(bad_bits, 0);
    CHECK(strips > 10 && wholes > 10); /* both ways, with several blocks, were tried */
    for (int q = 0; q < S; q++)
        cet_peq_slot_free(&slot[q]);
    for (int k = 0; k < P; k++) {
        free(b[k]);
        free(rows[k]);
    }
    free(a);
    free(arows);
    gsl_rng_free(rng);
}

struct seq {
    struct cet_intern *t;
    uint32_t ids[64];
    uint32_t n;
};

static int add(const char *w, size_t n, void *ctx)
{
    struct seq *s = ctx;
    s->ids[s->n++] = cet_intern(s->t, w, n);
    return 0;
}

static void test_lcs__worked_example(void)
{
    struct cet_intern t;
    cet_intern_init(&t);
    struct seq e = {&t, {0}, 0}, g = {&t, {0}, 0};
    const char *extract = "Title Copyright Some text in";
    const char *gold = "Title Some text in the body";
    cet_words(extract, strlen(extract), add, &e);
    cet_words(gold, strlen(gold), add, &g);
    CHECK_EQ_INT(e.n, 5);
    CHECK_EQ_INT(g.n, 6);
    uint32_t lcs = bits(e.ids, e.n, g.ids, g.n, t.n);
    CHECK_EQ_INT(lcs, 4);
    struct cet_score s;
    cet_score_set(&s, e.n, g.n, lcs);
    CHECK_NEAR(s.p, 4.0 / 5.0, 1e-12);
    CHECK_NEAR(s.r, 4.0 / 6.0, 1e-12);
    CHECK_NEAR(s.f1, 8.0 / 11.0, 1e-12);
    cet_intern_free(&t);
}

static void test_lcs__empty_cases(void)
{
    struct cet_score s;
    cet_score_set(&s, 0, 0, 0);
    CHECK(s.p == 1 && s.r == 1 && s.f1 == 1);
    cet_score_set(&s, 0, 5, 0);
    CHECK(s.p == 1 && s.r == 0 && s.f1 == 0);
    cet_score_set(&s, 5, 0, 0);
    CHECK(s.p == 0 && s.r == 1 && s.f1 == 0);
    cet_score_set(&s, 4, 4, 0);
    CHECK(s.f1 == 0);
}

/* cet_lcs_align marks a common subsequence of a and b (the marked a, in
 * order, is a subsequence of b) as long as the LCS, on random pairs across
 * block boundaries; it takes the last occurrence when the two run together
 * alike: "home news" against "home x home news" marks the second "home";
 * and it takes the words that run together over the last ones.  With
 * blocks (cet_lcs_align_in) the result is still an LCS, a headline split
 * between two blocks comes together, and a teaser stays out. */
static void test_lcs__alignment_is_an_lcs(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 777);
    uint32_t *a = malloc(700 * sizeof *a), *b = malloc(700 * sizeof *b), *sub = malloc(700 * sizeof *sub);
    uint8_t *mk = malloc(700);
    uint32_t *units = malloc(700 * sizeof *units);
    int bad = 0;
    for (int iter = 0; iter < 600; iter++) {
        size_t n = gsl_rng_uniform_int(rng, iter % 20 ? 150 : 700);
        uint32_t m = (uint32_t)gsl_rng_uniform_int(rng, iter % 20 == 1 ? 700 : 150);
        uint32_t nsym = 1 + (uint32_t)gsl_rng_uniform_int(rng, iter % 2 ? 6 : 300);
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)gsl_rng_uniform_int(rng, nsym);
        for (uint32_t j = 0; j < m; j++)
            b[j] = (uint32_t)gsl_rng_uniform_int(rng, nsym);
        if (iter % 2) { /* with blocks of 1 to 8 places, some of them none */
            uint32_t nu = 0;
            for (size_t i = 0; i < n;) {
                size_t len = 1 + gsl_rng_uniform_int(rng, 8);
                uint32_t u = gsl_rng_uniform_int(rng, 5) ? nu++ : CET_NONE;
                for (size_t t = 0; t < len && i < n; t++)
                    units[i++] = u;
            }
            CHECK(cet_lcs_align_in(mk, a, n, b, m, nsym, units, nu) == 0);
        } else
            CHECK(cet_lcs_align(mk, a, n, b, m, nsym) == 0);
        size_t k = 0, j = 0;
        for (size_t i = 0; i < n; i++)
            if (mk[i])
                sub[k++] = a[i];
        for (size_t q = 0; q < k; q++) { /* sub is a subsequence of b */
            while (j < m && b[j] != sub[q])
                j++;
            if (j++ >= m) {
                k = (size_t)-1;
                break;
            }
        }
        if (k != cet_lcs_dp(a, n, b, m) && bad++ < 5)
            fprintf(stderr, "n=%zu m=%u nsym=%u: aligned %zd, lcs %u\n", n, m, nsym, (ssize_t)k,
                    cet_lcs_dp(a, n, b, m));
    }
    CHECK_EQ_INT(bad, 0);
    const uint32_t page[] = {1, 9, 1, 2}, gold[] = {1, 2};
    CHECK(cet_lcs_align(mk, page, 4, gold, 2, 10) == 0);
    CHECK(!mk[0] && !mk[1] && mk[2] && mk[3]);
    /* A headline (5 6 7) over related links holding its words apart
     * (5 8 6 9 7), then the story (1 2 3): the gold's headline is the
     * page's, where its words run together, not the last places. */
    const uint32_t story[] = {5, 6, 7, 5, 8, 6, 9, 7, 1, 2, 3}, told[] = {5, 6, 7, 1, 2, 3};
    CHECK(cet_lcs_align(mk, story, 11, told, 6, 10) == 0);
    CHECK(mk[0] && mk[1] && mk[2]);
    CHECK(!mk[3] && !mk[4] && !mk[5] && !mk[6] && !mk[7]);
    CHECK(mk[8] && mk[9] && mk[10]);
    /* A headline (1-6) whose last four words stand again in a subhead that
     * runs on into the story (7 8): both alignments tie, the last places
     * split the headline, and with the blocks it comes together at the
     * <h1>. */
    const uint32_t split[] = {1, 2, 3, 4, 5, 6, 20, 3, 4, 5, 6, 7, 8};
    const uint32_t split_gold[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint32_t split_units[] = {0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 3, 3};
    CHECK(cet_lcs_align(mk, split, 13, split_gold, 8, 30) == 0);
    CHECK(mk[0] && mk[1] && !mk[2] && mk[7] && mk[10] && mk[11]);
    CHECK(cet_lcs_align_in(mk, split, 13, split_gold, 8, 30, split_units, 4) == 0);
    for (int i = 0; i < 13; i++)
        CHECK(mk[i] == (i < 6 || i > 10));
    /* A teaser (4 5) repeating the story's first words after the headline
     * stays out: matching it would split the story's paragraph. */
    const uint32_t teaser[] = {1, 2, 3, 4, 5, 20, 4, 5, 6, 7};
    const uint32_t teaser_gold[] = {1, 2, 3, 4, 5, 6, 7};
    const uint32_t teaser_units[] = {0, 0, 0, 1, 1, 2, 3, 3, 3, 3};
    CHECK(cet_lcs_align_in(mk, teaser, 10, teaser_gold, 7, 30, teaser_units, 4) == 0);
    for (int i = 0; i < 10; i++)
        CHECK(mk[i] == (i < 3 || i > 5));
    free(units);
    free(a);
    free(b);
    free(sub);
    free(mk);
    gsl_rng_free(rng);
}

int main(void)
{
    RUN(test_lcs__alignment_is_an_lcs);
    RUN(test_lcs__random_pairs_match_dp);
    RUN(test_lcs__block_boundaries);
    RUN(test_lcs__match_table);
    RUN(test_lcs__reused_table_matches_dp);
    RUN(test_lcs__worked_example);
    RUN(test_lcs__empty_cases);
    TEST_END();
}
