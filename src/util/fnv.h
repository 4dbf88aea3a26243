/* FNV-1a, 64 bits: the hash of the template's slots (src/doc/template.c)
 * and of the site rules' (src/extract/site.c).  Hashing a string in pieces
 * gives the hash of their concatenation, so a path's hash grows step by
 * step from its parent's. */
#ifndef CETUNE_UTIL_FNV_H
#define CETUNE_UTIL_FNV_H

#include <stddef.h>
#include <stdint.h>

#define CET_FNV_BASIS 0xcbf29ce484222325ULL

static inline uint64_t cet_fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

#endif
