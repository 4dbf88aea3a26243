/* What a run optimises (src/search/objective.c): one objective (--objective),
 * constraints on the measures (--constraint), or two or three objectives
 * for a Pareto search (--pareto, src/search/nsga2.c).
 *
 * Every measure is computed from the per-document scores of eval.h:
 * - f1, precision, recall: means over the documents (f1 is the default
 *   fitness, README.md "The metric");
 * - fbeta:B: the mean over the documents of F_beta = (1+B^2)PR/(B^2 P+R),
 *   with the metric's empty cases (both empty 1, one empty 0), so fbeta:1
 *   is f1 exactly;
 * - macro-f1: the mean F1 of each package, then the mean over packages
 *   (the macro average `cetune evaluate` prints);
 * - macro-precision, macro-recall: per package, then over packages, as
 *   the macro average row of `cetune evaluate`;
 * - words: the mean number of extracted words (constraints only);
 * - lcb-f1: a lower confidence bound of mean F1, the mean minus its
 *   standard error (the sample standard deviation over the documents
 *   divided by the square root of their number): of two settings with
 *   the same mean, the one that is good on every page ranks first.
 *
 * Regularisation toward the start (--shrink W, cet_goal.shrink): the
 * fitness of a setting is its objective minus W / n times its distance to
 * the run's start (cet_goal_shrink_distance), n the number of training
 * documents.  A move must pay for itself in the F1 of the pages, and the
 * fewer the pages, the more it must pay, as a prior centred on the start
 * weighs against n pages' evidence.  Its default (a negative weight until
 * resolved) is CET_SHRINK_DEFAULT for a run that starts from a
 * configuration (--seed-config) and is judged by mean F1: the lowest weight
 * at which no site family's run, tuned from configs/article.json, lost on
 * its test pages (docs/experiment.md, "Search objectives compared"); where
 * the site rules carry the guard, `evolve` uses CET_SHRINK_GUARDED instead
 * (docs/experiment.md, "Held slots").  From
 * the description's defaults it is 0: that case was not measured, and the
 * demo's tuning (density from its defaults) gains less with it. */
#ifndef CETUNE_OBJECTIVE_H
#define CETUNE_OBJECTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/corpus.h"
#include "cetune/error.h"
#include "cetune/eval.h"
#include "cetune/params.h"

CET_BEGIN_DECL

enum cet_measure {
    CET_MEASURE_F1 = 0, /* the default: zero-initialised goals optimise f1 */
    CET_MEASURE_PRECISION,
    CET_MEASURE_RECALL,
    CET_MEASURE_FBETA,
    CET_MEASURE_MACRO_F1,
    CET_MEASURE_WORDS,
    CET_MEASURE_MACRO_PRECISION,
    CET_MEASURE_MACRO_RECALL,
    CET_MEASURE_LCB_F1,
};

struct cet_objective {
    enum cet_measure m;
    double beta; /* fbeta only */
};

struct cet_constraint {
    enum cet_measure m; /* f1, precision, recall or words */
    int upper;          /* 1: measure <= bound; 0: measure >= bound */
    double bound;
};

enum { CET_MAX_CONSTRAINTS = 8, CET_MAX_PARETO = 3 };

/* A run's goal; all zero is the default (maximise mean F1). */
struct cet_goal {
    struct cet_objective objective;
    struct cet_constraint cons[CET_MAX_CONSTRAINTS];
    size_t ncons;
    struct cet_objective pareto[CET_MAX_PARETO]; /* npareto 0, or 2 to 3 objectives */
    size_t npareto;
    double shrink; /* the weight of the distance to the start; 0: none; < 0: the default */
};

#define CET_SHRINK_DEFAULT 0.03
/* `evolve`'s weight for such a run when its site rules carry the guard
 * (docs/site.md), which keeps what tuning adds and removes to what the
 * labelled pages showed; CET_SHRINK_DEFAULT stays for runs without it
 * (--no-guard, --no-site, --fitness template) and for the library. */
#define CET_SHRINK_GUARDED 0.02

/* What one evaluation measured (all means over the documents but macro-f1):
 * fit is the objective's value, viol the total constraint violation (0:
 * feasible), obj the Pareto objectives' values (npareto of them). */
struct cet_measures {
    double fit, f1, p, r, words, viol;
    double obj[CET_MAX_PARETO];
};

/* Parses "f1", "precision", "recall", "fbeta:B" (B > 0), "macro-f1",
 * "macro-precision", "macro-recall" or "lcb-f1". */
int cet_objective_parse(struct cet_objective *o, const char *s, struct cet_error *err);
/* The objective's name as parsed ("fbeta:0.5"). */
void cet_objective_name(const struct cet_objective *o, char *buf, size_t size);
/* Parses "MEASURE>=BOUND" or "MEASURE<=BOUND", MEASURE one of precision,
 * recall, f1, macro-precision, macro-recall, macro-f1, words. */
int cet_constraint_parse(struct cet_constraint *c, const char *s, struct cet_error *err);
void cet_constraint_name(const struct cet_constraint *c, char *buf, size_t size);
/* Parses a comma-separated list of two or three distinct objectives. */
int cet_pareto_parse(struct cet_goal *g, const char *s, struct cet_error *err);
/* 1 when g is the default goal (mean F1, no constraints, no Pareto search,
 * no regularisation): the fitness is mean F1 itself. */
int cet_goal_is_default(const struct cet_goal *g);
/* 1 when g searches for mean F1, regularised or not (no other objective,
 * constraint or Pareto search): a final choice that judges settings by
 * their mean F1 on pages the search did not see applies. */
int cet_goal_judged_by_f1(const struct cet_goal *g);

/* Resolves a default weight of --shrink (g->shrink < 0): CET_SHRINK_DEFAULT
 * when the run starts from a configuration (seeded: a --seed-config), is
 * judged by mean F1 and does not race (racing compares per-page F1, which a
 * penalty of the setting would not enter), else 0. */
void cet_goal_resolve_shrink(struct cet_goal *g, int race, int seeded);

/* Measures the per-document scores s[0..c->ndocs) of one configuration on
 * corpus c (corpus order) under goal g into *m.  A constraint's violation
 * is how far the measure lies beyond its bound, divided by the bound when
 * that exceeds 1 (words), so that constraints on different scales add up. */
void cet_goal_measure(const struct cet_goal *g, const struct cet_corpus *c,
                      const struct cet_score *s, struct cet_measures *m);

/* cet_goal_measure as a left fold over the documents in corpus order, in
 * the same floating-point operations: a distributed evaluation carries the
 * running sums from one rank's documents to the next's and reaches the same
 * bits for any number of ranks (src/mpi/cluster.c).  Start from all zero. */
struct cet_goal_sums {
    double f1, p, r, words;
    double f1sq;                      /* the sum of squared F1 (lcb-f1) */
    double fbeta[1 + CET_MAX_PARETO]; /* F_beta sums: the objective's, each Pareto one's */
    double pkg[3];                    /* p, r, f1 sums of the package in progress */
    double macro[3];                  /* p, r, f1: the finished packages' means / npkgs */
};
/* Adds one document's score; pkg_count is the number of documents of its
 * package when it is the package's last document, else 0; npkgs is the
 * corpus's number of packages. */
void cet_goal_sums_add(struct cet_goal_sums *a, const struct cet_goal *g, const struct cet_score *s,
                       uint32_t pkg_count, size_t npkgs);
/* The measures of the sums over ndocs documents. */
void cet_goal_sums_measure(const struct cet_goal_sums *a, const struct cet_goal *g, size_t ndocs,
                           struct cet_measures *m);

/* The distance of configuration full from configuration start (both full
 * parameter vectors of d's extractor) over the genes of d: the sum of each
 * numeric gene's difference as a share of its range (on the log scale for
 * a log gene), plus 1 for each bool or enum gene that differs.  Moving one
 * weight across a tenth of its range costs 0.1, flipping a switch 1. */
double cet_goal_shrink_distance(const struct cet_params_desc *d, const double *full,
                                const double *start);

CET_END_DECL

#endif
