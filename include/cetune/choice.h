/* The final choice of a tuning run (src/run/choice.c, docs/choice.md):
 * given each candidate's F1 on pages that its search did not see (the
 * held-out folds of a cross-validation), is any candidate better than the
 * start on unseen pages beyond doubt, and by how much?
 *
 * Candidate 0 is always the start (the description's defaults or
 * --seed-config): a candidate replaces it only when its mean per-page gain
 * over the start is above 0 and the lower end of the confidence interval of
 * that gain is above -tolerance: tuning is estimated to help, and a loss
 * larger than the tolerance is ruled out at the interval's level (a
 * non-inferiority test; tolerance 0, the command line's default, asks for a
 * gain beyond doubt).
 * The interval inverts racing's sign-flip test on the paired per-page
 * gains, two-sided at the given level, each side Bonferroni-corrected for
 * the number of candidates other than the start (choosing the best of
 * several bounds would otherwise overstate it).  Deterministic: no random
 * draw. */
#ifndef CETUNE_CHOICE_H
#define CETUNE_CHOICE_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

/* The confidence level of the interval by default, and the loss on unseen
 * pages the rule accepts by default (evolve --confidence, --tolerance): a
 * gain above 0 with 90% one-sided confidence, chosen on site families with 5
 * labelled pages (docs/experiment.md, "The final rule"). */
#define CET_CHOICE_LEVEL 0.8
#define CET_CHOICE_TOLERANCE 0.0
/* The mean loss on held-out pages at which the start with site rules still
 * stands in for the start (cet_choice_no_loss).  The folds' rules are
 * learned from one labelled page fewer than the rules exported, so they
 * are the riskier of the two: on the site families a mean fold loss of up
 * to 0.0032 came with the exported rules gaining up to +0.033 on the
 * family's other pages (docs/experiment.md, "The start with site rules").
 * It is the loss the family protocol counts as a loss that matters. */
#define CET_CHOICE_RULES_LOSS 0.005

struct cet_choice {
    size_t chosen;       /* the candidate to export: 0 (the start) unless one gains on average
                            with a lower bound above -tolerance; a caller sets it back to 0
                            when another candidate did better (cet_choice_passed) */
    size_t best;         /* the candidate with the highest lower bound (the highest mean gain
                            when there is no bound), chosen or not; 0 with one candidate */
    size_t n;            /* pages */
    double level;        /* the interval's confidence level */
    double tolerance;    /* the loss the rule accepts at the lower end (>= 0) */
    double gain;         /* best's mean per-page gain over the start */
    double sd;           /* the standard deviation of its per-page gains (n - 1) */
    double lo, hi;       /* its interval; NaN below 2 pages, or when too few pages differ
                            for any shift to be significant at this level */
    size_t pages_needed; /* when best's mean gain is above 0 but lo is not above -tolerance:
                            the pages at which the same gains, repeated, would give lo above
                            it (0: none, or more than 100000) */
    size_t left_out;     /* held-out pages not counted in n: their gold holds no text (the
                            caller's to set; folds.c) */
};

/* Decides on f1[j * n + i], candidate j's F1 on page i when that page was
 * held out of the search that made it (j < ncand; j = 0 is the start), at
 * confidence level (0, 1) and tolerance [0, 1).  0, or -1 with err filled
 * on bad arguments. */
int cet_choice_decide(struct cet_choice *c, const double *f1, size_t ncand, size_t n, double level,
                      double tolerance, struct cet_error *err);

/* 1 when candidate best passes the rule (gains on average, lower end above
 * -tolerance), whether or not it is still chosen. */
int cet_choice_passed(const struct cet_choice *c);

/* 1 when the gains c measured show no loss beyond doubt: a mean gain above
 * -loss and an interval (when the pages allow one) whose upper end is not
 * below 0.  The bar of the start with site rules (CET_CHOICE_RULES_LOSS). */
int cet_choice_no_loss(const struct cet_choice *c, double loss);

/* One sentence for people: what tuning is estimated to change on unseen
 * pages, its interval, and what best.json holds; when it keeps the start,
 * what would change that; when best passed but is no longer chosen, that the
 * start stays, for the caller to say what did better.  how says where the estimate comes from ("5-fold
 * cross-validation"), start names the start ("the defaults", a file) and
 * tuned the candidate exported when it is not the start.  Returns as
 * snprintf (truncated to size). */
int cet_choice_sentence(char *buf, size_t size, const struct cet_choice *c, const char *how,
                        const char *start, const char *tuned);

/* "80% confidence interval +0.0118 to +0.0244": c's interval as every
 * sentence about a choice gives it (an empty string when c has none).
 * Returns as snprintf. */
int cet_choice_interval(char *buf, size_t size, const struct cet_choice *c);

/* x rounded to the 4 decimals figures are shown with, -0 made 0 (so that a
 * bound just below 0 does not print as "-0.0000"). */
double cet_choice_round(double x);

CET_END_DECL

#endif
