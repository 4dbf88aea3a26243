/* What cetune evolve checks and adds before a new run starts (evolve.h):
 * the options of the final choice, the description, the --seed-config individuals, --folds against the training documents,
 * and the run directory against the corpora. */
#include <math.h>
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
    const struct cet_extractor *ex = cet_search_desc(cet_run_search(run))->ex;
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
        const struct cet_params_desc *d = cet_search_desc(cet_run_search(run));
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

/* The final choice's options (docs/choice.md): the deprecated --holdout
 * mapped to cross-validation, and cv kept to what it can judge, saying so
 * when an option given cannot apply. */
int evolve_choice_options(struct evolve_args *a)
{
    if (a->holdout >= 0) {
        if (a->holdout == 0) {
            cli_warn("--holdout is deprecated: cross-validation chooses best.json now; "
                     "--holdout 0 is --choose search");
            if (a->choose < 0)
                a->choose = CET_CHOOSE_SEARCH;
        } else {
            long k = lround(1 / a->holdout);
            k = k < 2 ? 2 : k;
            cli_warn("--holdout is deprecated: cross-validation chooses best.json now, every "
                     "document held out once; --holdout %g is --folds %ld", a->holdout, k);
            if (!a->folds)
                a->holdout_folds = k;
            else
                cli_warn("--holdout %g ignored: --folds %ld is given", a->holdout, a->folds);
        }
    }
    /* cv judges a configuration by its mean F1 on unseen pages against their
     * gold; on pseudo-gold it holds out the pages with gold of their own. */
    const char *why = !cet_goal_judged_by_f1(&a->opt.goal) ? "--objective, --constraint or --pareto"
                                                           : NULL;
    if (why && a->choose == CET_CHOOSE_CV)
        return cli_usage("evolve", "--choose cv judges mean F1 against gold on held-out pages: "
                                   "not with %s", why);
    if (a->choose < 0)
        a->choose = why ? CET_CHOOSE_SEARCH : CET_CHOOSE_CV;
    if (a->choose != CET_CHOOSE_CV && a->confidence >= 0)
        cli_warn("--confidence %g cannot apply: it is the level of --choose cv's rule, and "
                 "best.json is the search's best here", a->confidence);
    if (a->choose != CET_CHOOSE_CV && a->tolerance >= 0)
        cli_warn("--tolerance %g cannot apply: it is part of --choose cv's rule, and best.json "
                 "is the search's best here", a->tolerance);
    if (a->fold_evals && !a->folds && a->choose != CET_CHOOSE_CV)
        cli_warn("--fold-evals %ld cannot apply: there are no folds (--choose search without "
                 "--folds)", a->fold_evals);
    return 0;
}

/* Checks the options, the description, the seeds and the validation corpora
 * (only scanned: they are loaded when the run ends). */
int evolve_new_run(struct cet_run **run, const struct evolve_args *a)
{
    struct cet_error err;
    struct cet_entries ve = {0};
    if (!a->params)
        return cli_usage("evolve", "give a parameter description with -p PARAMS.json (or "
                                   "--resume runs/NAME)");
    if (!a->dirs.n)
        return cli_usage("evolve", "give at least one corpus with -d CORPUS");
    if (a->sample && a->sample_size >= 0)
        return cli_usage("evolve", "-s FILE and --sample-size N exclude each other");
    if (a->by_package && a->sample_size < 0)
        return cli_usage("evolve", "--by-package shapes a drawn sample: it needs --sample-size N");
    int rc = cli_readable(a->params);
    if (rc)
        return rc;
    if (cet_run_new(run, a->params, &a->opt, &err)) {
        cli_error("%s", err.msg);
        return CLI_USAGE;
    }
    int bad = a->validate.n && cet_corpus_scan(&ve, a->validate.v, a->validate.n, &err);
    cet_entries_free(&ve);
    if (bad) {
        cli_error("--validate: %s", err.msg);
        return CLI_RUNTIME;
    }
    rc = evolve_seed_configs(*run, &a->seed_configs);
    if (!rc && cet_run_check(*run, &err))
        rc = cli_usage("evolve", "%s", err.msg);
    return rc ? rc : evolve_check_folds(a->folds, &a->dirs, a->sample, a->sample_size);
}
