/* The engine's whole state as JSON (state.h), for checkpoints: the options,
 * the seeds, the counters and the improvement record, the random stream
 * (gsl_rng_state bytes as hex), the archive (so nothing is evaluated twice
 * after a resume), the population, the history, the racing state and the
 * search strategy's own state (member "strategy").  Doubles are written so
 * they read back to the same bits (cet_json_exact).  Everything read is
 * checked: a checkpoint is untrusted input, edited by hand or cut by a
 * crash, and the checkpoint fuzzer feeds this reader garbage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "search_internal.h"
#include "options.h"
#include "state.h"
#include "strategy.h"

/* The largest fitness or statistic a checkpoint may hold: far above any
 * objective (a mean word count included), far below overflow. */
#define STATE_MAX_VALUE 1e12

/* ---- writing ---- */

static int archive_row(const struct cet_search *engine, size_t i, struct cet_buf *rows)
{
    char v[64];
    int rc = cet_buf_printf(rows, "%s\n  [%ld", i ? "," : "", engine->born[i]);
    double r[3] = {engine->fit[i], engine->prec[i], engine->rec[i]};
    for (int k = 0; k < 3 && !rc; k++) {
        cet_json_format_exact(r[k], v, sizeof v);
        rc = cet_buf_printf(rows, ", %s", v);
    }
    for (size_t g = 0; g < engine->ngenes && !rc; g++) {
        cet_json_format_exact(engine->genes[i * engine->ngenes + g], v, sizeof v);
        rc = cet_buf_printf(rows, ", %s", v);
    }
    return rc || cet_buf_puts(rows, "]");
}

/* The archive as raw JSON rows [born, fitness, precision, recall, genes...],
 * formatting only the rows added since the last checkpoint (the rows of a
 * raced generation in progress change, so they are never kept). */
static cJSON *archive_json(struct cet_search *engine)
{
    struct cet_buf *rows = &engine->json_rows, out = {0};
    size_t stable = engine->race && engine->race->pending ? engine->race->first : engine->narch;
    int rc = 0;
    if (engine->njson_rows > stable) {
        rows->len = 0;
        engine->njson_rows = 0;
    }
    for (size_t i = engine->njson_rows; i < stable && !rc; i++, engine->njson_rows++)
        rc = archive_row(engine, i, rows);
    rc = rc || cet_buf_puts(&out, "[") || (rows->len && cet_buf_add(&out, rows->p, rows->len));
    for (size_t i = stable; i < engine->narch && !rc; i++)
        rc = archive_row(engine, i, &out);
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

/* The search options (options.c's table). */
static cJSON *options_json(const struct cet_search_options *o, int *bad)
{
    cJSON *j = cJSON_CreateObject();
    JSON_OK(j && !cet_search_options_json(j, o));
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
static cJSON *race_json(const struct cet_search *engine, int *bad)
{
    const struct cet_race *R = engine->race;
    cJSON *j = cJSON_CreateObject();
    JSON_OK(cJSON_AddItemToObject(j, "order", indices(R->order, R->ndocs, bad)));
    JSON_OK(cJSON_AddNumberToObject(j, "incumbent",
                                    R->has_incumbent ? (double)R->incumbent : -1));
    size_t ninc = R->has_incumbent ? R->ndocs : 0;
    JSON_OK(cJSON_AddItemToObject(j, "incumbent_f1", exact_array(R->inc_f1, ninc, bad)));
    cJSON *raced = cJSON_AddArrayToObject(j, "raced");
    JSON_OK(raced);
    size_t stable = R->pending ? R->first : engine->narch;
    for (size_t i = 0; raced && i < stable; i++)
        if (engine->raced[i]) {
            uint32_t v[2] = {(uint32_t)i, engine->ndone[i]};
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
        JSON_OK(cJSON_AddBoolToObject(row, "raced", engine->raced[i]));
        cJSON *v = cJSON_AddArrayToObject(row, "scores");
        JSON_OK(v);
        for (size_t q = 0; v && q < engine->ndone[i]; q++) {
            const struct cet_score *s = &R->scores[k * R->ndocs + R->seq[q]];
            double x[3] = {s->f1, s->p, s->r};
            JSON_OK(cJSON_AddItemToArray(v, exact_array(x, 3, bad)));
        }
        JSON_OK(cJSON_AddItemToArray(sc, row));
    }
    return j;
}


cJSON *cet_search_options_object(const struct cet_search_options *o)
{
    int bad = 0;
    cJSON *j = options_json(o, &bad);
    if (bad) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* The strategy's state, with its name first. */
static cJSON *strategy_json(const struct cet_search *engine, int *bad)
{
    const struct cet_strategy *s = &cet_strategies[engine->opt.strategy];
    cJSON *j = cJSON_CreateObject(), *st = s->save(engine->strategy_state);
    JSON_OK(j && st && cJSON_AddStringToObject(j, "name", s->name));
    while (j && st && st->child) {
        cJSON *m = cJSON_DetachItemViaPointer(st, st->child);
        JSON_OK(cJSON_AddItemToObject(j, m->string, m));
    }
    cJSON_Delete(st);
    return j;
}

int cet_search_save(struct cet_search *engine, cJSON *j, struct cet_error *err)
{
    size_t G = engine->ngenes;
    int failed = 0, *bad = &failed;
    JSON_OK(cJSON_AddItemToObject(j, "options", options_json(&engine->opt, bad)));

    cJSON *seeds = cJSON_AddArrayToObject(j, "seeds");
    JSON_OK(seeds);
    for (size_t s = 0; seeds && s < engine->nseeds; s++)
        JSON_OK(cJSON_AddItemToArray(seeds, exact_array(engine->seeds + s * G, G, bad)));

    JSON_OK(cJSON_AddNumberToObject(j, "generation", (double)engine->gen));
    JSON_OK(cJSON_AddNumberToObject(j, "evaluations", (double)engine->evals));
    JSON_OK(cJSON_AddNumberToObject(j, "doc_evaluations", (double)engine->doc_evals));
    JSON_OK(cJSON_AddItemToObject(j, "best_ref", cet_json_exact(engine->best_ref)));
    JSON_OK(cJSON_AddNumberToObject(j, "last_improve", (double)engine->last_improve));
    JSON_OK(cJSON_AddNumberToObject(j, "evals_improve", (double)engine->evals_improve));
    JSON_OK(cJSON_AddItemToObject(j, "elapsed", cet_json_exact(engine->elapsed)));
    JSON_OK(cJSON_AddStringToObject(j, "stop", cet_search_stop_name(engine->stop)));

    /* The random state as hex bytes: a checkpoint without it could not resume. */
    size_t n = engine->rng ? gsl_rng_size(engine->rng) : 0;
    char *hex = malloc(2 * n + 1);
    if (!hex)
        return cet_fail(err, "out of memory writing the checkpoint");
    const unsigned char *st = engine->rng ? gsl_rng_state(engine->rng) : NULL;
    for (size_t i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", st[i]);
    hex[2 * n] = 0;
    JSON_OK(cJSON_AddStringToObject(j, "rng", engine->rng ? gsl_rng_name(engine->rng) : ""));
    JSON_OK(cJSON_AddStringToObject(j, "rng_state", hex));
    free(hex);

    cJSON *arch = archive_json(engine);
    if (!arch)
        return cet_fail(err, "out of memory writing the checkpoint");
    JSON_OK(cJSON_AddItemToObject(j, "archive", arch));
    if (!cet_goal_is_default(&engine->opt.goal)) {
        /* What the default goal does not need: [f1, words, violation, objectives...]. */
        cJSON *ms = cJSON_AddArrayToObject(j, "measures");
        JSON_OK(ms);
        for (size_t i = 0; ms && i < engine->narch; i++) {
            double v[3 + CET_MAX_PARETO] = {engine->f1[i], engine->words[i], engine->viol[i]};
            memcpy(v + 3, engine->obj + i * CET_MAX_PARETO, CET_MAX_PARETO * sizeof *v);
            JSON_OK(cJSON_AddItemToArray(ms, exact_array(v, 3 + CET_MAX_PARETO, bad)));
        }
    }
    cJSON *pop = cJSON_AddArrayToObject(j, "population");
    JSON_OK(pop);
    for (size_t k = 0; pop && k < engine->npop; k++)
        JSON_OK(cJSON_AddItemToArray(pop, cJSON_CreateNumber((double)engine->pop[k])));
    cJSON *hist = cJSON_AddArrayToObject(j, "history");
    JSON_OK(hist);
    for (size_t h = 0; hist && h < engine->nhist; h++) {
        const struct cet_search_stats *s = &engine->hist[h];
        double v[9] = {(double)s->generation, (double)s->evaluations, s->best, s->mean,
                       s->worst, s->std, s->diversity, s->seconds, (double)s->doc_evaluations};
        JSON_OK(cJSON_AddItemToArray(hist, exact_array(v, 9, bad)));
    }
    if (engine->race)
        JSON_OK(cJSON_AddItemToObject(j, "race", race_json(engine, bad)));
    if (engine->strategy_ready)
        JSON_OK(cJSON_AddItemToObject(j, "strategy", strategy_json(engine, bad)));
    return failed ? cet_fail(err, "out of memory writing the checkpoint") : 0;
}

/* ---- reading ---- */

static int read_options(struct cet_json_reader *r, const cJSON *o, struct cet_search_options *opt)
{
    if (r->failed || cet_search_options_read(r, o, opt))
        return -1;
    /* A restored run has a population: the strategy sized it. */
    if (opt->pop < 2)
        return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(o, "pop"),
                           "\"pop\" must be at least 2");
    return r->failed ? -1 : 0;
}

/* Reads an array of n non-negative integers below limit into v. */
static int read_indices(struct cet_json_reader *r, const cJSON *a, uint32_t *v, size_t n,
                        size_t limit)
{
    if (r->failed)
        return -1;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n)
        return cet_jr_fail(r, a, "expected %zu indices", n);
    size_t i = 0;
    for (const cJSON *x = a->child; x; x = x->next, i++) {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble >= (double)limit ||
            x->valuedouble != (double)(uint32_t)x->valuedouble)
            return cet_jr_fail(r, x, "expected an index below %zu", limit);
        v[i] = (uint32_t)x->valuedouble;
    }
    return 0;
}

/* The racing state written by race_json, onto a restored GA whose archive
 * and options are read; cet_search_race_setup completes it. */
static int read_race(struct cet_json_reader *r, const cJSON *o, struct cet_search *engine)
{
    size_t nd = engine->ndocs;
    struct cet_race *R = engine->race = calloc(1, sizeof *R);
    if (!R || !(R->order = malloc((nd ? nd : 1) * sizeof *R->order)) ||
        !(R->seq = malloc((nd ? nd : 1) * sizeof *R->seq)) ||
        !(R->pos = malloc((nd ? nd : 1) * sizeof *R->pos)) ||
        !(R->inc_f1 = calloc(nd ? nd : 1, sizeof *R->inc_f1)) ||
        !(R->members = calloc(engine->opt.pop + 1, sizeof *R->members)) ||
        !(R->scores = calloc((engine->opt.pop + 1) * (nd ? nd : 1), sizeof *R->scores))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    R->ndocs = nd;
    if (read_indices(r, cet_jr_member(r, o, "order", cJSON_Array), R->order, nd, nd))
        return -1;
    double inc = cet_jr_num(r, o, "incumbent");
    const cJSON *f1 = cet_jr_member(r, o, "incumbent_f1", cJSON_Array);
    const cJSON *raced = cet_jr_member(r, o, "raced", cJSON_Array);
    if (r->failed)
        return -1;
    if (inc < -1 || inc >= (double)engine->narch)
        return cet_jr_fail(r, o, "bad incumbent");
    R->has_incumbent = inc >= 0;
    R->incumbent = R->has_incumbent ? (size_t)inc : 0;
    if (cet_jr_numbers(r, f1, R->inc_f1, inc < 0 ? 0 : nd))
        return -1;
    /* A generation in progress was scored in this sequence. */
    cet_race_sequence(R, engine->opt.race_weak);
    for (const cJSON *x = raced->child; x; x = x->next) {
        uint32_t v[2];
        if (read_indices(r, x, v, 2, engine->narch > nd + 1 ? engine->narch : nd + 1) ||
            v[0] >= engine->narch)
            return r->failed ? -1 : cet_jr_fail(r, x, "bad entry");
        engine->raced[v[0]] = 1;
        engine->ndone[v[0]] = v[1];
    }
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "pending");
    if (!p)
        return 0;
    const cJSON *m = cet_jr_member(r, p, "members", cJSON_Array);
    const cJSON *ind = cet_jr_member(r, p, "individuals", cJSON_Array);
    double first = cet_jr_num(r, p, "first"), n = cet_jr_num(r, p, "n");
    double done = cet_jr_num(r, p, "done");
    if (r->failed)
        return -1;
    if (first < 0 || n < 0 || first + n != (double)engine->narch || n > (double)engine->opt.pop ||
        done < 0 || done > (double)nd || cJSON_GetArraySize(m) > (int)engine->opt.pop ||
        cJSON_GetArraySize(ind) != (int)n)
        return cet_jr_fail(r, p, "bad racing state");
    R->first = (size_t)first;
    R->n = (size_t)n;
    R->done = (size_t)done;
    for (const cJSON *x = m->child; x; x = x->next) {
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble >= (double)engine->narch)
            return cet_jr_fail(r, x, "bad member");
        R->members[R->nmembers++] = (size_t)x->valuedouble;
    }
    size_t k = 0;
    for (const cJSON *x = ind->child; x; x = x->next, k++) {
        const cJSON *rd = cet_jr_member(r, x, "raced", cJSON_True);
        const cJSON *sc = cet_jr_member(r, x, "scores", cJSON_Array);
        if (r->failed)
            return -1;
        size_t i = R->first + k, q = 0, cnt = (size_t)cJSON_GetArraySize(sc);
        if (cnt > nd || (cJSON_IsTrue(rd) ? cnt > R->done : cnt != R->done && cnt != nd))
            return cet_jr_fail(r, sc, "bad racing scores");
        engine->raced[i] = cJSON_IsTrue(rd);
        engine->ndone[i] = (uint32_t)cnt;
        for (const cJSON *y = sc->child; y; y = y->next, q++) {
            double v[3];
            if (cet_jr_numbers(r, y, v, 3))
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


/* The seeds, counters, improvement record and stop reason. */
static int read_counters(struct cet_json_reader *r, const cJSON *root, struct cet_search *engine)
{
    size_t G = engine->ngenes;
    const cJSON *seeds = cet_jr_member(r, root, "seeds", cJSON_Array);
    if (r->failed)
        return -1;
    free(engine->seeds);
    engine->nseeds = 0;
    engine->seeds = malloc(((size_t)cJSON_GetArraySize(seeds) + 1) * G * sizeof *engine->seeds);
    if (!engine->seeds) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    for (const cJSON *s = seeds->child; s; s = s->next)
        if (cet_jr_numbers(r, s, engine->seeds + engine->nseeds++ * G, G))
            return -1;
    engine->gen = (long)cet_jr_whole(r, root, "generation", -1, 1e9);
    engine->evals = (long)cet_jr_whole(r, root, "evaluations", 0, 1e12);
    engine->doc_evals = (long)cet_jr_opt_num(r, root, "doc_evaluations",
                                         (double)engine->evals * (double)engine->ndocs);
    engine->best_ref = cet_jr_within(r, root, "best_ref", -1e300, 1e300);
    engine->last_improve = (long)cet_jr_whole(r, root, "last_improve", -1, 1e9);
    /* Checkpoints from before patience counted evaluations: unused there. */
    engine->evals_improve = (long)cet_jr_opt_num(r, root, "evals_improve", 0);
    engine->elapsed = cet_jr_within(r, root, "elapsed", 0, 1e12);
    const char *stop = cet_jr_str(r, root, "stop");
    int known = 0;
    for (int s = CET_STOP_NONE; s <= CET_STOP_EXHAUSTED; s++)
        if (!strcmp(stop, cet_search_stop_name((enum cet_stop)s))) {
            engine->stop = (enum cet_stop)s;
            known = 1;
        }
    if (!r->failed && !known)
        return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(root, "stop"),
                           "unknown stop reason '%s'", stop);
    return r->failed ? -1 : 0;
}

/* The random stream, from its hex bytes. */
static int read_rng(struct cet_json_reader *r, const cJSON *root, struct cet_search *engine)
{
    const char *rname = cet_jr_str(r, root, "rng");
    const char *hex = cet_jr_str(r, root, "rng_state");
    if (r->failed)
        return -1;
    if (!(engine->rng = gsl_rng_alloc(gsl_rng_mt19937))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    size_t n = gsl_rng_size(engine->rng);
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(root, "rng_state");
    if (strcmp(rname, gsl_rng_name(engine->rng)) || strlen(hex) != 2 * n)
        return cet_jr_fail(r, at, "the random state does not fit %s", gsl_rng_name(engine->rng));
    unsigned char *st = gsl_rng_state(engine->rng);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return cet_jr_fail(r, at, "the random state is not hex");
        st[i] = (unsigned char)v;
    }
    return 0;
}

/* The archive rows [born, fitness, precision, recall, genes...] and, for a
 * goal other than the default, their measures. */
static int read_archive(struct cet_json_reader *r, const cJSON *root, struct cet_search *engine)
{
    const struct cet_params_desc *desc = engine->desc;
    size_t G = engine->ngenes;
    const cJSON *arch = cet_jr_member(r, root, "archive", cJSON_Array);
    if (r->failed)
        return -1;
    double *row = malloc((G + 4) * sizeof *row);
    if (!row) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    for (const cJSON *a = arch->child; a && !r->failed; a = a->next) {
        if (cet_jr_numbers(r, a, row, G + 4))
            break;
        /* born, fitness, precision, recall, then genes inside their ranges:
         * anything else did not come from a run of this description. */
        int ok = row[0] >= 0 && row[0] <= (double)engine->gen + 1 && row[0] == floor(row[0]);
        /* Fitness is an F1, a precision, a recall or a mean word count
         * (objective.h), or what a library caller's callback returns;
         * bounded, so the generation's statistics stay finite. */
        for (int k = 1; ok && k < 4; k++)
            ok = fabs(row[k]) <= STATE_MAX_VALUE;
        for (size_t g = 0; ok && g < G; g++)
            ok = row[4 + g] >= desc->genes[g].min && row[4 + g] <= desc->genes[g].max;
        if (!ok)
            cet_jr_fail(r, a, "an archive row is out of range (generation, fitness, precision "
                              "and recall within 1e12, genes in the described ranges)");
        else if (cet_search_archive_put(engine, row + 4, (long)row[0], row[1], row[2], row[3])) {
            r->failed = 1;
            cet_fail(r->err, "out of memory");
        }
    }
    free(row);
    if (r->failed)
        return -1;
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(root, "measures");
    if (ms && (!cJSON_IsArray(ms) || (size_t)cJSON_GetArraySize(ms) != engine->narch))
        return cet_jr_fail(r, ms, "\"measures\" must have a row per archive entry");
    size_t mi = 0;
    for (const cJSON *a = ms ? ms->child : NULL; a; a = a->next, mi++) {
        double v[3 + CET_MAX_PARETO];
        if (cet_jr_numbers(r, a, v, 3 + CET_MAX_PARETO))
            return -1;
        struct cet_measures m = {.fit = engine->fit[mi], .f1 = v[0], .p = engine->prec[mi],
                                 .r = engine->rec[mi], .words = v[1], .viol = v[2]};
        memcpy(m.obj, v + 3, sizeof m.obj);
        cet_search_archive_measures(engine, mi, &m);
    }
    return 0;
}

/* The population (archive indices) and the history rows. */
static int read_population(struct cet_json_reader *r, const cJSON *root, struct cet_search *engine)
{
    const cJSON *pop = cet_jr_member(r, root, "population", cJSON_Array);
    const cJSON *hist = cet_jr_member(r, root, "history", cJSON_Array);
    if (r->failed)
        return -1;
    engine->pop = calloc(engine->opt.pop + 1, sizeof *engine->pop);
    engine->hist_cap = (size_t)cJSON_GetArraySize(hist) + 64;
    engine->hist = calloc(engine->hist_cap, sizeof *engine->hist);
    if (!engine->pop || !engine->hist) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    for (const cJSON *p = pop->child; p; p = p->next) {
        if (!cJSON_IsNumber(p) || p->valuedouble < 0 || p->valuedouble >= (double)engine->narch ||
            engine->npop >= engine->opt.pop)
            return cet_jr_fail(r, p, "bad population entry");
        engine->pop[engine->npop++] = (size_t)p->valuedouble;
    }
    for (const cJSON *h = hist->child; h; h = h->next) {
        /* Nine numbers; eight before racing (every evaluation was full). */
        double v[9];
        if (cet_jr_numbers(r, h, v, cJSON_GetArraySize(h) == 8 ? 8 : 9))
            return -1;
        if (cJSON_GetArraySize(h) == 8)
            v[8] = v[1] * (double)engine->ndocs;
        int ok = v[0] >= 0 && v[0] <= 1e9 && v[1] >= 0 && v[1] <= 1e12 && v[8] >= 0 &&
                 v[8] <= 1e15 && v[7] >= 0 && v[7] <= 1e12;
        for (int k = 2; ok && k < 7; k++) /* best, mean, worst, std, diversity */
            ok = fabs(v[k]) <= STATE_MAX_VALUE;
        if (!ok)
            return cet_jr_fail(r, h, "a history row is out of range");
        engine->hist[engine->nhist++] = (struct cet_search_stats){(long)v[0], (long)v[1], v[2], v[3], v[4],
                                                      v[5], v[6], v[7], (long)v[8]};
    }
    return 0;
}

/* The search strategy and its state; a checkpoint from before strategies
 * has none and was a run of the GA (whose state is the population). */
static int read_strategy(struct cet_json_reader *r, const cJSON *root, struct cet_search *engine)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "strategy");
    /* options' "strategy" (written since 2026-11-25 for run.json's
     * settings) must name the same one. */
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "options");
    const cJSON *os = cJSON_GetObjectItemCaseSensitive(o, "strategy");
    const char *oname = os ? cet_jr_str(r, o, "strategy") : NULL;
    if (r->failed)
        return -1;
    engine->opt.strategy = CET_STRATEGY_GA;
    if (!s) {
        if (oname && strcmp(oname, cet_strategy_names[CET_STRATEGY_GA]))
            return cet_jr_fail(r, os, "\"strategy\" names '%s', but the checkpoint holds no "
                                      "strategy state", oname);
        return 0;
    }
    if (!cJSON_IsObject(s))
        return cet_jr_fail(r, s, "\"strategy\" must be an object");
    const char *name = cet_jr_str(r, s, "name");
    if (r->failed)
        return -1;
    int k = cet_strategy_find(name);
    if (k < 0 || !cet_strategies[k].restore)
        return cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(s, "name"),
                           k < 0 ? "unknown search strategy '%s'"
                                 : "the search strategy '%s' is not built",
                           name);
    if (oname && strcmp(oname, name))
        return cet_jr_fail(r, os, "\"strategy\" names '%s', but the strategy state is '%s'",
                           oname, name);
    engine->opt.strategy = (enum cet_strategy_kind)k;
    struct cet_search_view v;
    cet_search_view(engine, &v);
    if (cet_strategies[k].restore(&engine->strategy_state, &v, r->j, s, r->err)) {
        r->failed = 1;
        return -1;
    }
    engine->strategy_ready = 1;
    return 0;
}

int cet_search_restore(struct cet_search **out, const struct cet_params_desc *desc, size_t ndocs,
                   const struct cet_json *doc, const cJSON *root, struct cet_error *err)
{
    struct cet_json_reader r = {.j = doc, .err = err, .what = "checkpoint"};
    struct cet_search *engine;
    *out = NULL;
    if (cet_search_new(&engine, desc, err))
        return -1;
    engine->ndocs = ndocs;
    if (read_options(&r, cet_jr_member(&r, root, "options", cJSON_Object), &engine->opt) ||
        read_counters(&r, root, engine) || read_rng(&r, root, engine) || read_archive(&r, root, engine) ||
        read_population(&r, root, engine))
        goto fail;
    const cJSON *race = cJSON_GetObjectItemCaseSensitive(root, "race");
    if (race && !cJSON_IsObject(race)) {
        cet_jr_fail(&r, race, "\"race\" must be an object");
        goto fail;
    }
    /* A racing state belongs to a racing run (found by fuzz_checkpoint). */
    if (race && !engine->opt.race) {
        cet_jr_fail(&r, race, "\"race\" is there but the options do not race");
        goto fail;
    }
    if ((race && read_race(&r, race, engine)) || read_strategy(&r, root, engine))
        goto fail;
    *out = engine;
    return 0;
fail:
    cet_search_free(engine);
    return -1;
}
