/* Scoring extractions against gold with the metric of README.md ("The metric"), in parallel. */
#ifndef CETUNE_EVAL_H
#define CETUNE_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/buf.h"
#include "cetune/config.h"
#include "cetune/corpus.h"
#include "cetune/extractor.h"

CET_BEGIN_DECL

enum cet_metric { CET_METRIC_WORD, CET_METRIC_CHARS, CET_METRIC_LCSTRING };

struct cet_score {
    uint32_t n_extract, n_gold, overlap; /* words (or characters) */
    double p, r, f1;
};

/* P, R and F1 from the counts, with the metric's empty cases. */
void cet_score_set(struct cet_score *s, uint32_t n_extract, uint32_t n_gold, uint32_t overlap);

/* Which of labelled page d's words are gold, aligned as the metric aligns
 * them (the word LCS; cet_lcs_align_in with the page's blocks, so that a
 * gold headline matches one block whole): in[w] = 1 for each page word w
 * in the alignment (d->nwords bytes).  Site rules and the labelling page
 * read a page's gold through it.  Returns -1 when out of memory. */
int cet_gold_align(const struct cet_doc *d, uint8_t *in);
/* The word metric of an extract against a gold, both UTF-8 text (words as
 * the metric defines them; invalid bytes separate words) into *out.
 * Returns 0, or -1 with the reason (out of memory) in err. */
int cet_score_text(struct cet_score *out, const char *extract, size_t n, const char *gold,
                   size_t m, struct cet_error *err);
/* Means of the per-document scores docs[0..c->ndocs) (corpus order): per
 * package into pkgs[0..c->npkgs) (may be NULL), and their mean over the
 * packages, the macro average of the tables, into *macro (p, r and f1 only;
 * the counts are zero). */
void cet_score_macro(const struct cet_corpus *c, const struct cet_score *docs,
                     struct cet_score *pkgs, struct cet_score *macro);

/* The means over documents of k rows of ndocs scores (sc[j*ndocs + i]),
 * summed in document order, into mean_f1, mean_p, mean_r[0..k) (each may be
 * NULL): what cet_evaluate returns, and how a distributed evaluation combines
 * its gathered scores into the same bits. */
void cet_score_means(const struct cet_score *sc, size_t k, size_t ndocs, double *mean_f1,
                     double *mean_p, double *mean_r);

/* An extractor bound to a corpus, with its per-document preparation done
 * once.  The character metrics need the documents' gold and page text, some
 * extractors the page text (cet_extractor.load): a corpus loaded without
 * what is needed (CET_LOAD_GOLD_TEXT, CET_LOAD_TEXT) is refused, naming
 * the first document. */
struct cet_evaluator;

int cet_evaluator_new(struct cet_evaluator **out, const struct cet_corpus *c,
                      const struct cet_extractor *ex, enum cet_metric metric, int threads,
                      struct cet_error *err);
void cet_evaluator_free(struct cet_evaluator *ev);
/* Site rules (cetune/site.h) applied after every extraction from now on;
 * NULL removes them.  Their marks are computed here, once per document. */
int cet_evaluator_set_site(struct cet_evaluator *ev, const struct cet_site *site,
                           struct cet_error *err);

/* Evaluates k configurations (params[j*nparams ...]) on the documents
 * docs[0..ndocs) (indices into the corpus; NULL = all).  scores, if not NULL,
 * receives k*ndocs per-document scores (row j = configuration j).  mean_f1,
 * mean_p, mean_r (each may be NULL) receive k means over the documents.  The
 * result does not depend on the number of threads. */
int cet_evaluate(struct cet_evaluator *ev, const double *params, size_t k,
                 const uint32_t *docs, size_t ndocs, struct cet_score *scores,
                 double *mean_f1, double *mean_p, double *mean_r, struct cet_error *err);

/* ---- where documents are loaded and evaluated ---- */

struct cet_goal;     /* objective.h */
struct cet_measures; /* objective.h */

/* By default this process loads documents (cet_corpus_load) and evaluates
 * them (cet_evaluator).  A backend replaces both; the MPI build's
 * (src/mpi/cluster.h) spreads the documents over the ranks.  Its load has
 * the contract of cet_corpus_load, except that the documents it returns may
 * be names only (package, name, path, bytes: no model); prepare binds an
 * extractor and metric to what was loaded last; evaluate has the contract
 * of cet_evaluate, docs indexing the loaded corpus; measure (may be NULL:
 * then evaluate's per-document scores are measured by the caller) gives
 * cet_goal_measure's results for k configurations on the whole corpus. */
struct cet_backend {
    void *ctx;
    int (*load)(void *ctx, struct cet_corpus *c, const struct cet_entries *e, const uint8_t *want,
                unsigned flags, int threads, struct cet_error *err);
    int (*prepare)(void *ctx, const struct cet_extractor *ex, enum cet_metric metric,
                   struct cet_error *err);
    int (*evaluate)(void *ctx, const double *params, size_t k, const uint32_t *docs, size_t ndocs,
                    struct cet_score *scores, double *mean_f1, double *mean_p, double *mean_r,
                    struct cet_error *err);
    int (*measure)(void *ctx, const double *params, size_t k, const struct cet_goal *goal,
                   struct cet_measures *m, struct cet_error *err);
};

/* cet_corpus_load(c, e, want, flags, threads, err), or be's load when be is
 * not NULL. */
int cet_backend_load(const struct cet_backend *be, struct cet_corpus *c,
                     const struct cet_entries *e, const uint8_t *want, unsigned flags, int threads,
                     struct cet_error *err);
/* Scans the corpora and loads the documents of the sample file (all of
 * them when sample is NULL), keeping what flags ask for (CET_LOAD_*, doc.h:
 * what the metric and extractor read, cet_extractor.load).  Unusable documents are
 * in c->skips (c may end up empty: the caller decides).  Both load with be
 * (NULL: this process). */
int cet_corpus_load_dirs(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                         size_t ndirs, const char *sample, unsigned flags, int threads,
                         const struct cet_backend *be, struct cet_error *err);

/* Pseudo-gold (template.h) for the entries whose gold is missing: each
 * package with such an entry is read (with up to `threads` threads), the
 * nref reference configurations (1 to CET_TEMPLATE_MAX_REFS) extract from
 * its pages, and their family's repetition corrects that into the gold of
 * the entries without one (inline, gold_pseudo, and the unsure text nodes
 * as unscored); entries with gold keep it.  A page that cannot be read
 * keeps its missing gold (loading it later gives the reason).  Fails
 * naming the package when a family is too small to show repetition. */
struct cet_template_opts;
int cet_template_entries(struct cet_entries *e, const struct cet_template_opts *o,
                         const struct cet_config *refs, size_t nref, int threads,
                         struct cet_error *err);

/* Scans the corpora into e and gives the entries without gold their
 * pseudo-gold (cet_template_entries with the default rule), the references
 * being, when defaults is not NULL, that description's defaults (evolve's
 * start, first: the first reference decides what the references disagree
 * on), then the configuration files ref_paths[0 .. npaths).  Then load
 * with CET_LOAD_SCANNED. */
struct cet_params_desc;
int cet_template_scan(struct cet_entries *e, const char *const *dirs, size_t ndirs,
                      const char *const *ref_paths, size_t npaths,
                      const struct cet_params_desc *defaults, int threads, struct cet_error *err);

/* ---- scoring configurations on a corpus (what `cetune evaluate` prints) ---- */

/* One configuration's scores on a corpus. */
struct cet_config_scores {
    struct cet_score *docs;   /* per document, in corpus order (c->ndocs) */
    struct cet_score *pkgs;   /* per package: means over its documents (c->npkgs) */
    struct cet_score macro;   /* the mean over packages (p, r, f1; counts zero) */
    double mean_f1, mean_p, mean_r; /* means over the documents (a run's fitness) */
};

/* Scores the configurations cfgs[0..n) (of any extractors) on the loaded
 * corpus c with the metric, into out[0..n) (free with
 * cet_config_scores_free).  Configurations of one extractor are evaluated
 * together, and an extractor's per-document preparation is freed before
 * the next extractor's is made.  be (NULL: this process, with `threads`
 * threads, 0 = all cores) must be the backend c was loaded with
 * (cet_corpus_load_dirs): under MPI each rank then scores its own
 * documents and the per-document scores come back to the caller.  The
 * results do not depend on the backend, the number of ranks or threads. */
int cet_evaluate_configs(const struct cet_corpus *c, const struct cet_config *cfgs, size_t n,
                         enum cet_metric metric, int threads, const struct cet_backend *be,
                         struct cet_config_scores *out, struct cet_error *err);
void cet_config_scores_free(struct cet_config_scores *s, size_t n);

/* Runs configuration params of the evaluator's extractor on corpus document
 * di into sel (for rendering or writing extracts). */
int cet_evaluator_extract(struct cet_evaluator *ev, const double *params, size_t di,
                          struct cet_sel *sel);

CET_END_DECL

#endif
