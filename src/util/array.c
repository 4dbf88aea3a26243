/* Growable arrays (array.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

int cet_array_grow(void *pp, size_t *cap, size_t need, size_t item, size_t min)
{
    size_t nc = *cap ? *cap : (min ? min : 1);
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    if (item && nc > SIZE_MAX / item)
        return -1;
    void *p;
    memcpy(&p, pp, sizeof p); /* *pp is a T *: copied, not read through a void ** */
    void *np = realloc(p, nc * item);
    if (!np)
        return -1;
    memcpy(pp, &np, sizeof np);
    *cap = nc;
    return 0;
}
