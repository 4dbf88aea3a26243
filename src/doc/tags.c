#include "cetune/tags.h"

#include <stdlib.h>
#include <string.h>

struct tag_info {
    const char *name;
    unsigned flags;
};

static const struct tag_info tags[CET_TAG_COUNT] = {
#define CET_TAG_ROW(id, name, flags) {name, flags},
    CET_TAG_LIST(CET_TAG_ROW)
#undef CET_TAG_ROW
};

/* The list is alphabetical after UNKNOWN, so lookups are a binary search. */
static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const struct tag_info *)elem)->name);
}

enum cet_tag cet_tag_lookup(const char *name)
{
    const struct tag_info *t =
        bsearch(name, tags + 1, CET_TAG_COUNT - 1, sizeof tags[0], cmp_name);
    return t ? (enum cet_tag)(t - tags) : CET_TAG_UNKNOWN;
}

unsigned cet_tag_flags(enum cet_tag tag)
{
    return (unsigned)tag < CET_TAG_COUNT ? tags[tag].flags : 0;
}
