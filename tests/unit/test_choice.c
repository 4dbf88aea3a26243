/* The final choice's rule (src/run/choice.c): the interval of the mean
 * per-page gain from racing's sign-flip test inverted, the start kept
 * unless the mean gain is above 0 and the lower end above -tolerance, the
 * level corrected for several candidates, the pages that would settle it,
 * and the sentence people read.  Most cases use tolerance 0 (a gain beyond
 * doubt); test_choice__tolerance the default's. */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "cetune/choice.h"
#include "test.h"

/* Candidate 0 (the start) at 0.5 on every page, candidate j at 0.5 + gain[j - 1][i]. */
static void cands(double *f1, const double *gain, size_t ncand, size_t n)
{
    for (size_t i = 0; i < n; i++)
        f1[i] = 0.5;
    for (size_t j = 1; j < ncand; j++)
        for (size_t i = 0; i < n; i++)
            f1[j * n + i] = 0.5 + gain[(j - 1) * n + i];
}

/* Five pages: 2^-5 = 0.031 < 0.05, so tuning is adopted only when it gains on
 * every page, and the lower end is then the smallest gain. */
static void test_choice__five_pages_must_all_gain(void)
{
    struct cet_error err;
    struct cet_choice c;
    const double all[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, one_loss[5] = {-0.01, 0.2, 0.3, 0.4, 0.5};
    double f1[10];
    cands(f1, all, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 1 && c.best == 1 && c.n == 5 && c.pages_needed == 0);
    CHECK_NEAR(c.gain, 0.3, 1e-12);
    CHECK_NEAR(c.lo, 0.1, 1e-9);
    CHECK_NEAR(c.hi, 0.5, 1e-9);
    CHECK_NEAR(c.sd, sqrt(0.025), 1e-12);
    /* One page lost: p = 2/32 at 0, so the start stays; repeating the same
     * gains over more pages would settle it. */
    cands(f1, one_loss, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 0 && c.best == 1 && c.lo < 0 && c.gain > 0.27);
    CHECK(c.pages_needed > 5 && c.pages_needed <= 10);
    char s[1024];
    cet_choice_sentence(s, sizeof s, &c, "5-fold cross-validation", "the defaults", "rank 1");
    CHECK(strstr(s, "by +0.2780 on average (90% confidence interval -0.") != NULL);
    CHECK(strstr(s, "from 5-fold cross-validation on 5 pages); that is not surely above 0, so "
                    "best.json keeps the start (the defaults).") != NULL);
    CHECK(strstr(s, "labelled pages would settle it") != NULL);
}

/* A candidate that passed the rule and was then withdrawn for another
 * (the start with site rules, src/run/folds.c): still passed, and the
 * sentence says the start stays though the gain is sure. */
static void test_choice__passed_but_withdrawn(void)
{
    struct cet_error err;
    struct cet_choice c;
    const double all[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, one_loss[5] = {-0.01, 0.2, 0.3, 0.4, 0.5};
    double f1[10];
    char s[1024];
    cands(f1, all, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0, &err) == 0);
    CHECK(cet_choice_passed(&c) && c.chosen == 1);
    c.chosen = 0;
    CHECK(cet_choice_passed(&c));
    cet_choice_sentence(s, sizeof s, &c, "5-fold cross-validation", "the defaults", "rank 1");
    CHECK(strstr(s, "on 5 pages), beyond doubt, but best.json keeps the start (the defaults).") !=
          NULL);
    CHECK(strstr(s, "tuned configuration") == NULL);
    /* One loss: never passed. */
    cands(f1, one_loss, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0, &err) == 0);
    CHECK(!cet_choice_passed(&c));
}

/* Four pages cannot reach 0.05 (2^-4), whatever they gain: no interval,
 * the start stays; at level 0.8 (0.1 a side) they can. */
static void test_choice__four_pages_and_the_level(void)
{
    struct cet_error err;
    struct cet_choice c;
    const double gain[4] = {0.2, 0.3, 0.2, 0.4};
    double f1[8];
    char s[512];
    cands(f1, gain, 2, 4);
    CHECK(cet_choice_decide(&c, f1, 2, 4, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 0 && isnan(c.lo) && c.gain > 0.27);
    cet_choice_sentence(s, sizeof s, &c, "leave-one-out", "the defaults", "rank 1");
    CHECK(strstr(s, "too few for an interval") && strstr(s, "keeps the start (the defaults)"));
    CHECK(cet_choice_interval(s, sizeof s, &c) == 0 && s[0] == 0);
    CHECK(cet_choice_decide(&c, f1, 2, 4, 0.8, 0, &err) == 0);
    CHECK(c.chosen == 1 && c.lo > 0);
    CHECK(cet_choice_interval(s, sizeof s, &c) > 0 &&
          !strcmp(s, "80% confidence interval +0.2000 to +0.4000"));
    cet_choice_sentence(s, sizeof s, &c, "leave-one-out", "the defaults", "rank 2");
    CHECK(strstr(s, "(80% confidence interval +0.2000 to +0.4000, from leave-one-out on 4 "
                    "pages), so best.json is the tuned configuration (rank 2).") != NULL);
}

/* Two pages rescued from 0 to 1 and small gains on most others: the sign-flip
 * bound is above 0 where Student's t, its spread inflated by the two, is not. */
static void test_choice__rescued_pages_do_not_hide_a_gain(void)
{
    struct cet_error err;
    struct cet_choice c;
    const double gain[11] = {-0.117, 0.072, 0.095, 0.028, 0.040, 1.0,
                             0.065, 0.055, 0.095, 1.0, 0.025};
    double f1[22];
    cands(f1, gain, 2, 11);
    CHECK(cet_choice_decide(&c, f1, 2, 11, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 1 && c.lo > 0 && c.lo < 0.1);
    double t = gsl_cdf_tdist_Pinv(0.95, 10);
    CHECK(c.gain - t * c.sd / sqrt(11) < 0);
}

/* One rescued page among 19 that tie is no evidence for the next pages;
 * ties everywhere are no gain; losses keep the start and say so. */
static void test_choice__ties_and_losses_keep_the_start(void)
{
    struct cet_error err;
    struct cet_choice c;
    double one[19] = {0.7}, f1[38];
    char s[1024];
    cands(f1, one, 2, 19);
    CHECK(cet_choice_decide(&c, f1, 2, 19, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 0 && c.gain > 0.03 && c.lo < 0);
    const double zero[4] = {0}, loss[6] = {-0.01, -0.02, -0.01, -0.03, -0.02, -0.02};
    cands(f1, zero, 2, 4);
    CHECK(cet_choice_decide(&c, f1, 2, 4, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 0 && c.gain == 0 && c.pages_needed == 0);
    cands(f1, loss, 2, 6);
    CHECK(cet_choice_decide(&c, f1, 2, 6, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 0 && c.gain < 0 && c.hi < 0 && c.pages_needed == 0);
    cet_choice_sentence(s, sizeof s, &c, "leave-one-out", "article.json", "rank 1");
    CHECK(strstr(s, "by -0.0183 on average") && strstr(s, "keeps the start (article.json)") &&
          strstr(s, "tuning does not help"));
}

/* The bar of the start with site rules: no loss beyond doubt.  One fold
 * page lost 0.0025 and four tied (big5 foxnews.com 2005): a mean loss of
 * 0.0005 and an interval that reaches 0 (the ties), so the rules stand; a
 * mean loss of 0.006 does not, nor a small loss on every page (sure: the
 * interval lies below 0). */
static void test_choice__no_loss(void)
{
    struct cet_error err;
    struct cet_choice c;
    const double one[5] = {0, -0.0025, 0, 0, 0}, big[5] = {-0.03, 0, 0, 0, 0},
                 every[5] = {-0.001, -0.002, -0.001, -0.003, -0.002};
    double f1[10];
    cands(f1, one, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, CET_CHOICE_LEVEL, 0, &err) == 0);
    CHECK(c.hi >= 0 && cet_choice_no_loss(&c, CET_CHOICE_RULES_LOSS));
    CHECK(!cet_choice_no_loss(&c, 0.0004));
    cands(f1, big, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, CET_CHOICE_LEVEL, 0, &err) == 0);
    CHECK(!cet_choice_no_loss(&c, CET_CHOICE_RULES_LOSS));
    cands(f1, every, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, CET_CHOICE_LEVEL, 0, &err) == 0);
    CHECK(c.hi < 0 && c.gain > -CET_CHOICE_RULES_LOSS);
    CHECK(!cet_choice_no_loss(&c, CET_CHOICE_RULES_LOSS));
}

/* With m tuned candidates each side is tested at (1 - level) / (2 m): five
 * sure pages (p = 1/32) pass alone at 0.05, not beside a second candidate
 * at 0.025.  The candidate with the higher lower end wins, not the higher mean. */
static void test_choice__several_candidates(void)
{
    struct cet_error err;
    struct cet_choice c;
    enum { N = 6 };
    const double gains[2 * N] = {0.3, -0.1, 0.0, 0.2, -0.1, 0.0,         /* wild, mean 0.05 */
                                 0.02, 0.03, 0.02, 0.03, 0.02, 0.03};    /* steady, 0.025 */
    double f1[3 * N];
    cands(f1, gains, 3, N);
    CHECK(cet_choice_decide(&c, f1, 3, N, 0.9, 0, &err) == 0);
    CHECK(c.best == 2 && c.chosen == 2);
    CHECK_NEAR(c.lo, 0.02, 1e-9);
    const double five[10] = {0.1, 0.1, 0.1, 0.1, 0.1, 0, 0, 0, 0, 0};
    double g[15];
    cands(g, five, 2, 5);
    CHECK(cet_choice_decide(&c, g, 2, 5, 0.9, 0, &err) == 0 && c.chosen == 1);
    cands(g, five, 3, 5);
    CHECK(cet_choice_decide(&c, g, 3, 5, 0.9, 0, &err) == 0 && c.chosen == 0 && c.best == 1);
}

/* A tolerance counts a tie as no loss: four pages that gain and one that
 * ties are 4 differing pages to the strict rule (no interval can reach 0.05)
 * but 5 above -0.005 to the tolerant one.  A page that loses more than the
 * tolerance still keeps the start, and so does a mean gain of 0. */
static void test_choice__tolerance(void)
{
    struct cet_error err;
    struct cet_choice c;
    const double tie[5] = {0.7, 0, 0.8, 0.7, 0.75}, loss[5] = {0.03, 0.02, -0.01, 0.04, 0.02};
    const double ties[5] = {0};
    double f1[10];
    char s[1024];
    cands(f1, tie, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 0 && c.best == 1 && !(c.lo > 0) && c.gain > 0.5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0.005, &err) == 0);
    CHECK(c.chosen == 1 && c.tolerance == 0.005 && c.lo > -0.005 && c.lo <= 0);
    cet_choice_sentence(s, sizeof s, &c, "5-fold cross-validation", "article.json", "rank 1");
    CHECK(strstr(s, "so best.json is the tuned configuration (rank 1): it gains on average, and "
                    "a loss of more than 0.005 is ruled out.") != NULL);
    cands(f1, loss, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0.005, &err) == 0);
    CHECK(c.chosen == 0 && c.gain > 0 && c.lo < -0.005 && c.pages_needed > 5);
    cet_choice_sentence(s, sizeof s, &c, "5-fold cross-validation", "article.json", "rank 1");
    CHECK(strstr(s, "; a loss of more than 0.005 is not ruled out, so best.json keeps the start "
                    "(article.json).") != NULL);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0.02, &err) == 0 && c.chosen == 1);
    cands(f1, ties, 2, 5);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 0.005, &err) == 0);
    CHECK(c.chosen == 0 && c.gain == 0 && c.pages_needed == 0);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, -0.001, &err) < 0);
    CHECK(cet_choice_decide(&c, f1, 2, 5, 0.9, 1, &err) < 0);
}

static void test_choice__too_few_pages_and_bad_arguments(void)
{
    struct cet_error err;
    struct cet_choice c;
    double f1[2] = {0.5, 0.9};
    CHECK(cet_choice_decide(&c, f1, 2, 1, 0.9, 0, &err) == 0);
    CHECK(c.chosen == 0 && isnan(c.lo) && isnan(c.hi) && c.gain > 0.39);
    /* One candidate: only the start, which stays. */
    CHECK(cet_choice_decide(&c, f1, 1, 2, 0.9, 0, &err) == 0 && c.chosen == 0 && c.best == 0);
    CHECK(cet_choice_decide(&c, f1, 0, 2, 0.9, 0, &err) < 0);
    CHECK(cet_choice_decide(&c, f1, 2, 1, 1.0, 0, &err) < 0);
    CHECK(cet_choice_decide(&c, f1, 2, 1, 0, 0, &err) < 0);
}

int main(void)
{
    RUN(test_choice__five_pages_must_all_gain);
    RUN(test_choice__tolerance);
    RUN(test_choice__passed_but_withdrawn);
    RUN(test_choice__four_pages_and_the_level);
    RUN(test_choice__rescued_pages_do_not_hide_a_gain);
    RUN(test_choice__ties_and_losses_keep_the_start);
    RUN(test_choice__several_candidates);
    RUN(test_choice__no_loss);
    RUN(test_choice__too_few_pages_and_bad_arguments);
    TEST_END();
}
