/* Which of several lists of names occur in a string (src/extract/names.c):
 * the block scorer (score.c) asks for every element with a class or id
 * which of a dozen lists of class-name fragments occur in it.  One pass over
 * the string finds them all, where a strstr per name would pass over it
 * once per name (about 150 names).  Not a public API. */
#ifndef CETUNE_EXTRACT_NAMES_H
#define CETUNE_EXTRACT_NAMES_H

#include <stddef.h>
#include <stdint.h>

#define NAMES_MAX 256 /* distinct names an index holds */

struct name_entry {
    const char *s; /* not empty */
    size_t len;
    uint32_t lists; /* bit l: the name is in list l */
};

struct name_index {
    uint16_t first[257]; /* the names starting with byte c: name[first[c] .. first[c + 1]) */
    struct name_entry name[NAMES_MAX];
    uint32_t n;
    uint8_t pairs[65536 / 8]; /* bit (a << 8 | b): some name starts with the bytes a, b */
    uint8_t single[256 / 8];  /* bit a: the name a (one byte long) */
};

/* Indexes lists[0 .. nlists) (at most 32), each a NULL-terminated array of
 * non-empty names without spaces, which must outlive the index: a name
 * found in "a b" is then found in "a" or in "b".  Returns -1 when there
 * are more than NAMES_MAX distinct names or a name is empty or has a space. */
int name_index_build(struct name_index *x, const char *const *const *lists, int nlists);

/* Bit l set when some name of list l occurs in s[0 .. len): the same as
 * strstr(s, name) != NULL for a NUL-terminated s of length len. */
uint32_t name_index_match(const struct name_index *x, const char *s, size_t len);

#endif
