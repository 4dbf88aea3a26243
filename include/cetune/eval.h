/* Scoring extractions against gold with the metric of README.md ("The metric"), in parallel. */
#ifndef CETUNE_EVAL_H
#define CETUNE_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/buf.h"
#include "cetune/corpus.h"
#include "cetune/extractor.h"

enum cet_metric { CET_METRIC_WORD, CET_METRIC_CHARS, CET_METRIC_LCSTRING };

struct cet_score {
    uint32_t n_extract, n_gold, overlap; /* words (or characters) */
    double p, r, f1;
};

/* P, R and F1 from the counts, with the metric's empty cases. */
void cet_score_set(struct cet_score *s, uint32_t n_extract, uint32_t n_gold, uint32_t overlap);
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

/* An extractor bound to a corpus, with its per-document preparation done once. */
struct cet_evaluator;

int cet_evaluator_new(struct cet_evaluator **out, const struct cet_corpus *c,
                      const struct cet_extractor *ex, enum cet_metric metric, int threads,
                      struct cet_error *err);
void cet_evaluator_free(struct cet_evaluator *ev);

/* Evaluates k configurations (params[j*nparams ...]) on the documents
 * docs[0..ndocs) (indices into the corpus; NULL = all).  scores, if not NULL,
 * receives k*ndocs per-document scores (row j = configuration j).  mean_f1,
 * mean_p, mean_r (each may be NULL) receive k means over the documents.  The
 * result does not depend on the number of threads. */
int cet_evaluate(struct cet_evaluator *ev, const double *params, size_t k,
                 const uint32_t *docs, size_t ndocs, struct cet_score *scores,
                 double *mean_f1, double *mean_p, double *mean_r, struct cet_error *err);

/* Runs one extraction and renders it: text (kept text nodes, white space
 * collapsed, a newline between blocks) or the cleaned HTML. */
int cet_extract_text(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out);
int cet_extract_html(const struct cet_doc *doc, const struct cet_sel *sel, struct cet_buf *out);



/* Runs configuration params of the evaluator's extractor on corpus document
 * di into sel (for rendering or writing extracts). */
int cet_evaluator_extract(struct cet_evaluator *ev, const double *params, size_t di,
                          struct cet_sel *sel);
#endif
