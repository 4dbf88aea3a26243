/* cetune evolve --folds K: how much will tuning gain on documents it has
 * not seen?  Before the final run on all training documents, the whole GA
 * runs K times (cet_folds_split, src/ga/folds.c), each time on K-1 folds;
 * each fold's best and the defaults are then scored on the held-out fold.
 *
 * - Fold k is a run directory of its own, DIR/folds/k, holding train.txt
 *   and heldout.txt (PACKAGE/NAME lists) beside the usual run files, so
 *   `cetune evaluate -c DIR/folds/k/best.json -s DIR/folds/k/heldout.txt`
 *   reproduces its held-out figure and an interrupted fold resumes from its
 *   own checkpoint (cetune evolve --resume DIR resumes the folds first).
 * - DIR/folds.csv: fold, train_docs, heldout_docs, train_fitness (the fold
 *   best's objective on its K-1 folds), heldout_f1 (its mean word F1 on the
 *   held-out fold), heldout_f1_defaults, gain (heldout_f1 -
 *   heldout_f1_defaults).
 * - The estimate printed is the mean gain over folds with its standard
 *   deviation (n - 1): what tuning this way is expected to add on the
 *   family's next pages.
 * - best.json stays the final run's best on all training documents.  The
 *   folds estimate the tuning procedure, not one setting: a fold's best saw
 *   only (K-1)/K of the documents, and picking the setting that did best
 *   on held-out folds would spend those folds on selection, so the
 *   estimate would no longer be unbiased. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cetune/config.h"
#include "cetune/eval.h"
#include "cetune/folds.h"
#include "cetune/run.h"
#include "cli.h"
#include "evolve.h"

int cli_evolve_fold;

/* A growing list of allocated words; oom once an allocation failed. */
struct words {
    char **v;
    size_t n, cap;
    int oom;
};

static void add_word(struct words *w, char *s)
{
    if (s && w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 64;
        char **v = realloc(w->v, cap * sizeof *v);
        if (v) {
            w->v = v;
            w->cap = cap;
        }
    }
    if (!s || w->n == w->cap) {
        free(s);
        w->oom = 1;
        return;
    }
    w->v[w->n++] = s;
}

static void word(struct words *w, const char *s)
{
    add_word(w, strdup(s));
}

/* The absolute path of s (s itself when it cannot be resolved). */
static void path_word(struct words *w, const char *s)
{
    char *p = realpath(s, NULL);
    add_word(w, p ? p : strdup(s));
}

/* An option and its value: a number or a name. */
static void option(struct words *w, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void option(struct words *w, const char *name, const char *fmt, ...)
{
    char v[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    word(w, name);
    if (n < 0 || (size_t)n >= sizeof v)
        w->oom = 1; /* cannot happen with the numbers and names above */
    else
        word(w, v);
}

int evolve_fold_args(char ***args, size_t *nargs, const char *params, const struct cli_list *dirs,
                     const struct cli_list *seed_configs, const struct cet_ga_options *o, long top)
{
    struct words w = {0};
    const struct cet_goal *g = &o->goal;
    char v[64];
    word(&w, "-p");
    path_word(&w, params);
    for (size_t i = 0; i < dirs->n; i++) {
        word(&w, "-d");
        path_word(&w, dirs->v[i]);
    }
    for (size_t i = 0; i < seed_configs->n; i++) {
        word(&w, "--seed-config");
        path_word(&w, seed_configs->v[i]);
    }
    option(&w, "--seed", "%llu", (unsigned long long)o->seed);
    option(&w, "--pop", "%zu", o->pop);
    option(&w, "--generations", "%ld", o->generations);
    option(&w, "--patience", "%ld", o->patience);
    option(&w, "--epsilon", "%.17g", o->epsilon);
    option(&w, "--max-evals", "%ld", o->max_evals);
    option(&w, "--time", "%.17g", o->time_limit);
    option(&w, "--elite", "%zu", o->elite);
    option(&w, "--select", "%s", cet_selection_names[o->select]);
    option(&w, "--tournament", "%zu", o->tournament);
    option(&w, "--truncation", "%.17g", o->truncation);
    option(&w, "--crossover-rate", "%.17g", o->crossover_rate);
    option(&w, "--mutation-rate", "%.17g", o->mutation_rate);
    option(&w, "--mutation-sigma", "%.17g", o->sigma);
    if (o->adaptive)
        word(&w, "--adaptive");
    option(&w, "--adapt-factor", "%.17g", o->adapt_factor);
    option(&w, "--resolution", "%.17g", o->resolution);
    option(&w, "--top", "%ld", top);
    if (o->race) { /* the folds race as the final run does */
        word(&w, "--race");
        option(&w, "--race-first", "%zu", o->race_first);
        option(&w, "--race-block", "%zu", o->race_block);
        option(&w, "--race-alpha", "%.17g", o->race_alpha);
        option(&w, "--race-weak", "%.17g", o->race_weak);
    }
    cet_objective_name(&g->objective, v, sizeof v);
    option(&w, "--objective", "%s", v);
    for (size_t k = 0; k < g->ncons; k++) {
        cet_constraint_name(&g->cons[k], v, sizeof v);
        option(&w, "--constraint", "%s", v);
    }
    if (g->npareto) {
        struct cet_buf list = {0};
        for (size_t k = 0; k < g->npareto && !w.oom; k++) {
            cet_objective_name(&g->pareto[k], v, sizeof v);
            w.oom = cet_buf_printf(&list, "%s%s", k ? "," : "", v);
        }
        word(&w, "--pareto");
        word(&w, list.p ? list.p : "");
        cet_buf_free(&list);
    }
    *args = w.v;
    *nargs = w.n;
    if (w.oom) {
        evolve_fold_args_free(w.v, w.n);
        *args = NULL;
        *nargs = 0;
        cli_error("out of memory");
        return CLI_RUNTIME;
    }
    return 0;
}

void evolve_fold_args_free(char **args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(args[i]);
    free(args);
}

static int write_list(const char *path, const struct cet_corpus *c, const uint32_t *fold,
                      uint32_t k, int held)
{
    struct cet_buf b = {0};
    struct cet_error err;
    int rc = 0;
    for (size_t i = 0; i < c->ndocs && !rc; i++)
        if ((fold[i] == k) == held)
            rc = cet_buf_printf(&b, "%s/%s\n", c->docs[i]->package, c->docs[i]->name);
    rc = rc ? cet_fail(&err, "out of memory") : cet_write_atomic(path, b.p ? b.p : "", b.len, &err);
    cet_buf_free(&b);
    if (rc)
        cli_error("%s", err.msg);
    return rc ? CLI_RUNTIME : 0;
}

/* Mean word F1 of configuration params on the documents heldout lists. */
static int heldout_f1(const struct cet_run_info *run, const struct cet_params_desc *desc,
                      const char *heldout, const double *best, double *f_best, double *f_def,
                      size_t *ndocs, int threads)
{
    struct cet_corpus c = {0};
    struct cet_entries e = {0};
    struct cet_evaluator *ev = NULL;
    struct cet_error err;
    double *def = malloc((desc->ex->nparams + 1) * sizeof *def);
    double *g = malloc((desc->ngenes + 1) * sizeof *g);
    int rc = CLI_RUNTIME;
    if (!def || !g) {
        cli_error("out of memory");
        goto done;
    }
    if ((rc = cli_load_corpus(&c, &e, (const char *const *)run->dirs, run->ndirs, heldout,
                              desc->ex->load, threads, NULL)))
        goto done;
    rc = CLI_RUNTIME;
    cet_params_default_genome(desc, g);
    cet_params_expand(desc, g, def);
    if (cet_evaluator_new(&ev, &c, desc->ex, CET_METRIC_WORD, threads, &err) ||
        cet_evaluate(ev, best, 1, NULL, 0, NULL, f_best, NULL, NULL, &err) ||
        cet_evaluate(ev, def, 1, NULL, 0, NULL, f_def, NULL, NULL, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    *ndocs = c.ndocs;
    rc = 0;
done:
    free(def);
    free(g);
    cet_evaluator_free(ev);
    cet_corpus_free(&c);
    cet_entries_free(&e);
    return rc;
}

/* Runs (or resumes) fold k's GA in fdir, quietly; returns its exit status. */
static int run_fold(const struct cet_run_info *run, const char *fdir, const char *train,
                    int threads)
{
    char th[32];
    char *cp = cet_run_path(fdir, CET_RUN_CHECKPOINT);
    if (!cp) {
        cli_error("out of memory");
        return CLI_RUNTIME;
    }
    snprintf(th, sizeof th, "%d", threads);
    const char *v[64 + 8];
    int n = 0;
    v[n++] = "evolve";
    if (!access(cp, F_OK)) {
        v[n++] = "--resume";
        v[n++] = fdir;
    } else {
        for (size_t i = 0; i < run->nfold_args && n < 64; i++)
            v[n++] = run->fold_args[i];
        v[n++] = "-s";
        v[n++] = train;
        v[n++] = "-o";
        v[n++] = fdir;
        v[n++] = "--force";
    }
    free(cp);
    v[n++] = "--threads";
    v[n++] = th;
    v[n] = NULL;
    fflush(stdout);
    cli_evolve_fold = 1;
    int rc = cli_evolve.run(n, (char **)v);
    cli_evolve_fold = 0;
    return rc;
}

/* Runs fold k (0-based) of the K folds in dir, nt training and nh held-out
 * documents: writes its lists, runs its GA, and scores its best and the
 * defaults on its held-out documents.  Returns 0 or an exit status. */
static int fold(const char *dir, const struct cet_run_info *run,
                const struct cet_params_desc *desc, const struct cet_corpus *train,
                const uint32_t *folds, uint32_t k, size_t K, size_t nt, size_t nh, double *tr,
                double *fb, double *fd, int threads)
{
    struct cet_buf fdir = {0};
    char *list = NULL, *heldout = NULL, *best = NULL;
    struct cet_error err;
    size_t n = 0;
    int rc = CLI_RUNTIME;
    if (cet_buf_printf(&fdir, "%s/" CET_RUN_FOLDS_DIR "/%u", dir, k + 1) ||
        !(list = cet_run_path(fdir.p, CET_FOLD_TRAIN)) ||
        !(heldout = cet_run_path(fdir.p, CET_FOLD_HELDOUT)) ||
        !(best = cet_run_path(fdir.p, CET_RUN_BEST))) {
        cli_error("out of memory");
        goto done;
    }
    if (cet_mkdirs(fdir.p)) {
        cli_error("%s: cannot create: %s", fdir.p, strerror(errno));
        goto done;
    }
    if ((rc = write_list(list, train, folds, k, 0)) ||
        (rc = write_list(heldout, train, folds, k, 1)))
        goto done;
    fprintf(stderr, "cetune: fold %u of %zu: the GA on %zu documents, %zu held out (%s)\n",
            k + 1, K, nt, nh, fdir.p);
    if ((rc = run_fold(run, fdir.p, list, threads)))
        goto done; /* interrupted (the fold's checkpoint is kept) or failed */
    rc = CLI_RUNTIME;
    struct cet_config cfg;
    if (cet_config_load(&cfg, best, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    *tr = cfg.has_fitness ? cfg.fitness : NAN;
    rc = heldout_f1(run, desc, heldout, cfg.params, fb, fd, &n, threads);
    cet_config_free(&cfg);
done:
    cet_buf_free(&fdir);
    free(list);
    free(heldout);
    free(best);
    return rc;
}

/* The folds of run's directory dir, then folds.csv and the table. */
static int folds(const char *dir, const struct cet_run_info *run,
                 const struct cet_params_desc *desc, const struct cet_corpus *train,
                 uint64_t seed, int threads)
{
    size_t K = (size_t)run->folds;
    struct cet_error err;
    uint32_t *fold_of = malloc((train->ndocs + 1) * sizeof *fold_of);
    double *tr = calloc(K, sizeof *tr), *fb = calloc(K, sizeof *fb), *fd = calloc(K, sizeof *fd);
    size_t *nt = calloc(K, sizeof *nt), *nh = calloc(K, sizeof *nh);
    struct cet_buf csv = {0};
    char *path = NULL;
    int rc = CLI_RUNTIME;
    if (!fold_of || !tr || !fb || !fd || !nt || !nh || !(path = cet_run_path(dir, CET_RUN_FOLDS))) {
        cli_error("out of memory");
        goto done;
    }
    if (cet_folds_split(fold_of, train, K, seed, &err)) {
        cli_error("--folds: %s", err.msg);
        goto done;
    }
    for (uint32_t k = 0; k < K; k++) {
        for (size_t i = 0; i < train->ndocs; i++)
            nh[k] += fold_of[i] == k;
        nt[k] = train->ndocs - nh[k];
        if ((rc = fold(dir, run, desc, train, fold_of, k, K, nt[k], nh[k], &tr[k], &fb[k], &fd[k],
                       threads)))
            goto done;
        rc = CLI_RUNTIME;
    }
    /* folds.csv and the table. */
    double sum = 0, sq = 0;
    for (size_t k = 0; k < K; k++)
        sum += fb[k] - fd[k];
    double mean = sum / (double)K;
    for (size_t k = 0; k < K; k++)
        sq += (fb[k] - fd[k] - mean) * (fb[k] - fd[k] - mean);
    double sd = sqrt(sq / (double)(K - 1));
    int bad = cet_buf_puts(&csv, "fold,train_docs,heldout_docs,train_fitness,heldout_f1,"
                                 "heldout_f1_defaults,gain\n");
    for (size_t k = 0; k < K && !bad; k++)
        bad = cet_buf_printf(&csv, "%zu,%zu,%zu,%.6f,%.6f,%.6f,%.6f\n", k + 1, nt[k], nh[k], tr[k],
                             fb[k], fd[k], fb[k] - fd[k]);
    if (bad ? cet_fail(&err, "out of memory") : cet_write_atomic(path, csv.p, csv.len, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    printf("cross-validation over %zu folds of the %zu training documents: %s\n\n", K,
           train->ndocs, path);
    printf("%4s  %6s  %7s  %8s  %10s  %12s  %8s\n", "fold", "train", "held", "training",
           "held-out", "held-out", "gain");
    printf("%4s  %6s  %7s  %8s  %10s  %12s  %8s\n", "", "docs", "docs", "fitness", "F1 best",
           "F1 defaults", "");
    for (size_t k = 0; k < K; k++)
        printf("%4zu  %6zu  %7zu  %8.4f  %10.4f  %12.4f  %+8.4f\n", k + 1, nt[k], nh[k], tr[k],
               fb[k], fd[k], fb[k] - fd[k]);
    printf("\nestimate: tuning gains %+.4f F1 over the defaults on unseen documents "
           "(mean over %zu folds; standard deviation %.4f)\n\n", mean, K, sd);
    fflush(stdout);
    rc = 0;
done:
    free(fold_of);
    free(path);
    free(tr);
    free(fb);
    free(fd);
    free(nt);
    free(nh);
    cet_buf_free(&csv);
    return rc;
}

int evolve_folds(struct cet_run *run, int threads)
{
    const struct cet_ga *ga = cet_run_ga(run);
    struct cet_error err;
    int rc = folds(cet_run_dir(run), cet_run_info(run), cet_ga_desc(ga), cet_run_train(run),
                   cet_ga_opts(ga)->seed, threads);
    if (rc && cli_signal) {
        if (cet_run_interrupt(run, &err))
            cli_error("%s", err.msg);
        fprintf(stderr, "cetune: interrupted by %s during the folds; each fold keeps its "
                        "checkpoint\ncetune: resume with: cetune evolve --resume %s\n",
                cli_signal_name(), cet_run_dir(run));
    }
    /* The folds' runs used the backend too (under MPI, the ranks hold the
     * last fold's documents): the run takes its own back. */
    if (!rc && cet_run_rebind(run, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
    }
    return rc;
}
