/* The search options' table (cetune/search.h, struct cet_option): one row per
 * option, and everything that is done to every option, done from it:
 * defaults (cet_search_default_options), range checks (cet_search_options_check),
 * parsing (cet_option_parse), the command-line words of the folds'
 * runs (cet_search_options_argv), and run.json's and checkpoints' members
 * (cet_search_options_json, cet_search_options_read).  The CLI makes
 * `evolve`'s options, --help and the man page from the same rows.
 *
 * Adding an option: a field in struct cet_search_options, a row here (with
 * CET_OPT_LATER and the value that checkpoints written before it mean),
 * and the code that reads the field. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "cetune/search.h"
#include "options.h"
#include "util/array.h"

#define OFF(f) offsetof(struct cet_search_options, f)
#define GA (1u << CET_STRATEGY_GA)
#define ALL (GA | 1u << CET_STRATEGY_CMAES)

const struct cet_option cet_search_options[] = {
    {.name = "strategy", .type = CET_OPT_ENUM, .off = OFF(strategy), .def = CET_STRATEGY_AUTO,
     .values = cet_strategy_names, .strategies = ALL, .flags = CET_OPT_LATER,
     .absent = CET_STRATEGY_GA,
     .def_text = "cmaes for 10 or more genes, none conditional, at most a quarter enum or bool; else ga",
     .help = "the search: the genetic algorithm, or CMA-ES (docs/cmaes.md)"},
    {.name = "pop", .arg = "N", .type = CET_OPT_SIZE, .off = OFF(pop), .def = 0, .min = 2,
     .max = 1e6, .strategies = ALL, .flags = CET_OPT_ZERO_OWN,
     .def_text = "the strategy's own: ga 20, cmaes 4 + 3 ln(genes)",
     .help = "individuals per generation (cmaes: samples per iteration, lambda)"},
    {.name = "generations", .arg = "N", .type = CET_OPT_LONG, .off = OFF(generations), .def = 50,
     .max = 1e8, .strategies = ALL,
     .help = "stop after N generations, the initial one included; 0: no limit"},
    {.name = "patience", .arg = "N", .type = CET_OPT_LONG, .off = OFF(patience), .def = 5,
     .max = 1e8, .strategies = ALL,
     .help = "stop after N generations without an improvement above --epsilon; 0: never"},
    /* Patience in evaluations, scaled with the dimension where a generation is
     * small: CMA-ES's lambda on score's 46 genes is 15, so 5 generations were
     * 75 evaluations.  Checkpoints from before it had none (-1). */
    {.name = "patience_evals", .arg = "N", .type = CET_OPT_LONG, .off = OFF(patience_evals),
     .def = 0, .min = -1, .max = 1e9, .strategies = ALL,
     .flags = CET_OPT_ZERO_OWN | CET_OPT_LATER, .absent = -1,
     .def_text = "the strategy's own: ga none, cmaes lambda (10 + 30 genes / lambda), Hansen's "
                 "stagnation window",
     .help = "evaluations that must also bring no improvement before --patience stops the "
             "run; -1: none"},
    {.name = "epsilon", .arg = "E", .type = CET_OPT_DOUBLE, .off = OFF(epsilon), .def = 1e-4,
     .max = 1, .strategies = ALL, .help = "the smallest improvement of the best fitness that counts"},
    {.name = "max_evals", .arg = "N", .type = CET_OPT_LONG, .off = OFF(max_evals), .max = 1e9,
     .strategies = ALL, .help = "stop after exactly N evaluations; 0: no limit"},
    {.name = "time", .arg = "T[s|m|h]", .type = CET_OPT_SECONDS, .off = OFF(time), .max = 1e9,
     .strategies = ALL,
     .help = "stop at the first generation that ends after this wall-clock time; 0: no limit"},
    {.name = "elite", .arg = "N", .type = CET_OPT_SIZE, .off = OFF(elite), .def = 2, .max = 1e6,
     .strategies = GA,
     .help = "the best distinct individuals copied unchanged into the next generation"},
    {.name = "select", .type = CET_OPT_ENUM, .off = OFF(select), .def = CET_SELECT_TOURNAMENT,
     .values = cet_selection_names, .strategies = GA, .help = "how parents are chosen"},
    {.name = "crossover", .type = CET_OPT_ENUM, .off = OFF(crossover), .def = CET_CROSS_UNIFORM,
     .values = cet_crossover_names, .strategies = GA, .flags = CET_OPT_LATER,
     .absent = CET_CROSS_UNIFORM, .help = "how two parents are recombined"},
    {.name = "tournament", .arg = "K", .type = CET_OPT_SIZE, .off = OFF(tournament), .def = 3,
     .min = 1, .max = 1e6, .strategies = GA,
     .help = "individuals per tournament (--select tournament)"},
    {.name = "truncation", .arg = "F", .type = CET_OPT_DOUBLE, .off = OFF(truncation), .def = 0.5,
     .max = 1, .strategies = GA, .flags = CET_OPT_OPEN_MIN,
     .help = "the best fraction of the population that may be parents (--select truncation)"},
    {.name = "crossover_rate", .arg = "P", .type = CET_OPT_DOUBLE, .off = OFF(crossover_rate),
     .def = 0.5, .max = 1, .strategies = GA,
     .help = "chance that a child is recombined from two parents, else mutated"},
    {.name = "mutation_rate", .arg = "P", .type = CET_OPT_DOUBLE, .off = OFF(mutation_rate),
     .max = 1, .strategies = GA, .def_text = "0, that is 1/(active genes)",
     .help = "chance that each gene of a mutated child changes; 0: 1/(active genes)"},
    {.name = "mutation_sigma", .arg = "S", .type = CET_OPT_DOUBLE, .off = OFF(mutation_sigma),
     .def = 0.1, .max = 1, .strategies = GA, .flags = CET_OPT_OPEN_MIN, .old_name = "sigma",
     .help = "spread of the Gaussian mutation, as a fraction of the parameter's range"},
    {.name = "adaptive", .type = CET_OPT_FLAG, .off = OFF(adaptive), .max = 1, .strategies = GA,
     .help = "widen the mutation spread while the run stagnates"},
    {.name = "adapt_factor", .arg = "F", .type = CET_OPT_DOUBLE, .off = OFF(adapt_factor),
     .def = 1.5, .min = 1, .max = 10, .strategies = GA,
     .help = "with --adaptive, the spread grows by this factor per stagnant generation, up to 0.5"},
    {.name = "resolution", .arg = "R", .type = CET_OPT_DOUBLE, .off = OFF(resolution),
     .def = 1e-4, .max = 0.1, .strategies = ALL,
     .help = "floats are rounded to this fraction of their range, so that no setting is "
             "evaluated twice; 0: exact"},
    {.name = "seed", .arg = "S", .type = CET_OPT_SEED, .off = OFF(seed), .def = 1,
     .strategies = ALL,
     .help = "the run seed: the same seed gives the same results for any --threads"},
    {.name = "objective", .arg = "f1|precision|recall|fbeta:B|macro-f1|lcb-f1",
     .type = CET_OPT_OBJECTIVE, .off = OFF(goal), .strategies = ALL, .flags = CET_OPT_LATER,
     .def_text = "f1",
     .help = "what the run maximises: mean F1, precision or recall over the documents, mean "
             "F-beta, or F1 averaged per package then over packages (also macro-precision, "
             "macro-recall), or mean F1 minus its standard error (lcb-f1)"},
    {.name = "constraint", .arg = "MEASURE>=X", .type = CET_OPT_CONSTRAINT, .off = OFF(goal),
     .strategies = ALL, .flags = CET_OPT_LATER, .old_name = "constraints", .def_text = "none",
     .help = "precision, recall, f1 (means over documents), macro-precision, macro-recall, "
             "macro-f1 (over packages) or words (mean extracted words) >= or <= a bound; "
             "feasible settings rank first; repeatable"},
    {.name = "pareto", .arg = "OBJ,OBJ[,OBJ]", .type = CET_OPT_PARETO, .off = OFF(goal),
     .strategies = GA, .flags = CET_OPT_LATER, .def_text = "none",
     .help = "search the trade-off between two or three objectives with NSGA-II: pareto.csv, "
             "pareto/K.json"},
    /* Default: -1, resolved when the run is set up (cet_goal_resolve_shrink),
     * once its --seed-config are known.  Checkpoints from before it had none (0). */
    {.name = "shrink", .arg = "W", .type = CET_OPT_DOUBLE, .off = OFF(goal.shrink), .def = -1,
     .min = -1, .max = 100, .strategies = ALL, .flags = CET_OPT_LATER, .absent = 0,
     .def_text = "-1: 0.02 from a --seed-config when the fitness is mean F1 and site rules "
                 "carry the guard, 0.03 without the guard (measured on site families, "
                 "docs/experiment.md), else 0",
     .help = "regularise toward the start: the fitness loses W/(training documents) times the "
             "distance to the start (the first --seed-config, else the defaults) in shares of "
             "each gene's range; 0: none; -1: the default"},
    {.name = "race", .type = CET_OPT_FLAG, .off = OFF(race), .max = 1, .strategies = GA,
     .flags = CET_OPT_LATER,
     .help = "race new individuals against the best on blocks of documents and stop those "
             "significantly worse (docs/racing.md)"},
    {.name = "race_first", .arg = "N", .type = CET_OPT_SIZE, .off = OFF(race_first), .def = 20,
     .min = 1, .max = 1e8, .strategies = GA, .flags = CET_OPT_LATER, .absent = 20,
     .help = "with --race, documents before the first test"},
    {.name = "race_block", .arg = "N", .type = CET_OPT_SIZE, .off = OFF(race_block), .def = 10,
     .min = 1, .max = 1e8, .strategies = GA, .flags = CET_OPT_LATER, .absent = 10,
     .help = "with --race, documents between tests"},
    {.name = "race_alpha", .arg = "A", .type = CET_OPT_DOUBLE, .off = OFF(race_alpha),
     .def = 0.2, .max = 0.5, .strategies = GA, .flags = CET_OPT_LATER | CET_OPT_OPEN_MIN,
     .absent = 0.2, .help = "with --race, the significance level of each test"},
    /* Checkpoints from before weak pages have none: no weak pages (0). */
    {.name = "race_weak", .arg = "F", .type = CET_OPT_DOUBLE, .off = OFF(race_weak), .def = 0.5,
     .max = 1, .strategies = GA, .flags = CET_OPT_LATER, .absent = 0,
     .help = "with --race, score pages where the best's F1 is below F first (0: none)"},
    {0}};

const struct cet_option *cet_search_option_find(const char *name)
{
    char key[64];
    size_t n = strlen(name);
    if (n >= sizeof key)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        key[i] = name[i] == '-' ? '_' : name[i];
    for (const struct cet_option *o = cet_search_options; o->name; o++)
        if (!strcmp(o->name, key))
            return o;
    return NULL;
}

void cet_option_flag(const struct cet_option *row, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "--%s", row->name);
    for (size_t i = 2; i < n && i < size; i++)
        if (buf[i] == '_')
            buf[i] = '-';
}

/* The row's field in o. */
static void *field(const struct cet_option *row, const struct cet_search_options *o)
{
    return (char *)o + row->off;
}

/* The row's number of o as a double (whole numbers and enums too). */
double cet_option_number(const struct cet_option *row, const struct cet_search_options *o)
{
    const void *f = field(row, o);
    switch (row->type) {
    case CET_OPT_SIZE: return (double)*(const size_t *)f;
    case CET_OPT_LONG: return (double)*(const long *)f;
    case CET_OPT_DOUBLE:
    case CET_OPT_SECONDS: return *(const double *)f;
    case CET_OPT_FLAG: return *(const int *)f;
    case CET_OPT_SEED: return (double)*(const uint64_t *)f;
    case CET_OPT_ENUM: return (double)*(const int *)f;
    default: return 0;
    }
}

void cet_option_set_number(const struct cet_option *row, struct cet_search_options *o, double v)
{
    void *f = field(row, o);
    switch (row->type) {
    case CET_OPT_SIZE: *(size_t *)f = (size_t)v; break;
    case CET_OPT_LONG: *(long *)f = (long)v; break;
    case CET_OPT_DOUBLE:
    case CET_OPT_SECONDS: *(double *)f = v; break;
    case CET_OPT_FLAG: *(int *)f = v != 0; break;
    case CET_OPT_SEED: *(uint64_t *)f = (uint64_t)v; break;
    case CET_OPT_ENUM: *(int *)f = (int)v; break;
    default: break;
    }
}

void cet_search_default_options(struct cet_search_options *o)
{
    *o = (struct cet_search_options){0};
    for (const struct cet_option *r = cet_search_options; r->name; r++)
        cet_option_set_number(r, o, r->def);
}

/* 1 when v is in the row's range (its open minimum excluded). */
static int within(const struct cet_option *row, double v)
{
    if (row->flags & CET_OPT_ZERO_OWN && v == 0)
        return 1;
    return (row->flags & CET_OPT_OPEN_MIN ? v > row->min : v >= row->min) && v <= row->max;
}

/* "from 0 to 1" or "in (0, 1]", for messages. */
static void range_text(const struct cet_option *row, char *buf, size_t size)
{
    if (row->flags & CET_OPT_OPEN_MIN)
        snprintf(buf, size, "in (%.15g, %.15g]", row->min, row->max);
    else
        snprintf(buf, size, "from %.15g to %.15g", row->min, row->max);
}

int cet_search_options_check(const struct cet_search_options *o, struct cet_error *err)
{
    char flag[64], range[96];
    for (const struct cet_option *r = cet_search_options; r->name; r++) {
        cet_option_flag(r, flag, sizeof flag);
        if (r->type == CET_OPT_ENUM) {
            int v = *(const int *)field(r, o), n = 0;
            while (r->values[n])
                n++;
            if (v < 0 || v >= n)
                return cet_fail(err, "%s: unknown value %d", flag, v);
            continue;
        }
        if (r->type >= CET_OPT_FLAG)
            continue; /* flags are 0/1, any seed will do, the goal checks itself */
        double v = cet_option_number(r, o);
        if (!within(r, v)) {
            range_text(r, range, sizeof range);
            return cet_fail(err, "%s must be %s, not %g", flag, range, v);
        }
    }
    return 0;
}

int cet_option_parse(const struct cet_option *row, struct cet_search_options *o, const char *arg,
                     struct cet_error *err)
{
    char flag[64], range[96], *end;
    cet_option_flag(row, flag, sizeof flag);
    struct cet_goal *g = field(row, o);
    if (row->type == CET_OPT_FLAG) {
        cet_option_set_number(row, o, 1);
        return 0;
    }
    if (!arg)
        return cet_fail(err, "%s needs an argument", flag);
    errno = 0;
    switch (row->type) {
    case CET_OPT_SIZE:
    case CET_OPT_LONG: {
        long v = strtol(arg, &end, 10);
        if (!*arg || *end || errno || !within(row, (double)v) || (v == 0 && row->min > 0))
            return cet_fail(err, "%s expects a whole number from %ld to %ld, got '%s'", flag,
                            (long)row->min, (long)row->max, arg);
        cet_option_set_number(row, o, (double)v);
        return 0;
    }
    case CET_OPT_DOUBLE: {
        double v = strtod(arg, &end);
        if (!*arg || *end || errno || !isfinite(v) || !within(row, v)) {
            range_text(row, range, sizeof range);
            return cet_fail(err, "%s expects a number %s, got '%s'", flag, range, arg);
        }
        cet_option_set_number(row, o, v);
        return 0;
    }
    case CET_OPT_SECONDS: {
        double v = strtod(arg, &end);
        double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60
                    : !strcmp(end, "h") ? 3600 : -1;
        if (end == arg || errno || unit < 0 || !isfinite(v) || !within(row, v * unit))
            return cet_fail(err, "%s expects seconds, or a number with s, m or h, up to %g s, "
                                 "got '%s'", flag, row->max, arg);
        cet_option_set_number(row, o, v * unit);
        return 0;
    }
    case CET_OPT_SEED: {
        unsigned long long u = strtoull(arg, &end, 10);
        if (!*arg || *end || errno || *arg == '-')
            return cet_fail(err, "%s expects a whole number from 0 to 18446744073709551615, "
                                 "got '%s'", flag, arg);
        *(uint64_t *)field(row, o) = u;
        return 0;
    }
    case CET_OPT_ENUM: {
        struct cet_buf names = {0};
        for (int k = 0; row->values[k]; k++) {
            if (!strcmp(row->values[k], arg)) {
                cet_buf_free(&names);
                cet_option_set_number(row, o, k);
                return 0;
            }
            if (cet_buf_printf(&names, "%s%s", k ? "|" : "", row->values[k]))
                break;
        }
        cet_fail(err, "%s must be one of %s, not '%s'", flag, names.p ? names.p : "", arg);
        cet_buf_free(&names);
        return -1;
    }
    default:
        break;
    }
    struct cet_error why;
    int bad;
    if (row->type == CET_OPT_OBJECTIVE)
        bad = cet_objective_parse(&g->objective, arg, &why);
    else if (row->type == CET_OPT_PARETO)
        bad = cet_pareto_parse(g, arg, &why);
    else if (g->ncons == CET_MAX_CONSTRAINTS)
        bad = cet_fail(&why, "at most %d constraints", CET_MAX_CONSTRAINTS);
    else if (!(bad = cet_constraint_parse(&g->cons[g->ncons], arg, &why)))
        g->ncons++;
    return bad ? cet_fail(err, "%s: %s", flag, why.msg) : 0;
}

/* ---- the command-line words ---- */

struct words {
    char **v;
    size_t n, cap;
    int oom;
};

static void word(struct words *w, const char *s)
{
    char *c = s ? strdup(s) : NULL;
    if (!c || CET_GROW(w->v, w->cap, w->n + 1, 64)) {
        free(c);
        w->oom = 1;
        return;
    }
    w->v[w->n++] = c;
}

/* The value of a number row as an argument: exact, whole numbers whole. */
static void number_text(const struct cet_option *row, const struct cet_search_options *o, char *buf,
                        size_t size)
{
    const void *f = field(row, o);
    switch (row->type) {
    case CET_OPT_SIZE: snprintf(buf, size, "%zu", *(const size_t *)f); break;
    case CET_OPT_LONG: snprintf(buf, size, "%ld", *(const long *)f); break;
    case CET_OPT_SEED: snprintf(buf, size, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case CET_OPT_ENUM: snprintf(buf, size, "%s", row->values[*(const int *)f]); break;
    default: snprintf(buf, size, "%.17g", *(const double *)f); break;
    }
}

int cet_search_options_argv(const struct cet_search_options *o, char ***argv, size_t *n,
                            struct cet_error *err)
{
    struct words w = {0};
    char flag[64], v[256];
    const struct cet_goal *g = &o->goal;
    for (const struct cet_option *r = cet_search_options; r->name; r++) {
        cet_option_flag(r, flag, sizeof flag);
        switch (r->type) {
        case CET_OPT_FLAG:
            if (*(const int *)field(r, o))
                word(&w, flag);
            break;
        case CET_OPT_OBJECTIVE:
            cet_objective_name(&g->objective, v, sizeof v);
            word(&w, flag);
            word(&w, v);
            break;
        case CET_OPT_CONSTRAINT:
            for (size_t k = 0; k < g->ncons; k++) {
                cet_constraint_name(&g->cons[k], v, sizeof v);
                word(&w, flag);
                word(&w, v);
            }
            break;
        case CET_OPT_PARETO:
            if (!g->npareto)
                break;
            v[0] = 0;
            for (size_t k = 0, len = 0; k < g->npareto; k++) {
                char one[64];
                cet_objective_name(&g->pareto[k], one, sizeof one);
                len += (size_t)snprintf(v + len, sizeof v - len, "%s%s", k ? "," : "", one);
            }
            word(&w, flag);
            word(&w, v);
            break;
        default:
            if (r->flags & CET_OPT_ZERO_OWN && cet_option_number(r, o) == 0)
                break; /* the strategy's own */
            if (r->type == CET_OPT_ENUM && *(const int *)field(r, o) < 0)
                break; /* CET_STRATEGY_AUTO: by the description */
            number_text(r, o, v, sizeof v);
            word(&w, flag);
            word(&w, v);
        }
    }
    if (w.oom) {
        for (size_t i = 0; i < w.n; i++)
            free(w.v[i]);
        free(w.v);
        return cet_fail(err, "out of memory");
    }
    *argv = w.v;
    *n = w.n;
    return 0;
}

/* ---- run.json's and checkpoints' members ---- */

int cet_search_options_json(cJSON *j, const struct cet_search_options *o)
{
    int failed = 0, *bad = &failed;
    char v[64];
    const struct cet_goal *g = &o->goal;
    for (const struct cet_option *r = cet_search_options; r->name && !failed; r++) {
        const void *f = field(r, o);
        switch (r->type) {
        case CET_OPT_SIZE:
        case CET_OPT_LONG:
            JSON_OK(cJSON_AddNumberToObject(j, r->name, cet_option_number(r, o)));
            break;
        case CET_OPT_DOUBLE:
        case CET_OPT_SECONDS:
            JSON_OK(cJSON_AddItemToObject(j, r->name, cet_json_exact(*(const double *)f)));
            break;
        case CET_OPT_FLAG:
            JSON_OK(cJSON_AddBoolToObject(j, r->name, *(const int *)f));
            break;
        case CET_OPT_ENUM:
            if (*(const int *)f < 0)
                break; /* CET_STRATEGY_AUTO, resolved before a GA saves it */
            /* fall through */
        case CET_OPT_SEED:
            number_text(r, o, v, sizeof v);
            JSON_OK(cJSON_AddStringToObject(j, r->name, v));
            break;
        case CET_OPT_OBJECTIVE:
            cet_objective_name(&g->objective, v, sizeof v);
            JSON_OK(cJSON_AddStringToObject(j, r->name, v));
            break;
        case CET_OPT_CONSTRAINT:
        case CET_OPT_PARETO: {
            cJSON *a = cJSON_AddArrayToObject(j, r->name);
            JSON_OK(a);
            size_t n = r->type == CET_OPT_PARETO ? g->npareto : g->ncons;
            for (size_t k = 0; a && k < n; k++) {
                if (r->type == CET_OPT_PARETO)
                    cet_objective_name(&g->pareto[k], v, sizeof v);
                else
                    cet_constraint_name(&g->cons[k], v, sizeof v);
                JSON_OK(cJSON_AddItemToArray(a, cJSON_CreateString(v)));
            }
            break;
        }
        }
    }
    return failed ? -1 : 0;
}

/* The row's member of the object: its name, or the name checkpoints written
 * before the table gave it. */
static const cJSON *member(const cJSON *obj, const struct cet_option *r, const char **key)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, r->name);
    *key = r->name;
    if (!m && r->old_name && (m = cJSON_GetObjectItemCaseSensitive(obj, r->old_name)))
        *key = r->old_name;
    return m;
}

/* The goal's rows: a string, or an array of strings. */
static int read_goal_row(struct cet_json_reader *r, const cJSON *m, const struct cet_option *row,
                         struct cet_goal *g)
{
    struct cet_error why;
    if (row->type == CET_OPT_OBJECTIVE) {
        if (!cJSON_IsString(m) || cet_objective_parse(&g->objective, m->valuestring, &why))
            return cet_jr_fail(r, m, "a bad objective");
        return 0;
    }
    if (!cJSON_IsArray(m))
        return cet_jr_fail(r, m, "expected an array of strings");
    for (const cJSON *x = m->child; x; x = x->next) {
        int bad = !cJSON_IsString(x);
        if (row->type == CET_OPT_PARETO)
            bad = bad || g->npareto == CET_MAX_PARETO ||
                  cet_objective_parse(&g->pareto[g->npareto++], x->valuestring, &why);
        else
            bad = bad || g->ncons == CET_MAX_CONSTRAINTS ||
                  cet_constraint_parse(&g->cons[g->ncons++], x->valuestring, &why);
        if (bad)
            return cet_jr_fail(r, x, "a bad %s", row->type == CET_OPT_PARETO
                                                     ? "Pareto objective" : "constraint");
    }
    return 0;
}

int cet_search_options_read(struct cet_json_reader *r, const cJSON *obj,
                            struct cet_search_options *o)
{
    char range[96];
    o->goal = (struct cet_goal){0};
    for (const struct cet_option *row = cet_search_options; row->name && !r->failed; row++) {
        const char *key;
        const cJSON *m = member(obj, row, &key);
        if (!m) {
            if (row->flags & CET_OPT_LATER) {
                cet_option_set_number(row, o, row->absent);
                continue;
            }
            cet_jr_member(r, obj, row->name, cJSON_Object); /* fails: missing */
            return -1;
        }
        switch (row->type) {
        case CET_OPT_OBJECTIVE:
        case CET_OPT_CONSTRAINT:
        case CET_OPT_PARETO:
            if (read_goal_row(r, m, row, &o->goal))
                return -1;
            continue;
        case CET_OPT_FLAG:
            if (!cJSON_IsBool(m))
                return cet_jr_fail(r, m, "\"%s\" must be true or false", key);
            cet_option_set_number(row, o, cJSON_IsTrue(m));
            continue;
        case CET_OPT_SEED: {
            char *end;
            errno = 0;
            unsigned long long u = cJSON_IsString(m) ? strtoull(m->valuestring, &end, 10) : 0;
            if (!cJSON_IsString(m) || !*m->valuestring || *end || errno ||
                *m->valuestring == '-')
                return cet_jr_fail(r, m, "\"%s\" must be a string of digits", key);
            *(uint64_t *)field(row, o) = u;
            continue;
        }
        case CET_OPT_ENUM: {
            int k = 0;
            while (cJSON_IsString(m) && row->values[k] && strcmp(row->values[k], m->valuestring))
                k++;
            if (!cJSON_IsString(m) || !row->values[k])
                return cet_jr_fail(r, m, "unknown %s '%s'", key,
                                   cJSON_IsString(m) ? m->valuestring : "(not a string)");
            cet_option_set_number(row, o, k);
            continue;
        }
        default:
            break;
        }
        double v = cJSON_IsNumber(m) ? m->valuedouble : NAN;
        int whole = row->type == CET_OPT_SIZE || row->type == CET_OPT_LONG;
        /* Restored as the checks let it be set; an open minimum is the
         * check's (cet_search_options_check) when the run is set up. */
        int ok = isfinite(v) && (whole ? v == floor(v) : 1) &&
                 ((row->flags & CET_OPT_ZERO_OWN && v == 0) ||
                  (v >= row->min && v <= row->max));
        if (!ok) {
            range_text(row, range, sizeof range);
            return cet_jr_fail(r, m, "\"%s\" must be a %s %s", key,
                               whole ? "whole number" : "number", range);
        }
        cet_option_set_number(row, o, v);
    }
    return r->failed ? -1 : 0;
}
