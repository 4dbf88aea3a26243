/* Internal to src/search and its tests: racing's state and its sequence of
 * documents (race.c; its test is src/eval/signflip.h). */
#ifndef CETUNE_GA_RACE_H
#define CETUNE_GA_RACE_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/eval.h"
#include "cetune/search.h"

/* The state of racing (race.c), NULL without it.  Memory: the incumbent's
 * per-document F1 (ndocs doubles) and the scores of one generation's new
 * individuals (pop x ndocs struct cet_score, 40 bytes each), nothing per
 * archived individual but its document count and raced-out flag. */
struct cet_race {
    uint32_t *order;              /* the documents in racing order (ndocs), fixed for the run */
    uint32_t *seq;                /* the generation's order: the incumbent's weak pages
                                     (F1 below race_weak) first, then the others, each
                                     part in racing order (cet_race_sequence) */
    size_t nweak;                 /* how many weak pages seq starts with */
    uint32_t *pos;                /* pos[doc] = its place in seq */
    size_t ndocs;
    int has_incumbent;            /* 0 until a generation completes */
    size_t incumbent;             /* archive index of the best fully evaluated */
    double *inc_f1;               /* its F1 per document (corpus order) */
    cet_search_score_fn score;
    /* The generation in progress, kept when cancelled between blocks so a
     * checkpoint can resume it: */
    int pending;
    size_t *members;              /* archive indices of the generation (pop) */
    size_t nmembers;
    size_t first, n;              /* its new individuals: archive first .. first+n */
    size_t done;                  /* documents of seq scored so far */
    struct cet_score *scores;     /* n x ndocs (row j by document index) */
};

/* Puts the generation's sequence in R->seq, R->nweak and R->pos from the
 * run's order and the incumbent's F1 (no weak pages without an incumbent
 * or with weak 0).  Called when a generation starts, and by a checkpoint
 * restoring one in progress. */
void cet_race_sequence(struct cet_race *R, double weak);
/* 1 when new individual j is significantly worse than the incumbent at
 * alpha on the documents of the sequence scored so far; d is scratch of
 * ndocs (race.c). */
int cet_search_race_worse(const struct cet_race *R, size_t j, double alpha, double *d);

#endif
