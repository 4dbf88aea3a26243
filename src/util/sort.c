/* Stable merge sort of index arrays (sort.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"

static void merge_sort(size_t *v, size_t *tmp, size_t n, cet_before_fn before, const void *ctx)
{
    if (n < 2)
        return;
    size_t h = n / 2, i = 0, j = h, k = 0;
    merge_sort(v, tmp, h, before, ctx);
    merge_sort(v + h, tmp, n - h, before, ctx);
    while (i < h && j < n)
        tmp[k++] = before(ctx, v[j], v[i]) ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

int cet_sort_indices(size_t *v, size_t n, cet_before_fn before, const void *ctx)
{
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    merge_sort(v, tmp, n, before, ctx);
    free(tmp);
    return 0;
}

int cet_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int cet_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}
