/* The search space's library-internal side (src/space): the run seed's
 * random streams, random genomes, and the seeded package-stratified
 * splits of documents.  The public side is include/cetune/params.h (the
 * parameter description, conditions, genomes) and include/cetune/split.h
 * (the splits of a loaded corpus). */
#ifndef CETUNE_SPACE_H
#define CETUNE_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "cetune/error.h"
#include "cetune/params.h"

/* ---- the run seed's streams (genome.c) ---- */

/* A 64-bit seed for stream `stream` of a run seed (splitmix64), so that
 * independent streams (the sample, the search) never share draws. */
uint64_t cet_seed_derive(uint64_t seed, uint64_t stream);
enum { CET_STREAM_SAMPLE = 1, CET_STREAM_GA = 2, CET_STREAM_RACE = 3, CET_STREAM_FOLDS = 4 };

/* ---- genomes (genome.c) ---- */

/* A random genome, uniform (or log-uniform) within the ranges, normalised. */
void cet_genome_random(const struct cet_params_desc *d, double resolution, gsl_rng *rng,
                       double *g);

/* ---- splits (split.c) ---- */

/* What a split makes of documents grouped in packages. */
enum cet_split_kind {
    CET_SPLIT_SAMPLE, /* out[i] = 1 for the documents taken: quota[k] of package k */
    CET_SPLIT_FOLDS,  /* out[i] = the fold of document i, in [0, folds) */
    CET_SPLIT_RACE,   /* out = the documents in racing order, packages interleaved */
};

/* A seeded split of n documents in npkgs packages, package k holding the
 * documents first[k] .. first[k+1]-1 (first has npkgs + 1 entries, first[0]
 * = 0, first[npkgs] = n). */
struct cet_split {
    enum cet_split_kind kind;
    const size_t *first;
    size_t npkgs;
    uint64_t seed;         /* the run seed; each kind draws from its own stream */
    size_t folds;          /* CET_SPLIT_FOLDS: how many (2 .. n) */
    const size_t *quota;   /* CET_SPLIT_SAMPLE: documents to take per package */
    const uint8_t *usable; /* SAMPLE: NULL (all), or which may be taken; FOLDS: NULL
                              (all), or which may be held out (the others: CET_NONE) */
};

/* Makes split s into out (n entries, see enum cet_split_kind).  Every
 * kind starts from one seeded random order of each package's documents,
 * drawn package by package in package order from the kind's stream of the
 * seed, so a split depends only on the seed and the packages' sizes:
 * - SAMPLE takes the first usable documents of each package's order, up to
 *   its quota (marking one unusable brings in the next, the rest stays);
 * - FOLDS deals each package's order to the folds in turn, the deal going
 *   on from package to package where the previous one stopped, so every
 *   fold holds each package in about its share and the folds differ in
 *   size by at most one document; a document that may not be held out
 *   (usable) is in no fold, CET_NONE, and the deal skips it;
 * - RACE interleaves the packages' orders in proportion to their sizes
 *   (document j of a package of m at (j + 0.5) / m, ties in package order),
 *   so every prefix holds each package about in its share.
 * 0, or -1 with err filled (out of memory). */
int cet_split_make(const struct cet_split *s, uint32_t *out, struct cet_error *err);

#endif
