/* The final choice's rule (cetune/choice.h, docs/choice.md): keep the
 * start unless a candidate gains on unseen pages on average and the
 * interval's lower end is above -tolerance (tolerance 0, the command
 * line's default: above 0 beyond doubt).
 *
 * The sign-flip test drops pages that tie, and a site family's pages often
 * do (the tuned setting changes nothing on a page the start already gets
 * right).  A tolerance counts a tie as no loss instead; measured on site
 * families it adopted more tuning but also tuning that lost up to 0.06, so
 * it is an option, not the default (docs/experiment.md, "The final rule").
 *
 * The interval inverts racing's sign-flip test (cet_signflip_pvalue,
 * src/eval/signflip.c): its lower end is the largest shift delta such that
 * "the per-page gains lie above delta" is still significant at
 * (1 - level) / 2, one-sided; the upper end likewise.  Why this test and not Student's t: per-page gains
 * are paired (candidate and start on the same pages, so the pages'
 * difficulty cancels), but sparse, skewed and heavy-tailed: a tuned setting
 * often rescues a page or two from F1 0 to 1 and gains a little on most
 * others.  Those two large values inflate the t interval's standard
 * deviation until a gain on 10 of 11 pages looks like chance, whereas the
 * sign-flip test weighs each page by its gain and needs no normality, is
 * exact for up to 12 pages that differ, and ignores pages that tie.  It
 * also needs no random draw, so every thread count and resume decides
 * alike.  Its price: with n pages that differ no p-value is below 2^-n,
 * so below 4 pages (at the default level, 0.8) no interval exists and the
 * start stays, as it should on so little evidence. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cetune/choice.h"
#include "eval/signflip.h" /* cet_signflip_pvalue: racing's sign-flip test */

/* The one-sided sign-flip p-value of "the gains d[0..n) lie above delta"
 * (above: 1) or "below delta" (above: 0); tmp is scratch of n. */
static double p_shift(const double *d, size_t n, double delta, int above, double *tmp)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = above ? delta - d[i] : d[i] - delta;
    return cet_signflip_pvalue(tmp, n);
}

/* The end of the interval (lower: above 1): the shift where the one-sided
 * test at alpha turns, by bisection between lo and hi; NaN when even the
 * most extreme shift is not significant (too few pages). */
static double bound(const double *d, size_t n, double alpha, int above, double lo, double hi,
                    double *tmp)
{
    /* above: significant at lo (far below the gains), not at hi. */
    double sig = above ? lo : hi, insig = above ? hi : lo;
    if (!(p_shift(d, n, sig, above, tmp) < alpha))
        return NAN;
    for (int it = 0; it < 60; it++) {
        double mid = (sig + insig) / 2;
        if (p_shift(d, n, mid, above, tmp) < alpha)
            sig = mid;
        else
            insig = mid;
    }
    return sig;
}

/* The interval of the mean gain of d[0..n) at two-sided level 1 - 2 alpha. */
static void interval(const double *d, size_t n, double alpha, double *lo, double *hi,
                     double *tmp)
{
    double mn = d[0], mx = d[0];
    for (size_t i = 1; i < n; i++) {
        mn = fmin(mn, d[i]);
        mx = fmax(mx, d[i]);
    }
    *lo = bound(d, n, alpha, 1, mn - 1, mx, tmp);
    *hi = bound(d, n, alpha, 0, mn, mx + 1, tmp);
}

/* 1 when k pages, the gains d[0..n) repeated in turn, have a lower end
 * above -tol at alpha; 0 when not; -1 when out of memory. */
static int repeated_sure(const double *d, size_t n, size_t k, double alpha, double tol)
{
    double *r = malloc(2 * k * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < k; i++)
        r[i] = d[i % n];
    int sure = p_shift(r, k, -tol, 1, r + k) < alpha;
    free(r);
    return sure;
}

/* The smallest number of pages, the gains d repeated in turn, whose lower
 * end is above -tol: doubling, then bisection (0: none up to 100000). */
static size_t pages_needed(const double *d, size_t n, double alpha, double tol)
{
    enum { MAX_PAGES = 100000 };
    size_t lo = n, hi = 2 * n;
    int r;
    while ((r = repeated_sure(d, n, hi, alpha, tol)) == 0 && hi < MAX_PAGES) {
        lo = hi;
        hi = 2 * hi < MAX_PAGES ? 2 * hi : MAX_PAGES;
    }
    if (r != 1)
        return 0;
    while (hi - lo > 1) {
        size_t k = lo + (hi - lo) / 2;
        if ((r = repeated_sure(d, n, k, alpha, tol)) < 0)
            return 0;
        *(r ? &hi : &lo) = k;
    }
    return hi;
}

int cet_choice_decide(struct cet_choice *c, const double *f1, size_t ncand, size_t n, double level,
                      double tolerance, struct cet_error *err)
{
    if (!ncand || !(level > 0 && level < 1) || !(tolerance >= 0 && tolerance < 1))
        return cet_fail(err, "a choice needs the start as a candidate, a level in (0, 1) and a "
                             "tolerance in [0, 1)");
    *c = (struct cet_choice){.n = n, .level = level, .tolerance = tolerance, .gain = 0,
                             .sd = NAN, .lo = NAN, .hi = NAN};
    size_t m = ncand > 1 ? ncand - 1 : 1;
    double alpha = (1 - level) / (2.0 * (double)m), best_key = -INFINITY;
    double *d = malloc((2 * n + 1) * sizeof *d);
    if (!d)
        return cet_fail(err, "out of memory");
    for (size_t j = 1; j < ncand; j++) {
        double sum = 0, sq = 0, lo = NAN, hi = NAN;
        for (size_t i = 0; i < n; i++)
            sum += d[i] = f1[j * n + i] - f1[i];
        double mean = n ? sum / (double)n : 0;
        for (size_t i = 0; i < n; i++)
            sq += (d[i] - mean) * (d[i] - mean);
        if (n >= 2)
            interval(d, n, alpha, &lo, &hi, d + n);
        /* The highest lower bound wins; without bounds, the highest mean. */
        double key = !isnan(lo) ? lo : -1e9 + mean;
        if (key > best_key) { /* ties: the first candidate */
            best_key = key;
            c->best = j;
            c->gain = mean;
            c->sd = n >= 2 ? sqrt(sq / (double)(n - 1)) : NAN;
            c->lo = lo;
            c->hi = hi;
        }
    }
    if (cet_choice_passed(c))
        c->chosen = c->best;
    /* What would settle it: the pages at which the same gains, repeated,
     * would give a lower end above -tolerance. */
    if (c->best && !c->chosen && c->gain > 0) {
        for (size_t i = 0; i < n; i++)
            d[i] = f1[c->best * n + i] - f1[i];
        c->pages_needed = pages_needed(d, n, alpha, tolerance);
    }
    free(d);
    return 0;
}

int cet_choice_passed(const struct cet_choice *c)
{
    return c->best && c->gain > 0 && c->lo > -c->tolerance;
}

int cet_choice_no_loss(const struct cet_choice *c, double loss)
{
    return c->gain > -loss && !(c->hi < 0);
}

double cet_choice_round(double x)
{
    double r = round(x * 1e4) / 1e4;
    return r == 0 ? 0 : r; /* no "-0.0000" */
}

int cet_choice_interval(char *buf, size_t size, const struct cet_choice *c)
{
    if (isnan(c->lo))
        return snprintf(buf, size, "%s", "");
    return snprintf(buf, size, "%.0f%% confidence interval %+.4f to %+.4f", 100 * c->level,
                    cet_choice_round(c->lo), cet_choice_round(c->hi));
}

int cet_choice_sentence(char *buf, size_t size, const struct cet_choice *c, const char *how,
                        const char *start, const char *tuned)
{
    char interval[640] = "", bounds[96], without[128] = "";
    /* how is up to 192 bytes (cet_run_choice_text) */
    if (c->left_out)
        snprintf(without, sizeof without, ", not counting %zu page%s whose gold holds no text",
                 c->left_out, c->left_out == 1 ? "" : "s");
    if (!isnan(c->lo) && cet_choice_interval(bounds, sizeof bounds, c) > 0)
        snprintf(interval, sizeof interval, " (%s, from %s on %zu pages%s)", bounds, how, c->n,
                 without);
    else
        snprintf(interval, sizeof interval, " (%s on %zu page%s%s: too few for an interval)", how,
                 c->n, c->n == 1 ? "" : "s", without);
    int len = snprintf(buf, size, "On pages it did not see, tuning changed F1 by %+.4f on "
                                  "average%s", cet_choice_round(c->gain), interval);
    if (len < 0 || (size_t)len >= size)
        return len;
    size_t at = (size_t)len;
    int more;
    /* What the rule could not rule out: a loss above the tolerance, or
     * (tolerance 0) that the gain is 0 or less. */
    char doubt[96] = "that is not surely above 0";
    if (c->tolerance > 0)
        snprintf(doubt, sizeof doubt, "a loss of more than %.4g is not ruled out", c->tolerance);
    if (c->chosen && c->lo > 0)
        more = snprintf(buf + at, size - at, ", so best.json is the tuned configuration (%s).",
                        tuned);
    else if (c->chosen)
        more = snprintf(buf + at, size - at, ", so best.json is the tuned configuration (%s): "
                                             "it gains on average, and a loss of more than "
                                             "%.4g is ruled out.", tuned, c->tolerance);
    else if (cet_choice_passed(c)) /* withdrawn: the caller says for what */
        more = snprintf(buf + at, size - at, ", beyond doubt, but best.json keeps the start (%s).",
                        start);
    else if (!(c->gain > 0))
        more = snprintf(buf + at, size - at, ", so best.json keeps the start (%s): on these "
                                             "pages tuning does not help.", start);
    else if (c->pages_needed)
        more = snprintf(buf + at, size - at, "; %s, so best.json keeps the start (%s). With the "
                                             "same gains, about %zu labelled pages%s would "
                                             "settle it, and a longer search may gain more.",
                        doubt, start, c->pages_needed, c->left_out ? " with text" : "");
    else
        more = snprintf(buf + at, size - at, "; %s, so best.json keeps the start (%s). More "
                                             "labelled pages or a longer search may settle it.",
                        doubt, start);
    return more < 0 ? more : len + more;
}
