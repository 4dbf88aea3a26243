/* What cetune evolve checks and adds before a new run starts (evolve.h):
 * the --seed-config individuals, --folds against the training documents,
 * and the run directory against the corpora. */
#include <stdlib.h>

#include "cetune/buf.h"
#include "cetune/guard.h"
#include "cetune/run.h"
#include "cli.h"
#include "evolve.h"

/* Adds --seed-config individuals; their non-evolved parameters are ignored,
 * with one warning naming those that differ from the fixed values. */
int evolve_seed_configs(struct cet_run *run, const struct cli_list *files)
{
    const struct cet_extractor *ex = cet_ga_desc(cet_run_ga(run))->ex;
    for (size_t i = 0; i < files->n; i++) {
        struct cet_error err;
        uint8_t *ignored = NULL;
        int rc = cli_readable(files->v[i]);
        if (rc)
            return rc;
        if (cet_run_add_seed_config(run, files->v[i], &ignored, &err)) {
            cli_error("%s", err.msg);
            return CLI_USAGE;
        }
        /* One warning naming every parameter dropped, with the value kept. */
        struct cet_buf names = {0};
        const struct cet_params_desc *d = cet_ga_desc(cet_run_ga(run));
        size_t n = 0;
        for (size_t k = 0; k < ex->nparams; k++) {
            char v[64];
            if (!ignored[k])
                continue;
            cet_param_format(ex, k, d->base[k], 0, v, sizeof v);
            if (cet_buf_printf(&names, "%s%s (kept at %s)", n++ ? ", " : "", ex->params[k].name,
                               v))
                break;
        }
        if (n)
            cli_warn("%s: %s does not evolve %s: the run and best.json keep %s, not the "
                     "file's", files->v[i], d->path, names.p ? names.p : "some parameters",
                     n == 1 ? "it at its fixed value" : "them at their fixed values");
        cet_buf_free(&names);
        free(ignored);
    }
    return 0;
}

/* --folds K needs a document per fold: checked on the corpora's listing and
 * the sample before the run directory is made (loading may still skip
 * documents, which the folds then report). */
int evolve_check_folds(long folds, const struct cli_list *dirs, const char *sample,
                       long sample_size)
{
    struct cet_entries e = {0};
    struct cet_error err;
    char **names = NULL;
    size_t n = 0;
    if (!folds)
        return 0;
    if (cet_corpus_scan(&e, dirs->v, dirs->n, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    n = e.n;
    cet_entries_free(&e);
    if (sample) {
        int rc = cli_readable(sample);
        if (rc)
            return rc;
        if (cet_sample_read(&names, &n, sample, &err)) {
            cli_error("%s", err.msg);
            return CLI_RUNTIME;
        }
        cet_sample_free(names, n);
    }
    if (sample_size >= 0 && (size_t)sample_size < n)
        n = (size_t)sample_size;
    if ((size_t)folds > n)
        return cli_usage("evolve", "--folds %ld needs at least %ld training documents (one per "
                                   "fold); there are %zu", folds, folds, n);
    return 0;
}

/* The run directory is never inside a training or validation corpus and
 * holds none of their files (cetune/guard.h). */
int evolve_guard_dir(const struct cli_list *dirs, const struct cli_list *validate, const char *dir)
{
    struct cet_guard *g;
    struct cet_error err;
    int rc = cli_guard_new(&g, dirs->v, dirs->n);
    if (!rc && cet_guard_corpora(g, validate->v, validate->n, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
    }
    if (!rc)
        rc = cli_guard_check(g, "-o", dir, 1);
    cet_guard_free(g);
    return rc;
}
