/* cetune evolve: tunes an extractor's parameters with the search engine
 * (src/search) on a training sample, in a run directory (src/run/run.c says
 * what is written when).  This file keeps the options (the search options
 * are the library's table, cet_search_options) and starts a new run;
 * evolve_start.c checks what a new run is given, evolve_run.c steps it to
 * its end, resumes one and prints its folds (src/run/folds.c runs them),
 * run_print.c prints the progress line and the tables.
 * --validate directories are scanned before evolving, so a typo does not
 * cost a whole run. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "cetune/run.h"
#include "cli.h"
#include "evolve.h"

#define ARG(field) offsetof(struct evolve_args, field)

static const char *const fitnesses[] = {"gold", "template", NULL};

static void init(void *p)
{
    struct evolve_args *a = p;
    cet_search_default_options(&a->opt); /* the strategy by the description, its own population */
    a->holdout = -1; /* the deprecated --holdout, not given */
    a->choose = -1;
    a->confidence = -1;
    a->tolerance = -1;
    a->sample_size = -1;
    a->top = 5;
    a->progress = cli_progress_every;
}

/* The option table (cli.h): one row per option; the search options come
 * from the library's table after the first five rows (evolve_options). */
static const struct cli_opt own[] = {
    {.name = "params", .letter = 'p', .arg = "PARAMS.json", .type = CLI_STR, .off = ARG(params),
     .flags = CLI_REQ,
     .help = "the parameter description: which parameters evolve, within which ranges"},
    {.name = "dir", .letter = 'd', .arg = "CORPUS", .type = CLI_LIST, .off = ARG(dirs),
     .flags = CLI_REQ | CLI_MANY, .help = "a training corpus directory; repeatable"},
    {.name = "sample", .letter = 's', .arg = "SAMPLE", .type = CLI_STR, .off = ARG(sample),
     .def = "every document of -d", .help = "train on the documents this sample file lists"},
    {.name = "sample-size", .arg = "N", .type = CLI_LONG, .off = ARG(sample_size), .min = 1,
     .max = 100000000, .def = "every document of -d",
     .help = "train on N documents drawn with --seed, in proportion to the packages"},
    {.name = "by-package", .type = CLI_FLAG, .off = ARG(by_package),
     .help = "with --sample-size, draw the same number of documents per package"},
    /* Here the search options of the library's table (cet_search_options). */
    {.name = "no-race", .type = CLI_FLAG, .off = ARG(no_race),
     .help = "evaluate every individual on every document"},
    {.name = "seed-config", .arg = "FILE", .type = CLI_LIST, .off = ARG(seed_configs),
     .flags = CLI_MANY, .help = "a configuration (e.g. a best.json) added to generation 0; "
                                "repeatable"},
    {.name = "choose", .type = CLI_ENUM, .off = ARG(choose), .values = cet_choose_names,
     .def = "cv; search with --objective, --constraint, --pareto, --fitness template",
     .help = "how best.json is chosen: cv, the search's best only if cross-validation shows "
             "it beats the start (the defaults or the first --seed-config) on held-out pages, "
             "else the start (docs/choice.md); search, the search's best training fitness"},
    {.name = "folds", .arg = "K", .type = CLI_LONG, .off = ARG(folds), .min = 2, .max = 100,
     .def = "5, one per document below 5", .help = "first run the search on K-1 of K folds of "
                            "the training documents, K times, and score it on the held-out "
                            "fold against the start (with --choose search: only printed)"},
    {.name = "confidence", .arg = "L", .type = CLI_DOUBLE, .off = ARG(confidence), .min = 0.5,
     .max = 0.999, .def = "0.8", .help = "the confidence level of the interval of the gain on "
                                         "unseen pages; --choose cv keeps the start unless the "
                                         "interval lies above 0 (above -E with --tolerance E)"},
    {.name = "tolerance", .arg = "E", .type = CLI_DOUBLE, .off = ARG(tolerance), .max = 0.5,
     .def = "0", .help = "the loss on unseen pages --choose cv accepts: the tuned configuration "
                         "is adopted when its mean gain is above 0 and the interval's lower end "
                         "above -E; 0: only a gain beyond doubt"},
    {.name = "no-site", .type = CLI_FLAG, .off = ARG(no_site),
     .help = "learn no site rules: a tuned best.json is parameters alone (by default it also "
             "carries the template slots the training pages' gold always keeps or drops, "
             "docs/site.md; never with --objective, --constraint or --pareto; with --fitness "
             "template, learned from the pages with gold)"},
    {.name = "no-guard", .type = CLI_FLAG, .off = ARG(no_guard),
     .help = "site rules without their guard: by default, a run from a --seed-config keeps the "
             "start's judgement where the training pages' gold shows nothing (a block the "
             "start's parameters drop outside the slots where the gold holds text stays "
             "dropped, docs/site.md; with --fitness template, learned from the pages with "
             "gold)"},
    {.name = "fold-evals", .arg = "N", .type = CLI_LONG, .off = ARG(fold_evals),
     .max = 1000000000, .def = "0, as --max-evals",
     .help = "stop each fold's search after N evaluations; 0: as the run's search"},
    {.name = "holdout", .arg = "F", .type = CLI_DOUBLE, .off = ARG(holdout), .max = 0.5,
     .def = "none", .help = "deprecated: F > 0 is --folds round(1/F), 0 is --choose search"},
    {.name = "threads", .arg = "N", .type = CLI_LONG, .off = ARG(threads), .max = 1024,
     .forms = 3, .help = "threads, which never change the results; 0: all cores"},
    {.name = "quiet", .letter = 'q', .type = CLI_FLAG, .off = ARG(quiet), .forms = 3,
     .help = "no progress lines"},
    {.name = "progress", .arg = "SECONDS", .type = CLI_FUNC, .off = ARG(progress),
     .parse = cli_parse_seconds, .forms = 3, .def = "60",
     .help = "when stderr is not a terminal, a progress line at most every SECONDS (0: every "
             "generation)"},
    {.name = "top", .arg = "N", .type = CLI_LONG, .off = ARG(top), .min = 1, .max = 1000,
     .help = "distinct individuals in top.json, the final table and the validation"},
    {.name = "fitness", .type = CLI_ENUM, .off = ARG(fitness), .values = fitnesses,
     .help = "train against: gold, the gold files; template, their family's pseudo-gold for "
             "pages without gold (docs/template.md)"},
    {.name = "template-ref", .arg = "CONFIG.json", .type = CLI_LIST, .off = ARG(template_refs),
     .flags = CLI_MANY, .def = "the shipped configuration",
     .help = "with --fitness template: an extraction the family's repetition corrects, after "
             "the description's defaults, which decide what they disagree on; repeatable"},
    {.name = "no-template-defaults", .type = CLI_FLAG, .off = ARG(no_template_defaults),
     .help = "with --fitness template: the description's defaults are not a reference"},
    {.name = "validate", .arg = "CORPUS", .type = CLI_LIST, .off = ARG(validate),
     .flags = CLI_MANY, .help = "when the run ends, score the best individuals and the defaults "
                                "on this corpus into validation.csv; repeatable"},
    {.name = "output", .letter = 'o', .arg = "runs/NAME", .type = CLI_STR, .off = ARG(out),
     .def = "runs/EXTRACTOR-DATE-TIME", .help = "the run directory"},
    {.name = "force", .type = CLI_FLAG, .off = ARG(force),
     .help = "reuse an existing run directory, removing the files of the earlier run"},
    {.name = "resume", .arg = "runs/NAME", .type = CLI_STR, .off = ARG(resume), .flags = CLI_REQ,
     .forms = 2, .help = "continue the interrupted run in runs/NAME, exactly as if it had not stopped"},
    {0}};

/* own's rows up to -s/--sample-size/--by-package, the search options, then
 * the rest of own. */
static const struct cli_opt *evolve_options(void)
{
    static struct cli_opt rows[128];
    static size_t n;
    if (n)
        return rows;
    size_t k = 0, split = 5;
    while (own[k].name && k < split)
        rows[n++] = own[k++];
    n += cli_search_rows(rows + n, sizeof rows / sizeof *rows - n - 32, ARG(opt));
    while (own[k].name && n + 1 < sizeof rows / sizeof *rows)
        rows[n++] = own[k++];
    return rows;
}

/* On pseudo-gold, the folds hold out only the documents with gold of their
 * own (*ndocs becomes their number): below 2, no fold can. */
static int labelled_docs(struct evolve_args *a, const struct cet_corpus *c,
                         const struct cet_entries *e, size_t *ndocs)
{
    struct cet_error err;
    uint8_t *own = malloc(c->ndocs + 1);
    size_t n = 0;
    if (!own || cet_corpus_labelled(c, e, own, &n, &err)) {
        free(own);
        cli_error("out of memory");
        return CLI_RUNTIME;
    }
    free(own);
    *ndocs = n;
    if (a->folds && (size_t)a->folds > n)
        return cli_usage("evolve", "--folds %ld: with --fitness template the folds hold out only "
                                   "the training documents with gold of their own, and %zu of "
                                   "the %zu have it", a->folds, n, c->ndocs);
    if (n < 2 && a->choose == CET_CHOOSE_CV) {
        fprintf(stderr, "cetune: %zu of the %zu training documents %s gold of %s own, and "
                        "cross-validation needs 2: best.json will be the search's best, with no "
                        "estimate for unseen pages\n", n, c->ndocs, n == 1 ? "has" : "have",
                n == 1 ? "its" : "their");
        a->choose = CET_CHOOSE_SEARCH;
        a->folds = a->holdout_folds = 0;
    }
    return 0;
}

/* Pages skipped for want of gold beside pages with it: the crawl of a
 * family with a few labelled, which --fitness template would use too. */
static void hint_template(const struct cet_corpus *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nskips; i++)
        n += !strcmp(c->skips[i].reason, CET_NO_GOLD);
    if (n)
        fprintf(stderr, "cetune: %zu page%s had no gold: with --fitness template the search "
                        "trains on %s too, on %s family's repetition, and the folds still judge "
                        "it on the pages with gold (docs/template.md)\n",
                n, n == 1 ? "" : "s", n == 1 ? "it" : "them", n == 1 ? "its" : "their");
}

static int cmd_evolve(int argc, char **argv);
const struct cli_command cli_evolve = {
    .name = "evolve", .run = cmd_evolve, .table = evolve_options, .size = sizeof(struct evolve_args),
    .init = init, .summary = "tune an extractor's parameters with the genetic algorithm",
    .about = "Evolves the parameters that PARAMS.json describes on the training documents and "
             "writes the run\ndirectory: run.json, generations.csv, individuals.csv, top.json, "
             "best.json, sample.txt,\ncheckpoint.json.  Ctrl-C keeps the last complete "
             "generation; --resume finishes the run."};

static int cmd_evolve(int argc, char **argv)
{
    struct evolve_args a;
    struct cet_run *run = NULL;
    struct cet_corpus corpus = {0};
    struct cet_entries entries = {0};
    struct cet_error err;
    char *dir = NULL, *cmd = NULL, **folds = NULL;
    size_t nfold = 0;
    int r = 0, rc = cli_parse(&cli_evolve, &a, argc, argv);
    if (rc)
        goto done;
    cli_quiet = a.quiet;
    cli_progress_every = a.progress;
    if (a.no_race)
        a.opt.race = 0;
    if (!a.resume && (rc = evolve_choice_options(&a)))
        goto done;
    /* The rules correct mean F1 against gold (docs/site.md); on pseudo-gold
     * they, and the guard, learn from the pages with gold of their own
     * (measured with and without the guard there: docs/experiment.md,
     * "Semi-supervised runs"). */
    int site = !a.no_site && cet_goal_judged_by_f1(&a.opt.goal), guard = !a.no_guard;
    /* Where the guard holds tuning to what the labelled pages showed, a
     * lighter pull toward the start pays (docs/experiment.md, "Held slots"). */
    if (!a.resume && a.opt.goal.shrink < 0 && a.seed_configs.n && site && guard && !a.opt.race)
        a.opt.goal.shrink = CET_SHRINK_GUARDED;
    if ((rc = cli_adhosts(NULL)))
        goto done;
    if (!a.threads)
        a.threads = omp_get_max_threads();
    if (a.resume) {
        if (!(cmd = cli_command_line(argc, argv)))
            goto oom;
        rc = evolve_resume(a.resume, cmd, (int)a.threads);
        goto done;
    }
    if ((rc = evolve_new_run(&run, &a)))
        goto done;
    const struct cet_params_desc *d = cet_search_desc(cet_run_search(run));
    rc = CLI_RUNTIME;
    if (!(dir = cet_run_dir_name(run, a.out)))
        goto oom;
    if ((rc = evolve_guard_dir(&a.dirs, &a.validate, dir)))
        goto done;
    rc = CLI_RUNTIME;
    /* The directory is the run's from now on (an unwritable -o fails at
     * once, and a second run cannot clobber the first's files). */
    if ((r = cet_run_claim(run, dir, a.force, &err)))
        goto dir_error;
    cli_catch_signals();
    unsigned flags = d->ex->load;
    char shipped[4096];
    if (a.fitness &&
        (rc = cli_template_scan(&entries, a.dirs.v, a.dirs.n, &a.template_refs,
                                a.no_template_defaults ? NULL : d, shipped, sizeof shipped,
                                (int)a.threads, &flags)))
        goto done;
    if (a.sample_size >= 0)
        rc = cli_sample_corpus(&corpus, &entries, a.dirs.v, a.dirs.n, (size_t)a.sample_size,
                               a.opt.seed, a.by_package, flags, (int)a.threads, cli_backend());
    else
        rc = cli_load_corpus(&corpus, &entries, a.dirs.v, a.dirs.n, a.sample, flags,
                             (int)a.threads, cli_backend());
    cet_run_set_backend(run, cli_backend());
    if (rc)
        goto done;
    rc = CLI_RUNTIME;
    if (!(cmd = cli_command_line(argc, argv)))
        goto oom;
    size_t ndocs = corpus.ndocs;
    if (a.fitness && (rc = labelled_docs(&a, &corpus, &entries, &ndocs)))
        goto done;
    if (!a.fitness)
        hint_template(&corpus);
    rc = CLI_RUNTIME;
    if (a.holdout_folds && !a.folds)
        a.folds = (size_t)a.holdout_folds < ndocs ? a.holdout_folds : (long)ndocs;
    if (a.folds == 1)
        a.folds = 0;
    if (a.choose == CET_CHOOSE_CV && !a.folds)
        a.folds = cet_choose_default_folds(ndocs);
    if (a.choose == CET_CHOOSE_CV && !a.folds) {
        fprintf(stderr, "cetune: one training document cannot be cross-validated: best.json "
                        "will be the search's best, with no estimate for unseen pages\n");
        a.choose = CET_CHOOSE_SEARCH;
    }
    if (a.folds && cet_run_fold_args(&folds, &nfold, a.params, a.dirs.v, a.dirs.n,
                                     a.seed_configs.v, a.seed_configs.n,
                                     cet_search_opts(cet_run_search(run)), a.top, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    struct cet_run_settings s = {
        .dirs = a.dirs.v, .ndirs = a.dirs.n, .sample_from = a.sample,
        .sample_size = a.sample_size, .by_package = a.by_package, .validate = a.validate.v,
        .nvalidate = a.validate.n, .top = (size_t)a.top, .command = cmd,
        .threads = (int)a.threads, .folds = a.folds, .fold_args = folds, .nfold_args = nfold,
        .template_refs = a.fitness ? a.template_refs.v : NULL,
        .ntemplate_refs = a.template_refs.n, .template_defaults = !a.no_template_defaults,
        .choose = a.choose, .confidence = a.confidence > 0 ? a.confidence : 0,
        .tolerance = a.tolerance >= 0 ? a.tolerance : CET_CHOICE_TOLERANCE,
        .fold_evals = a.fold_evals, .site = site, .guard = guard};
    if ((r = cet_run_start(run, &s, &corpus, &entries, &err)))
        goto dir_error;
    fprintf(stderr, "cetune: evolving %s (%zu parameter%s) on %zu documents: population %zu, "
                    "seed %llu, run directory %s\n",
            d->ex->name, d->ngenes, d->ngenes == 1 ? "" : "s", ndocs,
            cet_search_opts(cet_run_search(run))->pop,
            (unsigned long long)a.opt.seed, dir);
    if (a.folds && (rc = evolve_folds(run)))
        goto done;
    if (a.opt.race)
        fprintf(stderr, "cetune: racing new individuals against the best: a sign-flip test at "
                        "alpha %g after its pages below F1 %g and %zu documents, then every "
                        "%zu\n",
                a.opt.race_alpha, a.opt.race_weak, a.opt.race_first, a.opt.race_block);
    rc = evolve_run_loop(run, (int)a.threads);
    goto done;
dir_error:
    if (r == CET_EEXISTS)
        cli_error("%s; use --force to overwrite it, or --resume %s to continue it", err.msg, dir);
    else
        cli_error("%s", err.msg);
    goto done;
oom:
    cli_error("out of memory");
done:
    cet_run_free(run);
    cet_corpus_free(&corpus);
    cet_entries_free(&entries);
    cli_list_free(&a.dirs);
    cli_list_free(&a.seed_configs);
    cli_list_free(&a.validate);
    cli_list_free(&a.template_refs);
    free(dir);
    free(cmd);
    cet_run_fold_args_free(folds, nfold);
    return rc;
}
