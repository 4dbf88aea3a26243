/* Growable arrays of any type (after libgit2's array.h), for the library
 * and the CLI: one growth rule instead of a realloc loop at every site.
 *
 *   uint32_t *v = NULL;
 *   size_t n = 0, cap = 0;
 *   if (CET_GROW(v, cap, n + 1, 64))
 *       return -1;  // out of memory: v and cap unchanged
 *   v[n++] = x;
 *
 * or, with the array and its counts in one struct:
 *
 *   CET_ARRAY(struct cet_config) configs = {0};
 *   if (CET_PUSH(configs, cfg)) ...
 *   free(configs.v);
 */
#ifndef CETUNE_UTIL_ARRAY_H
#define CETUNE_UTIL_ARRAY_H

#include <stddef.h>

/* Makes room for need items of item bytes in the array *pp (a T **) of
 * *cap items, keeping its contents: the capacity doubles, starting from
 * min, until need fits.  0, or -1 when out of memory (*pp and *cap
 * unchanged). */
int cet_array_grow(void *pp, size_t *cap, size_t need, size_t item, size_t min);

/* CET_GROW(p, cap, need, min): p a T * lvalue, cap its size_t capacity. */
#define CET_GROW(p, cap, need, min)                                                           \
    ((size_t)(need) <= (cap) ? 0 : cet_array_grow(&(p), &(cap), (need), sizeof *(p), (min)))

/* An array with its length and capacity. */
#define CET_ARRAY(type)                                                                        \
    struct {                                                                                   \
        type *v;                                                                               \
        size_t n, cap;                                                                         \
    }
/* Appends x to the CET_ARRAY a; 0, or -1 when out of memory (a unchanged). */
#define CET_PUSH(a, x) (CET_GROW((a).v, (a).cap, (a).n + 1, 16) ? -1 : ((a).v[(a).n++] = (x), 0))

#endif
