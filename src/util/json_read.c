/* Typed members of untrusted JSON files (json.h): every check names the
 * file, line and column of the value at fault. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int cet_jr_fail(struct cet_json_reader *r, const cJSON *node, const char *fmt, ...)
{
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->failed = 1;
    if (!r->what)
        return cet_json_fail(r->j, node, 0, r->err, "%s", msg);
    return cet_json_fail(r->j, node, 0, r->err, "%s: %s", r->what, msg);
}

const cJSON *cet_jr_member(struct cet_json_reader *r, const cJSON *obj, const char *name,
                           int type)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (r->failed)
        return NULL;
    if (!m || (type == cJSON_Number && !cJSON_IsNumber(m)) ||
        (type == cJSON_String && !cJSON_IsString(m)) || (type == cJSON_Array && !cJSON_IsArray(m)) ||
        (type == cJSON_Object && !cJSON_IsObject(m)) ||
        (type == cJSON_True && !cJSON_IsBool(m))) {
        cet_jr_fail(r, m ? m : obj, "\"%s\" is missing or mistyped", name);
        return NULL;
    }
    return m;
}

double cet_jr_num(struct cet_json_reader *r, const cJSON *obj, const char *name)
{
    const cJSON *m = cet_jr_member(r, obj, name, cJSON_Number);
    return m ? m->valuedouble : 0;
}

double cet_jr_opt_num(struct cet_json_reader *r, const cJSON *obj, const char *name, double def)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name) ? cet_jr_num(r, obj, name) : def;
}

double cet_jr_whole(struct cet_json_reader *r, const cJSON *obj, const char *name, double lo,
                    double hi)
{
    double v = cet_jr_num(r, obj, name);
    if (!r->failed && !(v >= lo && v <= hi && v == floor(v))) {
        cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(obj, name),
                    "\"%s\" must be a whole number from %.0f to %.0f", name, lo, hi);
        return lo;
    }
    return r->failed ? lo : v;
}

double cet_jr_within(struct cet_json_reader *r, const cJSON *obj, const char *name, double lo,
                     double hi)
{
    double v = cet_jr_num(r, obj, name);
    if (!r->failed && !(v >= lo && v <= hi)) {
        cet_jr_fail(r, cJSON_GetObjectItemCaseSensitive(obj, name),
                    "\"%s\" must be a number from %g to %g", name, lo, hi);
        return lo;
    }
    return r->failed ? lo : v;
}

double cet_jr_opt_within(struct cet_json_reader *r, const cJSON *obj, const char *name, double lo,
                         double hi, double def)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name) ? cet_jr_within(r, obj, name, lo, hi) : def;
}

const char *cet_jr_str(struct cet_json_reader *r, const cJSON *obj, const char *name)
{
    const cJSON *m = cet_jr_member(r, obj, name, cJSON_String);
    return m ? m->valuestring : "";
}

int cet_jr_numbers(struct cet_json_reader *r, const cJSON *a, double *v, size_t n)
{
    if (r->failed)
        return -1;
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != n)
        return cet_jr_fail(r, a, "expected %zu numbers", n);
    size_t i = 0;
    for (const cJSON *x = a->child; x; x = x->next, i++) {
        if (!cJSON_IsNumber(x))
            return cet_jr_fail(r, x, "expected a number");
        v[i] = x->valuedouble;
    }
    return 0;
}

int cet_jr_strings(struct cet_json_reader *r, const cJSON *obj, const char *name,
                   const char *items, int required, char ***out, size_t *n)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, name);
    *n = 0;
    *out = NULL;
    if (r->failed)
        return -1;
    if ((a || required) && !cJSON_IsArray(a))
        return cet_jr_fail(r, a ? a : obj, "\"%s\" must be an array of %s", name, items);
    if (!(*out = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof **out))) {
        r->failed = 1;
        return cet_fail(r->err, "out of memory");
    }
    for (const cJSON *x = a ? a->child : NULL; x; x = x->next) {
        if (!cJSON_IsString(x))
            return cet_jr_fail(r, x, "\"%s\" holds %s", name, items);
        if (!((*out)[*n] = strdup(x->valuestring))) {
            r->failed = 1;
            return cet_fail(r->err, "out of memory");
        }
        ++*n;
    }
    return 0;
}

static int of_type(const cJSON *v, int type)
{
    switch (type) {
    case cJSON_Number: return cJSON_IsNumber(v);
    case cJSON_String: return cJSON_IsString(v);
    case cJSON_Array: return cJSON_IsArray(v);
    case cJSON_Object: return cJSON_IsObject(v);
    case cJSON_True: return cJSON_IsBool(v);
    }
    return v != NULL;
}

static const char *type_desc(int type)
{
    switch (type) {
    case cJSON_Number: return "a number";
    case cJSON_String: return "a string";
    case cJSON_Array: return "an array";
    case cJSON_Object: return "an object";
    case cJSON_True: return "true or false";
    }
    return "a value";
}

static const cJSON *get(struct cet_json_reader *r, const cJSON *obj, const char *name, int type,
                        const char *desc, int optional)
{
    if (r->failed)
        return NULL;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);
    if ((!m && optional) || (m && of_type(m, type)))
        return m;
    cet_jr_fail(r, m ? m : obj, "\"%s\" must be %s", name, desc ? desc : type_desc(type));
    return NULL;
}

const cJSON *cet_jr_get(struct cet_json_reader *r, const cJSON *obj, const char *name, int type,
                        const char *desc)
{
    return get(r, obj, name, type, desc, 0);
}

const cJSON *cet_jr_opt(struct cet_json_reader *r, const cJSON *obj, const char *name, int type,
                        const char *desc)
{
    return get(r, obj, name, type, desc, 1);
}

int cet_jr_is(struct cet_json_reader *r, const cJSON *v, int type, const char *fmt, ...)
{
    if (r->failed)
        return 0;
    if (v && of_type(v, type))
        return 1;
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cet_jr_fail(r, v ? v : r->j->root, "%s", msg);
    return 0;
}
