/* The files of a run directory (docs/formats.md), each written atomically:
 * - individuals.csv: every evaluated individual once, in evaluation order:
 *   generation, one column per described parameter (empty where the
 *   parameter is inactive), fitness (the objective's value), precision,
 *   recall, and for a run with another goal than mean F1 (objective.h) f1,
 *   words (mean extracted words) and violation (of the constraints); then
 *   docs_evaluated (the training documents it was scored on) and raced_out
 *   (1 when racing stopped it: its fitness is the mean over those
 *   documents);
 * - generations.csv: generation, evaluations (total so far), best, mean,
 *   worst, std (of the population's fitness; with racing, of its fully
 *   evaluated individuals), diversity (mean over genes of the standard
 *   deviation of the values scaled to [0, 1] of their range), seconds (wall
 *   clock spent in generations; the only column that differs between
 *   identical runs), doc_evaluations ((individual, document) evaluations so
 *   far);
 * - best.json: the best configuration (cet_search_best; with a holdout, once
 *   the run has stopped, the one chosen on it: choose.c), docs/formats.md's
 *   format, without its inactive parameters; its fitness is the objective's
 *   value (--pareto: mean F1) on the documents the search used ("docs");
 * - top.json: an array of the best distinct configurations (table 2 of
 *   Gottron 2008; see cet_search_top), each with its precision, recall and the
 *   generation that found it;
 * - run.json: what ran, on what, with which libraries, when.
 * Numbers in the CSV files have six decimals; the JSON fitness is exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cetune/config.h"
#include "cetune/version.h"
#include "search/state.h"
#include "run_internal.h"

static int write_buf(const char *dir, const char *name, struct cet_buf *b, struct cet_error *err)
{
    return cet_run_write_file(dir, name, b->p, b->len, err);
}

int cet_genome_cells(struct cet_buf *b, const struct cet_params_desc *d, const double *g,
                     const char *cell)
{
    uint8_t active[CET_MAX_GENES];
    cet_params_active(d, g, active);
    int rc = 0;
    for (size_t k = 0; k < d->ngenes && !rc; k++) {
        char v[64] = "";
        if (active[k])
            cet_param_format(d->ex, d->genes[k].index, g[k], 0, v, sizeof v);
        rc = cet_buf_printf(b, cell, v);
    }
    return rc;
}

static int individuals_csv(const struct cet_search *engine, struct cet_run_rows *cache,
                           struct cet_buf *b)
{
    const struct cet_params_desc *d = cet_search_desc(engine);
    struct cet_buf *rows = &cache->buf;
    struct cet_search_status st;
    struct cet_individual in;
    cet_search_status(engine, &st);
    int rc = 0, plain = cet_goal_is_default(&cet_search_opts(engine)->goal);
    if (cache->n > st.narch) { /* cannot happen: complete rows stay; start over */
        rows->len = 0;
        cache->n = 0;
    }
    for (size_t i = cache->n; i < st.narch && !rc; i++, cache->n++) {
        cet_search_individual(engine, i, &in);
        rc = cet_buf_printf(rows, "%ld", in.born) || cet_genome_cells(rows, d, in.genes, ",%s");
        rc = rc || cet_buf_printf(rows, ",%.6f,%.6f,%.6f", in.fit, in.prec, in.rec);
        if (!plain)
            rc = rc || cet_buf_printf(rows, ",%.6f,%.2f,%.6f", in.f1, in.words, in.viol);
        rc = rc || cet_buf_printf(rows, ",%lu,%d\n", (unsigned long)in.ndone, in.raced);
    }
    rc = rc || cet_buf_puts(b, "generation");
    for (size_t g = 0; g < d->ngenes && !rc; g++)
        rc = cet_buf_printf(b, ",%s", d->genes[g].name);
    rc = rc || cet_buf_puts(b, plain ? ",fitness,precision,recall,docs_evaluated,raced_out\n"
                                     : ",fitness,precision,recall,f1,words,violation,docs_evaluated,"
                                       "raced_out\n");
    return rc || (rows->len && cet_buf_add(b, rows->p, rows->len));
}

static int generations_csv(const struct cet_search *engine, struct cet_buf *b)
{
    int rc = cet_buf_puts(b, "generation,evaluations,best,mean,worst,std,diversity,seconds,"
                             "doc_evaluations\n");
    size_t nhist;
    const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
    for (size_t h = 0; h < nhist && !rc; h++) {
        const struct cet_search_stats *s = &hist[h];
        rc = cet_buf_printf(b, "%ld,%ld,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f,%ld\n", s->generation,
                            s->evaluations, s->best, s->mean, s->worst, s->std, s->diversity,
                            s->seconds, s->doc_evaluations);
    }
    return rc;
}

/* The configuration of normalised genome g with fitness fit, as best.json
 * holds it (with the ad-host list the run was tuned with, and site, the
 * site rules, when not NULL); open leaves the object open (without its '}')
 * for config_json's extras. */
static int genome_json(const struct cet_search *engine, const struct cet_run_info *run, const double *g,
                       double fit, int open, const struct cet_site *site, double *full,
                       struct cet_buf *b)
{
    const struct cet_params_desc *d = cet_search_desc(engine);
    uint8_t *shown = (uint8_t *)(full + d->ex->nparams); /* see cet_run_write_results */
    cet_params_expand(d, g, full);
    cet_params_full_active(d, g, shown);
    size_t start = b->len;
    if (cet_config_json(b, d->ex, full, shown, fit, run->docs - run->holdout_docs))
        return -1;
    int adhosts = d->ex->adhosts && run->adhosts[0];
    if (!open && !adhosts && !site)
        return 0;
    b->len = start + (b->len - start) - 1; /* reopen the object: drop its '}' */
    if (site && (cet_buf_puts(b, ", \"site\": ") || cet_site_json(b, site, d->ex)))
        return -1;
    if (adhosts) {
        /* the ad-host list the configuration was tuned with */
        cJSON *f = cJSON_CreateString(run->adhosts_file ? run->adhosts_file : "built-in");
        char *file = f ? cJSON_PrintUnformatted(f) : NULL;
        int rc = !file || cet_buf_printf(b, ", \"adhosts\": {\"digest\": \"%s\", \"file\": %s}",
                                         run->adhosts, file);
        cJSON_free(file);
        cJSON_Delete(f);
        if (rc)
            return -1;
    }
    return open || !cet_buf_puts(b, "}") ? 0 : -1;
}

/* One configuration of archive entry i; extra adds precision, recall and
 * the generation. */
static int config_json(const struct cet_search *engine, const struct cet_run_info *run, size_t i, int extra,
                       const struct cet_site *site, double *full, struct cet_buf *b)
{
    struct cet_individual in;
    cet_search_individual(engine, i, &in);
    if (genome_json(engine, run, in.genes, site ? run->site_fitness : in.fit, extra, site, full, b))
        return -1;
    if (!extra)
        return 0;
    if (!cet_goal_is_default(&cet_search_opts(engine)->goal) &&
        cet_buf_printf(b, ", \"f1\": %.6f, \"words\": %.2f, \"violation\": %.6f", in.f1,
                       in.words, in.viol))
        return -1;
    return cet_buf_printf(b, ", \"precision\": %.6f, \"recall\": %.6f, \"generation\": %ld}",
                          in.prec, in.rec, in.born);
}

/* Internal for pareto.c (run_internal.h). */
int cet_run_config_json(const struct cet_search *engine, const struct cet_run_info *run, size_t i,
                        int extra, double *full, struct cet_buf *b)
{
    return config_json(engine, run, i, extra, NULL, full, b);
}

int cet_run_write_results(const struct cet_search *engine, const struct cet_run_info *run,
                          struct cet_run_rows *rows, const char *dir, struct cet_error *err)
{
    struct cet_buf b = {0};
    size_t *rank = NULL, n = 0, nfull = cet_search_desc(engine)->ex->nparams;
    struct cet_search_status st;
    cet_search_status(engine, &st);
    /* The full parameter vector, then a flag per parameter: shown or not. */
    double *full = malloc((nfull + 1) * sizeof *full + nfull);
    int rc = -1;
    if (!full || individuals_csv(engine, rows, &b))
        goto oom;
    if (write_buf(dir, CET_RUN_INDIVIDUALS, &b, err))
        goto done;
    b.len = 0;
    if (generations_csv(engine, &b))
        goto oom;
    if (write_buf(dir, CET_RUN_GENERATIONS, &b, err))
        goto done;
    size_t best;
    int found = st.narch ? cet_run_info_best(engine, run, &best) : CET_ENOTFOUND;
    if (found == CET_ERROR)
        goto oom;
    /* The start, chosen though the search never evaluated it. */
    int start = st.narch && run->has_chosen && run->start_outside;
    if (found == 0 || start) {
        if (cet_search_top(engine, run->top ? run->top : 5, &rank, &n))
            goto oom;
        b.len = 0;
        const struct cet_site *site = cet_run_best_site(run);
        if ((start ? genome_json(engine, run, run->start,
                                 site ? run->site_fitness : run->start_train, 0, site, full, &b)
                   : config_json(engine, run, best, 0, site, full, &b)) ||
            cet_buf_puts(&b, "\n"))
            goto oom;
        if (write_buf(dir, CET_RUN_BEST, &b, err))
            goto done;
        b.len = 0;
        if (cet_buf_puts(&b, "["))
            goto oom;
        for (size_t k = 0; k < n; k++)
            if (cet_buf_puts(&b, k ? ",\n " : "") ||
                config_json(engine, run, rank[k], 1, NULL, full, &b))
                goto oom;
        if (cet_buf_puts(&b, "]\n"))
            goto oom;
        if (write_buf(dir, CET_RUN_TOP, &b, err))
            goto done;
    }
    /* The rules on their own: what a kept start was compared without, and
     * what another choice rule would have exported (docs/site.md). */
    if (run->site) {
        b.len = 0;
        if (cet_site_json(&b, run->site, cet_search_desc(engine)->ex) || cet_buf_puts(&b, "\n"))
            goto oom;
        if (write_buf(dir, CET_RUN_SITE, &b, err))
            goto done;
    }
    rc = 0;
    goto done;
oom:
    cet_fail(err, "%s: out of memory writing the results", dir);
done:
    cet_buf_free(&b);
    free(rank);
    free(full);
    return rc;
}

/* A rule's mean gain and its interval ([lo, hi], null without one) into o. */
static void gain_json(cJSON *o, const struct cet_choice *e, int *bad)
{
    JSON_OK(cJSON_AddNumberToObject(o, "gain", e->gain));
    cJSON *iv = isnan(e->lo) ? cJSON_AddNullToObject(o, "interval")
                             : cJSON_AddArrayToObject(o, "interval");
    JSON_OK(iv);
    if (iv && !isnan(e->lo)) {
        JSON_OK(cJSON_AddItemToArray(iv, cJSON_CreateNumber(e->lo)));
        JSON_OK(cJSON_AddItemToArray(iv, cJSON_CreateNumber(e->hi)));
    }
}

/* run.json's "final" of a cross-validated choice (choose.c): the rule, the
 * estimate on unseen pages with its interval, what best.json holds. */
static cJSON *cv_json(const struct cet_search *engine, const struct cet_run_info *run, cJSON *j, int *bad)
{
    const struct cet_choice *e = &run->estimate;
    JSON_OK(cJSON_AddStringToObject(j, "rule", "cv"));
    JSON_OK(cJSON_AddNumberToObject(j, "folds", (double)run->folds));
    JSON_OK(cJSON_AddNumberToObject(j, "level", run->confidence));
    JSON_OK(cJSON_AddNumberToObject(j, "tolerance", run->tolerance));
    JSON_OK(cJSON_AddStringToObject(j, "start", run->start_from ? run->start_from : "defaults"));
    if (!run->has_estimate)
        return j;
    char sentence[2048];
    cet_run_choice_text(engine, run, sentence, sizeof sentence);
    JSON_OK(cJSON_AddNumberToObject(j, "pages", (double)e->n));
    JSON_OK(cJSON_AddNumberToObject(j, "pages_without_text", (double)e->left_out));
    gain_json(j, e, bad);
    JSON_OK(cJSON_AddStringToObject(j, "decision", e->chosen               ? "tuned"
                                                   : cet_run_site_start(run) ? "start+site"
                                                                             : "start"));
    if (run->has_site_estimate) {
        /* The start with its folds' rules against the start (docs/choice.md). */
        cJSON *s = cJSON_AddObjectToObject(j, "site_estimate");
        JSON_OK(s);
        if (s)
            gain_json(s, &run->site_estimate, bad);
    }
    if (run->has_site_vs_tuned) {
        /* The start with site rules against tuning on the same pages. */
        cJSON *s = cJSON_AddObjectToObject(j, "site_over_tuned");
        JSON_OK(s);
        if (s)
            gain_json(s, &run->site_vs_tuned, bad);
    }
    if (e->pages_needed)
        JSON_OK(cJSON_AddNumberToObject(j, "pages_needed", (double)e->pages_needed));
    JSON_OK(cJSON_AddStringToObject(j, "sentence", sentence));
    struct cet_search_status st;
    cet_search_status(engine, &st);
    if (!run->has_chosen)
        return j;
    JSON_OK(cJSON_AddNumberToObject(j, "chosen_rank", (double)run->chosen_rank));
    double fit = run->start_outside ? run->start_train : cet_search_fitness(engine, run->chosen);
    JSON_OK(cJSON_AddNumberToObject(j, "train_fitness", fit));
    if (!isnan(run->start_train))
        JSON_OK(cJSON_AddNumberToObject(j, "train_fitness_start", run->start_train));
    return j;
}

/* run.json's "final": how best.json was chosen, and its gains over the
 * defaults on the documents the search used and on the holdout (choose.c). */
static cJSON *final_json(const struct cet_search *engine, const struct cet_run_info *run, int *bad)
{
    cJSON *j = cJSON_CreateObject();
    /* The site rules best.json carries (0: none; docs/site.md). */
    const struct cet_site *site = cet_run_best_site(run);
    JSON_OK(cJSON_AddNumberToObject(j, "site_rules", site ? (double)cet_site_nrules(site) : 0));
    if (run->choose == CET_CHOOSE_CV && !run->holdout_docs)
        return cv_json(engine, run, j, bad);
    JSON_OK(cJSON_AddStringToObject(j, "rule", run->holdout_docs ? "holdout" : "training"));
    JSON_OK(cJSON_AddNumberToObject(j, "search_docs", (double)(run->docs - run->holdout_docs)));
    JSON_OK(cJSON_AddNumberToObject(j, "holdout_docs", (double)run->holdout_docs));
    struct cet_search_status st;
    cet_search_status(engine, &st);
    if (!run->has_chosen || run->chosen >= st.narch)
        return j;
    double fit = cet_search_fitness(engine, run->chosen);
    JSON_OK(cJSON_AddNumberToObject(j, "chosen_rank", (double)run->chosen_rank));
    JSON_OK(cJSON_AddNumberToObject(j, "train_fitness", fit));
    JSON_OK(cJSON_AddNumberToObject(j, "train_fitness_defaults", run->defaults_train));
    JSON_OK(cJSON_AddNumberToObject(j, "train_gain", fit - run->defaults_train));
    JSON_OK(cJSON_AddNumberToObject(j, "holdout_f1", run->chosen_holdout));
    JSON_OK(cJSON_AddNumberToObject(j, "holdout_f1_defaults", run->defaults_holdout));
    JSON_OK(cJSON_AddNumberToObject(j, "holdout_gain", run->chosen_holdout - run->defaults_holdout));
    if (run->top_rank) { /* the search's best on the holdout, chosen or not */
        cJSON *t = cJSON_AddObjectToObject(j, "top");
        JSON_OK(t);
        JSON_OK(t && cJSON_AddNumberToObject(t, "rank", (double)run->top_rank));
        JSON_OK(t && cJSON_AddNumberToObject(t, "train_gain", run->top_train - run->defaults_train));
        JSON_OK(t && cJSON_AddNumberToObject(t, "holdout_f1", run->top_holdout));
        JSON_OK(t && cJSON_AddNumberToObject(t, "holdout_gain",
                                             run->top_holdout - run->defaults_holdout));
        JSON_OK(t && cJSON_AddItemToObject(t, "p_value", isnan(run->top_pvalue)
                                                             ? cJSON_CreateNull()
                                                             : cJSON_CreateNumber(run->top_pvalue)));
    }
    return j;
}

int cet_run_write_info(const struct cet_search *engine, const struct cet_run_info *run, const char *dir,
                       const char *status, const char *ended, int threads,
                       struct cet_error *err)
{
    const struct cet_search_options *o = cet_search_opts(engine);
    const struct cet_params_desc *d = cet_search_desc(engine);
    int failed = 0, *bad = &failed;
    cJSON *j = cJSON_CreateObject();
    JSON_OK(cJSON_AddStringToObject(j, "command", run->command ? run->command : ""));
    cJSON *res = cJSON_AddArrayToObject(j, "resumed");
    JSON_OK(res);
    for (size_t i = 0; res && i < run->nresumed; i++)
        JSON_OK(cJSON_AddItemToArray(res, cJSON_CreateString(run->resumed[i])));
    JSON_OK(cJSON_AddStringToObject(j, "extractor", d->ex->name));
    JSON_OK(cJSON_AddStringToObject(j, "params",
                                    run->params_path ? run->params_path : d->path));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    if (o->seed < (1ULL << 53))
        JSON_OK(cJSON_AddNumberToObject(j, "seed", (double)o->seed));
    else
        JSON_OK(cJSON_AddStringToObject(j, "seed", seed));
    /* Every search option, then the run's holdout share. */
    cJSON *settings = cet_search_options_object(o);
    JSON_OK(settings && cJSON_AddItemToObject(settings, "holdout", cet_json_exact(run->holdout)));
    JSON_OK(cJSON_AddItemToObject(j, "settings", settings));
    cJSON *corpus = cJSON_AddArrayToObject(j, "corpus");
    JSON_OK(corpus);
    for (size_t i = 0; corpus && i < run->ndirs; i++)
        JSON_OK(cJSON_AddItemToArray(corpus, cJSON_CreateString(run->dirs[i])));
    cJSON *valid = cJSON_AddArrayToObject(j, "validate");
    JSON_OK(valid);
    for (size_t i = 0; valid && i < run->nvalidate; i++)
        JSON_OK(cJSON_AddItemToArray(valid, cJSON_CreateString(run->validate[i])));
    cJSON *sample = cJSON_AddObjectToObject(j, "sample");
    JSON_OK(sample);
    JSON_OK(cJSON_AddStringToObject(sample, "file", CET_RUN_SAMPLE));
    if (run->sample_from)
        JSON_OK(cJSON_AddStringToObject(sample, "from", run->sample_from));
    else if (run->sample_size >= 0)
        JSON_OK(cJSON_AddNumberToObject(sample, "drawn", (double)run->sample_size));
    else
        JSON_OK(cJSON_AddStringToObject(sample, "from", "all documents"));
    JSON_OK(cJSON_AddBoolToObject(sample, "by_package", run->by_package));
    JSON_OK(cJSON_AddStringToObject(j, "fitness", run->template_refs ? "template" : "gold"));
    cJSON *refs = run->template_refs ? cJSON_AddArrayToObject(j, "template_refs") : NULL;
    for (size_t i = 0; refs && i < run->ntemplate_refs; i++)
        JSON_OK(cJSON_AddItemToArray(refs, cJSON_CreateString(run->template_refs[i])));
    if (run->template_refs)
        JSON_OK(refs && cJSON_AddBoolToObject(j, "template_defaults", run->template_defaults));
    if (run->folds)
        JSON_OK(cJSON_AddNumberToObject(j, "folds", (double)run->folds));
    JSON_OK(cJSON_AddNumberToObject(sample, "documents", (double)run->docs));
    if (run->adhosts[0]) {
        cJSON *ah = cJSON_AddObjectToObject(j, "adhosts");
        JSON_OK(ah);
        JSON_OK(cJSON_AddStringToObject(ah, "digest", run->adhosts));
        if (run->adhosts_file)
            JSON_OK(cJSON_AddStringToObject(ah, "file", run->adhosts_file));
        else
            JSON_OK(cJSON_AddStringToObject(ah, "file", "built-in"));
    }
    cJSON *v = cJSON_AddObjectToObject(j, "versions");
    JSON_OK(v);
    const struct cet_version *ver;
    size_t nver = cet_versions(&ver);
    for (size_t i = 0; i < nver; i++) {
        if (!strcmp(ver[i].key, "openmp")) /* a number in run.json: the _OPENMP date */
            JSON_OK(cJSON_AddNumberToObject(v, "openmp", _OPENMP));
        else
            JSON_OK(cJSON_AddStringToObject(v, ver[i].key, ver[i].version));
    }
    JSON_OK(cJSON_AddNumberToObject(j, "threads", threads));
    JSON_OK(cJSON_AddStringToObject(j, "started", run->started));
    if (ended)
        JSON_OK(cJSON_AddStringToObject(j, "ended", ended));
    else
        JSON_OK(cJSON_AddNullToObject(j, "ended"));
    JSON_OK(cJSON_AddStringToObject(j, "status", status));
    struct cet_search_status st;
    cet_search_status(engine, &st);
    if (st.stop != CET_STOP_NONE)
        JSON_OK(cJSON_AddStringToObject(j, "stop", cet_search_stop_name(st.stop)));
    else
        JSON_OK(cJSON_AddNullToObject(j, "stop"));
    JSON_OK(cJSON_AddNumberToObject(j, "generations", (double)(st.gen + 1)));
    JSON_OK(cJSON_AddNumberToObject(j, "evaluations", (double)st.evals));
    JSON_OK(cJSON_AddNumberToObject(j, "doc_evaluations", (double)st.doc_evals));
    JSON_OK(cJSON_AddItemToObject(j, "final", final_json(engine, run, bad)));
    size_t nrace;
    const uint32_t *race_order = cet_search_race_order(engine, &nrace);
    if (race_order) {
        /* The racing order, as places in sample.txt (0 is its first document). */
        cJSON *order = cJSON_AddArrayToObject(j, "race_order");
        JSON_OK(order);
        for (size_t i = 0; order && i < nrace; i++)
            JSON_OK(cJSON_AddItemToArray(order, cJSON_CreateNumber(race_order[i])));
    }
    char *text = failed ? NULL : cJSON_Print(j);
    cJSON_Delete(j);
    if (!text)
        return cet_fail(err, "out of memory writing run.json");
    struct cet_buf b = {text, strlen(text), strlen(text) + 1};
    text[b.len] = '\n';
    b.len++;
    int rc = write_buf(dir, CET_RUN_INFO, &b, err);
    cJSON_free(text);
    return rc;
}
