/* cetune report (report.h): a run directory read back (checkpoint.json,
 * run.json, validation.csv and folds.csv); report_plots.c writes its plots,
 * report_md.c its report.md. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/json.h"
#include "report_internal.h"

void cet_report_free(struct cet_report *r)
{
    if (!r)
        return;
    cet_search_free(r->engine);
    cet_params_free(&r->desc);
    cet_run_info_free(&r->run);
    cet_json_free(&r->info);
    free(r->validation);
    free(r->folds);
    for (size_t i = 0; i < r->nplots; i++)
        free(r->plots[i]);
    free(r->plots);
    free(r->dir);
    free(r);
}

size_t cet_report_plots(const struct cet_report *r, const char *const **names)
{
    *names = (const char *const *)r->plots;
    return r->nplots;
}

/* The text of the run directory's file name into *out, or NULL when the
 * run did not write it (validation.csv, folds.csv are optional). */
static int read_optional(char **out, const char *dir, const char *name, struct cet_error *err)
{
    char *path = cet_run_path(dir, name);
    if (!path)
        return cet_fail(err, "out of memory");
    int rc = 0;
    if (access(path, F_OK) == 0) {
        struct cet_buf b = {0};
        rc = cet_read_file(&b, path, 64u << 20, err);
        if (!rc && !(*out = b.p ? b.p : strdup("")))
            rc = cet_fail(err, "out of memory");
    }
    free(path);
    return rc;
}

int cet_report_load(struct cet_report **out, const char *dir, struct cet_error *err)
{
    char *path = NULL;
    struct cet_report *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return cet_fail(err, "out of memory");
    if (!(r->dir = strdup(dir)))
        goto oom;
    if (cet_run_restore(&r->engine, &r->desc, &r->run, dir, NULL, err))
        goto fail;
    if (cet_search_best(r->engine, &r->best) == CET_ERROR)
        goto oom;
    if (!(path = cet_run_path(dir, CET_RUN_INFO)))
        goto oom;
    if (cet_json_load(&r->info, path, err))
        goto fail;
    struct cet_json_reader rd = {.j = &r->info, .err = err};
    if (!cet_jr_is(&rd, r->info.root, cJSON_Object, "run.json must be an object"))
        goto fail;
    if (read_optional(&r->validation, dir, CET_RUN_VALIDATION, err) ||
        read_optional(&r->folds, dir, CET_RUN_FOLDS, err))
        goto fail;
    free(path);
    *out = r;
    return 0;
oom:
    cet_fail(err, "out of memory");
fail:
    free(path);
    cet_report_free(r);
    return -1;
}

