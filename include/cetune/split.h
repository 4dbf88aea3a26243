/* The seeded, package-stratified splits of a loaded corpus's documents
 * (src/space/split.c): cross-validation folds (evolve --folds K, and the
 * holdout) and racing's document order. */
#ifndef CETUNE_SPLIT_H
#define CETUNE_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/corpus.h"
#include "cetune/error.h"

CET_BEGIN_DECL

/* Assigns each document of c a fold in [0, k): fold[i] for c->docs[i],
 * stratified by package and seeded (stream CET_STREAM_FOLDS of seed).
 * Fails when k < 2 or there are fewer than k documents. */
int cet_folds_split(uint32_t *fold, const struct cet_corpus *c, size_t k, uint64_t seed,
                    struct cet_error *err);
/* The same with only the documents marked in held (held[i] for
 * c->docs[i]) dealt to the folds, in the same seeded order; the others
 * are in no fold (fold[i] = CET_NONE), and the training of every fold.
 * With held NULL it is cet_folds_split.  Fails when k < 2 or fewer than k
 * documents are marked. */
int cet_folds_split_held(uint32_t *fold, const struct cet_corpus *c, const uint8_t *held,
                         size_t k, uint64_t seed, struct cet_error *err);

/* The racing order of the corpus's documents into order[0..c->ndocs):
 * each package in a seeded random order (stream CET_STREAM_RACE of seed),
 * the packages interleaved in proportion to their size, so every prefix
 * holds each package about in its share. */
int cet_race_order(uint32_t *order, const struct cet_corpus *c, uint64_t seed,
                   struct cet_error *err);

CET_END_DECL

#endif
