/* Cross-validation (evolve --folds K, src/ga/folds.c): the split of the
 * training documents into folds. */
#ifndef CETUNE_FOLDS_H
#define CETUNE_FOLDS_H

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

CET_END_DECL

#endif
