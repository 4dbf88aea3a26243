/* Checkpoints: DIR/checkpoint.json holds everything a run needs to go on
 * exactly as if it had never stopped: the description's text, the corpus
 * directories, the options, the archive of evaluated genomes (so nothing is
 * evaluated twice after a resume), the population, the improvement record,
 * the history and the state of the random stream (gsl_rng_state bytes as
 * hex).  Doubles are written by cJSON in a form that reads back to the same
 * bits.  It is written after every complete generation (and once before the
 * first), atomically, so an interrupted run always has one to resume from. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/json.h"
#include "../ga/ga_internal.h"
#include "run_internal.h"

/* The largest fitness or statistic a checkpoint may hold: far above any
 * objective (a mean word count included), far below overflow. */
#define CHECKPOINT_MAX_VALUE 1e12

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
    free(run->template_ref);
    for (size_t i = 0; i < run->nfold_args; i++)
        free(run->fold_args[i]);
    free(run->fold_args);
    memset(run, 0, sizeof *run);
}

static int archive_row(const struct cet_ga *ga, size_t i, struct cet_buf *rows)
{
    char v[64];
    int rc = cet_buf_printf(rows, "%s\n  [%ld", i ? "," : "", ga->born[i]);
    double r[3] = {ga->fit[i], ga->prec[i], ga->rec[i]};
    for (int k = 0; k < 3 && !rc; k++) {
        cet_json_format_exact(r[k], v, sizeof v);
        rc = cet_buf_printf(rows, ", %s", v);
    }
    for (size_t g = 0; g < ga->ngenes && !rc; g++) {
        cet_json_format_exact(ga->genes[i * ga->ngenes + g], v, sizeof v);
        rc = cet_buf_printf(rows, ", %s", v);
    }
    return rc || cet_buf_puts(rows, "]");
}

/* The archive as raw JSON rows [born, fitness, precision, recall, genes...],
 * formatting only the rows added since the last checkpoint (the rows of a
 * raced generation in progress change, so they are never kept). */
static cJSON *archive_json(struct cet_ga *ga)
{
    struct cet_buf *rows = &ga->json_rows, out = {0};
    size_t stable = ga->race && ga->race->pending ? ga->race->first : ga->narch;
    int rc = 0;
    if (ga->njson_rows > stable) {
        rows->len = 0;
        ga->njson_rows = 0;
    }
    for (size_t i = ga->njson_rows; i < stable && !rc; i++, ga->njson_rows++)
        rc = archive_row(ga, i, rows);
    rc = rc || cet_buf_puts(&out, "[") || (rows->len && cet_buf_add(&out, rows->p, rows->len));
    for (size_t i = stable; i < ga->narch && !rc; i++)
        rc = archive_row(ga, i, &out);
    rc = rc || cet_buf_puts(&out, "]");
    cJSON *a = rc ? NULL : cJSON_CreateRaw(out.p);
    cet_buf_free(&out);
    return a;
}

static cJSON *exact_array(const double *v, size_t n, int *bad)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        JSON_OK(cJSON_AddItemToArray(a, cet_json_exact(v[i])));
    return a;
}

static cJSON *strings(char *const *v, size_t n, int *bad)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        JSON_OK(cJSON_AddItemToArray(a, cJSON_CreateString(v[i])));
    return a;
}

/* The goal's members of the options (objective.h); absent from older runs. */
static void goal_json(cJSON *j, const struct cet_goal *g, int *bad)
{
    char name[64];
    cet_objective_name(&g->objective, name, sizeof name);
    JSON_OK(cJSON_AddStringToObject(j, "objective", name));
    cJSON *c = cJSON_AddArrayToObject(j, "constraints");
    JSON_OK(c);
    for (size_t k = 0; c && k < g->ncons; k++) {
        cet_constraint_name(&g->cons[k], name, sizeof name);
        JSON_OK(cJSON_AddItemToArray(c, cJSON_CreateString(name)));
    }
    cJSON *p = cJSON_AddArrayToObject(j, "pareto");
    JSON_OK(p);
    for (size_t k = 0; p && k < g->npareto; k++) {
        cet_objective_name(&g->pareto[k], name, sizeof name);
        JSON_OK(cJSON_AddItemToArray(p, cJSON_CreateString(name)));
    }
}

static cJSON *options_json(const struct cet_ga_options *o, int *bad)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    cJSON *j = cJSON_CreateObject();
    JSON_OK(cJSON_AddNumberToObject(j, "pop", (double)o->pop));
    JSON_OK(cJSON_AddNumberToObject(j, "generations", (double)o->generations));
    JSON_OK(cJSON_AddNumberToObject(j, "patience", (double)o->patience));
    JSON_OK(cJSON_AddItemToObject(j, "epsilon", cet_json_exact(o->epsilon)));
    JSON_OK(cJSON_AddNumberToObject(j, "max_evals", (double)o->max_evals));
    JSON_OK(cJSON_AddItemToObject(j, "time", cet_json_exact(o->time_limit)));
    JSON_OK(cJSON_AddNumberToObject(j, "elite", (double)o->elite));
    JSON_OK(cJSON_AddStringToObject(j, "select", cet_selections[o->select].name));
    JSON_OK(cJSON_AddStringToObject(j, "crossover", cet_crossovers[o->cross].name));
    JSON_OK(cJSON_AddNumberToObject(j, "tournament", (double)o->tournament));
    JSON_OK(cJSON_AddItemToObject(j, "truncation", cet_json_exact(o->truncation)));
    JSON_OK(cJSON_AddItemToObject(j, "crossover_rate", cet_json_exact(o->crossover_rate)));
    JSON_OK(cJSON_AddItemToObject(j, "mutation_rate", cet_json_exact(o->mutation_rate)));
    JSON_OK(cJSON_AddItemToObject(j, "sigma", cet_json_exact(o->sigma)));
    JSON_OK(cJSON_AddBoolToObject(j, "adaptive", o->adaptive));
    JSON_OK(cJSON_AddItemToObject(j, "adapt_factor", cet_json_exact(o->adapt_factor)));
    JSON_OK(cJSON_AddItemToObject(j, "resolution", cet_json_exact(o->resolution)));
    JSON_OK(cJSON_AddStringToObject(j, "seed", seed));
    goal_json(j, &o->goal, bad);
    JSON_OK(cJSON_AddBoolToObject(j, "race", o->race));
    JSON_OK(cJSON_AddNumberToObject(j, "race_first", (double)o->race_first));
    JSON_OK(cJSON_AddNumberToObject(j, "race_block", (double)o->race_block));
    JSON_OK(cJSON_AddItemToObject(j, "race_alpha", cet_json_exact(o->race_alpha)));
    JSON_OK(cJSON_AddItemToObject(j, "race_weak", cet_json_exact(o->race_weak)));
    return j;
}

static cJSON *indices(const uint32_t *v, size_t n, int *bad)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        JSON_OK(cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i])));
    return a;
}

/* The racing state: the document order, the incumbent and its F1 per
 * document, the raced-out individuals [archive index, documents], and a
 * generation in progress: its members, its new individuals (archive first
 * .. first+n), the documents done and their scores, [f1, p, r] per
 * document of the order, for each new individual as far as it got. */
static cJSON *race_json(const struct cet_ga *ga, int *bad)
{
    const struct cet_race *R = ga->race;
    cJSON *j = cJSON_CreateObject();
    JSON_OK(cJSON_AddItemToObject(j, "order", indices(R->order, R->ndocs, bad)));
    JSON_OK(cJSON_AddNumberToObject(j, "incumbent",
                               R->incumbent == (size_t)-1 ? -1 : (double)R->incumbent));
    size_t ninc = R->incumbent == (size_t)-1 ? 0 : R->ndocs;
    JSON_OK(cJSON_AddItemToObject(j, "incumbent_f1", exact_array(R->inc_f1, ninc, bad)));
    cJSON *raced = cJSON_AddArrayToObject(j, "raced");
    JSON_OK(raced);
    size_t stable = R->pending ? R->first : ga->narch;
    for (size_t i = 0; raced && i < stable; i++)
        if (ga->raced[i]) {
            uint32_t v[2] = {(uint32_t)i, ga->ndone[i]};
            JSON_OK(cJSON_AddItemToArray(raced, indices(v, 2, bad)));
        }
    if (!R->pending)
        return j;
    cJSON *p = cJSON_AddObjectToObject(j, "pending");
    JSON_OK(p);
    cJSON *m = cJSON_AddArrayToObject(p, "members");
    JSON_OK(m);
    for (size_t k = 0; m && k < R->nmembers; k++)
        JSON_OK(cJSON_AddItemToArray(m, cJSON_CreateNumber((double)R->members[k])));
    JSON_OK(cJSON_AddNumberToObject(p, "first", (double)R->first));
    JSON_OK(cJSON_AddNumberToObject(p, "n", (double)R->n));
    JSON_OK(cJSON_AddNumberToObject(p, "done", (double)R->done));
    cJSON *sc = cJSON_AddArrayToObject(p, "individuals");
    JSON_OK(sc);
    for (size_t k = 0; sc && k < R->n; k++) {
        size_t i = R->first + k;
        cJSON *row = cJSON_CreateObject();
        JSON_OK(cJSON_AddBoolToObject(row, "raced", ga->raced[i]));
        cJSON *v = cJSON_AddArrayToObject(row, "scores");
        JSON_OK(v);
        for (size_t q = 0; v && q < ga->ndone[i]; q++) {
            const struct cet_score *s = &R->scores[k * R->ndocs + R->seq[q]];
            double x[3] = {s->f1, s->p, s->r};
            JSON_OK(cJSON_AddItemToArray(v, exact_array(x, 3, bad)));
        }
        JSON_OK(cJSON_AddItemToArray(sc, row));
    }
    return j;
}

cJSON *cet_run_options_json(const struct cet_ga_options *o)
{
    int bad = 0;
    cJSON *j = options_json(o, &bad);
    if (bad) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

int cet_run_checkpoint(struct cet_ga *ga, const struct cet_run_info *run, const char *dir,
                      struct cet_error *err)
{
    const struct cet_params_desc *d = ga->desc;
    size_t G = ga->ngenes;
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
    if (run->template_ref)
        JSON_OK(cJSON_AddStringToObject(j, "template_ref", run->template_ref));
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
    JSON_OK(cJSON_AddItemToObject(j, "options", options_json(&ga->opt, bad)));

    cJSON *seeds = cJSON_AddArrayToObject(j, "seeds");
    JSON_OK(seeds);
    for (size_t s = 0; seeds && s < ga->nseeds; s++)
        JSON_OK(cJSON_AddItemToArray(seeds, exact_array(ga->seeds + s * G, G, bad)));

    JSON_OK(cJSON_AddNumberToObject(j, "generation", (double)ga->gen));
    JSON_OK(cJSON_AddNumberToObject(j, "evaluations", (double)ga->evals));
    JSON_OK(cJSON_AddNumberToObject(j, "doc_evaluations", (double)ga->doc_evals));
    JSON_OK(cJSON_AddItemToObject(j, "best_ref", cet_json_exact(ga->best_ref)));
    JSON_OK(cJSON_AddNumberToObject(j, "last_improve", (double)ga->last_improve));
    JSON_OK(cJSON_AddItemToObject(j, "elapsed", cet_json_exact(ga->elapsed)));
    JSON_OK(cJSON_AddStringToObject(j, "stop", cet_ga_stop_name(ga->stop)));

    /* The random state as hex bytes: a checkpoint without it could not resume. */
    size_t n = ga->rng ? gsl_rng_size(ga->rng) : 0;
    char *hex = malloc(2 * n + 1);
    if (!hex) {
        cJSON_Delete(j);
        return cet_fail(err, "out of memory writing the checkpoint");
    }
    const unsigned char *st = ga->rng ? gsl_rng_state(ga->rng) : NULL;
    for (size_t i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", st[i]);
    hex[2 * n] = 0;
    JSON_OK(cJSON_AddStringToObject(j, "rng", ga->rng ? gsl_rng_name(ga->rng) : ""));
    JSON_OK(cJSON_AddStringToObject(j, "rng_state", hex));
    free(hex);

    cJSON *arch = archive_json(ga);
    if (!arch) {
        cJSON_Delete(j);
        return cet_fail(err, "out of memory writing the checkpoint");
    }
    JSON_OK(cJSON_AddItemToObject(j, "archive", arch));
    if (!cet_goal_is_default(&ga->opt.goal)) {
        /* What the default goal does not need: [f1, words, violation, objectives...]. */
        cJSON *ms = cJSON_AddArrayToObject(j, "measures");
        JSON_OK(ms);
        for (size_t i = 0; ms && i < ga->narch; i++) {
            double v[3 + CET_MAX_PARETO] = {ga->f1[i], ga->words[i], ga->viol[i]};
            memcpy(v + 3, ga->obj + i * CET_MAX_PARETO, CET_MAX_PARETO * sizeof *v);
            JSON_OK(cJSON_AddItemToArray(ms, exact_array(v, 3 + CET_MAX_PARETO, bad)));
        }
    }
    cJSON *pop = cJSON_AddArrayToObject(j, "population");
    JSON_OK(pop);
    for (size_t k = 0; pop && k < ga->npop; k++)
        JSON_OK(cJSON_AddItemToArray(pop, cJSON_CreateNumber((double)ga->pop[k])));
    cJSON *hist = cJSON_AddArrayToObject(j, "history");
    JSON_OK(hist);
    for (size_t h = 0; hist && h < ga->nhist; h++) {
        const struct cet_ga_stats *s = &ga->hist[h];
        double v[9] = {(double)s->generation, (double)s->evaluations, s->best, s->mean,
                       s->worst, s->std, s->diversity, s->seconds, (double)s->doc_evaluations};
        JSON_OK(cJSON_AddItemToArray(hist, exact_array(v, 9, bad)));
    }
    if (ga->race)
        JSON_OK(cJSON_AddItemToObject(j, "race", race_json(ga, bad)));

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

struct reader {
    const struct cet_json *j;
    const cJSON *root;
    struct cet_error *err;
    int failed;
};

static const cJSON *member(struct reader *r, const cJSON *obj, const char *name, int type)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (r->failed)
        return NULL;
    if (!m || (type == cJSON_Number && !cJSON_IsNumber(m)) ||
        (type == cJSON_String && !cJSON_IsString(m)) || (type == cJSON_Array && !cJSON_IsArray(m)) ||
        (type == cJSON_Object && !cJSON_IsObject(m)) ||
        (type == cJSON_True && !cJSON_IsBool(m))) {
        cet_json_fail(r->j, m ? m : obj, 0, r->err, "checkpoint: \"%s\" is missing or mistyped", name);
        r->failed = 1;
        return NULL;
    }
    return m;
}

static double num(struct reader *r, const cJSON *obj, const char *name)
{
    const cJSON *m = member(r, obj, name, cJSON_Number);
    return m ? m->valuedouble : 0;
}

/* An optional number: def when absent (checkpoints of older versions). */
static double opt_num(struct reader *r, const cJSON *obj, const char *name, double def)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name) ? num(r, obj, name) : def;
}

/* A whole number from lo to hi (checked before any cast: a checkpoint is
 * untrusted input, edited by hand or cut by a crash). */
static double whole(struct reader *r, const cJSON *obj, const char *name, double lo, double hi)
{
    double v = num(r, obj, name);
    if (!r->failed && !(v >= lo && v <= hi && v == floor(v))) {
        r->failed = 1;
        cet_json_fail(r->j, cJSON_GetObjectItemCaseSensitive(obj, name), 0, r->err,
                      "checkpoint: \"%s\" must be a whole number from %.0f to %.0f", name, lo, hi);
        return lo;
    }
    return r->failed ? lo : v;
}

/* A finite number from lo to hi. */
static double within(struct reader *r, const cJSON *obj, const char *name, double lo, double hi)
{
    double v = num(r, obj, name);
    if (!r->failed && !(v >= lo && v <= hi)) {
        r->failed = 1;
        cet_json_fail(r->j, cJSON_GetObjectItemCaseSensitive(obj, name), 0, r->err,
                      "checkpoint: \"%s\" must be a number from %g to %g", name, lo, hi);
        return lo;
    }
    return r->failed ? lo : v;
}

static const char *str(struct reader *r, const cJSON *obj, const char *name)
{
    const cJSON *m = member(r, obj, name, cJSON_String);
    return m ? m->valuestring : "";
}

/* Fills v[0..n) from a JSON array of exactly n numbers. */
static int numbers(struct reader *r, const cJSON *a, double *v, size_t n)
{
    if (r->failed)
        return -1;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n) {
        r->failed = 1;
        return cet_json_fail(r->j, a, 0, r->err, "checkpoint: expected %zu numbers", n);
    }
    size_t i = 0;
    for (const cJSON *x = a->child; x; x = x->next, i++) {
        if (!cJSON_IsNumber(x)) {
            r->failed = 1;
            return cet_json_fail(r->j, x, 0, r->err, "checkpoint: expected a number");
        }
        v[i] = x->valuedouble;
    }
    return 0;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static int read_goal(struct reader *r, const cJSON *o, struct cet_goal *g)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(o, "objective");
    const cJSON *cons = cJSON_GetObjectItemCaseSensitive(o, "constraints");
    const cJSON *par = cJSON_GetObjectItemCaseSensitive(o, "pareto");
    *g = (struct cet_goal){0};
    if (cJSON_IsString(obj) && cet_objective_parse(&g->objective, obj->valuestring, r->err))
        goto bad;
    for (const cJSON *x = cJSON_IsArray(cons) ? cons->child : NULL; x; x = x->next, g->ncons++)
        if (g->ncons == CET_MAX_CONSTRAINTS || !cJSON_IsString(x) ||
            cet_constraint_parse(&g->cons[g->ncons], x->valuestring, r->err))
            goto bad;
    for (const cJSON *x = cJSON_IsArray(par) ? par->child : NULL; x; x = x->next, g->npareto++)
        if (g->npareto == CET_MAX_PARETO || !cJSON_IsString(x) ||
            cet_objective_parse(&g->pareto[g->npareto], x->valuestring, r->err))
            goto bad;
    return 0;
bad:
    r->failed = 1;
    return cet_json_fail(r->j, o, 0, r->err, "checkpoint: a bad objective, constraint or "
                                             "Pareto objective");
}

static int read_options(struct reader *r, const cJSON *o, struct cet_ga_options *opt)
{
    opt->pop = (size_t)whole(r, o, "pop", 2, 1e6);
    opt->generations = (long)whole(r, o, "generations", 0, 1e8);
    opt->patience = (long)whole(r, o, "patience", 0, 1e8);
    opt->epsilon = within(r, o, "epsilon", 0, 1);
    opt->max_evals = (long)whole(r, o, "max_evals", 0, 1e9);
    opt->time_limit = within(r, o, "time", 0, 1e9);
    opt->elite = (size_t)whole(r, o, "elite", 0, 1e6);
    const char *sel = str(r, o, "select");
    int si = cet_selection_find(sel);
    const cJSON *cr = cJSON_GetObjectItemCaseSensitive(o, "crossover"); /* older: none */
    int ci = cr ? (cJSON_IsString(cr) ? cet_crossover_find(cr->valuestring) : -1)
                : CET_CROSS_UNIFORM;
    if (!r->failed && (si < 0 || ci < 0)) {
        r->failed = 1;
        cet_json_fail(r->j, si < 0 ? cJSON_GetObjectItemCaseSensitive(o, "select") : cr, 0,
                      r->err, "checkpoint: unknown %s scheme", si < 0 ? "selection" : "crossover");
        return -1;
    }
    opt->select = (enum cet_select)(si < 0 ? 0 : si);
    opt->cross = (enum cet_cross)(ci < 0 ? 0 : ci);
    opt->tournament = (size_t)whole(r, o, "tournament", 1, 1e6);
    opt->truncation = within(r, o, "truncation", 0, 1);
    opt->crossover_rate = within(r, o, "crossover_rate", 0, 1);
    opt->mutation_rate = within(r, o, "mutation_rate", 0, 1);
    opt->sigma = within(r, o, "sigma", 0, 1);
    const cJSON *ad = member(r, o, "adaptive", cJSON_True);
    opt->adaptive = ad && cJSON_IsTrue(ad);
    opt->adapt_factor = within(r, o, "adapt_factor", 1, 10);
    opt->resolution = within(r, o, "resolution", 0, 0.1);
    opt->seed = strtoull(str(r, o, "seed"), NULL, 10);
    /* Checkpoints from before racing have no "race": those runs were not raced. */
    opt->race = 0;
    if (cJSON_GetObjectItemCaseSensitive(o, "race")) {
        const cJSON *race = member(r, o, "race", cJSON_True);
        opt->race = race && cJSON_IsTrue(race);
    }
    opt->race_first = (size_t)opt_num(r, o, "race_first", (double)opt->race_first);
    opt->race_block = (size_t)opt_num(r, o, "race_block", (double)opt->race_block);
    opt->race_alpha = opt_num(r, o, "race_alpha", opt->race_alpha);
    /* Checkpoints from before weak pages have no "race_weak": none. */
    opt->race_weak = opt_num(r, o, "race_weak", 0);
    return r->failed ? -1 : read_goal(r, o, &opt->goal);
}

/* Reads an array of n non-negative integers below limit into v. */
static int read_indices(struct reader *r, const cJSON *a, uint32_t *v, size_t n, size_t limit)
{
    if (r->failed)
        return -1;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n) {
        r->failed = 1;
        return cet_json_fail(r->j, a, 0, r->err, "checkpoint: expected %zu indices", n);
    }
    size_t i = 0;
    for (const cJSON *x = a->child; x; x = x->next, i++) {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble >= (double)limit ||
            x->valuedouble != (double)(uint32_t)x->valuedouble) {
            r->failed = 1;
            return cet_json_fail(r->j, x, 0, r->err, "checkpoint: expected an index below %zu",
                                 limit);
        }
        v[i] = (uint32_t)x->valuedouble;
    }
    return 0;
}

/* The racing state written by race_json, onto a restored GA whose archive
 * and options are read; cet_ga_race_setup completes it. */
static int read_race(struct reader *r, const cJSON *o, struct cet_ga *ga)
{
    size_t nd = ga->ndocs;
    struct cet_race *R = ga->race = calloc(1, sizeof *R);
    if (!R || !(R->order = malloc((nd ? nd : 1) * sizeof *R->order)) ||
        !(R->seq = malloc((nd ? nd : 1) * sizeof *R->seq)) ||
        !(R->pos = malloc((nd ? nd : 1) * sizeof *R->pos)) ||
        !(R->inc_f1 = calloc(nd ? nd : 1, sizeof *R->inc_f1)) ||
        !(R->members = calloc(ga->opt.pop + 1, sizeof *R->members)) ||
        !(R->scores = calloc((ga->opt.pop + 1) * (nd ? nd : 1), sizeof *R->scores))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    R->ndocs = nd;
    if (read_indices(r, member(r, o, "order", cJSON_Array), R->order, nd, nd))
        return -1;
    double inc = num(r, o, "incumbent");
    const cJSON *f1 = member(r, o, "incumbent_f1", cJSON_Array);
    const cJSON *raced = member(r, o, "raced", cJSON_Array);
    if (r->failed)
        return -1;
    if (inc < -1 || inc >= (double)ga->narch) {
        r->failed = 1;
        return cet_json_fail(r->j, o, 0, r->err, "checkpoint: bad incumbent");
    }
    R->incumbent = inc < 0 ? (size_t)-1 : (size_t)inc;
    if (numbers(r, f1, R->inc_f1, inc < 0 ? 0 : nd))
        return -1;
    /* A generation in progress was scored in this sequence. */
    cet_race_sequence(R, ga->opt.race_weak);
    for (const cJSON *x = raced->child; x; x = x->next) {
        uint32_t v[2];
        if (read_indices(r, x, v, 2, ga->narch > nd + 1 ? ga->narch : nd + 1) ||
            v[0] >= ga->narch)
            return r->failed ? -1 : cet_json_fail(r->j, x, 0, r->err, "checkpoint: bad entry");
        ga->raced[v[0]] = 1;
        ga->ndone[v[0]] = v[1];
    }
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "pending");
    if (!p)
        return 0;
    const cJSON *m = member(r, p, "members", cJSON_Array);
    const cJSON *ind = member(r, p, "individuals", cJSON_Array);
    double first = num(r, p, "first"), n = num(r, p, "n"), done = num(r, p, "done");
    if (r->failed)
        return -1;
    if (first < 0 || n < 0 || first + n != (double)ga->narch || n > (double)ga->opt.pop ||
        done < 0 || done > (double)nd || cJSON_GetArraySize(m) > (int)ga->opt.pop ||
        cJSON_GetArraySize(ind) != (int)n) {
        r->failed = 1;
        return cet_json_fail(r->j, p, 0, r->err, "checkpoint: bad racing state");
    }
    R->first = (size_t)first;
    R->n = (size_t)n;
    R->done = (size_t)done;
    for (const cJSON *x = m->child; x; x = x->next) {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble >= (double)ga->narch) {
            r->failed = 1;
            return cet_json_fail(r->j, x, 0, r->err, "checkpoint: bad member");
        }
        R->members[R->nmembers++] = (size_t)x->valuedouble;
    }
    size_t k = 0;
    for (const cJSON *x = ind->child; x; x = x->next, k++) {
        const cJSON *rd = member(r, x, "raced", cJSON_True);
        const cJSON *sc = member(r, x, "scores", cJSON_Array);
        if (r->failed)
            return -1;
        size_t i = R->first + k, q = 0, cnt = (size_t)cJSON_GetArraySize(sc);
        if (cnt > nd || (cJSON_IsTrue(rd) ? cnt > R->done : cnt != R->done && cnt != nd)) {
            r->failed = 1;
            return cet_json_fail(r->j, sc, 0, r->err, "checkpoint: bad racing scores");
        }
        ga->raced[i] = cJSON_IsTrue(rd);
        ga->ndone[i] = (uint32_t)cnt;
        for (const cJSON *y = sc->child; y; y = y->next, q++) {
            double v[3];
            if (numbers(r, y, v, 3))
                return -1;
            struct cet_score *s = &R->scores[k * nd + R->seq[q]];
            s->f1 = v[0];
            s->p = v[1];
            s->r = v[2];
        }
    }
    R->pending = 1;
    return 0;
}

int cet_run_restore(struct cet_ga **out, struct cet_params_desc *desc, struct cet_run_info *run,
                   const char *dir, cet_extractor_finder find, struct cet_error *err)
{
    struct cet_json j;
    struct cet_ga *ga = NULL;
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
    struct reader r = {&j, j.root, err, 0};
    const cJSON *root = j.root;
    int rc = -1;
    if (!cJSON_IsObject(root) || num(&r, root, "version") != CHECKPOINT_VERSION) {
        if (!r.failed)
            cet_json_fail(&j, root, 0, err, "not a checkpoint of this version of cetune");
        goto done;
    }
    const char *text = str(&r, root, "params_text");
    const char *ppath = str(&r, root, "params_path");
    if (r.failed)
        goto done;
    /* The description as it was when the run started, whatever the file says now. */
    /* The stored path is untrusted and may be long: cut it, so that the
     * message always names the checkpoint within the error's size. */
    if (cet_buf_printf(&where, "%.200s%s (as stored in %s)", ppath,
                       strlen(ppath) > 200 ? "..." : "", path))
        goto oom;
    if (cet_params_parse(desc, text, strlen(text), where.p, find, err))
        goto done;
    if (cet_ga_create(&ga, desc, err))
        goto done;
    if (read_options(&r, member(&r, root, "options", cJSON_Object), &ga->opt))
        goto done;

    run->params_path = strdup(ppath);
    const cJSON *dirs = member(&r, root, "dirs", cJSON_Array);
    const cJSON *res = member(&r, root, "resumed", cJSON_Array);
    if (r.failed)
        goto done;
    run->dirs = calloc((size_t)cJSON_GetArraySize(dirs) + 1, sizeof *run->dirs);
    run->resumed = calloc((size_t)cJSON_GetArraySize(res) + 1, sizeof *run->resumed);
    if (!run->params_path || !run->dirs || !run->resumed) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (const cJSON *x = dirs->child; x; x = x->next)
        if (cJSON_IsString(x) && !(run->dirs[run->ndirs++] = strdup(x->valuestring)))
            goto oom;
    for (const cJSON *x = res->child; x; x = x->next)
        if (cJSON_IsString(x) && !(run->resumed[run->nresumed++] = strdup(x->valuestring)))
            goto oom;
    /* Optional: checkpoints from before --validate have none. */
    const cJSON *val = cJSON_GetObjectItemCaseSensitive(root, "validate");
    if (val && !cJSON_IsArray(val)) {
        cet_json_fail(&j, val, 0, err, "checkpoint: \"validate\" must be an array of directories");
        goto done;
    }
    if (!(run->validate = calloc((size_t)cJSON_GetArraySize(val) + 1, sizeof *run->validate)))
        goto oom;
    for (const cJSON *x = val ? val->child : NULL; x; x = x->next)
        if (cJSON_IsString(x) && !(run->validate[run->nvalidate++] = strdup(x->valuestring)))
            goto oom;
    const cJSON *sf = cJSON_GetObjectItemCaseSensitive(root, "sample_from");
    run->sample_from = dup_or_null(cJSON_IsString(sf) ? sf->valuestring : NULL);
    run->sample_size = (long)whole(&r, root, "sample_size", -1, 1e8);
    const cJSON *bp = member(&r, root, "by_package", cJSON_True);
    run->by_package = bp && cJSON_IsTrue(bp);
    run->docs = (long)whole(&r, root, "docs", 0, 1e9);
    run->top = (size_t)whole(&r, root, "top", 1, 1000);
    /* Optional: only runs with --folds have them. */
    const cJSON *fk = cJSON_GetObjectItemCaseSensitive(root, "folds");
    const cJSON *fa = cJSON_GetObjectItemCaseSensitive(root, "fold_args");
    if (fk && (!cJSON_IsNumber(fk) || !(fk->valuedouble >= 2 && fk->valuedouble <= 1000) ||
               !cJSON_IsArray(fa))) {
        cet_json_fail(&j, fk, 0, err, "checkpoint: \"folds\" needs a count of at least 2 and "
                                      "\"fold_args\"");
        goto done;
    }
    if (fk) {
        run->folds = (long)fk->valuedouble;
        if (!(run->fold_args = calloc((size_t)cJSON_GetArraySize(fa) + 1, sizeof *run->fold_args)))
            goto oom;
        for (const cJSON *x = fa->child; x; x = x->next) {
            if (!cJSON_IsString(x)) {
                cet_json_fail(&j, x, 0, err, "checkpoint: \"fold_args\" holds option strings");
                goto done;
            }
            if (!(run->fold_args[run->nfold_args++] = strdup(x->valuestring)))
                goto oom;
        }
    }
    run->command = strdup(str(&r, root, "command"));
    const char *started = str(&r, root, "started");
    if (strlen(started) >= sizeof run->started) {
        cet_json_fail(&j, cJSON_GetObjectItemCaseSensitive(root, "started"), 0, err,
                      "checkpoint: \"started\" must be a date and time (ISO 8601)");
        goto done;
    }
    memcpy(run->started, started, strlen(started) + 1);
    /* Optional: checkpoints from before ad-host lists were recorded have none. */
    const cJSON *ah = cJSON_GetObjectItemCaseSensitive(root, "adhosts");
    const cJSON *ahf = cJSON_GetObjectItemCaseSensitive(root, "adhosts_file");
    if ((ah && (!cJSON_IsString(ah) || strlen(ah->valuestring) != 16 ||
                strspn(ah->valuestring, "0123456789abcdef") != 16)) ||
        (ahf && !cJSON_IsString(ahf))) {
        cet_json_fail(&j, ah && !cJSON_IsString(ahf) && ahf ? ahf : ah, 0, err,
                      "checkpoint: \"adhosts\" must be 16 hex digits and \"adhosts_file\" a "
                      "string");
        goto done;
    }
    if (ah)
        memcpy(run->adhosts, ah->valuestring, 17);
    if (ahf && !(run->adhosts_file = strdup(ahf->valuestring)))
        goto oom;
    /* Optional: runs with gold fitness have none. */
    const cJSON *tr = cJSON_GetObjectItemCaseSensitive(root, "template_ref");
    if (tr && !cJSON_IsString(tr)) {
        cet_json_fail(&j, tr, 0, err, "checkpoint: \"template_ref\" must be a string");
        goto done;
    }
    if (tr && !(run->template_ref = strdup(tr->valuestring)))
        goto oom;
    if (!run->command)
        goto oom;

    size_t G = ga->ngenes;
    const cJSON *seeds = member(&r, root, "seeds", cJSON_Array);
    if (r.failed)
        goto done;
    free(ga->seeds);
    ga->nseeds = 0;
    ga->seeds = malloc(((size_t)cJSON_GetArraySize(seeds) + 1) * G * sizeof *ga->seeds);
    if (!ga->seeds)
        goto oom;
    for (const cJSON *s = seeds->child; s; s = s->next)
        if (numbers(&r, s, ga->seeds + ga->nseeds++ * G, G))
            goto done;

    ga->gen = (long)whole(&r, root, "generation", -1, 1e9);
    ga->evals = (long)whole(&r, root, "evaluations", 0, 1e12);
    ga->ndocs = (size_t)run->docs;
    ga->doc_evals = (long)opt_num(&r, root, "doc_evaluations", (double)ga->evals * (double)run->docs);
    ga->best_ref = within(&r, root, "best_ref", -1e300, 1e300);
    ga->last_improve = (long)whole(&r, root, "last_improve", -1, 1e9);
    ga->elapsed = within(&r, root, "elapsed", 0, 1e12);
    const char *stop = str(&r, root, "stop");
    int known = 0;
    for (int s = CET_STOP_NONE; s <= CET_STOP_EXHAUSTED; s++)
        if (!strcmp(stop, cet_ga_stop_name((enum cet_stop)s))) {
            ga->stop = (enum cet_stop)s;
            known = 1;
        }
    if (!r.failed && !known) {
        cet_json_fail(&j, cJSON_GetObjectItemCaseSensitive(root, "stop"), 0, err,
                      "checkpoint: unknown stop reason '%s'", stop);
        goto done;
    }

    const char *rname = str(&r, root, "rng");
    const char *hex = str(&r, root, "rng_state");
    if (r.failed)
        goto done;
    ga->rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!ga->rng)
        goto oom;
    size_t n = gsl_rng_size(ga->rng);
    if (strcmp(rname, gsl_rng_name(ga->rng)) || strlen(hex) != 2 * n) {
        cet_json_fail(&j, cJSON_GetObjectItemCaseSensitive(root, "rng_state"), 0, err,
                      "checkpoint: the random state does not fit %s", gsl_rng_name(ga->rng));
        goto done;
    }
    unsigned char *st = gsl_rng_state(ga->rng);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
            cet_json_fail(&j, cJSON_GetObjectItemCaseSensitive(root, "rng_state"), 0, err,
                          "checkpoint: the random state is not hex");
            goto done;
        }
        st[i] = (unsigned char)v;
    }

    const cJSON *arch = member(&r, root, "archive", cJSON_Array);
    const cJSON *pop = member(&r, root, "population", cJSON_Array);
    const cJSON *hist = member(&r, root, "history", cJSON_Array);
    if (r.failed)
        goto done;
    double *row = malloc((G + 4) * sizeof *row);
    if (!row)
        goto oom;
    for (const cJSON *a = arch->child; a; a = a->next) {
        int bad = numbers(&r, a, row, G + 4);
        /* born, fitness, precision, recall, then genes inside their ranges:
         * anything else did not come from a run of this description. */
        int ok = !bad && row[0] >= 0 && row[0] <= (double)ga->gen + 1 && row[0] == floor(row[0]);
        /* Fitness is an F1, a precision, a recall or a mean word count
         * (objective.h), or what a library caller's callback returns;
         * bounded, so the generation's statistics stay finite. */
        for (int k = 1; ok && k < 4; k++)
            ok = fabs(row[k]) <= CHECKPOINT_MAX_VALUE;
        for (size_t g = 0; ok && g < G; g++)
            ok = row[4 + g] >= desc->genes[g].min && row[4 + g] <= desc->genes[g].max;
        if (!bad && !ok) {
            cet_json_fail(&j, a, 0, err, "checkpoint: an archive row is out of range (generation, "
                                         "fitness, precision and recall within 1e12, genes in the "
                                         "described ranges)");
            r.failed = 1;
        }
        if (bad || !ok ||
            cet_ga_archive_put(ga, row + 4, (long)row[0], row[1], row[2], row[3])) {
            free(row);
            if (!r.failed)
                goto oom;
            goto done;
        }
    }
    free(row);
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(root, "measures");
    if (ms && (!cJSON_IsArray(ms) || (size_t)cJSON_GetArraySize(ms) != ga->narch)) {
        cet_json_fail(&j, ms, 0, err, "checkpoint: \"measures\" must have a row per archive entry");
        goto done;
    }
    size_t mi = 0;
    for (const cJSON *a = ms ? ms->child : NULL; a; a = a->next, mi++) {
        double v[3 + CET_MAX_PARETO];
        if (numbers(&r, a, v, 3 + CET_MAX_PARETO))
            goto done;
        struct cet_measures m = {.fit = ga->fit[mi], .f1 = v[0], .p = ga->prec[mi],
                                 .r = ga->rec[mi], .words = v[1], .viol = v[2]};
        memcpy(m.obj, v + 3, sizeof m.obj);
        cet_ga_archive_measures(ga, mi, &m);
    }
    ga->pop = calloc(ga->opt.pop + 1, sizeof *ga->pop);
    if (!ga->pop)
        goto oom;
    for (const cJSON *p = pop->child; p; p = p->next) {
        if (!cJSON_IsNumber(p) || p->valuedouble < 0 || p->valuedouble >= (double)ga->narch ||
            ga->npop >= ga->opt.pop) {
            cet_json_fail(&j, p, 0, err, "checkpoint: bad population entry");
            goto done;
        }
        ga->pop[ga->npop++] = (size_t)p->valuedouble;
    }
    ga->hist_cap = (size_t)cJSON_GetArraySize(hist) + 64;
    ga->hist = calloc(ga->hist_cap, sizeof *ga->hist);
    if (!ga->hist)
        goto oom;
    for (const cJSON *h = hist->child; h; h = h->next) {
        /* Nine numbers; eight before racing (every evaluation was full). */
        double v[9];
        if (numbers(&r, h, v, cJSON_GetArraySize(h) == 8 ? 8 : 9))
            goto done;
        if (cJSON_GetArraySize(h) == 8)
            v[8] = v[1] * (double)run->docs;
        int ok = v[0] >= 0 && v[0] <= 1e9 && v[1] >= 0 && v[1] <= 1e12 && v[8] >= 0 &&
                 v[8] <= 1e15 && v[7] >= 0 && v[7] <= 1e12;
        for (int k = 2; ok && k < 7; k++) /* best, mean, worst, std, diversity */
            ok = fabs(v[k]) <= CHECKPOINT_MAX_VALUE;
        if (!ok) {
            cet_json_fail(&j, h, 0, err, "checkpoint: a history row is out of range");
            goto done;
        }
        ga->hist[ga->nhist++] = (struct cet_ga_stats){(long)v[0], (long)v[1], v[2], v[3], v[4],
                                                      v[5], v[6], v[7], (long)v[8]};
    }
    const cJSON *race = cJSON_GetObjectItemCaseSensitive(root, "race");
    if (race && !cJSON_IsObject(race)) {
        cet_json_fail(&j, race, 0, err, "checkpoint: \"race\" must be an object");
        goto done;
    }
    if (race && read_race(&r, race, ga))
        goto done;
    *out = ga;
    ga = NULL;
    rc = 0;
    goto done;
oom:
    cet_fail(err, "out of memory");
done:
    cet_json_free(&j);
    cet_buf_free(&where);
    free(path);
    cet_ga_destroy(ga);
    if (rc) {
        cet_params_free(desc);
        cet_run_info_free(run);
    }
    return rc;
}
