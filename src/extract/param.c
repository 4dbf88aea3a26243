/* One parameter's value as text: parsing a value a user wrote (params.json,
 * --set, configurations) and writing it back so that it reads back the same. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "cetune/extractor.h"

const char *cet_param_type_name(enum cet_ptype t)
{
    switch (t) {
    case CET_P_INT: return "int";
    case CET_P_FLOAT: return "float";
    case CET_P_BOOL: return "bool";
    case CET_P_ENUM: return "enum";
    }
    return "?";
}

int cet_param_parse(const struct cet_extractor *ex, size_t i, const char *value, double *v,
                    struct cet_error *err)
{
    const struct cet_param *pa = &ex->params[i];
    switch (pa->type) {
    case CET_P_BOOL:
        if (!strcmp(value, "true") || !strcmp(value, "1"))
            *v = 1;
        else if (!strcmp(value, "false") || !strcmp(value, "0"))
            *v = 0;
        else
            return cet_fail(err, "%s.%s: expected true or false, got '%s'", ex->name, pa->name, value);
        return 0;
    case CET_P_ENUM:
        for (size_t k = 0; pa->values && pa->values[k]; k++)
            if (!strcmp(pa->values[k], value)) {
                *v = (double)k;
                return 0;
            }
        char values[512];
        cet_param_values(ex, i, values, sizeof values);
        return cet_fail(err, "%s.%s: '%s' is not one of its values (%s)", ex->name, pa->name,
                        value, values);
    case CET_P_INT:
    case CET_P_FLOAT: {
        char *end;
        double d = strtod(value, &end);
        if (end == value || *end || !isfinite(d))
            return cet_fail(err, "%s.%s: expected a number, got '%s'", ex->name, pa->name, value);
        if (pa->type == CET_P_INT && d != floor(d))
            return cet_fail(err, "%s.%s: expected an integer, got '%s'", ex->name, pa->name, value);
        if (d < pa->min || d > pa->max)
            return cet_fail(err, "%s.%s: %s is outside [%g, %g]", ex->name, pa->name, value,
                            pa->min, pa->max);
        *v = d;
        return 0;
    }
    }
    return cet_fail(err, "%s.%s: unknown parameter type", ex->name, pa->name);
}

void cet_param_format(const struct cet_extractor *ex, size_t i, double v, int json, char *buf,
                      size_t size)
{
    const struct cet_param *pa = &ex->params[i];
    switch (pa->type) {
    case CET_P_BOOL:
        snprintf(buf, size, "%s", v != 0 ? "true" : "false");
        break;
    case CET_P_ENUM: {
        size_t k = 0;
        while (pa->values && pa->values[k] && k < (size_t)v)
            k++;
        const char *name = pa->values && pa->values[k] ? pa->values[k] : "?";
        snprintf(buf, size, json ? "\"%s\"" : "%s", name);
        break;
    }
    case CET_P_INT:
        snprintf(buf, size, "%.0f", v);
        break;
    case CET_P_FLOAT:
        /* Shortest form that reads back to the same double. */
        for (int prec = 6; prec <= 17; prec++) {
            snprintf(buf, size, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
        break;
    }
}

void cet_param_values(const struct cet_extractor *ex, size_t i, char *buf, size_t size)
{
    const struct cet_param *pa = &ex->params[i];
    size_t n = 0;
    buf[0] = 0;
    for (size_t k = 0; pa->values && pa->values[k] && n < size; k++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? ", " : "", pa->values[k]);
}

int cet_params_json(struct cet_buf *out, const struct cet_extractor *ex, const double *p,
                    const uint8_t *shown)
{
    int rc = cet_buf_puts(out, "{");
    const char *sep = "";
    for (size_t i = 0; i < ex->nparams && rc == 0; i++) {
        if (!cet_param_active(ex, p, i) || (shown && !shown[i]))
            continue;
        char v[64];
        cet_param_format(ex, i, p[i], 1, v, sizeof v);
        rc = cet_buf_printf(out, "%s\"%s\": %s", sep, ex->params[i].name, v);
        sep = ", ";
    }
    return rc || cet_buf_puts(out, "}") ? -1 : 0;
}
