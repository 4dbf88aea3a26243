/* The final choice of a run: which configuration becomes best.json, so
 * that it holds up on pages the run did not train on (docs/choice.md).
 *
 * - CET_CHOOSE_CV (evolve's default): the search runs inside each of K
 *   folds first (folds.c), its best and the start are scored on the fold's
 *   held-out pages, and the rule of choice.h decides on those per-page
 *   gains: the start (the defaults, or the first --seed-config) stays
 *   unless the interval of the gain lies above 0.  When the final search on
 *   every document stops, best.json is its best if the rule adopted tuning,
 *   else the start: evaluated on the training documents even when the
 *   search never was (a description with "seeds": []).
 * - CET_CHOOSE_SEARCH: best.json is the search's best training fitness.
 * - Runs started before cross-validation chose kept a quarter of their
 *   documents out of the search (holdout.txt) and chose on it; a resumed
 *   one goes on that way (cet_run_holdout_split, the holdout part below).
 * Everything is a function of the seed, the sample and the archive, so a
 * resumed run and any --threads choose the same. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/split.h"
#include "eval/signflip.h" /* cet_signflip_pvalue: racing's sign-flip test */
#include "run_internal.h"

const char *const cet_choose_names[CET_CHOOSE_COUNT + 1] = {"search", "cv", NULL};

long cet_choose_default_folds(size_t n)
{
    return n < 2 ? 0 : n < 5 ? (long)n : 5;
}

/* A resumed run that began with a holdout (a share of info.holdout of its
 * documents): the number of folds one of which was the holdout. */
static size_t holdout_folds(const struct cet_run *run)
{
    if (!(run->info.holdout > 0))
        return 0;
    long k = lround(1 / run->info.holdout);
    return k < 2 ? 2 : (size_t)k;
}

int cet_run_holdout_split(struct cet_run *run, int resumed, struct cet_error *err)
{
    size_t k = holdout_folds(run), n = run->train.ndocs;
    if (!resumed || run->info.holdout_docs == 0)
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
    int rc = cet_folds_split(fold, &run->train, k, cet_search_opts(run->engine)->seed, err);
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
    cet_search_set_ndocs(run->engine, run->nsearch);
    if ((long)run->nhold != run->info.holdout_docs)
        return cet_fail(err, "%s: the run kept %ld documents out of its search, but the split "
                             "gives %zu now", run->dir, run->info.holdout_docs, run->nhold);
    return 0;
}

/* The place of archive entry i among the top (1-based), 0 when not there. */
static size_t top_rank(const struct cet_search *engine, const struct cet_run_info *info, size_t i)
{
    size_t *rank = NULL, n = 0, at = 0;
    if (cet_search_top(engine, info->top ? info->top : 5, &rank, &n))
        return 0;
    for (size_t j = 0; j < n && !at; j++)
        if (rank[j] == i)
            at = j + 1;
    free(rank);
    return at;
}

/* The cross-validated choice: the search's best when the rule adopted
 * tuning, else the start. */
static int choose_cv(struct cet_run *run, struct cet_error *err)
{
    struct cet_run_info *info = &run->info;
    size_t i;
    info->start_train = cet_run_genome_fitness(run, info->start);
    if (info->estimate.chosen) {
        if (cet_search_best(run->engine, &i))
            return cet_fail(err, "the search evaluated nothing to choose from");
        info->chosen = i;
        info->start_outside = 0;
    } else if (!cet_run_full_index(run->engine, info->start, &i)) {
        info->chosen = i;
        info->start_outside = 0;
    } else {
        info->chosen = 0;
        info->start_outside = 1;
    }
    info->chosen_rank = info->start_outside ? 0 : top_rank(run->engine, info, info->chosen);
    info->has_chosen = 1;
    return 0;
}

int cet_run_choose(struct cet_run *run, struct cet_error *err)
{
    struct cet_run_info *info = &run->info;
    const struct cet_search *engine = run->engine;
    const struct cet_params_desc *d = &run->desc;
    if (info->has_chosen)
        return 0;
    if (info->choose == CET_CHOOSE_CV && info->has_estimate)
        return choose_cv(run, err);
    if (!run->nhold)
        return 0;
    size_t *rank = NULL, n = 0, P = d->ex->nparams;
    double *g = malloc((d->ngenes + 1) * sizeof *g), *full = NULL, *f1 = NULL, *diff = NULL;
    struct cet_score *sc = NULL;
    int rc = -1;
    if (!g || cet_search_top(engine, info->top ? info->top : 5, &rank, &n) || !n) {
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
    int def_known = !cet_search_lookup(engine, g, &def);
    for (size_t j = 0; j < n; j++)
        cet_params_expand(d, cet_search_genes(engine, rank[j]), full + j * P);
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
    info->top_train = cet_search_fitness(engine, rank[best]);
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

int cet_run_info_best(const struct cet_search *engine, const struct cet_run_info *info, size_t *best)
{
    struct cet_search_status st;
    cet_search_status(engine, &st);
    if (info->has_chosen && info->start_outside)
        return CET_ENOTFOUND;
    if (info->has_chosen && info->chosen < st.narch) {
        *best = info->chosen;
        return 0;
    }
    return cet_search_best(engine, best);
}

/* 1 when best.json is the tuned choice and that is the start's own entry
 * of the archive: the search's best on all pages did not move (often so
 * under --shrink from a good start), and tuning gained through its site
 * rules alone (each fold's candidate is scored with its own). */
static int tuned_is_start(const struct cet_search *engine, const struct cet_run_info *info)
{
    size_t at;
    return info->has_chosen && info->estimate.chosen && info->start &&
           !cet_run_full_index(engine, info->start, &at) && at == info->chosen;
}

int cet_run_choice_text(const struct cet_search *engine, const struct cet_run_info *info,
                        char *buf, size_t size)
{
    if (info->choose != CET_CHOOSE_CV || !info->has_estimate || info->holdout_docs)
        return -1;
    double shrink = cet_search_opts(engine)->goal.shrink;
    char how[192], start[512], tuned[192];
    /* The estimate is of the search as run: say how far it was held to the
     * start, and on pseudo-gold that only the pages with gold were held out. */
    const char *held =
        (long)(info->estimate.n + info->estimate.left_out) < info->docs
            ? " holding out only pages with gold,"
            : "";
    if (shrink > 0)
        snprintf(how, sizeof how, "%ld-fold cross-validation of a search held near the start "
                                  "by --shrink %g,%s", info->folds, shrink, held);
    else
        snprintf(how, sizeof how, "%ld-fold cross-validation%s%s", info->folds, *held ? "," : "",
                 held);
    if (info->start_from) {
        const char *base = strrchr(info->start_from, '/');
        snprintf(start, sizeof start, "%s", base ? base + 1 : info->start_from);
    } else {
        snprintf(start, sizeof start, "the defaults");
    }
    if (info->has_chosen && info->chosen_rank)
        snprintf(tuned, sizeof tuned, "rank %zu of the search on all pages%s", info->chosen_rank,
                 !tuned_is_start(engine, info) ? ""
                 : cet_run_best_site(info)
                     ? ", which is the start's own parameters: what tuning adds is its site rules"
                     : ", which is the start's own parameters: it is the start");
    else
        snprintf(tuned, sizeof tuned, "the best of the search on all pages");
    int len = cet_choice_sentence(buf, size, &info->estimate, how, start, tuned);
    const struct cet_site *rules = info->site_start;
    if (len < 0 || (size_t)len >= size || info->estimate.chosen || !info->has_site_estimate ||
        !rules)
        return 0;
    /* The fallback: the start with site rules (cet_run_site_start). */
    const struct cet_choice *e = &info->site_estimate;
    char change[256], bounds[96];
    if (!(e->sd > 0) && cet_choice_round(e->gain) == 0)
        snprintf(change, sizeof change, "left every held-out page's F1 as it was");
    else if (cet_choice_interval(bounds, sizeof bounds, e) > 0)
        snprintf(change, sizeof change, "changed F1 on held-out pages by %+.4f on average (%s)",
                 cet_choice_round(e->gain), bounds);
    else
        snprintf(change, sizeof change, "changed F1 on held-out pages by %+.4f on average",
                 cet_choice_round(e->gain));
    /* Tuning passed the rule but gave way to it (folds.c): by how much.
     * It passed, so the comparison has pages enough for an interval. */
    char over[256] = "";
    const struct cet_choice *v = &info->site_vs_tuned;
    if (cet_choice_passed(&info->estimate) && info->has_site_vs_tuned &&
        cet_choice_interval(bounds, sizeof bounds, v) > 0)
        snprintf(over, sizeof over, ", %+.4f more than tuning on the same pages (%s) without "
                                    "changing a parameter",
                 cet_choice_round(v->gain), bounds);
    /* A mean loss passes when it is small and not sure (cet_choice_no_loss):
     * say which it was. */
    int adds = cet_run_site_start(info);
    char verdict[96] = "";
    if (e->gain < 0 && adds)
        snprintf(verdict, sizeof verdict, ", a loss neither sure nor as large as %g",
                 CET_CHOICE_RULES_LOSS);
    else if (e->gain < 0)
        snprintf(verdict, sizeof verdict, ", a loss");
    snprintf(buf + len, size - (size_t)len,
             " The start with site rules learned from the other folds' pages %s%s%s, so "
             "best.json %s the %zu site rule%s learned from all the labelled pages.",
             change, verdict, over, adds ? "adds to the start" : "leaves out", rules->n,
             rules->n == 1 ? "" : "s");
    return 0;
}

int cet_run_site_start(const struct cet_run_info *info)
{
    /* The rules are learned to correct the start only where every labelled
     * page agrees (docs/site.md), so the folds need not prove a gain beyond
     * doubt, only show no loss beyond doubt (docs/choice.md). */
    return info->choose == CET_CHOOSE_CV && !info->holdout_docs && info->has_estimate &&
           !info->estimate.chosen && info->has_site_estimate && info->site_start &&
           cet_choice_no_loss(&info->site_estimate, CET_CHOICE_RULES_LOSS);
}

const struct cet_site *cet_run_best_site(const struct cet_run_info *info)
{
    if (info->holdout_docs)
        return NULL;
    if (info->choose != CET_CHOOSE_CV)
        return info->site;
    if (!info->has_chosen)
        return NULL;
    return info->has_estimate && info->estimate.chosen ? info->site
           : cet_run_site_start(info)                  ? info->site_start
                                                       : NULL;
}
