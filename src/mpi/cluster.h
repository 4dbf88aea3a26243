/* Distributed evaluation with MPI (only in the -DCETUNE_MPI=ON build;
 * docs/distributed.md).
 *
 * Rank 0 runs the command.  Every rank, rank 0 included, holds one shard of
 * the training documents: a contiguous range of the corpus order, balanced by
 * HTML bytes.  Rank 0 broadcasts each batch of configurations; every rank
 * evaluates them on its shard with its own threads.  For a fitness, running
 * sums (cet_goal_sums) go from rank to rank in rank order, each adding its
 * documents, so they meet the documents in corpus order; when per-document
 * scores are wanted (racing's blocks, `cetune evaluate`), their counts come
 * back to rank 0, which rebuilds each score (cet_score_set).  The results
 * are therefore the bits of cet_evaluate and cet_goal_measure on the whole
 * corpus, whatever the number of ranks and threads.
 *
 * Every function but cet_cluster_serve is called on rank 0 only, which the
 * other ranks follow in cet_cluster_serve. */
#ifndef CETUNE_CLUSTER_H
#define CETUNE_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/corpus.h"
#include "cetune/eval.h"
#include "cetune/objective.h"
#include "cetune/run.h"

struct cet_cluster;

/* MPI_Init (threads funnelled through the main thread). */
int cet_cluster_init(struct cet_cluster **out, int *argc, char ***argv, struct cet_error *err);
int cet_cluster_rank(const struct cet_cluster *cl);
int cet_cluster_size(const struct cet_cluster *cl);
/* Rank 0: stops the other ranks' cet_cluster_serve; every rank: frees cl and
 * finalises MPI. */
void cet_cluster_end(struct cet_cluster *cl);

/* The shards: entries first[r] .. first[r+1] (first[0] = 0, first[nranks] =
 * n) go to rank r; each entry goes to the rank within whose share of the
 * total cost the middle of the entry falls, so the shards' costs differ by
 * at most about one entry. */
void cet_shard_plan(const uint64_t *cost, size_t n, int nranks, size_t *first);

/* Loads the wanted entries (all when want is NULL), each rank its shard with
 * `threads` threads, keeping what flags ask for (CET_LOAD_*).  *c receives the whole corpus in corpus order as
 * cet_corpus_load would give it (documents, packages, skips with their
 * reasons, bytes), but its documents are catalogue entries only (package,
 * name, path, bytes): the models stay on their ranks.  A new load replaces
 * the shards of the last.  A page rank 0 found but another rank cannot see
 * fails the load with a message naming that rank and the page (the ranks
 * must see the same files); a page no rank can read is skipped as in
 * cet_corpus_load. */
int cet_cluster_load(struct cet_cluster *cl, struct cet_corpus *c, const struct cet_entries *e,
                     const uint8_t *want, unsigned flags, int threads, struct cet_error *err);
/* Binds extractor ex and metric to every rank's shard (cet_evaluator_new);
 * an error names the rank and the document. */
int cet_cluster_prepare(struct cet_cluster *cl, const struct cet_extractor *ex,
                        enum cet_metric metric, struct cet_error *err);
/* cet_evaluate over the ranks, with the same arguments and the same results;
 * docs are indices into the corpus of cet_cluster_load. */
int cet_cluster_evaluate(struct cet_cluster *cl, const double *params, size_t k,
                         const uint32_t *docs, size_t ndocs, struct cet_score *scores,
                         double *mean_f1, double *mean_p, double *mean_r, struct cet_error *err);
/* cet_goal_measure of k configurations on the whole loaded corpus, into
 * m[0..k): the ranks pass running sums (cet_goal_sums) from one to the
 * next in rank order, never per-document scores, so the bits are those of
 * the single process.  cet_cluster_evaluate uses it when only the means are
 * wanted (no scores, no subset). */
int cet_cluster_measure(struct cet_cluster *cl, const double *params, size_t k,
                        const struct cet_goal *goal, struct cet_measures *m,
                        struct cet_error *err);
/* What one rank has sent and received in evaluations (the payloads of
 * its messages, a broadcast counted once per receiving rank at the root),
 * in how many evaluation batches, of how many configurations in all. */
struct cet_cluster_traffic {
    uint64_t sent, received, batches, configs;
};
/* Every rank's counters so far, into per_rank[0 .. size). */
int cet_cluster_traffic(struct cet_cluster *cl, struct cet_cluster_traffic *per_rank,
                        struct cet_error *err);

/* The backend of a run (run.h) made of the three functions above. */
void cet_cluster_backend(struct cet_cluster *cl, struct cet_backend *be);

/* A command of the program's own that every rank takes part in (the CLI's
 * `extract --warc`, which spreads its files over the ranks): rank 0's
 * cet_cluster_task hands len bytes to the other ranks, whose
 * cet_cluster_serve calls the function set by cet_cluster_on_task with
 * them; from there every rank makes the task's own MPI calls on
 * MPI_COMM_WORLD, and the other ranks go back to serving when it returns. */
typedef void (*cet_cluster_task_fn)(struct cet_cluster *cl, const char *data, size_t len);
void cet_cluster_on_task(struct cet_cluster *cl, cet_cluster_task_fn fn);
int cet_cluster_task(struct cet_cluster *cl, const char *data, size_t len, struct cet_error *err);

/* Ranks other than 0: follows rank 0's calls until cet_cluster_end.
 * Returns 0, or -1 with err when this rank cannot go on. */
int cet_cluster_serve(struct cet_cluster *cl, struct cet_error *err);

#endif
