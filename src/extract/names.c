/* Several lists of names matched in one pass (names.h): the names are
 * grouped by their first byte, so a position of the string is compared only
 * with the names that start with its byte, and only when its first two bytes
 * begin some name (a bitmap of the pairs), which most positions do not. */
#include <string.h>

#include "names.h"

int name_index_build(struct name_index *x, const char *const *const *lists, int nlists)
{
    memset(x, 0, sizeof *x);
    if (nlists > 32)
        return -1;
    /* Distinct names, each with the lists it is in. */
    for (int l = 0; l < nlists; l++)
        for (const char *const *w = lists[l]; *w; w++) {
            uint32_t k = 0;
            while (k < x->n && strcmp(x->name[k].s, *w))
                k++;
            if (k == x->n) {
                if (x->n == NAMES_MAX || !**w || strchr(*w, ' '))
                    return -1;
                x->name[x->n].s = *w;
                x->name[x->n].len = strlen(*w);
                x->n++;
            }
            x->name[k].lists |= 1u << l;
        }
    /* Ordered by first byte (a stable insertion sort: a few hundred names, once). */
    for (uint32_t i = 1; i < x->n; i++)
        for (uint32_t k = i; k > 0 && (unsigned char)x->name[k - 1].s[0] >
                                          (unsigned char)x->name[k].s[0]; k--) {
            struct name_entry t = x->name[k];
            x->name[k] = x->name[k - 1];
            x->name[k - 1] = t;
        }
    uint32_t k = 0;
    for (int c = 0; c <= 256; c++) {
        while (k < x->n && (unsigned char)x->name[k].s[0] < c)
            k++;
        x->first[c] = (uint16_t)k;
    }
    for (k = 0; k < x->n; k++) {
        const unsigned char *s = (const unsigned char *)x->name[k].s;
        if (x->name[k].len == 1)
            x->single[s[0] >> 3] |= (uint8_t)(1u << (s[0] & 7));
        else
            x->pairs[(s[0] << 8 | s[1]) >> 3] |= (uint8_t)(1u << (s[1] & 7));
    }
    return 0;
}

uint32_t name_index_match(const struct name_index *x, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    uint32_t found = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned c = s[i];
        unsigned pair = i + 1 < len ? c << 8 | s[i + 1] : 0;
        if (!(x->single[c >> 3] >> (c & 7) & 1) && !(x->pairs[pair >> 3] >> (pair & 7) & 1))
            continue;
        for (uint32_t k = x->first[c]; k < x->first[c + 1]; k++) {
            const struct name_entry *e = &x->name[k];
            if (e->len > len - i)
                continue;
            size_t j = 1;
            while (j < e->len && (unsigned char)e->s[j] == s[i + j])
                j++;
            if (j == e->len)
                found |= e->lists;
        }
    }
    return found;
}
