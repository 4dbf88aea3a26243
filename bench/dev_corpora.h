/* The benchmarks' default corpora: the four dev corpora in ../shared/corpora. */
#ifndef CETUNE_BENCH_DEV_CORPORA_H
#define CETUNE_BENCH_DEV_CORPORA_H

#include <stdio.h>

/* Fills dirs[0..4) with their paths when *ndirs is 0 (no -d given). */
static inline void bench_dev_corpora(const char **dirs, size_t *ndirs)
{
    static char paths[4][4096];
    static const char *const names[] = {"portals", "cleaneval-dev", "scrapinghub", "big5"};
    if (*ndirs)
        return;
    for (int i = 0; i < 4; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/../shared/corpora/%s", CETUNE_SOURCE_DIR, names[i]);
        dirs[(*ndirs)++] = paths[i];
    }
}

#endif
