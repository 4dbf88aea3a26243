#include "cetune/config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

static int init(struct cet_config *cfg, const struct cet_extractor *ex, struct cet_error *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->ex = ex;
    cfg->docs = -1;
    cfg->params = calloc(ex->nparams ? ex->nparams : 1, sizeof *cfg->params);
    if (!cfg->params)
        return cet_fail(err, "out of memory");
    cet_params_default(ex, cfg->params);
    return 0;
}

static int relabel(struct cet_config *cfg, const char *base)
{
    struct cet_buf b = {0};
    if (cet_buf_puts(&b, base))
        return -1;
    free(cfg->label);
    cfg->label = b.p;
    return 0;
}

int cet_config_default(struct cet_config *cfg, const char *name, struct cet_error *err)
{
    const struct cet_extractor *ex = cet_extractor_find(name);
    if (!ex)
        return cet_fail(err, "unknown extractor '%s' (see 'cetune list')", name);
    if (init(cfg, ex, err))
        return -1;
    if (relabel(cfg, name)) {
        cet_config_free(cfg);
        return cet_fail(err, "out of memory");
    }
    return 0;
}

int cet_config_set(struct cet_config *cfg, const char *assignment, struct cet_error *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment)
        return cet_fail(err, "a parameter setting is name=value, got '%s'", assignment);
    char name[128];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof name)
        return cet_fail(err, "parameter name too long in '%.40s...'", assignment);
    memcpy(name, assignment, n);
    name[n] = 0;
    int i = cet_param_index(cfg->ex, name);
    if (i < 0)
        return cet_fail(err, "extractor '%s' has no parameter '%s' (see 'cetune list %s')",
                        cfg->ex->name, name, cfg->ex->name);
    if (cet_param_parse(cfg->ex, (size_t)i, eq + 1, &cfg->params[i], err))
        return -1;
    struct cet_buf b = {0};
    if (cet_buf_printf(&b, "%s %s", cfg->label ? cfg->label : cfg->ex->name, assignment))
        return cet_fail(err, "out of memory");
    free(cfg->label);
    cfg->label = b.p;
    return 0;
}

/* A JSON value for parameter i, checked like a command-line value. */
static int json_value(const struct cet_json *j, const cJSON *v, const struct cet_extractor *ex,
                      size_t i, double *out, struct cet_error *err)
{
    const struct cet_param *pa = &ex->params[i];
    struct cet_json_reader r = {.j = j, .err = err};
    char text[64];
    int type = pa->type == CET_P_BOOL ? cJSON_True
               : pa->type == CET_P_ENUM ? cJSON_String : cJSON_Number;
    if (!cet_jr_is(&r, v, type, "\"%s\" must be %s", pa->name,
                     type == cJSON_True ? "true or false" : type == cJSON_String ? "a string"
                                                                                : "a number"))
        return -1;
    if (type == cJSON_True) {
        *out = cJSON_IsTrue(v) ? 1 : 0;
        return 0;
    }
    if (type == cJSON_String)
        snprintf(text, sizeof text, "%s", v->valuestring);
    else
        snprintf(text, sizeof text, "%.17g", v->valuedouble);
    struct cet_error e;
    if (cet_param_parse(ex, i, text, out, &e))
        return cet_json_fail(j, v, 0, err, "%s", e.msg);
    return 0;
}

static int from_json(struct cet_config *cfg, struct cet_json *j, const char *path,
                     struct cet_error *err);

/* A "params" object (NULL: none) into out, which holds ex's defaults or
 * other values to change: each name known and given once, each value
 * checked, none that the others switch off. */
static int params_object(const struct cet_json *j, const struct cet_extractor *ex,
                         const cJSON *params, double *out, struct cet_error *err)
{
    unsigned char *seen = calloc(ex->nparams + 1, 1);
    int rc = seen ? 0 : cet_fail(err, "out of memory");
    for (const cJSON *p = params ? params->child : NULL; p && !rc; p = p->next) {
        int i = cet_param_index(ex, p->string);
        if (i < 0)
            rc = cet_json_fail(j, p, 1, err, "extractor '%s' has no parameter \"%s\"", ex->name,
                               p->string);
        else if (seen[i])
            rc = cet_json_fail(j, p, 1, err, "parameter \"%s\" is given twice", p->string);
        else {
            seen[i] = 1;
            rc = json_value(j, p, ex, (size_t)i, &out[i], err);
        }
    }
    /* A parameter that the others switch off (a stage the pipeline does not
     * use) would be silently ignored: a typo in a shipped configuration. */
    for (const cJSON *p = params ? params->child : NULL; p && !rc; p = p->next)
        if (!cet_param_active(ex, out, (size_t)cet_param_index(ex, p->string)))
            rc = cet_json_fail(j, p, 1, err, "parameter \"%s\" has no effect here: the other "
                                             "parameters switch it off (see 'cetune list %s')",
                               p->string, ex->name);
    free(seen);
    return rc ? -1 : 0;
}

/* Whether path is no slot: a step is empty ("html/body/", "a//b", "/p"),
 * so no block can ever stand there. */
static int empty_step(const char *path)
{
    if (!strncmp(path, CET_SITE_SUFFIX, strlen(CET_SITE_SUFFIX)))
        path += strlen(CET_SITE_SUFFIX);
    size_t len = strlen(path);
    return !len || path[0] == '/' || path[len - 1] == '/' || strstr(path, "//");
}

/* One list of "site" (an array of strings), into v[0..*n); with slots, a
 * list of slots (keep, drop, trust, hold), whose entries must be slots. */
static int site_list(const struct cet_json *j, const cJSON *site, const char *name, int slots,
                     const char ***v, size_t *n, struct cet_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(site, name);
    *v = NULL;
    *n = 0;
    if (!a)
        return 0;
    if (!cJSON_IsArray(a))
        return cet_json_fail(j, a, 0, err, "\"site\": \"%s\" must be an array of strings "
                                          "(slots such as \"html/body/div#main/p\", names or "
                                          "texts)",
                             name);
    *v = malloc(((size_t)cJSON_GetArraySize(a) + 1) * sizeof **v);
    if (!*v)
        return cet_fail(err, "out of memory");
    for (const cJSON *e = a->child; e; e = e->next) {
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return cet_json_fail(j, e, 0, err, "\"site\": each entry of \"%s\" must be a "
                                              "non-empty string", name);
        if (slots && empty_step(e->valuestring))
            return cet_json_fail(j, e, 0, err, "\"site\": \"%.300s\" in \"%s\" has an empty "
                                              "step, so it is no slot (steps are separated by "
                                              "one '/', as in \"html/body/div#main/p\")",
                                 e->valuestring, name);
        (*v)[(*n)++] = e->valuestring;
    }
    return 0;
}

/* The optional "guard" of "site": {"params": {...}, "trust": [...], "hold":
 * [...]}, the start's parameters (the extractor's defaults where not given),
 * the trusted slots and the held ones. */
static int site_guard(struct cet_config *cfg, const struct cet_json *j, const cJSON *g,
                      struct cet_error *err)
{
    if (!g)
        return 0;
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(g, "params");
    if (!cJSON_IsObject(g) || !cJSON_IsObject(params))
        return cet_json_fail(j, g, 0, err, "\"site\": \"guard\" must be {\"params\": {...}, "
                                           "\"trust\": [...], \"hold\": [...]}: the start's "
                                           "parameters, the trusted slots and the held ones");
    for (const cJSON *m = g->child; m; m = m->next)
        if (strcmp(m->string, "params") && strcmp(m->string, "trust") && strcmp(m->string, "hold"))
            return cet_json_fail(j, m, 1, err, "\"site\": \"guard\" has an unknown member "
                                               "\"%s\"", m->string);
    const struct cet_extractor *ex = cfg->ex;
    double *start = malloc((ex->nparams + 1) * sizeof *start);
    const char **trust = NULL, **hold = NULL;
    size_t ntrust = 0, nhold = 0;
    struct cet_error e;
    if (!start)
        return cet_fail(err, "out of memory");
    cet_params_default(ex, start);
    int rc = params_object(j, ex, params, start, err) ||
             site_list(j, g, "trust", 1, &trust, &ntrust, err) ||
             site_list(j, g, "hold", 1, &hold, &nhold, err);
    if (!rc && (cet_site_set_guard(cfg->site, start, ex->nparams, trust, ntrust, &e) ||
                cet_site_set_hold(cfg->site, hold, nhold, &e)))
        rc = cet_json_fail(j, g, 0, err, "\"site\": \"guard\": %s", e.msg);
    free(start);
    free(trust);
    free(hold);
    return rc ? -1 : 0;
}

/* The optional "site" member: {"pages": N, "names": [...], "keep": [...], "drop": [...],
 * "drop_text": [...], "guard": {...}}. */
static int site_rules(struct cet_config *cfg, const struct cet_json *j, const cJSON *site,
                      struct cet_error *err)
{
    if (!site)
        return 0;
    if (!cJSON_IsObject(site))
        return cet_json_fail(j, site, 0, err, "\"site\" must be an object: {\"keep\": [...], "
                                              "\"drop\": [...]}");
    for (const cJSON *m = site->child; m; m = m->next)
        if (strcmp(m->string, "keep") && strcmp(m->string, "drop") && strcmp(m->string, "pages") &&
            strcmp(m->string, "names") && strcmp(m->string, "drop_text") &&
            strcmp(m->string, "guard"))
            return cet_json_fail(j, m, 1, err, "\"site\" has an unknown member \"%s\"",
                                 m->string);
    const cJSON *pages = cJSON_GetObjectItemCaseSensitive(site, "pages");
    if (pages && !(cJSON_IsNumber(pages) && pages->valuedouble >= 0 &&
                   pages->valuedouble < 1e9 && pages->valuedouble == floor(pages->valuedouble)))
        return cet_json_fail(j, pages, 0, err, "\"site\": \"pages\" must be a whole number");
    const char **keep = NULL, **drop = NULL, **names = NULL, **texts = NULL;
    size_t nkeep = 0, ndrop = 0, nnames = 0, ntexts = 0;
    struct cet_error e;
    int rc = site_list(j, site, "keep", 1, &keep, &nkeep, err) ||
             site_list(j, site, "drop", 1, &drop, &ndrop, err) ||
             site_list(j, site, "names", 0, &names, &nnames, err) ||
             site_list(j, site, "drop_text", 0, &texts, &ntexts, err);
    if (!rc && cet_site_from_paths(&cfg->site, keep, nkeep, drop, ndrop, names, nnames,
                                   pages ? (long)pages->valuedouble : -1, &e))
        rc = cet_json_fail(j, site, 0, err, "\"site\": %s", e.msg);
    if (!rc && ntexts && cet_site_set_texts(cfg->site, texts, ntexts, &e))
        rc = cet_json_fail(j, cJSON_GetObjectItemCaseSensitive(site, "drop_text"), 0, err,
                           "\"site\": \"drop_text\": %s", e.msg);
    rc = rc || site_guard(cfg, j, cJSON_GetObjectItemCaseSensitive(site, "guard"), err);
    free(keep);
    free(drop);
    free(names);
    free(texts);
    return rc ? -1 : 0;
}

int cet_config_load(struct cet_config *cfg, const char *path, struct cet_error *err)
{
    struct cet_json j;
    memset(cfg, 0, sizeof *cfg);
    if (cet_json_load(&j, path, err))
        return -1;
    return from_json(cfg, &j, path, err);
}

int cet_config_parse(struct cet_config *cfg, const char *text, size_t len, const char *name,
                     struct cet_error *err)
{
    struct cet_json j;
    memset(cfg, 0, sizeof *cfg);
    if (cet_json_parse(&j, text, len, name, err))
        return -1;
    return from_json(cfg, &j, name, err);
}

/* Builds the configuration from parsed JSON; frees j. */
static int from_json(struct cet_config *cfg, struct cet_json *jp, const char *path,
                     struct cet_error *err)
{
    struct cet_json j = *jp;
    struct cet_json_reader r = {.j = &j, .err = err};
    int rc = -1;
    const cJSON *root = j.root;
    if (!cet_jr_is(&r, root, cJSON_Object, "a configuration must be a JSON object"))
        goto done;
    const cJSON *name = cet_jr_get(&r, root, "extractor", cJSON_String,
                                     "a string naming an extractor");
    if (!name)
        goto done;
    const struct cet_extractor *ex = cet_extractor_find(name->valuestring);
    if (!ex) {
        cet_json_fail(&j, name, 0, err, "unknown extractor '%s'", name->valuestring);
        goto done;
    }
    if (init(cfg, ex, err))
        goto done;
    if (cJSON_GetObjectItemCaseSensitive(root, "parameters")) {
        cet_json_fail(&j, root, 0, err, "a parameter description (what to evolve), not a "
                                        "configuration (\"params\": one value per parameter)");
        goto done;
    }
    for (const cJSON *m = root->child; m; m = m->next) {
        if (strcmp(m->string, "extractor") && strcmp(m->string, "params") &&
            strcmp(m->string, "fitness") && strcmp(m->string, "docs") &&
            strcmp(m->string, "precision") && strcmp(m->string, "recall") &&
            strcmp(m->string, "generation") && strcmp(m->string, "adhosts") &&
            strcmp(m->string, "site") &&
            strcmp(m->string, "f1") && strcmp(m->string, "words") &&
            strcmp(m->string, "violation")) {
            cet_json_fail(&j, m, 1, err, "unknown member \"%s\"", m->string);
            goto done;
        }
    }
    const cJSON *params = cet_jr_opt(&r, root, "params", cJSON_Object, NULL);
    if (r.failed || params_object(&j, ex, params, cfg->params, err))
        goto done;
    /* The scores a run adds are numbers; anything else is a damaged file. */
    static const char *const numbers[] = {"fitness", "docs", "precision", "recall", "f1",
                                          "words", "violation", "generation"};
    for (size_t k = 0; k < sizeof numbers / sizeof *numbers; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, numbers[k]);
        if (v && !cJSON_IsNumber(v)) {
            cet_json_fail(&j, v, 0, err, "\"%s\" must be a number", numbers[k]);
            goto done;
        }
    }
    const cJSON *ah = cJSON_GetObjectItemCaseSensitive(root, "adhosts");
    const cJSON *digest = cJSON_GetObjectItemCaseSensitive(ah, "digest");
    if (ah && !(cJSON_IsObject(ah) && cJSON_IsString(digest) &&
                strlen(digest->valuestring) == 16 &&
                strspn(digest->valuestring, "0123456789abcdef") == 16)) {
        cet_json_fail(&j, ah, 0, err, "\"adhosts\" must be {\"digest\": 16 hex digits, "
                                      "\"file\": ...} as a run writes it");
        goto done;
    }
    if (ah)
        memcpy(cfg->adhosts, digest->valuestring, 17);
    if (site_rules(cfg, &j, cJSON_GetObjectItemCaseSensitive(root, "site"), err))
        goto done;
    const cJSON *fit = cJSON_GetObjectItemCaseSensitive(root, "fitness");
    if (cJSON_IsNumber(fit)) {
        cfg->fitness = fit->valuedouble;
        cfg->has_fitness = 1;
    }
    const cJSON *docs = cJSON_GetObjectItemCaseSensitive(root, "docs");
    if (cJSON_IsNumber(docs)) {
        /* Converting a double outside long's range is undefined: check first. */
        double v = docs->valuedouble;
        if (!(v >= 0 && v < 1e15) || v != floor(v)) {
            cet_json_fail(&j, docs, 0, err, "\"docs\" must be a whole number of documents");
            goto done;
        }
        cfg->docs = (long)v;
    }
    if (relabel(cfg, path)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    rc = 0;
done:
    cet_json_free(&j);
    if (rc)
        cet_config_free(cfg);
    return rc;
}

int cet_config_json(struct cet_buf *out, const struct cet_extractor *ex, const double *params,
                    const uint8_t *shown, double fitness, long docs)
{
    int rc = cet_buf_printf(out, "{\"extractor\": \"%s\", \"params\": ", ex->name) ||
             cet_params_json(out, ex, params, shown);
    if (docs >= 0 && rc == 0) {
        char f[64];
        snprintf(f, sizeof f, "%.17g", fitness);
        for (int prec = 6; prec <= 17; prec++) { /* shortest exact form */
            snprintf(f, sizeof f, "%.*g", prec, fitness);
            if (strtod(f, NULL) == fitness)
                break;
        }
        rc = cet_buf_printf(out, ", \"fitness\": %s, \"docs\": %ld", f, docs);
    }
    return rc || cet_buf_puts(out, "}") ? -1 : 0;
}

void cet_config_free(struct cet_config *cfg)
{
    cet_site_free(cfg->site);
    free(cfg->params);
    free(cfg->label);
    memset(cfg, 0, sizeof *cfg);
}
