/* Run directories in the GA tests: removing one through the library's own
 * list of the files a run writes (rundir.h), and comparing what two GAs
 * write into one. */
#ifndef CETUNE_TEST_RUNDIR_H
#define CETUNE_TEST_RUNDIR_H

#include <unistd.h>

#include "cetune/buf.h"
#include "cetune/rundir.h"
#include "run/run_internal.h"
#include "test.h"

static inline void test_rundir_remove(const char *dir)
{
    struct cet_error err;
    CHECK_EQ_INT(cet_rundir_clear(dir, &err), 0);
    CHECK_EQ_INT(rmdir(dir), 0);
}

/* The results (individuals.csv) a and b write into dir are byte-identical. */
static inline void test_same_results(struct cet_ga *a, struct cet_ga *b,
                                     const struct cet_run_info *run, const char *dir)
{
    struct cet_buf fa = {0}, fb = {0};
    struct cet_error err;
    char *path = cet_run_path(dir, CET_RUN_INDIVIDUALS);
    CHECK(path != NULL);
    CHECK_EQ_INT(cet_run_write_results(a, run, dir, &err), 0);
    CHECK_EQ_INT(cet_read_file(&fa, path, 1 << 24, &err), 0);
    CHECK_EQ_INT(cet_run_write_results(b, run, dir, &err), 0);
    CHECK_EQ_INT(cet_read_file(&fb, path, 1 << 24, &err), 0);
    CHECK(fa.len > 0 && fa.len == fb.len && !memcmp(fa.p, fb.p, fa.len));
    free(path);
    cet_buf_free(&fa);
    cet_buf_free(&fb);
}

#endif
