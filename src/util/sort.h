/* A stable merge sort of index arrays (src/util/sort.c): the GA's ranking
 * and NSGA-II's orders need the same ties in the same order on every run,
 * which qsort does not promise. */
#ifndef CETUNE_UTIL_SORT_H
#define CETUNE_UTIL_SORT_H

#include <stddef.h>

/* Nonzero when a must come before b. */
typedef int (*cet_before_fn)(const void *ctx, size_t a, size_t b);

/* Sorts v[0..n) so that before(ctx, v[i+1], v[i]) is never true, keeping
 * the order of entries neither comes before; 0, or -1 when out of memory
 * (v unchanged). */
int cet_sort_indices(size_t *v, size_t n, cet_before_fn before, const void *ctx);

/* qsort and bsearch comparators: ascending doubles (NaN unordered: keep
 * them out), ascending uint32_t. */
int cet_cmp_double(const void *a, const void *b);
int cet_cmp_u32(const void *a, const void *b);

#endif
