/* Parameter descriptions: reading and validating params/NAME.json against
 * the extractor's own parameter table, so that the GA learns the genome from
 * data and never names an algorithm's parameters.
 *
 * Choices:
 * - The description's "type" must be the extractor's type: a float
 *   parameter cannot be evolved as an int, because run() reads the value
 *   with the extractor's meaning.
 * - A missing "min"/"max" takes the extractor's; a given one may not leave
 *   the extractor's range (the widest range that makes sense).
 * - A missing "default" is the extractor's default clamped into the range;
 *   a given one must lie inside it.  Defaults fill the genes a seed leaves
 *   out, and when the description has no "seeds" member the defaults are the
 *   one seed (the paper injects the best known setting); "seeds": [] means
 *   none.
 * - Correlated groups must hold at least two int or float parameters and a
 *   parameter may belong to one group only: blending booleans or enum names
 *   has no meaning. */
#include "cetune/params.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "util/json.h"
#include "util/sort.h"

/* A member named twice makes cJSON keep both; refuse the second. */
static int no_duplicates(const struct cet_json *j, const cJSON *obj, struct cet_error *err)
{
    for (const cJSON *m = obj->child; m; m = m->next)
        for (const cJSON *k = obj->child; k != m; k = k->next)
            if (!strcmp(k->string, m->string))
                return cet_json_fail(j, m, 1, err, "member \"%s\" is given twice", m->string);
    return 0;
}

static int only_members(const struct cet_json *j, const cJSON *obj, const char *const *allowed,
                        const char *where, struct cet_error *err)
{
    if (no_duplicates(j, obj, err))
        return -1;
    for (const cJSON *m = obj->child; m; m = m->next) {
        size_t k = 0;
        while (allowed[k] && strcmp(allowed[k], m->string))
            k++;
        if (!allowed[k])
            return cet_json_fail(j, m, 1, err, "unknown member \"%s\" in %s", m->string, where);
    }
    return 0;
}

/* A JSON value of gene ge (number, true/false, enum name), checked against
 * the type and the described range. */
static int gene_value(const struct cet_json *j, const cJSON *v, const struct cet_gene *ge,
                      const char *what, double *out, struct cet_error *err)
{
    switch (ge->type) {
    case CET_P_BOOL:
        if (!cJSON_IsBool(v))
            return cet_json_fail(j, v, 0, err, "%s of \"%s\" must be true or false", what, ge->name);
        *out = cJSON_IsTrue(v) ? 1 : 0;
        return 0;
    case CET_P_ENUM:
        if (!cJSON_IsString(v))
            return cet_json_fail(j, v, 0, err, "%s of \"%s\" must be one of its values (a string)",
                                 what, ge->name);
        return -2; /* resolved by the caller, which knows the extractor's names */
    case CET_P_INT:
    case CET_P_FLOAT:
        if (!cJSON_IsNumber(v))
            return cet_json_fail(j, v, 0, err, "%s of \"%s\" must be a number", what, ge->name);
        if (ge->type == CET_P_INT && v->valuedouble != floor(v->valuedouble))
            return cet_json_fail(j, v, 0, err, "%s of \"%s\" must be a whole number (it is an int)",
                                 what, ge->name);
        if (v->valuedouble < ge->min || v->valuedouble > ge->max)
            return cet_json_fail(j, v, 0, err, "%s %g of \"%s\" is outside its range [%g, %g]",
                                 what, v->valuedouble, ge->name, ge->min, ge->max);
        *out = v->valuedouble;
        return 0;
    }
    return cet_json_fail(j, v, 0, err, "unknown parameter type");
}

/* Value v of an enum gene: the extractor's index of the name, which must be
 * among the allowed values. */
static int enum_value(const struct cet_json *j, const cJSON *v, const struct cet_extractor *ex,
                      const struct cet_gene *ge, const char *what, double *out,
                      struct cet_error *err)
{
    const struct cet_param *pa = &ex->params[ge->index];
    for (size_t k = 0; pa->values && pa->values[k]; k++)
        if (!strcmp(pa->values[k], v->valuestring)) {
            for (size_t a = 0; a < ge->nvalues; a++)
                if (ge->values[a] == (double)k) {
                    *out = (double)k;
                    return 0;
                }
            return cet_json_fail(j, v, 0, err, "%s \"%s\" of \"%s\" is not among its \"values\"",
                                 what, v->valuestring, ge->name);
        }
    char values[512];
    cet_param_values(ex, ge->index, values, sizeof values);
    return cet_json_fail(j, v, 0, err, "%s \"%s\" is not a value of %s.%s (%s)", what,
                         v->valuestring, ex->name, ge->name, values);
}

static int value_of(const struct cet_json *j, const cJSON *v, const struct cet_extractor *ex,
                    const struct cet_gene *ge, const char *what, double *out,
                    struct cet_error *err)
{
    int rc = gene_value(j, v, ge, what, out, err);
    return rc == -2 ? enum_value(j, v, ex, ge, what, out, err) : rc;
}

static int parse_gene(const struct cet_json *j, const cJSON *o, const struct cet_extractor *ex,
                      struct cet_gene *genes, size_t ng, struct cet_error *err)
{
    static const char *const members[] = {"name", "type", "min", "max", "default", "scale",
                                          "values", "help", "description", "when", NULL};
    struct cet_gene *ge = &genes[ng];
    memset(ge, 0, sizeof *ge);
    ge->group = -1;
    if (!cJSON_IsObject(o))
        return cet_json_fail(j, o, 0, err, "a parameter must be an object with \"name\" and \"type\"");
    if (only_members(j, o, members, "a parameter", err))
        return -1;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (!name)
        return cet_json_fail(j, o, 0, err, "the parameter has no \"name\"");
    if (!cJSON_IsString(name))
        return cet_json_fail(j, name, 0, err, "\"name\" must be a string");
    int idx = cet_param_index(ex, name->valuestring);
    if (idx < 0)
        return cet_json_fail(j, name, 0, err, "extractor '%s' has no parameter \"%s\"", ex->name,
                             name->valuestring);
    for (size_t k = 0; k < ng; k++)
        if (genes[k].index == (size_t)idx)
            return cet_json_fail(j, name, 0, err, "parameter \"%s\" is described twice",
                                 name->valuestring);
    const struct cet_param *pa = &ex->params[idx];
    ge->name = pa->name;
    ge->index = (size_t)idx;
    ge->type = pa->type;

    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (!type)
        return cet_json_fail(j, o, 0, err, "parameter \"%s\" has no \"type\"", pa->name);
    if (!cJSON_IsString(type))
        return cet_json_fail(j, type, 0, err, "\"type\" must be a string: int, float, bool or enum");
    const char *tn = type->valuestring;
    if (strcmp(tn, "int") && strcmp(tn, "float") && strcmp(tn, "bool") && strcmp(tn, "enum"))
        return cet_json_fail(j, type, 0, err, "unknown type \"%s\" (int, float, bool or enum)", tn);
    if (strcmp(tn, cet_param_type_name(pa->type)))
        return cet_json_fail(j, type, 0, err, "%s.%s is of type %s, not %s", ex->name, pa->name,
                             cet_param_type_name(pa->type), tn);

    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(o, "min");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(o, "max");
    const cJSON *vals = cJSON_GetObjectItemCaseSensitive(o, "values");
    const cJSON *scale = cJSON_GetObjectItemCaseSensitive(o, "scale");
    int numeric = pa->type == CET_P_INT || pa->type == CET_P_FLOAT;
    if (!numeric && (mn || mx))
        return cet_json_fail(j, mn ? mn : mx, 1, err, "a %s parameter has no \"%s\"", tn,
                             mn ? "min" : "max");
    if (vals && pa->type != CET_P_ENUM)
        return cet_json_fail(j, vals, 1, err, "only enum parameters have \"values\"");
    if (numeric) {
        ge->min = pa->min;
        ge->max = pa->max;
        const cJSON *lim[2] = {mn, mx};
        for (int b = 0; b < 2; b++) {
            const cJSON *v = lim[b];
            const char *key = b ? "max" : "min";
            if (!v)
                continue;
            if (!cJSON_IsNumber(v))
                return cet_json_fail(j, v, 0, err, "\"%s\" must be a number", key);
            if (pa->type == CET_P_INT && v->valuedouble != floor(v->valuedouble))
                return cet_json_fail(j, v, 0, err, "\"%s\" of int parameter \"%s\" must be a whole number",
                                     key, pa->name);
            if (v->valuedouble < pa->min || v->valuedouble > pa->max)
                return cet_json_fail(j, v, 0, err, "\"%s\" %g is outside what %s.%s allows, [%g, %g]",
                                     key, v->valuedouble, ex->name, pa->name, pa->min, pa->max);
            if (b)
                ge->max = v->valuedouble;
            else
                ge->min = v->valuedouble;
        }
        if (ge->min > ge->max)
            return cet_json_fail(j, mn ? mn : mx, 0, err, "\"min\" %g is above \"max\" %g", ge->min,
                                 ge->max);
    } else if (pa->type == CET_P_BOOL) {
        ge->min = 0;
        ge->max = 1;
    } else {
        size_t n = 0;
        while (pa->values && pa->values[n])
            n++;
        if (vals && (!cJSON_IsArray(vals) || !cJSON_GetArraySize(vals)))
            return cet_json_fail(j, vals, 0, err, "\"values\" must be a non-empty array of names");
        ge->nvalues = vals ? (size_t)cJSON_GetArraySize(vals) : n;
        ge->values = calloc(ge->nvalues ? ge->nvalues : 1, sizeof *ge->values);
        if (!ge->values)
            return cet_fail(err, "out of memory");
        size_t a = 0;
        if (!vals)
            for (; a < n; a++)
                ge->values[a] = (double)a;
        for (const cJSON *v = vals ? vals->child : NULL; v; v = v->next, a++) {
            size_t k = 0;
            if (!cJSON_IsString(v))
                return cet_json_fail(j, v, 0, err, "\"values\" must hold strings");
            while (k < n && strcmp(pa->values[k], v->valuestring))
                k++;
            if (k == n)
                return cet_json_fail(j, v, 0, err, "\"%s\" is not a value of %s.%s", v->valuestring,
                                     ex->name, pa->name);
            for (size_t b = 0; b < a; b++)
                if (ge->values[b] == (double)k)
                    return cet_json_fail(j, v, 0, err, "value \"%s\" is listed twice", v->valuestring);
            ge->values[a] = (double)k;
        }
        qsort(ge->values, ge->nvalues, sizeof *ge->values, cet_cmp_double);
        ge->min = ge->values[0];
        ge->max = ge->values[ge->nvalues - 1];
    }

    if (scale) {
        if (!cJSON_IsString(scale) ||
            (strcmp(scale->valuestring, "log") && strcmp(scale->valuestring, "linear")))
            return cet_json_fail(j, scale, 0, err, "\"scale\" must be \"linear\" or \"log\"");
        ge->log = !strcmp(scale->valuestring, "log");
        if (ge->log && !numeric)
            return cet_json_fail(j, scale, 0, err, "a log scale needs an int or float parameter");
        if (ge->log && ge->min <= 0)
            return cet_json_fail(j, scale, 0, err, "a log scale needs \"min\" above 0, not %g", ge->min);
    }

    const cJSON *def = cJSON_GetObjectItemCaseSensitive(o, "default");
    if (def)
        return value_of(j, def, ex, ge, "\"default\"", &ge->def, err);
    ge->def = pa->def;
    if (pa->type == CET_P_ENUM) {
        /* The extractor's default if allowed, else the first allowed value. */
        size_t a = 0;
        while (a < ge->nvalues && ge->values[a] != pa->def)
            a++;
        ge->def = ge->values[a < ge->nvalues ? a : 0];
    } else {
        ge->def = fmin(fmax(ge->def, ge->min), ge->max);
    }
    return 0;
}

static const struct cet_gene *gene_named(const struct cet_params_desc *d, const char *name)
{
    for (size_t g = 0; g < d->ngenes; g++)
        if (!strcmp(d->genes[g].name, name))
            return &d->genes[g];
    return NULL;
}

/* The gene that member m of a seed, condition or forbidden entry (what)
 * names, or NULL with err filled. */
static const struct cet_gene *member_gene(const struct cet_json *j, const cJSON *m,
                                          const struct cet_params_desc *d, const char *what,
                                          struct cet_error *err)
{
    const struct cet_gene *ge = gene_named(d, m->string);
    if (ge)
        return ge;
    if (cet_param_index(d->ex, m->string) >= 0)
        cet_json_fail(j, m, 1, err, "%s parameter \"%s\" is not described in \"parameters\", "
                      "so it is not evolved", what, m->string);
    else
        cet_json_fail(j, m, 1, err, "%s names \"%s\", but extractor '%s' has no such parameter",
                      what, m->string, d->ex->name);
    return NULL;
}

/* ---- conditions ("when") and forbidden combinations ---- */

/* "when" of gene i: {"parent": [values...], ...}. */
static int parse_when(const struct cet_json *j, const cJSON *w, struct cet_params_desc *d, size_t i,
                      struct cet_error *err)
{
    struct cet_gene *ge = &d->genes[i];
    if (!cJSON_IsObject(w) || !w->child)
        return cet_json_fail(j, w, 0, err, "\"when\" must be an object mapping enum or bool "
                             "parameters to the lists of values that make \"%s\" active", ge->name);
    if (no_duplicates(j, w, err))
        return -1;
    ge->when = calloc((size_t)cJSON_GetArraySize(w), sizeof *ge->when);
    if (!ge->when)
        return cet_fail(err, "out of memory");
    for (const cJSON *m = w->child; m; m = m->next) {
        const struct cet_gene *pg = member_gene(j, m, d, "condition", err);
        if (!pg)
            return -1;
        if (pg == ge)
            return cet_json_fail(j, m, 1, err, "parameter \"%s\" cannot depend on itself", ge->name);
        if (pg->type != CET_P_ENUM && pg->type != CET_P_BOOL)
            return cet_json_fail(j, m, 1, err, "condition on \"%s\", a%s %s parameter: conditions "
                                 "need an enum or bool parameter", pg->name,
                                 pg->type == CET_P_INT ? "n" : "", cet_param_type_name(pg->type));
        if (!cJSON_IsArray(m) || !cJSON_GetArraySize(m))
            return cet_json_fail(j, m, 0, err, "the condition on \"%s\" must be a non-empty array "
                                 "of its values", pg->name);
        struct cet_cond *c = &ge->when[ge->nwhen++];
        c->parent = (size_t)(pg - d->genes);
        c->values = calloc((size_t)cJSON_GetArraySize(m), sizeof *c->values);
        if (!c->values)
            return cet_fail(err, "out of memory");
        for (const cJSON *v = m->child; v; v = v->next) {
            double x;
            if (value_of(j, v, d->ex, pg, "condition value", &x, err))
                return -1;
            for (size_t k = 0; k < c->nvalues; k++)
                if (c->values[k] == x)
                    return cet_json_fail(j, v, 0, err, "condition value listed twice");
            c->values[c->nvalues++] = x;
        }
        qsort(c->values, c->nvalues, sizeof *c->values, cet_cmp_double);
    }
    return 0;
}

/* Depth-first: gene i goes into d->order after the genes it depends on.
 * state: 0 unseen, 1 on the path (a cycle when met again), 2 placed. */
static int place(const struct cet_json *j, const cJSON **whens, struct cet_params_desc *d,
                 size_t i, uint8_t *state, size_t *path, size_t depth, size_t *n,
                 struct cet_error *err)
{
    const struct cet_gene *ge = &d->genes[i];
    state[i] = 1;
    path[depth] = i;
    for (size_t c = 0; c < ge->nwhen; c++) {
        size_t p = ge->when[c].parent;
        if (state[p] == 2)
            continue;
        if (state[p] == 1) {
            /* path[k..depth] -> p closes the cycle; name it whole. */
            struct cet_buf b = {0};
            size_t k = depth;
            while (path[k] != p)
                k--;
            for (; k <= depth; k++)
                cet_buf_printf(&b, "\"%s\" -> ", d->genes[path[k]].name);
            cet_buf_printf(&b, "\"%s\"", d->genes[p].name);
            const cJSON *m = cJSON_GetObjectItemCaseSensitive(whens[i], d->genes[p].name);
            cet_json_fail(j, m, 1, err, "conditions form a cycle: %s (each depends on the next)",
                          b.p ? b.p : "");
            cet_buf_free(&b);
            return -1;
        }
        if (place(j, whens, d, p, state, path, depth + 1, n, err))
            return -1;
    }
    state[i] = 2;
    d->order[(*n)++] = i;
    return 0;
}

static int parse_conditions(const struct cet_json *j, const cJSON *params,
                            struct cet_params_desc *d, struct cet_error *err)
{
    const cJSON *whens[CET_MAX_GENES];
    uint8_t state[CET_MAX_GENES] = {0};
    size_t path[CET_MAX_GENES], i = 0, n = 0;
    for (const cJSON *p = params->child; p; p = p->next, i++) {
        whens[i] = cJSON_GetObjectItemCaseSensitive(p, "when");
        if (whens[i] && parse_when(j, whens[i], d, i, err))
            return -1;
        d->conditional |= whens[i] != NULL;
    }
    d->order = malloc(d->ngenes * sizeof *d->order);
    if (!d->order)
        return cet_fail(err, "out of memory");
    for (i = 0; i < d->ngenes; i++)
        if (!state[i] && place(j, whens, d, i, state, path, 0, &n, err))
            return -1;
    return 0;
}

static int parse_forbidden(const struct cet_json *j, const cJSON *fb, struct cet_params_desc *d,
                           struct cet_error *err)
{
    if (!cJSON_IsArray(fb))
        return cet_json_fail(j, fb, 0, err, "\"forbidden\" must be an array of objects of "
                             "parameter values");
    d->forbidden = calloc((size_t)cJSON_GetArraySize(fb) + 1, sizeof *d->forbidden);
    if (!d->forbidden)
        return cet_fail(err, "out of memory");
    for (const cJSON *e = fb->child; e; e = e->next) {
        if (!cJSON_IsObject(e) || !e->child)
            return cet_json_fail(j, e, 0, err, "a forbidden combination must be a non-empty object "
                                 "of parameter values");
        if (no_duplicates(j, e, err))
            return -1;
        struct cet_forbid *f = &d->forbidden[d->nforbidden++];
        size_t n = (size_t)cJSON_GetArraySize(e);
        f->genes = calloc(n, sizeof *f->genes);
        f->values = calloc(n, sizeof *f->values);
        if (!f->genes || !f->values)
            return cet_fail(err, "out of memory");
        for (const cJSON *m = e->child; m; m = m->next) {
            const struct cet_gene *ge = member_gene(j, m, d, "forbidden", err);
            if (!ge)
                return -1;
            if (ge->type == CET_P_FLOAT)
                return cet_json_fail(j, m, 1, err, "forbidden combinations hold enum, bool or int "
                                     "values; \"%s\" is a float", ge->name);
            if (value_of(j, m, d->ex, ge, "forbidden value", &f->values[f->n], err))
                return -1;
            f->genes[f->n++] = (size_t)(ge - d->genes);
        }
    }
    return 0;
}

/* Marks gene i and every gene its conditions name, recursively. */
static void mark_with_parents(const struct cet_params_desc *d, size_t i, uint8_t *used)
{
    if (used[i])
        return;
    used[i] = 1;
    for (size_t c = 0; c < d->genes[i].nwhen; c++)
        mark_with_parents(d, d->genes[i].when[c].parent, used);
}

/* 0 when "forbidden" rules out every genome.  Whether a genome is forbidden
 * depends only on the genes the entries name and the genes their
 * conditions name; when those take at most 4096 combinations, all are
 * tried; more are assumed to leave something (1). */
static int some_allowed(const struct cet_params_desc *d)
{
    uint8_t used[CET_MAX_GENES] = {0};
    size_t pos[CET_MAX_GENES] = {0}; /* value index of each used gene */
    double g[CET_MAX_GENES], count = 1;
    for (size_t f = 0; f < d->nforbidden; f++)
        for (size_t k = 0; k < d->forbidden[f].n; k++)
            mark_with_parents(d, d->forbidden[f].genes[k], used);
    for (size_t i = 0; i < d->ngenes; i++)
        if (used[i])
            count *= d->genes[i].type == CET_P_ENUM ? (double)d->genes[i].nvalues
                                                    : d->genes[i].max - d->genes[i].min + 1;
    if (count > 4096)
        return 1;
    cet_params_default_genome(d, g);
    for (;;) {
        for (size_t i = 0; i < d->ngenes; i++)
            if (used[i])
                g[i] = d->genes[i].type == CET_P_ENUM ? d->genes[i].values[pos[i]]
                                                      : d->genes[i].min + (double)pos[i];
        if (!cet_params_forbidden(d, g))
            return 1;
        size_t i = 0; /* the next combination, odometer style */
        for (; i < d->ngenes; i++) {
            if (!used[i])
                continue;
            size_t n = d->genes[i].type == CET_P_ENUM ? d->genes[i].nvalues
                                                      : (size_t)(d->genes[i].max - d->genes[i].min) + 1;
            if (++pos[i] < n)
                break;
            pos[i] = 0;
        }
        if (i == d->ngenes)
            return 0;
    }
}

/* A seed (or the defaults standing for one, node = NULL) must set only
 * active parameters and must not be forbidden. */
static int check_seed(const struct cet_json *j, const cJSON *node, const cJSON *fb,
                      const struct cet_params_desc *d, const double *g, struct cet_error *err)
{
    uint8_t active[CET_MAX_GENES];
    cet_params_active(d, g, active);
    for (const cJSON *m = node ? node->child : NULL; m; m = m->next) {
        const struct cet_gene *ge = gene_named(d, m->string);
        if (!active[ge - d->genes])
            return cet_json_fail(j, m, 1, err, "the seed sets \"%s\", which its \"when\" leaves "
                                 "inactive in this seed", m->string);
    }
    size_t f = cet_params_forbidden(d, g);
    if (!f)
        return 0;
    if (node)
        return cet_json_fail(j, node, 0, err, "the seed is forbidden by \"forbidden\" entry %zu",
                             f);
    return cet_json_fail(j, cJSON_GetArrayItem(fb, (int)f - 1), 0, err, "this combination forbids "
                         "the defaults, which are the only seed: give \"seeds\"");
}

static int check_seed(const struct cet_json *j, const cJSON *node, const cJSON *fb,
                      const struct cet_params_desc *d, const double *g, struct cet_error *err);

static int parse_seeds(const struct cet_json *j, const cJSON *seeds, struct cet_params_desc *d,
                       struct cet_error *err)
{
    if (!cJSON_IsArray(seeds))
        return cet_json_fail(j, seeds, 0, err, "\"seeds\" must be an array of objects");
    size_t n = (size_t)cJSON_GetArraySize(seeds);
    d->seeds = calloc(n * d->ngenes + 1, sizeof *d->seeds);
    if (!d->seeds)
        return cet_fail(err, "out of memory");
    for (const cJSON *s = seeds->child; s; s = s->next) {
        double *g = d->seeds + d->nseeds * d->ngenes;
        if (!cJSON_IsObject(s))
            return cet_json_fail(j, s, 0, err, "a seed must be an object of parameter values");
        if (no_duplicates(j, s, err))
            return -1;
        cet_params_default_genome(d, g);
        for (const cJSON *m = s->child; m; m = m->next) {
            const struct cet_gene *ge = member_gene(j, m, d, "seed", err);
            if (!ge || value_of(j, m, d->ex, ge, "seed value", &g[ge - d->genes], err))
                return -1;
        }
        if (check_seed(j, s, NULL, d, g, err))
            return -1;
        d->nseeds++;
    }
    return 0;
}

static int parse_groups(const struct cet_json *j, const cJSON *groups, struct cet_params_desc *d,
                        struct cet_error *err)
{
    if (!cJSON_IsArray(groups))
        return cet_json_fail(j, groups, 0, err, "\"correlated\" must be an array of arrays of names");
    for (const cJSON *grp = groups->child; grp; grp = grp->next) {
        if (!cJSON_IsArray(grp))
            return cet_json_fail(j, grp, 0, err, "a correlated group must be an array of names");
        if (cJSON_GetArraySize(grp) < 2)
            return cet_json_fail(j, grp, 0, err, "a correlated group needs at least two parameters");
        for (const cJSON *m = grp->child; m; m = m->next) {
            if (!cJSON_IsString(m))
                return cet_json_fail(j, m, 0, err, "a correlated group must hold parameter names");
            struct cet_gene *ge = (struct cet_gene *)gene_named(d, m->valuestring);
            if (!ge)
                return cet_json_fail(j, m, 0, err, "correlated parameter \"%s\" is not described in "
                                     "\"parameters\"", m->valuestring);
            if (ge->type != CET_P_INT && ge->type != CET_P_FLOAT)
                return cet_json_fail(j, m, 0, err, "correlated parameter \"%s\" is a %s; only int "
                                     "and float parameters can be blended", ge->name,
                                     cet_param_type_name(ge->type));
            if (ge->group >= 0)
                return cet_json_fail(j, m, 0, err, "parameter \"%s\" is already in a correlated group",
                                     ge->name);
            ge->group = (int)d->ngroups;
        }
        d->ngroups++;
    }
    return 0;
}

int cet_params_parse(struct cet_params_desc *d, const char *text, size_t len, const char *path,
                     cet_extractor_finder find, struct cet_error *err)
{
    static const char *const members[] = {"extractor", "description", "parameters", "seeds",
                                          "correlated", "forbidden", NULL};
    struct cet_json j;
    memset(d, 0, sizeof *d);
    if (cet_json_parse(&j, text, len, path, err))
        return -1;
    int rc = -1;
    const cJSON *root = j.root;
    if (!cJSON_IsObject(root)) {
        cet_json_fail(&j, root, 0, err, "a parameter description must be a JSON object");
        goto done;
    }
    if (cJSON_GetObjectItemCaseSensitive(root, "params") &&
        !cJSON_GetObjectItemCaseSensitive(root, "parameters")) {
        cet_json_fail(&j, root, 0, err, "a configuration (\"params\": one value per parameter), "
                                        "not a parameter description (what to evolve)");
        goto done;
    }
    if (only_members(&j, root, members, "a parameter description", err))
        goto done;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "extractor");
    if (!cJSON_IsString(name)) {
        cet_json_fail(&j, name ? name : root, 0, err, "\"extractor\" must be a string naming an extractor");
        goto done;
    }
    d->ex = find ? find(name->valuestring) : cet_extractor_find(name->valuestring);
    if (!d->ex) {
        cet_json_fail(&j, name, 0, err, "unknown extractor '%s' (see 'cetune list')", name->valuestring);
        goto done;
    }
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(root, "description");
    if (desc && !cJSON_IsString(desc)) {
        cet_json_fail(&j, desc, 0, err, "\"description\" must be a string");
        goto done;
    }
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
    if (!params) {
        cet_json_fail(&j, root, 0, err, "the description has no \"parameters\"");
        goto done;
    }
    if (!cJSON_IsArray(params) || !cJSON_GetArraySize(params)) {
        cet_json_fail(&j, params, 0, err, "\"parameters\" must be a non-empty array: "
                      "there is nothing to evolve");
        goto done;
    }
    size_t n = (size_t)cJSON_GetArraySize(params);
    if (n > CET_MAX_GENES) {
        cet_json_fail(&j, params, 0, err, "more than %d parameters", CET_MAX_GENES);
        goto done;
    }
    d->path = strdup(path);
    d->text = malloc(len + 1);
    d->description = desc ? strdup(desc->valuestring) : NULL;
    d->genes = calloc(n, sizeof *d->genes);
    d->base = calloc(d->ex->nparams + 1, sizeof *d->base);
    if (!d->path || !d->text || (desc && !d->description) || !d->genes || !d->base) {
        cet_fail(err, "out of memory");
        goto done;
    }
    memcpy(d->text, text, len);
    d->text[len] = 0;
    for (const cJSON *p = params->child; p; p = p->next) {
        int r = parse_gene(&j, p, d->ex, d->genes, d->ngenes, err);
        d->ngenes++; /* counted even on failure, so its values array is freed */
        if (r)
            goto done;
    }
    cet_params_default(d->ex, d->base);
    for (size_t g = 0; g < d->ngenes; g++)
        d->base[d->genes[g].index] = d->genes[g].def;
    if (parse_conditions(&j, params, d, err))
        goto done;
    const cJSON *forbidden = cJSON_GetObjectItemCaseSensitive(root, "forbidden");
    if (forbidden && parse_forbidden(&j, forbidden, d, err))
        goto done;

    const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
    if (seeds) {
        if (parse_seeds(&j, seeds, d, err))
            goto done;
    } else {
        d->seeds = malloc(d->ngenes * sizeof *d->seeds);
        if (!d->seeds) {
            cet_fail(err, "out of memory");
            goto done;
        }
        cet_params_default_genome(d, d->seeds);
        if (check_seed(&j, NULL, forbidden, d, d->seeds, err))
            goto done;
        d->nseeds = 1;
    }
    if (forbidden && !d->nseeds && !some_allowed(d)) { /* a seed would prove otherwise */
        cet_json_fail(&j, forbidden, 1, err, "\"forbidden\" rules out every configuration");
        goto done;
    }
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "correlated");
    if (groups && parse_groups(&j, groups, d, err))
        goto done;
    rc = 0;
done:
    cet_json_free(&j);
    if (rc)
        cet_params_free(d);
    return rc;
}

int cet_params_load(struct cet_params_desc *d, const char *path, cet_extractor_finder find,
                    struct cet_error *err)
{
    struct cet_buf b = {0};
    memset(d, 0, sizeof *d);
    if (cet_read_file(&b, path, (size_t)16 << 20, err))
        return -1;
    int rc = cet_params_parse(d, b.p ? b.p : "", b.len, path, find, err);
    cet_buf_free(&b);
    return rc;
}

void cet_params_free(struct cet_params_desc *d)
{
    for (size_t g = 0; d->genes && g < d->ngenes; g++) {
        free(d->genes[g].values);
        for (size_t c = 0; c < d->genes[g].nwhen; c++)
            free(d->genes[g].when[c].values);
        free(d->genes[g].when);
    }
    for (size_t f = 0; f < d->nforbidden; f++) {
        free(d->forbidden[f].genes);
        free(d->forbidden[f].values);
    }
    free(d->forbidden);
    free(d->order);
    free(d->genes);
    free(d->path);
    free(d->text);
    free(d->description);
    free(d->base);
    free(d->seeds);
    memset(d, 0, sizeof *d);
}

void cet_params_expand(const struct cet_params_desc *d, const double *genome, double *full)
{
    memcpy(full, d->base, d->ex->nparams * sizeof *full);
    for (size_t g = 0; g < d->ngenes; g++)
        full[d->genes[g].index] = genome[g];
}

int cet_params_genome(const struct cet_params_desc *d, const double *full, double *genome,
                      struct cet_error *err)
{
    uint8_t active[CET_MAX_GENES];
    for (size_t g = 0; g < d->ngenes; g++)
        genome[g] = full[d->genes[g].index];
    cet_params_active(d, genome, active);
    for (size_t g = 0; g < d->ngenes; g++) {
        const struct cet_gene *ge = &d->genes[g];
        double v = full[ge->index];
        if (!active[g]) {
            genome[g] = ge->def;
            continue;
        }
        if (ge->type == CET_P_ENUM) {
            size_t a = 0;
            while (a < ge->nvalues && ge->values[a] != v)
                a++;
            if (a == ge->nvalues) {
                char s[64];
                cet_param_format(d->ex, ge->index, v, 0, s, sizeof s);
                return cet_fail(err, "%s = %s is not among the described values", ge->name, s);
            }
        } else if (v < ge->min || v > ge->max) {
            return cet_fail(err, "%s = %g is outside the described range [%g, %g]", ge->name, v,
                            ge->min, ge->max);
        }
        genome[g] = v;
    }
    return 0;
}

void cet_params_default_genome(const struct cet_params_desc *d, double *genome)
{
    for (size_t g = 0; g < d->ngenes; g++)
        genome[g] = d->genes[g].def;
}
