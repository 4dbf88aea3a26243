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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cetune/config.h"
#include "cetune/eval.h"
#include "cetune/folds.h"
#include "cetune/run.h"
#include "cli.h"
#include "evolve_folds.h"

int cli_evolve_fold;

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
                              threads, NULL)))
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
static int run_fold(const struct cet_run_info *run, const char *fdir, const char *train, int threads)
{
    char cp[4300], th[32];
    snprintf(cp, sizeof cp, "%s/" CET_RUN_CHECKPOINT, fdir);
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
    v[n++] = "--threads";
    v[n++] = th;
    v[n] = NULL;
    fflush(stdout);
    cli_evolve_fold = 1;
    int rc = cli_evolve.run(n, (char **)v);
    cli_evolve_fold = 0;
    return rc;
}

int evolve_folds(const char *dir, const struct cet_run_info *run, const struct cet_params_desc *desc,
                 const struct cet_corpus *train, uint64_t seed, int threads)
{
    size_t K = (size_t)run->folds;
    struct cet_error err;
    uint32_t *fold = malloc((train->ndocs + 1) * sizeof *fold);
    double *tr = calloc(K, sizeof *tr), *fb = calloc(K, sizeof *fb), *fd = calloc(K, sizeof *fd);
    size_t *nt = calloc(K, sizeof *nt), *nh = calloc(K, sizeof *nh);
    struct cet_buf csv = {0};
    char path[4300], fdir[4200], list[4300];
    int rc = CLI_RUNTIME;
    if (!fold || !tr || !fb || !fd || !nt || !nh) {
        cli_error("out of memory");
        goto done;
    }
    if (cet_folds_split(fold, train, K, seed, &err)) {
        cli_error("--folds: %s", err.msg);
        goto done;
    }
    for (uint32_t k = 0; k < K; k++) {
        snprintf(fdir, sizeof fdir, "%s/" CET_RUN_FOLDS_DIR "/%u", dir, k + 1);
        if (cet_mkdirs(fdir)) {
            cli_error("%s: cannot create: %s", fdir, strerror(errno));
            goto done;
        }
        for (size_t i = 0; i < train->ndocs; i++)
            nh[k] += fold[i] == k;
        nt[k] = train->ndocs - nh[k];
        char heldout[4300];
        snprintf(list, sizeof list, "%s/" CET_FOLD_TRAIN, fdir);
        snprintf(heldout, sizeof heldout, "%s/" CET_FOLD_HELDOUT, fdir);
        if ((rc = write_list(list, train, fold, k, 0)) || (rc = write_list(heldout, train, fold, k, 1)))
            goto done;
        fprintf(stderr, "cetune: fold %u of %zu: the GA on %zu documents, %zu held out (%s)\n",
                k + 1, K, nt[k], nh[k], fdir);
        if ((rc = run_fold(run, fdir, list, threads)))
            goto done; /* interrupted (the fold's checkpoint is kept) or failed */
        rc = CLI_RUNTIME;
        struct cet_config cfg;
        snprintf(path, sizeof path, "%s/" CET_RUN_BEST, fdir);
        if (cet_config_load(&cfg, path, &err)) {
            cli_error("%s", err.msg);
            goto done;
        }
        tr[k] = cfg.has_fitness ? cfg.fitness : NAN;
        size_t n = 0;
        rc = heldout_f1(run, desc, heldout, cfg.params, &fb[k], &fd[k], &n, threads);
        cet_config_free(&cfg);
        if (rc)
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
    snprintf(path, sizeof path, "%s/" CET_RUN_FOLDS, dir);
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
    free(fold);
    free(tr);
    free(fb);
    free(fd);
    free(nt);
    free(nh);
    cet_buf_free(&csv);
    return rc;
}
