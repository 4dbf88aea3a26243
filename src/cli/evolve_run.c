/* cetune evolve's run from its first generation (or where it was
 * resumed) to its end: the generations with the progress line, then the
 * tables, the validation, or what to do after an interruption or an error.
 * A signal abandons the generation in progress and exits 128 + the signal
 * after printing the resume command (with --race, a raced generation is
 * kept after its last block and the resumed run goes on from there). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/run.h"
#include "cli.h"
#include "evolve.h"

/* Generations until the engine stops or a signal arrives, then the results. */
int evolve_run_loop(struct cet_run *run, int threads)
{
    const struct cet_search *engine = cet_run_search(run);
    const char *dir = cet_run_dir(run);
    struct cet_error err;
    int r = 0;
    struct cli_progress pr;
    cli_progress_start(&pr, engine, NULL);
    cet_run_set_cancel(run, cli_cancelled, NULL);
    struct cet_search_status st;
    while (!cet_run_stopped(run) && !cli_signal && !(r = cet_run_step(run, &err)))
        cli_progress_print(&pr, engine);
    cli_progress_end(&pr, engine);
    cet_search_status(engine, &st);
    if (r < 0) {
        /* Every file is whole (atomic writes): the last checkpoint on disk still resumes. */
        cli_error("%s", err.msg);
        fprintf(stderr, "cetune: the run can go on from its last checkpoint once the files "
                        "can be written: cetune evolve --resume %s\n", dir);
        return CLI_RUNTIME;
    }
    if (cli_signal && !cet_run_stopped(run)) {
        if (cet_run_interrupt(run, &err))
            cli_error("%s", err.msg);
        fprintf(stderr, "cetune: interrupted by %s after %ld complete generation%s; "
                        "the checkpoint is in %s/checkpoint.json\n"
                        "cetune: resume with: cetune evolve --resume %s\n",
                cli_signal_name(), st.gen + 1, st.gen == 0 ? "" : "s", dir, dir);
        if (st.race_pending)
            fprintf(stderr, "cetune: the raced generation %ld is kept after %zu of %zu documents; "
                            "the resumed run goes on from there\n",
                    st.gen + 1, st.race_done, st.race_ndocs);
        return 128 + cli_signal;
    }
    if (cet_run_finish(run, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    cli_print_run(run);
    int rc = cet_run_info(run)->nvalidate ? cli_validate_run(run, threads) : 0;
    if (!rc && fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        return CLI_RUNTIME;
    }
    return rc;
}

int evolve_resume(const char *dir, const char *command, int threads)
{
    struct cet_run *run = NULL;
    struct cet_error err;
    int rc = CLI_RUNTIME;
    if (cet_run_open(&run, dir, threads, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    cli_catch_signals();
    const struct cet_search *engine = cet_run_search(run);
    struct cet_search_status st;
    cet_search_status(engine, &st);
    if (cet_run_stopped(run)) {
        cet_rundir_remove_temporaries(dir);
        fprintf(stderr, "cetune: %s has finished already (stopped by %s); nothing to resume\n",
                dir, cet_search_stop_name(st.stop));
        cli_print_run(run);
        /* A validation that was interrupted or failed is done now. */
        rc = cet_run_needs_validation(run) ? cli_validate_run(run, threads) : 0;
        goto done;
    }
    cet_run_set_backend(run, cli_backend());
    int bad = cet_run_resume(run, command, &err);
    cli_print_skips(cet_run_train(run));
    if (bad) {
        cli_error("%s", err.msg);
        goto done;
    }
    if (!cet_run_info(run)->data_recorded)
        fprintf(stderr, "cetune: note: %s/checkpoint.json records no digests of the pages and gold "
                        "(it is older than they are): whether they changed since the run started "
                        "is not checked\n", dir);
    cet_search_status(engine, &st); /* the training sample is loaded: racing knows its documents */
    /* Counted as the progress line and the interruption count them:
     * complete generations, from 1. */
    if (st.gen < 0)
        fprintf(stderr, "cetune: resuming %s before its first generation is complete "
                        "(%ld evaluation%s so far)\n", dir, st.evals, cli_s((size_t)st.evals));
    else
        fprintf(stderr, "cetune: resuming %s after %ld complete generation%s (%ld evaluation%s "
                        "so far)\n", dir, st.gen + 1, cli_s((size_t)st.gen + 1), st.evals,
                cli_s((size_t)st.evals));
    if (cet_run_info(run)->folds && st.gen < 0 && (rc = evolve_folds(run)))
        goto done;
    if (st.race_pending)
        fprintf(stderr, "cetune: generation %ld was raced on %zu of %zu documents; it goes on "
                        "from there\n", st.gen + 1, st.race_done, st.race_ndocs);
    rc = evolve_run_loop(run, threads);
done:
    cet_run_free(run);
    return rc;
}

/* The progress of the fold runs: one line per fold on a terminal, labelled. */
struct fold_progress {
    struct cli_progress pr;
    const struct cet_search *engine; /* the fold run's once it printed, valid only until it ends */
    char label[32];
};

static void fold_line(void *ctx, size_t k, size_t K, const struct cet_fold *f, const char *fdir)
{
    struct fold_progress *fp = ctx;
    if (fp->engine) /* the last fold printed a line; its run (and GA) is freed by now */
        cli_progress_end(&fp->pr, NULL);
    fp->engine = NULL;
    snprintf(fp->label, sizeof fp->label, "fold %zu", k + 1);
    cli_progress_start(&fp->pr, NULL, fp->label);
    fprintf(stderr, "cetune: fold %zu of %zu: the search on %zu documents, %zu held out (%s)\n", k + 1,
            K, f->train_docs, f->heldout_docs, fdir);
}

static void fold_generation(void *ctx, const struct cet_search *engine)
{
    struct fold_progress *fp = ctx;
    fp->engine = engine;
    cli_progress_print(&fp->pr, engine);
}

int evolve_folds(struct cet_run *run)
{
    const char *dir = cet_run_dir(run);
    struct cet_fold *f = NULL;
    struct cet_error err;
    size_t K = (size_t)cet_run_info(run)->folds, ndocs = cet_run_train(run)->ndocs;
    cet_run_set_cancel(run, cli_cancelled, NULL);
    struct fold_progress fp = {0};
    cet_run_set_progress(run, fold_generation, &fp);
    int rc = cet_run_folds(run, fold_line, &fp, &f, &err);
    if (fp.engine) /* the last fold's run is freed: its history is gone, but its line was printed */
        cli_progress_end(&fp.pr, NULL);
    cet_run_set_progress(run, NULL, NULL);
    if (rc < 0) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    if (rc) {
        if (cet_run_interrupt(run, &err))
            cli_error("%s", err.msg);
        fprintf(stderr, "cetune: interrupted by %s during the folds; each fold keeps its "
                        "checkpoint\ncetune: resume with: cetune evolve --resume %s\n",
                cli_signal_name(), dir);
        return 128 + cli_signal;
    }
    const struct cet_run_info *info = cet_run_info(run);
    const struct cet_choice *e = &info->estimate, *se = &info->site_estimate;
    int site = info->has_site_estimate; /* the start with its folds' site rules, the fallback */
    size_t held = 0;
    for (size_t k = 0; k < K; k++)
        held += f[k].heldout_docs;
    if (held < ndocs) /* --fitness template: only pages with gold of their own are held out */
        printf("cross-validation over %zu folds of the %zu training documents with gold of their "
               "own;\nthe %zu on pseudo-gold train in every fold (%s, %s)\n\n", K, held,
               ndocs - held, CET_RUN_FOLDS, CET_RUN_HELDOUT_PAGES);
    else
        printf("cross-validation over %zu folds of the %zu training documents (%s, %s)\n\n", K,
               ndocs, CET_RUN_FOLDS, CET_RUN_HELDOUT_PAGES);
    printf("%4s  %6s  %7s  %8s  %10s  %10s  %8s", "fold", "train", "held", "training",
           "held-out", "held-out", "gain");
    printf(site ? "  %10s\n" : "\n", "held-out");
    printf("%4s  %6s  %7s  %8s  %10s  %10s  %8s", "", "docs", "docs", "fitness", "F1 best",
           "F1 start", "");
    printf(site ? "  %10s\n" : "\n", "start+site");
    for (size_t k = 0; k < K; k++) {
        printf("%4zu  %6zu  %7zu  %8.4f  %10.4f  %10.4f  %+8.4f", k + 1, f[k].train_docs,
               f[k].heldout_docs, f[k].train_fitness, f[k].heldout_f1, f[k].heldout_f1_start,
               f[k].heldout_f1 - f[k].heldout_f1_start);
        printf(site ? "  %10.4f\n" : "\n", f[k].heldout_f1_start_site);
    }
    printf("\nestimate on unseen pages: %+.4f F1 over the start", cet_choice_round(e->gain));
    if (!isnan(e->lo))
        printf(" (%.0f%% interval %+.4f to %+.4f, %zu pages)", 100 * e->level,
               cet_choice_round(e->lo), cet_choice_round(e->hi), e->n);
    if (site)
        printf("\n  the start with site rules alone: %+.4f", cet_choice_round(se->gain));
    printf("\n\n");
    fflush(stdout);
    free(f);
    return 0;
}
