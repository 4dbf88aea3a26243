/* The final choice of a run (evolve --holdout F, docs/experiment.md
 * "A final choice that generalises"): which evaluated setting becomes
 * best.json, so that it holds up on pages the run did not train on.
 *
 * - The search sees only part of the training sample: a stratified fold of
 *   about F of the documents (one of round(1/F) folds, cet_folds_split with
 *   the run seed) is kept out of it and listed in holdout.txt.
 * - When the GA stops, the top distinct individuals by training fitness
 *   (--top, 5) and the defaults are scored on the holdout.  The best of
 *   the top there (ties go to the better training rank) becomes best.json
 *   only if it beats the defaults on the holdout's pages beyond chance: a
 *   one-sided sign-flip test on the per-page F1 differences (racing's,
 *   cet_signflip_pvalue) with p < CET_HOLDOUT_ALPHA.  Otherwise, when the search
 *   evaluated the defaults, they stay: a run whose tuning only fits its
 *   training pages exports them (docs/experiment.md measures the rules).
 * - The run reports both gains over the defaults: on the documents the
 *   search used, and on the holdout (the estimate for unseen pages; it is
 *   slightly optimistic, being the best of the candidates: --folds gives
 *   an unbiased one).
 * - A holdout needs mean F1 over whole documents: runs with --race,
 *   --objective, --constraint or --pareto, and samples of fewer than
 *   HOLDOUT_MIN_DOCS documents, keep the best training fitness.
 * Everything is a function of the seed, the sample and the archive, so a
 * resumed run and any --threads choose the same. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/split.h"
#include "eval/signflip.h" /* cet_signflip_pvalue: racing's sign-flip test */
#include "run_internal.h"

/* Below this, a quarter of the sample is too few pages to choose on. */
enum { HOLDOUT_MIN_DOCS = 20 };

/* The number of folds one of which is the holdout; 0: no holdout. */
static size_t holdout_folds(const struct cet_run *run)
{
    const struct cet_ga_options *o = cet_ga_opts(run->ga);
    if (!(o->holdout > 0) || o->race || !cet_goal_is_default(&o->goal) ||
        run->train.ndocs < HOLDOUT_MIN_DOCS)
        return 0;
    long k = lround(1 / o->holdout);
    return k < 2 ? 2 : (size_t)k;
}

static int write_holdout(const struct cet_run *run, struct cet_error *err)
{
    struct cet_buf b = {0};
    int rc = cet_buf_printf(&b, "# kept out of the search to choose best.json: %zu of %zu "
                                "training documents\n", run->nhold, run->train.ndocs);
    for (size_t i = 0; i < run->nhold && !rc; i++) {
        const struct cet_doc *d = run->train.docs[run->hold[i]];
        rc = cet_sample_line(&b, d->package, d->name);
    }
    rc = rc ? cet_fail(err, "out of memory")
            : cet_run_write_file(run->dir, CET_RUN_HOLDOUT, b.p, b.len, err);
    cet_buf_free(&b);
    return rc;
}

int cet_run_holdout_split(struct cet_run *run, int resumed, struct cet_error *err)
{
    size_t k = holdout_folds(run), n = run->train.ndocs;
    if (resumed ? run->info.holdout_docs == 0 : k == 0)
        return 0;
    if (!k)
        return cet_fail(err, "%s: the run kept %ld documents out of its search, but its options "
                             "no longer allow a holdout", run->dir, run->info.holdout_docs);
    uint32_t *fold = malloc(n * sizeof *fold);
    run->search = malloc(n * sizeof *run->search);
    run->hold = malloc(n * sizeof *run->hold);
    if (!fold || !run->search || !run->hold) {
        free(fold);
        return cet_fail(err, "out of memory");
    }
    int rc = cet_folds_split(fold, &run->train, k, cet_ga_opts(run->ga)->seed, err);
    run->nsearch = run->nhold = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        if (fold[i] == 0)
            run->hold[run->nhold++] = (uint32_t)i;
        else
            run->search[run->nsearch++] = (uint32_t)i;
    }
    free(fold);
    if (rc)
        return -1;
    cet_ga_set_ndocs(run->ga, run->nsearch);
    if (resumed) {
        if ((long)run->nhold != run->info.holdout_docs)
            return cet_fail(err, "%s: the run kept %ld documents out of its search, but the split "
                                 "gives %zu now", run->dir, run->info.holdout_docs, run->nhold);
        return 0;
    }
    run->info.holdout_docs = (long)run->nhold;
    return write_holdout(run, err);
}

int cet_run_choose(struct cet_run *run, struct cet_error *err)
{
    struct cet_run_info *info = &run->info;
    const struct cet_ga *ga = run->ga;
    const struct cet_params_desc *d = &run->desc;
    if (!run->nhold || info->has_chosen)
        return 0;
    size_t *rank = NULL, n = 0, P = d->ex->nparams;
    double *g = malloc((d->ngenes + 1) * sizeof *g), *full = NULL, *f1 = NULL, *diff = NULL;
    struct cet_score *sc = NULL;
    int rc = -1;
    if (!g || cet_ga_top(ga, info->top ? info->top : 5, &rank, &n) || !n) {
        cet_fail(err, "out of memory");
        goto done;
    }
    /* The candidates, best training first, then the defaults (scored even
     * when not a candidate: their holdout F1 is the baseline). */
    full = malloc((n + 1) * P * sizeof *full);
    f1 = malloc((n + 1) * sizeof *f1);
    sc = malloc((n + 1) * run->nhold * sizeof *sc);
    diff = malloc(run->nhold * sizeof *diff);
    if (!full || !f1 || !sc || !diff) {
        cet_fail(err, "out of memory");
        goto done;
    }
    info->defaults_train = cet_run_defaults_fitness(run, g);
    size_t def;
    int def_known = !cet_ga_lookup(ga, g, &def);
    for (size_t j = 0; j < n; j++)
        cet_params_expand(d, cet_ga_genes(ga, rank[j]), full + j * P);
    cet_params_expand(d, g, full + n * P);
    if (cet_run_eval_docs(run, full, n + 1, run->hold, run->nhold, sc, f1, NULL, NULL, err))
        goto done;
    size_t best = 0;
    for (size_t j = 1; j < n; j++)
        if (f1[j] > f1[best])
            best = j;
    info->has_chosen = 1;
    info->chosen = rank[best];
    info->chosen_rank = info->top_rank = best + 1;
    info->chosen_holdout = info->top_holdout = f1[best];
    info->top_pvalue = NAN;
    info->top_train = cet_ga_fitness(ga, rank[best]);
    if (def_known && rank[best] != def) {
        /* The defaults stay unless the best candidate beats them on the
         * holdout's pages beyond chance (a sign-flip test, as racing's). */
        size_t H = run->nhold;
        for (size_t i = 0; i < H; i++)
            diff[i] = sc[n * H + i].f1 - sc[best * H + i].f1;
        info->top_pvalue = cet_signflip_pvalue(diff, H);
        if (!(info->top_pvalue < CET_HOLDOUT_ALPHA)) {
            info->chosen = def;
            info->chosen_holdout = f1[n];
            info->chosen_rank = 0;
            for (size_t j = 0; j < n; j++)
                if (rank[j] == def)
                    info->chosen_rank = j + 1;
        }
    }
    info->defaults_holdout = f1[n];
    rc = 0;
done:
    free(rank);
    free(g);
    free(full);
    free(f1);
    free(sc);
    free(diff);
    return rc;
}

int cet_run_info_best(const struct cet_ga *ga, const struct cet_run_info *info, size_t *best)
{
    struct cet_ga_status st;
    cet_ga_status(ga, &st);
    if (info->has_chosen && info->chosen < st.narch) {
        *best = info->chosen;
        return 0;
    }
    return cet_ga_best(ga, best);
}
