/* What the GA suites (test_ga, test_race, test_ga_golden) share: a GA on a
 * real corpus, a checkpoint round trip, and run directories:
 * removing one through the library's own list of the files a run writes
 * (rundir.h) and comparing what two GAs write into one. */
#ifndef CETUNE_TEST_GA_H
#define CETUNE_TEST_GA_H

#include <stdlib.h>
#include <unistd.h>

#include "cetune/buf.h"
#include "cetune/eval.h"
#include "cetune/rundir.h"
#include "run/run_internal.h"
#include "test.h"
#include "test_extractor.h"

/* A GA on a real corpus, scored by cet_evaluate. */
struct test_real {
    struct cet_entries e;
    struct cet_corpus c;
    struct cet_params_desc d;
    struct cet_evaluator *ev;
    struct cet_search *engine;          /* created, not set up: set options, then test_real_setup */
};

/* Loads the corpus dir and the parameter description params, and creates
 * the evaluator and the GA, with `threads` threads; 0 or -1 (err). */
static inline int test_real_new(struct test_real *t, const char *dir, const char *params,
                                int threads, struct cet_error *err)
{
    memset(t, 0, sizeof *t);
    return cet_corpus_scan(&t->e, &dir, 1, err) ||
                   cet_corpus_load(&t->c, &t->e, NULL, 0, threads, err) ||
                   cet_params_load(&t->d, params, NULL, err) ||
                   cet_evaluator_new(&t->ev, &t->c, t->d.ex, CET_METRIC_WORD, threads, err) ||
                   cet_search_new(&t->engine, &t->d, err)
               ? -1
               : 0;
}

static inline int test_real_eval(void *ctx, const double *params, size_t k, double *f, double *p,
                                 double *r, struct cet_error *err)
{
    return cet_evaluate(ctx, params, k, NULL, 0, NULL, f, p, r, err);
}

/* cet_search_setup with the mean over every document as fitness. */
static inline int test_real_setup(struct test_real *t, struct cet_error *err)
{
    cet_search_set_ndocs(t->engine, t->c.ndocs);
    return cet_search_setup(t->engine, test_real_eval, NULL, t->ev, err);
}

/* Sets the seed, population and generations of a GA not yet set up. */
static inline void test_ga_run_options(struct cet_search *engine, uint64_t seed, size_t pop, long gens)
{
    struct cet_search_options o = *cet_search_opts(engine);
    o.seed = seed;
    o.pop = pop;
    o.generations = gens;
    cet_search_set_options(engine, &o);
}

static inline struct cet_search_status test_ga_status(const struct cet_search *engine)
{
    struct cet_search_status st;
    cet_search_status(engine, &st);
    return st;
}

/* Runs generations until the engine stops; 0 or -1 (err). */
static inline int test_ga_run(struct cet_search *engine, struct cet_error *err)
{
    while (test_ga_status(engine).stop == CET_STOP_NONE)
        if (cet_search_generation(engine, err))
            return -1;
    return 0;
}

static inline void test_real_free(struct test_real *t)
{
    cet_search_free(t->engine);
    cet_evaluator_free(t->ev);
    cet_params_free(&t->d);
    cet_corpus_free(&t->c);
    cet_entries_free(&t->e);
}

static inline void test_rundir_remove(const char *dir)
{
    struct cet_error err;
    CHECK_EQ_INT(cet_rundir_clear(dir, &err), 0);
    CHECK_EQ_INT(rmdir(dir), 0);
}

/* cet_run_write_results with a row cache of its own (a GA written once). */
static inline int test_write_results(const struct cet_search *engine, const struct cet_run_info *run,
                                     const char *dir, struct cet_error *err)
{
    struct cet_run_rows rows = {0};
    int rc = cet_run_write_results(engine, run, &rows, dir, err);
    cet_buf_free(&rows.buf);
    return rc;
}

/* The results (individuals.csv) a and b write into dir are byte-identical. */
static inline void test_same_results(struct cet_search *a, struct cet_search *b,
                                     const struct cet_run_info *run, const char *dir)
{
    struct cet_buf fa = {0}, fb = {0};
    struct cet_error err;
    char *path = cet_run_path(dir, CET_RUN_INDIVIDUALS);
    CHECK(path != NULL);
    CHECK_EQ_INT(test_write_results(a, run, dir, &err), 0);
    CHECK_EQ_INT(cet_read_file(&fa, path, 1 << 24, &err), 0);
    CHECK_EQ_INT(test_write_results(b, run, dir, &err), 0);
    CHECK_EQ_INT(cet_read_file(&fb, path, 1 << 24, &err), 0);
    CHECK(fa.len > 0 && fa.len == fb.len && !memcmp(fa.p, fb.p, fa.len));
    free(path);
    cet_buf_free(&fa);
    cet_buf_free(&fb);
}

/* A checkpoint round trip: a GA stopped part way is written to a
 * checkpoint and restored from it into ga, which must finish exactly as
 * the same GA run without stopping. */
struct test_resume {
    char dir[32];
    struct cet_run_info run;    /* as checkpointed */
    struct cet_run_info run2;   /* as restored */
    struct cet_params_desc d;
    struct cet_search *engine;
};

/* Checkpoints b (with docs documents, top 5) into a new temporary
 * directory, destroys b and restores it into t->ga: 0, or -1 after a
 * failed check. */
static inline int test_resume_begin(struct test_resume *t, struct cet_search *b, long docs)
{
    struct cet_error err;
    memset(t, 0, sizeof *t);
    strcpy(t->dir, "/tmp/cetune-test-ga-XXXXXX");
    CHECK(mkdtemp(t->dir) != NULL);
    t->run.docs = docs;
    t->run.top = 5;
    CHECK_EQ_INT(cet_run_checkpoint(b, &t->run, t->dir, &err), 0);
    cet_search_free(b);
    int rc = cet_run_restore(&t->engine, &t->d, &t->run2, t->dir, test_find, &err);
    CHECK_EQ_INT(rc, 0);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    return rc;
}

/* The results written from a (the run without stopping) and from t->ga
 * are byte-identical; then both GAs and the directory are gone. */
static inline void test_resume_end(struct test_resume *t, struct cet_search *a)
{
    test_same_results(a, t->engine, &t->run, t->dir);
    test_rundir_remove(t->dir);
    cet_search_free(a);
    cet_search_free(t->engine);
    cet_params_free(&t->d);
    cet_run_info_free(&t->run2);
}

#endif
