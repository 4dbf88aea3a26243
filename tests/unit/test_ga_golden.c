/* The golden run (PGAPack's regression style): the tiny corpus of
 * tests/data/ga, lqf, seed 7, population 8 and 5 generations must
 * reproduce the stored best.json, individuals.csv and top.json byte for
 * byte, with one thread and with two.  CETUNE_UPDATE_GOLDEN=1 rewrites the
 * stored files instead (after a deliberate change; review the diff). */
#include <unistd.h>

#include "cetune/eval.h"
#include "cetune/search.h"
#include "run/run_internal.h"
#include "test.h"
#include "test_ga.h"

#define GA_DATA CETUNE_TEST_DATA "/ga"

static const char *const golden_files[] = {"best.json", "individuals.csv", "top.json", NULL};

/* Runs the golden configuration with `threads` threads into dir. */
static int golden_run(const char *dir, int threads)
{
    struct test_real t;
    struct cet_error err;
    struct cet_run_info run = {0};
    int rc = -1;
    if (test_real_new(&t, GA_DATA "/corpus", GA_DATA "/lqf.json", threads, &err))
        goto done;
    test_ga_run_options(t.engine, 7, 8, 5);
    if (test_real_setup(&t, &err) || test_ga_run(t.engine, &err))
        goto done;
    run.docs = (long)t.c.ndocs;
    run.top = 5;
    if (test_write_results(t.engine, &run, dir, &err))
        goto done;
    CHECK_EQ_INT(t.c.ndocs, 8);
    CHECK_EQ_INT(test_ga_status(t.engine).gen, 4);
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "golden run: %s\n", err.msg);
    test_real_free(&t);
    return rc;
}

static int read_into(struct cet_buf *b, const char *dir, const char *name)
{
    char path[4200];
    struct cet_error err;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    b->len = 0;
    if (cet_read_file(b, path, 1 << 24, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static void test_ga_golden__reproduces_the_stored_run(void)
{
    if (getenv("CETUNE_UPDATE_GOLDEN")) {
        CHECK_EQ_INT(golden_run(GA_DATA "/golden", 1), 0);
        char path[4200];
        snprintf(path, sizeof path, "%s/generations.csv", GA_DATA "/golden");
        unlink(path); /* its seconds column differs between runs */
        fprintf(stderr, "rewrote %s\n", GA_DATA "/golden");
        return;
    }
    for (int threads = 1; threads <= 2; threads++) {
        char dir[] = "/tmp/cetune-test-golden-XXXXXX";
        CHECK(mkdtemp(dir) != NULL);
        CHECK_EQ_INT(golden_run(dir, threads), 0);
        for (int i = 0; golden_files[i]; i++) {
            struct cet_buf want = {0}, got = {0};
            if (read_into(&want, GA_DATA "/golden", golden_files[i]) ||
                read_into(&got, dir, golden_files[i])) {
                CHECK(0);
            } else {
                int same = want.len == got.len && !memcmp(want.p, got.p, want.len);
                if (!same)
                    fprintf(stderr, "%s differs (threads %d):\n--- stored\n%s--- now\n%s", golden_files[i],
                            threads, want.p, got.p);
                CHECK(same);
            }
            cet_buf_free(&want);
            cet_buf_free(&got);
        }
        test_rundir_remove(dir);
    }
}

int main(void)
{
    RUN(test_ga_golden__reproduces_the_stored_run);
    TEST_END();
}
