/* Checkpoints: DIR/checkpoint.json holds everything a run needs to go on
 * exactly as if it had never stopped: the run record (the description's
 * text, the corpus directories, the sample, the command lines) written
 * here, and the GA's whole state (the options, the archive, the
 * population, the history, the random stream, racing and the search
 * strategy's state) written by cet_search_save (src/search/state.c).  It is written
 * after every complete generation (and once before the first), atomically,
 * so an interrupted run always has one to resume from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cetune/template.h"
#include "search/state.h"
#include "util/json.h"
#include "run_internal.h"

enum { CHECKPOINT_VERSION = 1 };

void cet_run_info_free(struct cet_run_info *run)
{
    free(run->params_path);
    for (size_t i = 0; i < run->ndirs; i++)
        free(run->dirs[i]);
    free(run->dirs);
    free(run->sample_from);
    free(run->command);
    for (size_t i = 0; i < run->nresumed; i++)
        free(run->resumed[i]);
    free(run->resumed);
    for (size_t i = 0; i < run->nvalidate; i++)
        free(run->validate[i]);
    free(run->validate);
    free(run->adhosts_file);
    for (size_t i = 0; i < run->ndata; i++)
        free(run->data[i].path);
    free(run->data);
    for (size_t i = 0; i < run->ntemplate_refs; i++)
        free(run->template_refs[i]);
    free(run->template_refs);
    for (size_t i = 0; i < run->nfold_args; i++)
        free(run->fold_args[i]);
    free(run->fold_args);
    free(run->start);
    free(run->start_from);
    cet_site_free(run->site);
    cet_site_free(run->site_start);
    memset(run, 0, sizeof *run);
}

static cJSON *num_or_null(double v)
{
    return isnan(v) ? cJSON_CreateNull() : cet_json_exact(v);
}

/* A rule's decision into "choice" (choice.h's struct, without the level
 * and tolerance, which "choice" holds once). */
static void estimate_json(cJSON *c, const char *name, const struct cet_choice *e, int *bad)
{
    cJSON *x = cJSON_AddObjectToObject(c, name);
    JSON_OK(x);
    JSON_OK(x && cJSON_AddNumberToObject(x, "pages", (double)e->n));
    JSON_OK(x && cJSON_AddNumberToObject(x, "left_out", (double)e->left_out));
    JSON_OK(x && cJSON_AddNumberToObject(x, "chosen", (double)e->chosen));
    JSON_OK(x && cJSON_AddNumberToObject(x, "best", (double)e->best));
    JSON_OK(x && cJSON_AddItemToObject(x, "gain", cet_json_exact(e->gain)));
    JSON_OK(x && cJSON_AddItemToObject(x, "sd", num_or_null(e->sd)));
    JSON_OK(x && cJSON_AddItemToObject(x, "lo", num_or_null(e->lo)));
    JSON_OK(x && cJSON_AddItemToObject(x, "hi", num_or_null(e->hi)));
    JSON_OK(x && cJSON_AddNumberToObject(x, "pages_needed", (double)e->pages_needed));
}

/* The final choice by cross-validation (choose.c): its settings, the
 * start, the rule's decision once the folds are done, best.json's entry. */
static cJSON *choice_json(const struct cet_run_info *run, size_t ngenes, int *bad)
{
    cJSON *c = cJSON_CreateObject(), *g = cJSON_CreateArray();
    JSON_OK(c && g && cJSON_AddItemToObject(c, "start", g));
    if (c && !g)
        cJSON_Delete(g);
    for (size_t k = 0; g && k < ngenes; k++)
        JSON_OK(cJSON_AddItemToArray(g, cet_json_exact(run->start[k])));
    JSON_OK(cJSON_AddStringToObject(c, "rule", cet_choose_names[run->choose]));
    JSON_OK(cJSON_AddItemToObject(c, "level", cet_json_exact(run->confidence)));
    JSON_OK(cJSON_AddItemToObject(c, "tolerance", cet_json_exact(run->tolerance)));
    JSON_OK(cJSON_AddNumberToObject(c, "fold_evals", (double)run->fold_evals));
    JSON_OK(cJSON_AddBoolToObject(c, "site", run->site_learn));
    JSON_OK(cJSON_AddBoolToObject(c, "guard", run->guard));
    if (run->start_from)
        JSON_OK(cJSON_AddStringToObject(c, "start_from", run->start_from));
    JSON_OK(cJSON_AddItemToObject(c, "start_train", num_or_null(run->start_train)));
    if (run->has_estimate)
        estimate_json(c, "estimate", &run->estimate, bad);
    if (run->has_site_estimate)
        estimate_json(c, "site_estimate", &run->site_estimate, bad);
    if (run->has_site_vs_tuned)
        estimate_json(c, "site_vs_tuned", &run->site_vs_tuned, bad);
    if (run->has_chosen) {
        JSON_OK(cJSON_AddBoolToObject(c, "start_outside", run->start_outside));
        JSON_OK(cJSON_AddNumberToObject(c, "chosen", (double)run->chosen));
        JSON_OK(cJSON_AddNumberToObject(c, "chosen_rank", (double)run->chosen_rank));
    }
    return c;
}

/* A number of obj that may be null (NaN). */
static double jr_num_or_nan(struct cet_json_reader *r, const cJSON *obj, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    return v && cJSON_IsNull(v) ? NAN : cet_jr_within(r, obj, name, -1e300, 1e300);
}

/* estimate_json's object name of c back into *e: 1 when there, else 0. */
static int read_estimate(struct cet_json_reader *r, const cJSON *c, const char *name,
                         const struct cet_run_info *run, struct cet_choice *e)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, name);
    if (!x)
        return 0;
    e->n = (size_t)cet_jr_whole(r, x, "pages", 0, 1e12);
    /* Absent from checkpoints before pages without text were left out. */
    e->left_out = cJSON_GetObjectItemCaseSensitive(x, "left_out")
                      ? (size_t)cet_jr_whole(r, x, "left_out", 0, 1e12)
                      : 0;
    e->chosen = (size_t)cet_jr_whole(r, x, "chosen", 0, 1e6);
    e->best = (size_t)cet_jr_whole(r, x, "best", 0, 1e6);
    e->gain = cet_jr_within(r, x, "gain", -1, 1);
    e->sd = jr_num_or_nan(r, x, "sd");
    e->lo = jr_num_or_nan(r, x, "lo");
    e->hi = jr_num_or_nan(r, x, "hi");
    e->pages_needed = (size_t)cet_jr_whole(r, x, "pages_needed", 0, 1e12);
    e->level = run->confidence;
    e->tolerance = run->tolerance;
    return 1;
}

/* "choice" back (optional: runs from before it have none, and keep their
 * holdout or training choice). */
static int read_choice(struct cet_json_reader *r, const cJSON *root,
                       const struct cet_params_desc *d, struct cet_run_info *run)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "choice");
    if (!c)
        return 0;
    if (!cJSON_IsObject(c))
        return cet_jr_fail(r, c, "\"choice\" must be an object");
    const cJSON *g = cet_jr_get(r, c, "start", cJSON_Array, "an array of numbers");
    if (!(run->start = calloc(d->ngenes + 1, sizeof *run->start))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    if (!g || (size_t)cJSON_GetArraySize(g) != d->ngenes)
        return g ? cet_jr_fail(r, g, "\"start\" must hold %zu numbers", d->ngenes) : -1;
    if (cet_jr_numbers(r, g, run->start, d->ngenes))
        return -1;
    const char *rule = cet_jr_str(r, c, "rule");
    if (r->failed)
        return -1;
    int k = 0;
    while (cet_choose_names[k] && strcmp(cet_choose_names[k], rule))
        k++;
    if (!cet_choose_names[k])
        return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(c, "rule"),
                           "\"rule\" must be \"search\" or \"cv\"");
    run->choose = k;
    run->confidence = cet_jr_within(r, c, "level", 1e-9, 1 - 1e-9);
    /* Runs started before the rule had a tolerance go on with none. */
    run->tolerance = cet_jr_opt_within(r, c, "tolerance", 0, 1 - 1e-9, 0);
    run->fold_evals = (long)cet_jr_whole(r, c, "fold_evals", 0, 1e12);
    /* Runs started before site rules learn none. */
    const cJSON *site = cJSON_GetObjectItemCaseSensitive(c, "site");
    if (site && !cJSON_IsBool(site))
        return cet_jr_fail(r, site, "\"site\" must be true or false");
    run->site_learn = cJSON_IsTrue(site);
    /* Runs started before the guard learn none. */
    const cJSON *guard = cJSON_GetObjectItemCaseSensitive(c, "guard");
    if (guard && !cJSON_IsBool(guard))
        return cet_jr_fail(r, guard, "\"guard\" must be true or false");
    run->guard = cJSON_IsTrue(guard);
    run->start_train = jr_num_or_nan(r, c, "start_train");
    const cJSON *sf = cJSON_GetObjectItemCaseSensitive(c, "start_from");
    if (sf && (!cJSON_IsString(sf) || !(run->start_from = strdup(sf->valuestring))))
        return cJSON_IsString(sf) ? (r->failed = 1, cet_fail(r->err, "out of memory"))
                                  : cet_jr_fail(r, sf, "\"start_from\" must be a string");
    run->has_estimate = read_estimate(r, c, "estimate", run, &run->estimate);
    /* Runs started before the start with site rules was a candidate have none. */
    run->has_site_estimate = read_estimate(r, c, "site_estimate", run, &run->site_estimate);
    run->has_site_vs_tuned = read_estimate(r, c, "site_vs_tuned", run, &run->site_vs_tuned);
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(c, "chosen");
    if (ch) {
        const cJSON *so = cet_jr_member(r, c, "start_outside", cJSON_True);
        run->start_outside = so && cJSON_IsTrue(so);
        run->chosen = (size_t)cet_jr_whole(r, c, "chosen", 0, 1e12);
        run->chosen_rank = (size_t)cet_jr_whole(r, c, "chosen_rank", 0, 1000);
        run->has_chosen = 1;
    }
    return r->failed ? -1 : 0;
}

static cJSON *strings(char *const *v, size_t n, int *bad)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        JSON_OK(cJSON_AddItemToArray(a, cJSON_CreateString(v[i])));
    return a;
}

int cet_run_checkpoint(struct cet_search *engine, const struct cet_run_info *run, const char *dir,
                       struct cet_error *err)
{
    const struct cet_params_desc *d = cet_search_desc(engine);
    int failed = 0, *bad = &failed;
    cJSON *j = cJSON_CreateObject();
    JSON_OK(cJSON_AddNumberToObject(j, "version", CHECKPOINT_VERSION));
    JSON_OK(cJSON_AddStringToObject(j, "extractor", d->ex->name));
    JSON_OK(cJSON_AddStringToObject(j, "params_path",
                                    run->params_path ? run->params_path : d->path));
    JSON_OK(cJSON_AddStringToObject(j, "params_text", d->text));
    JSON_OK(cJSON_AddItemToObject(j, "dirs", strings(run->dirs, run->ndirs, bad)));
    JSON_OK(cJSON_AddItemToObject(j, "validate", strings(run->validate, run->nvalidate, bad)));
    if (run->sample_from)
        JSON_OK(cJSON_AddStringToObject(j, "sample_from", run->sample_from));
    JSON_OK(cJSON_AddNumberToObject(j, "sample_size", (double)run->sample_size));
    JSON_OK(cJSON_AddBoolToObject(j, "by_package", run->by_package));
    JSON_OK(cJSON_AddNumberToObject(j, "docs", (double)run->docs));
    JSON_OK(cJSON_AddNumberToObject(j, "top", (double)run->top));
    if (run->holdout_docs)
        JSON_OK(cJSON_AddNumberToObject(j, "holdout_docs", (double)run->holdout_docs));
    if (run->start)
        JSON_OK(cJSON_AddItemToObject(j, "choice", choice_json(run, d->ngenes, bad)));
    if (run->has_chosen && run->holdout_docs) { /* best.json's choice on the holdout (choose.c) */
        cJSON *c = cJSON_AddObjectToObject(j, "chosen");
        JSON_OK(c);
        JSON_OK(c && cJSON_AddNumberToObject(c, "index", (double)run->chosen));
        JSON_OK(c && cJSON_AddNumberToObject(c, "rank", (double)run->chosen_rank));
        JSON_OK(c && cJSON_AddItemToObject(c, "holdout_f1", cet_json_exact(run->chosen_holdout)));
        JSON_OK(c && cJSON_AddItemToObject(c, "holdout_f1_defaults",
                                           cet_json_exact(run->defaults_holdout)));
        JSON_OK(c && cJSON_AddItemToObject(c, "train_defaults",
                                           isnan(run->defaults_train)
                                               ? cJSON_CreateNull()
                                               : cet_json_exact(run->defaults_train)));
        JSON_OK(c && cJSON_AddNumberToObject(c, "top_rank", (double)run->top_rank));
        JSON_OK(c && cJSON_AddItemToObject(c, "top_train", cet_json_exact(run->top_train)));
        JSON_OK(c && cJSON_AddItemToObject(c, "top_holdout_f1", cet_json_exact(run->top_holdout)));
        JSON_OK(c && cJSON_AddItemToObject(c, "top_p", isnan(run->top_pvalue)
                                                            ? cJSON_CreateNull()
                                                            : cet_json_exact(run->top_pvalue)));
    }
    if (run->template_refs) {
        JSON_OK(cJSON_AddItemToObject(j, "template_refs",
                                      strings(run->template_refs, run->ntemplate_refs, bad)));
        JSON_OK(cJSON_AddBoolToObject(j, "template_defaults", run->template_defaults));
    }
    if (run->folds) {
        JSON_OK(cJSON_AddNumberToObject(j, "folds", (double)run->folds));
        JSON_OK(cJSON_AddItemToObject(j, "fold_args",
                                      strings(run->fold_args, run->nfold_args, bad)));
    }
    JSON_OK(cJSON_AddStringToObject(j, "command", run->command ? run->command : ""));
    JSON_OK(cJSON_AddItemToObject(j, "resumed", strings(run->resumed, run->nresumed, bad)));
    JSON_OK(cJSON_AddStringToObject(j, "started", run->started));
    if (run->adhosts[0]) {
        JSON_OK(cJSON_AddStringToObject(j, "adhosts", run->adhosts));
        if (run->adhosts_file)
            JSON_OK(cJSON_AddStringToObject(j, "adhosts_file", run->adhosts_file));
    }
    if (run->data_recorded) {
        cJSON *a = cJSON_AddArrayToObject(j, "data");
        JSON_OK(a);
        for (size_t i = 0; a && i < run->ndata; i++) {
            const char *pair[] = {run->data[i].path, run->data[i].digest};
            JSON_OK(cJSON_AddItemToArray(a, cJSON_CreateStringArray(pair, 2)));
        }
    }
    if (!j || cet_search_save(engine, j, err)) {
        cJSON_Delete(j);
        return failed || !j ? cet_fail(err, "out of memory writing the checkpoint") : -1;
    }
    /* The run's holdout share, among the search options where checkpoints
     * have always kept it. */
    JSON_OK(cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(j, "options"), "holdout",
                                  cet_json_exact(run->holdout)));
    char *text = failed ? NULL : cJSON_Print(j);
    cJSON_Delete(j);
    if (!text)
        return cet_fail(err, "out of memory writing the checkpoint");
    size_t len = strlen(text);
    text[len] = '\n'; /* replaces the NUL: the length is explicit */
    int rc = cet_run_write_file(dir, CET_RUN_CHECKPOINT, text, len + 1, err);
    cJSON_free(text);
    return rc;
}

/* ---- reading it back ---- */

/* The run record (struct cet_run_info) from the checkpoint's root. */
static int read_run(struct cet_json_reader *r, const cJSON *root, const char *ppath,
                    struct cet_run_info *run)
{
    if (!(run->params_path = strdup(ppath))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    /* Optional: "validate" (before --validate) and "fold_args" (only with --folds). */
    if (cet_jr_strings(r, root, "dirs", "directories", 1, &run->dirs, &run->ndirs) ||
        cet_jr_strings(r, root, "resumed", "command lines", 1, &run->resumed, &run->nresumed) ||
        cet_jr_strings(r, root, "validate", "directories", 0, &run->validate, &run->nvalidate))
        return -1;
    const cJSON *sf = cJSON_GetObjectItemCaseSensitive(root, "sample_from");
    if (cJSON_IsString(sf) && !(run->sample_from = strdup(sf->valuestring))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    run->sample_size = (long)cet_jr_whole(r, root, "sample_size", -1, 1e8);
    const cJSON *bp = cet_jr_member(r, root, "by_package", cJSON_True);
    run->by_package = bp && cJSON_IsTrue(bp);
    run->docs = (long)cet_jr_whole(r, root, "docs", 0, 1e9);
    run->top = (size_t)cet_jr_whole(r, root, "top", 1, 1000);
    /* Optional: only runs with a holdout have them (choose.c); checkpoints
     * from before the holdout have no share: best.json was the best in
     * training.  A missing "options" is the engine's to report. */
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(root, "options");
    run->holdout = cet_jr_opt_within(r, opt, "holdout", 0, 0.5, 0);
    run->holdout_docs = (long)cet_jr_opt_num(r, root, "holdout_docs", 0);
    if (r->failed)
        return -1;
    if (run->holdout_docs && !(run->holdout_docs > 0 && run->holdout_docs < run->docs &&
          run->holdout_docs == floor((double)run->holdout_docs)))
        return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(root, "holdout_docs"),
                           "\"holdout_docs\" must be a whole number below \"docs\"");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "chosen");
    if (c) {
        if (!cJSON_IsObject(c) || !run->holdout_docs)
            return cet_jr_fail(r, c, "\"chosen\" must be an object, in a run with a holdout");
        run->chosen = (size_t)cet_jr_whole(r, c, "index", 0, 1e12);
        run->chosen_rank = (size_t)cet_jr_whole(r, c, "rank", 0, 1000);
        run->chosen_holdout = cet_jr_within(r, c, "holdout_f1", 0, 1);
        run->defaults_holdout = cet_jr_within(r, c, "holdout_f1_defaults", 0, 1);
        /* NaN (the defaults' fitness unknown) is written as null. */
        run->defaults_train = cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c, "train_defaults"))
                                  ? NAN
                                  : cet_jr_within(r, c, "train_defaults", -1e300, 1e300);
        /* The best of the top (optional: checkpoints before 2026-11-25 lack it). */
        const cJSON *tr = cJSON_GetObjectItemCaseSensitive(c, "top_rank");
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(c, "top_p");
        run->top_rank = tr ? (size_t)cet_jr_whole(r, c, "top_rank", 0, 1000) : 0;
        run->top_train = tr ? cet_jr_within(r, c, "top_train", -1e300, 1e300) : NAN;
        run->top_holdout = tr ? cet_jr_within(r, c, "top_holdout_f1", 0, 1) : NAN;
        run->top_pvalue = !p || cJSON_IsNull(p) ? NAN : cet_jr_within(r, c, "top_p", 0, 1);
        if (r->failed)
            return -1;
        run->has_chosen = 1;
    }
    const cJSON *fk = cJSON_GetObjectItemCaseSensitive(root, "folds");
    if (fk && (!cJSON_IsNumber(fk) || !(fk->valuedouble >= 2 && fk->valuedouble <= 1000) ||
               !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "fold_args"))))
        return cet_jr_fail(r, fk, "\"folds\" needs a count of at least 2 and \"fold_args\"");
    run->folds = fk ? (long)fk->valuedouble : 0;
    if (cet_jr_strings(r, root, "fold_args", "option strings", 0, &run->fold_args,
                       &run->nfold_args))
        return -1;
    const char *command = cet_jr_str(r, root, "command");
    const char *started = cet_jr_str(r, root, "started");
    if (r->failed)
        return -1;
    if (strlen(started) >= sizeof run->started)
        return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(root, "started"),
                           "\"started\" must be a date and time (ISO 8601)");
    memcpy(run->started, started, strlen(started) + 1);
    /* Optional: checkpoints from before ad-host lists were recorded have none. */
    const cJSON *ah = cJSON_GetObjectItemCaseSensitive(root, "adhosts");
    const cJSON *ahf = cJSON_GetObjectItemCaseSensitive(root, "adhosts_file");
    if ((ah && (!cJSON_IsString(ah) || strlen(ah->valuestring) != 16 ||
                strspn(ah->valuestring, "0123456789abcdef") != 16)) ||
        (ahf && !cJSON_IsString(ahf)))
        return cet_jr_fail(r, ah && !cJSON_IsString(ahf) && ahf ? ahf : ah,
                           "\"adhosts\" must be 16 hex digits and \"adhosts_file\" a string");
    if (ah)
        memcpy(run->adhosts, ah->valuestring, 17);
    /* Optional: checkpoints from before the data was recorded have none. */
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(root, "data"), *it;
    if (data && !cJSON_IsArray(data))
        return cet_jr_fail(r, data, "\"data\" must be a list of [path, digest] pairs");
    size_t nd = data ? (size_t)cJSON_GetArraySize(data) : 0;
    if (data && !(run->data = calloc(nd ? nd : 1, sizeof *run->data))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    run->data_recorded = data != NULL;
    cJSON_ArrayForEach(it, data) {
        const cJSON *p = cJSON_GetArrayItem(it, 0), *d = cJSON_GetArrayItem(it, 1);
        if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2 || !cJSON_IsString(p) ||
            !cJSON_IsString(d) || strlen(d->valuestring) != 16 ||
            strspn(d->valuestring, "0123456789abcdef") != 16)
            return cet_jr_fail(r, it, "\"data\" must be a list of [path, digest] pairs");
        struct cet_run_file *f = &run->data[run->ndata];
        if (!(f->path = strdup(p->valuestring))) {
            r->failed = 1;
            return cet_fail(r->err, "out of memory");
        }
        memcpy(f->digest, d->valuestring, 17);
        run->ndata++;
    }
    /* Optional: runs with gold fitness have none; a run from before several
     * references has its one as "template_ref" and no defaults among them. */
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(root, "template_ref");
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(root, "template_defaults");
    if (tr && !cJSON_IsString(tr))
        return cet_jr_fail(r, tr, "\"template_ref\" must be a string");
    if (td && !cJSON_IsBool(td))
        return cet_jr_fail(r, td, "\"template_defaults\" must be true or false");
    const cJSON *trs = cJSON_GetObjectItemCaseSensitive(root, "template_refs");
    size_t max_refs = CET_TEMPLATE_MAX_REFS - (td && cJSON_IsTrue(td));
    if (trs && cet_jr_strings(r, root, "template_refs", "configuration paths", 0,
                              &run->template_refs, &run->ntemplate_refs))
        return -1;
    if (trs && (!run->ntemplate_refs || run->ntemplate_refs > max_refs))
        return cet_jr_fail(r, trs, "\"template_refs\" must list 1 to %zu configurations",
                           max_refs);
    run->template_defaults = td && cJSON_IsTrue(td);
    if (tr && !run->template_refs &&
        (!(run->template_refs = calloc(2, sizeof *run->template_refs)) ||
         !(run->template_refs[run->ntemplate_refs++] = strdup(tr->valuestring)))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    if (!(run->command = strdup(command)) ||
        (ahf && !(run->adhosts_file = strdup(ahf->valuestring)))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    return 0;
}

int cet_run_restore(struct cet_search **out, struct cet_params_desc *desc, struct cet_run_info *run,
                    const char *dir, cet_extractor_finder find, struct cet_error *err)
{
    struct cet_json j;
    struct cet_buf where = {0};
    *out = NULL;
    memset(desc, 0, sizeof *desc);
    memset(run, 0, sizeof *run);
    char *path = cet_run_path(dir, CET_RUN_CHECKPOINT);
    if (!path)
        return cet_fail(err, "%s: out of memory", dir);
    if (cet_json_load(&j, path, err)) {
        free(path);
        return -1;
    }
    struct cet_json_reader r = {.j = &j, .err = err, .what = "checkpoint"};
    const cJSON *root = j.root;
    int rc = -1;
    if (!cJSON_IsObject(root) || cet_jr_num(&r, root, "version") != CHECKPOINT_VERSION) {
        if (!r.failed)
            cet_json_fail(&j, root, 0, err, "not a checkpoint of this version of cetune");
        goto done;
    }
    const char *text = cet_jr_str(&r, root, "params_text");
    const char *ppath = cet_jr_str(&r, root, "params_path");
    if (r.failed)
        goto done;
    /* The description as it was when the run started, whatever the file says now. */
    /* The stored path is untrusted and may be long: cut it, so that the
     * message always names the checkpoint within the error's size. */
    if (cet_buf_printf(&where, "%.200s%s (as stored in %s)", ppath,
                       strlen(ppath) > 200 ? "..." : "", path)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (cet_params_parse(desc, text, strlen(text), where.p, find, err) ||
        read_run(&r, root, ppath, run) || read_choice(&r, root, desc, run) ||
        cet_search_restore(out, desc, (size_t)(run->docs - run->holdout_docs), &j, root, err))
        goto done;
    struct cet_search_status st;
    cet_search_status(*out, &st);
    if (run->has_chosen && !run->start_outside && run->chosen >= st.narch) {
        cet_json_fail(&j, cJSON_GetObjectItemCaseSensitive(root, "chosen"), 0, err,
                      "checkpoint: \"chosen\" names no archive entry");
        cet_search_free(*out);
        *out = NULL;
        goto done;
    }
    rc = 0;
done:
    cet_json_free(&j);
    cet_buf_free(&where);
    free(path);
    if (rc) {
        cet_params_free(desc);
        cet_run_info_free(run);
    }
    return rc;
}
