/* Cross-validation of a run (evolve --folds K; by default the final
 * choice's, docs/choice.md): how much will tuning gain on documents it has
 * not seen?  Before the final run on all training documents, the whole
 * search runs K times (cet_folds_split, src/space/split.c), each time on K-1
 * folds; each fold's best and the start (the defaults or the first
 * --seed-config) are then scored on the held-out fold.
 *
 * - Fold k is a run directory of its own, DIR/folds/k, holding train.txt
 *   and heldout.txt (PACKAGE/NAME lists) beside the usual run files, so
 *   `cetune evaluate -c DIR/folds/k/best.json -s DIR/folds/k/heldout.txt`
 *   reproduces its held-out figure and an interrupted fold resumes from its
 *   own checkpoint (resuming the run resumes the folds first).
 * - A fold's run has the run's search options (its evaluations capped by
 *   --fold-evals), its parameter description and the --seed-config files of
 *   its fold arguments (cet_run_fold_args, which run.json keeps); its own
 *   sample is the fold's train.txt, and it keeps its search's best.
 * - DIR/folds.csv: fold, train_docs, heldout_docs, train_fitness (the fold
 *   best's objective on its K-1 folds), heldout_f1 (its mean word F1 on the
 *   held-out fold), heldout_f1_start, gain (heldout_f1 - heldout_f1_start),
 *   and with site rules heldout_f1_start_site (the start's with the rules
 *   learned from the K-1 folds as corrections of it).
 * - DIR/heldout.csv: every page with its fold, the start's F1, the fold
 *   best's, their difference, and with site rules the start's with its
 *   fold's rules.  Each page is held out once, so these are
 *   paired per-page gains of the tuning procedure on pages it did not see:
 *   the rule of choice.h decides on them (the run's estimate).
 * - The folds estimate the tuning procedure, not one setting: a fold's best
 *   saw only (K-1)/K of the documents, and picking the setting that did
 *   best on held-out folds would spend those folds on selection, so the
 *   estimate would no longer be unbiased.  The final search on all
 *   documents gives the setting exported when the rule says tuning pays. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cetune/config.h"
#include "cetune/eval.h"
#include "cetune/split.h"
#include "cetune/template.h"
#include "run_internal.h"
#include "util/array.h"

/* A growing list of allocated words; oom once an allocation failed. */
struct words {
    char **v;
    size_t n, cap;
    int oom;
};

static void add_word(struct words *w, char *s)
{
    if (!s || CET_GROW(w->v, w->cap, w->n + 1, 64)) {
        free(s);
        w->oom = 1;
        return;
    }
    w->v[w->n++] = s;
}

static void word(struct words *w, const char *s)
{
    add_word(w, strdup(s));
}

/* The absolute path of s (s itself when it cannot be resolved). */
static void path_word(struct words *w, const char *s)
{
    char *p = realpath(s, NULL);
    add_word(w, p ? p : strdup(s));
}

/* An option and its value: a number or a name. */
static void option(struct words *w, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void option(struct words *w, const char *name, const char *fmt, ...)
{
    char v[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    word(w, name);
    if (n < 0 || (size_t)n >= sizeof v)
        w->oom = 1; /* cannot happen with the numbers and names above */
    else
        word(w, v);
}

int cet_run_fold_args(char ***args, size_t *nargs, const char *params, const char *const *dirs,
                      size_t ndirs, const char *const *seed_configs, size_t nseed_configs,
                      const struct cet_search_options *o, long top, struct cet_error *err)
{
    struct words w = {0};
    word(&w, "-p");
    path_word(&w, params);
    for (size_t i = 0; i < ndirs; i++) {
        word(&w, "-d");
        path_word(&w, dirs[i]);
    }
    for (size_t i = 0; i < nseed_configs; i++) {
        word(&w, "--seed-config");
        path_word(&w, seed_configs[i]);
    }
    char **opts = NULL;
    size_t nopts = 0;
    if (cet_search_options_argv(o, &opts, &nopts, err)) {
        cet_run_fold_args_free(w.v, w.n);
        return -1;
    }
    for (size_t i = 0; i < nopts; i++)
        add_word(&w, opts[i]);
    free(opts);
    option(&w, "--top", "%ld", top);
    *args = w.v;
    *nargs = w.n;
    if (w.oom) {
        cet_run_fold_args_free(w.v, w.n);
        *args = NULL;
        *nargs = 0;
        return cet_fail(err, "out of memory");
    }
    return 0;
}

void cet_run_fold_args_free(char **args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(args[i]);
    free(args);
}

static int write_list(const char *path, const struct cet_corpus *c, const uint32_t *fold,
                      uint32_t k, int held, struct cet_error *err)
{
    struct cet_buf b = {0};
    int rc = 0;
    for (size_t i = 0; i < c->ndocs && !rc; i++)
        if ((fold[i] == k) == held)
            rc = cet_sample_line(&b, c->docs[i]->package, c->docs[i]->name);
    rc = rc ? cet_fail(err, "out of memory") : cet_write_atomic(path, b.p ? b.p : "", b.len, err);
    cet_buf_free(&b);
    return rc;
}

/* A held-out page: its name (PACKAGE/NAME), fold (1-based), and F1 with
 * the start and with its fold's best (a row of heldout.csv). */
struct page {
    char *name;
    uint32_t fold;
    double start, tuned, start_site; /* start_site: NaN without site rules */
    int no_text;                     /* its gold holds no word: not counted by the rule */
};
/* The held-out pages of all folds, in fold order: the rule's input (choice.h). */
typedef CET_ARRAY(struct page) pages_t;

static void pages_free(pages_t *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].name);
    free(p->v);
    memset(p, 0, sizeof *p);
}

/* Mean word F1 of configuration best (with site, the site rules its run
 * learned) and of the start on the documents heldout lists, loaded and
 * scored in this process; each page's F1 is appended to pages as fold k
 * (1-based), with the start's under the rules start_site learned for it
 * when site_learn. */
static int heldout_f1(const struct cet_run_info *run, const struct cet_params_desc *desc,
                      const char *heldout, const double *best, const struct cet_site *site,
                      const struct cet_site *start_site, uint32_t k, pages_t *pages,
                      double *f_best, double *f_start, double *f_start_site, int threads,
                      struct cet_error *err)
{
    struct cet_corpus c = {0};
    struct cet_entries e = {0};
    struct cet_evaluator *ev = NULL;
    struct cet_score *sc = NULL;
    double *start = malloc((desc->ex->nparams + 1) * sizeof *start);
    int rc = -1;
    if (!start) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (cet_corpus_load_dirs(&c, &e, (const char *const *)run->dirs, run->ndirs, heldout,
                             desc->ex->load, threads, NULL, err))
        goto done;
    if (!c.ndocs) {
        cet_fail(err, "%s: no document could be loaded", heldout);
        goto done;
    }
    cet_params_expand(desc, run->start, start);
    if (!(sc = malloc(3 * c.ndocs * sizeof *sc))) {
        cet_fail(err, "out of memory");
        goto done;
    }
    /* The fold's best with the site rules its run learned, the start without. */
    if (cet_evaluator_new(&ev, &c, desc->ex, CET_METRIC_WORD, threads, err) ||
        cet_evaluator_set_site(ev, site, err) ||
        cet_evaluate(ev, best, 1, NULL, 0, sc, f_best, NULL, NULL, err) ||
        cet_evaluator_set_site(ev, NULL, err) ||
        cet_evaluate(ev, start, 1, NULL, 0, sc + c.ndocs, f_start, NULL, NULL, err))
        goto done;
    if (run->site_learn &&
        (cet_evaluator_set_site(ev, start_site, err) ||
         cet_evaluate(ev, start, 1, NULL, 0, sc + 2 * c.ndocs, f_start_site, NULL, NULL, err)))
        goto done;
    if (!run->site_learn)
        *f_start_site = NAN;
    rc = 0;
    for (size_t i = 0; i < c.ndocs && !rc; i++) {
        struct cet_buf name = {0};
        struct page pg = {NULL, k, sc[c.ndocs + i].f1, sc[i].f1,
                          run->site_learn ? sc[2 * c.ndocs + i].f1 : NAN, !c.docs[i]->ngold};
        rc = cet_buf_printf(&name, "%s/%s", c.docs[i]->package, c.docs[i]->name) ||
             (pg.name = name.p, CET_PUSH(*pages, pg));
        if (rc)
            cet_buf_free(&name);
    }
    rc = rc ? cet_fail(err, "out of memory") : 0;
done:
    free(start);
    free(sc);
    cet_evaluator_free(ev);
    cet_corpus_free(&c);
    cet_entries_free(&e);
    return rc;
}

/* The backend the run evaluates with, or NULL (this process). */
static const struct cet_backend *backend(const struct cet_run *run)
{
    return run->be.load ? &run->be : NULL;
}

/* Starts fold run *out in fdir on the documents train lists: the run's
 * description, GA options and seed configurations. */
static int fold_start(struct cet_run **out, struct cet_run *run, const char *fdir,
                      const char *train, const char *command, struct cet_error *err)
{
    const struct cet_run_info *info = &run->info;
    struct cet_corpus c = {0};
    struct cet_entries e = {0};
    char *params = realpath(info->params_path, NULL);
    int rc = -1;
    /* The fold's search: the run's, within the fold budget (--fold-evals). */
    struct cet_search_options o = *cet_search_opts(run->engine);
    if (info->fold_evals > 0 && (!o.max_evals || o.max_evals > info->fold_evals))
        o.max_evals = info->fold_evals;
    if (cet_run_new(out, params ? params : info->params_path, &o, err))
        goto done;
    for (size_t i = 0; i + 1 < info->nfold_args; i++)
        if (!strcmp(info->fold_args[i], "--seed-config")) {
            uint8_t *ignored = NULL;
            int bad = cet_run_add_seed_config(*out, info->fold_args[++i], &ignored, err);
            free(ignored);
            if (bad)
                goto done;
        }
    if (cet_run_check(*out, err) || cet_run_claim(*out, fdir, 1, err))
        goto done;
    cet_run_set_backend(*out, backend(run));
    /* On pseudo-gold, the fold makes it as the run did: the same pages and
     * references give the same gold (its held-out pages are scored against
     * their own, heldout_f1). */
    unsigned flags = run->desc.ex->load;
    if (info->template_refs) {
        if (cet_template_scan(&e, (const char *const *)info->dirs, info->ndirs,
                              (const char *const *)info->template_refs, info->ntemplate_refs,
                              info->template_defaults ? &run->desc : NULL, run->threads, err))
            goto done;
        flags |= CET_LOAD_SCANNED;
    }
    if (cet_corpus_load_dirs(&c, &e, (const char *const *)info->dirs, info->ndirs, train, flags,
                             run->threads, backend(run), err))
        goto done;
    struct cet_run_settings s = {
        .dirs = (const char *const *)info->dirs, .ndirs = info->ndirs, .sample_from = train,
        .sample_size = -1, .top = info->top, .command = command, .threads = run->threads,
        .site = info->site_learn, .guard = info->guard,
        .template_refs = (const char *const *)info->template_refs,
        .ntemplate_refs = info->ntemplate_refs, .template_defaults = info->template_defaults};
    rc = cet_run_start(*out, &s, &c, &e, err);
done:
    free(params);
    cet_corpus_free(&c);
    cet_entries_free(&e);
    return rc;
}

/* The command line that starts (or with resume, resumes) the fold in fdir,
 * for its run.json: `cetune evolve` with the fold arguments. */
static char *fold_command(const struct cet_run *run, const char *fdir, const char *train,
                          int resume)
{
    const struct cet_run_info *info = &run->info;
    struct cet_buf b = {0};
    char threads[32];
    snprintf(threads, sizeof threads, "%d", run->threads);
    int bad = cet_buf_puts(&b, "cetune evolve");
    if (resume)
        bad = bad || cet_buf_shell_word(&b, "--resume") || cet_buf_shell_word(&b, fdir);
    for (size_t i = 0; i < info->nfold_args && !resume && !bad; i++)
        bad = cet_buf_shell_word(&b, info->fold_args[i]);
    if (!resume)
        bad = bad || cet_buf_shell_word(&b, "-s") || cet_buf_shell_word(&b, train) ||
              cet_buf_shell_word(&b, "-o") || cet_buf_shell_word(&b, fdir) ||
              cet_buf_shell_word(&b, "--force");
    if (!resume && !info->site_learn)
        bad = bad || cet_buf_shell_word(&b, "--no-site");
    if (!resume && info->site_learn && !info->guard)
        bad = bad || cet_buf_shell_word(&b, "--no-guard");
    if (!resume && info->template_refs) {
        bad = bad || cet_buf_shell_word(&b, "--fitness") || cet_buf_shell_word(&b, "template");
        for (size_t i = 0; i < info->ntemplate_refs && !bad; i++)
            bad = cet_buf_shell_word(&b, "--template-ref") ||
                  cet_buf_shell_word(&b, info->template_refs[i]);
        if (!info->template_defaults)
            bad = bad || cet_buf_shell_word(&b, "--no-template-defaults");
    }
    bad = bad || cet_buf_shell_word(&b, "--threads") || cet_buf_shell_word(&b, threads);
    if (bad) {
        cet_buf_free(&b);
        return NULL;
    }
    return b.p;
}

/* Runs (or resumes) the GA of the fold in fdir to its end, telling the
 * run's progress callback of each generation and polling its cancel one.
 * 0, CET_CANCELLED (the fold's checkpoint is kept), or -1. */
static int fold_run(struct cet_run *run, const char *fdir, const char *train,
                    struct cet_error *err)
{
    struct cet_run *fr = NULL;
    char *cp = cet_run_path(fdir, CET_RUN_CHECKPOINT);
    int resume = cp && !access(cp, F_OK), rc = -1;
    char *command = cp ? fold_command(run, fdir, train, resume) : NULL;
    if (!command) {
        free(cp);
        return cet_fail(err, "out of memory");
    }
    if (resume) {
        if (cet_run_open(&fr, fdir, run->threads, err))
            goto done;
        if (cet_run_stopped(fr)) {
            rc = 0;
            goto done;
        }
        cet_run_set_backend(fr, backend(run));
        if (cet_run_resume(fr, command, err))
            goto done;
    } else if (fold_start(&fr, run, fdir, train, command, err)) {
        goto done;
    }
    cet_run_set_cancel(fr, run->cancel, run->cancel_ctx);
    int r = 0;
    while (!cet_run_stopped(fr) && !(run->cancel && run->cancel(run->cancel_ctx)) &&
           !(r = cet_run_step(fr, err)))
        if (run->progress)
            run->progress(run->progress_ctx, cet_run_search(fr));
    if (r < 0)
        goto done;
    if (!cet_run_stopped(fr)) {
        rc = cet_run_interrupt(fr, err) ? -1 : CET_CANCELLED;
        goto done;
    }
    rc = cet_run_finish(fr, err) ? -1 : 0;
done:
    free(cp);
    free(command);
    cet_run_free(fr);
    return rc;
}

/* The site rules the start gets from the training pages of fold k (those
 * not marked k in folds, with gold of their own when labelled is not NULL)
 * into *out, as corrections of what the start keeps of them (kept,
 * cet_run_local_kept); NULL when none. */
static int start_rules(const struct cet_run_local *l, uint8_t *const *kept, const uint32_t *folds,
                       const uint8_t *labelled, uint32_t k, struct cet_site **out,
                       struct cet_error *err)
{
    const struct cet_corpus *c = l->train;
    uint8_t *use = malloc(c->ndocs + 1);
    if (!use)
        return cet_fail(err, "out of memory");
    for (size_t i = 0; i < c->ndocs; i++)
        use[i] = folds[i] != k && (!labelled || labelled[i]);
    int rc = cet_run_learn_rules(c, kept, use, NULL, 0, out, err);
    free(use);
    return rc;
}

/* Fold k (0-based) of the K folds in dir, its documents marked in folds:
 * writes its lists, runs its GA, and scores its best and the defaults on
 * its held-out documents into *f; with start_kept (what the start keeps of
 * each training page, when the run learns site rules), the start with the
 * rules of its K-1 folds too (of their pages with gold of their own, on
 * pseudo-gold: labelled).  0, CET_CANCELLED, or -1. */
static int fold(struct cet_run *run, const uint32_t *folds, const uint8_t *labelled, uint32_t k,
                size_t K, const struct cet_run_local *l, uint8_t *const *start_kept,
                struct cet_fold *f,
                pages_t *pages, cet_fold_fn on_fold, void *ctx, struct cet_error *err)
{
    struct cet_buf fdir = {0};
    char *list = NULL, *heldout = NULL, *best = NULL;
    struct cet_site *ssite = NULL;
    int rc = -1;
    if (cet_buf_printf(&fdir, "%s/" CET_RUN_FOLDS_DIR "/%u", run->dir, k + 1) ||
        !(list = cet_run_path(fdir.p, CET_FOLD_TRAIN)) ||
        !(heldout = cet_run_path(fdir.p, CET_FOLD_HELDOUT)) ||
        !(best = cet_run_path(fdir.p, CET_RUN_BEST))) {
        cet_fail(err, "out of memory");
        goto done;
    }
    if (cet_mkdirs(fdir.p)) {
        cet_fail(err, "%s: cannot create: %s", fdir.p, strerror(errno));
        goto done;
    }
    if (write_list(list, &run->train, folds, k, 0, err) ||
        write_list(heldout, &run->train, folds, k, 1, err))
        goto done;
    if (on_fold)
        on_fold(ctx, k, K, f, fdir.p);
    if ((rc = fold_run(run, fdir.p, list, err)))
        goto done; /* cancelled (the fold's checkpoint is kept) or failed */
    rc = -1;
    struct cet_config cfg;
    if (cet_config_load(&cfg, best, err))
        goto done;
    f->train_fitness = cfg.has_fitness ? cfg.fitness : NAN;
    rc = (start_kept && start_rules(l, start_kept, folds, labelled, k, &ssite, err)) ||
                 heldout_f1(&run->info, &run->desc, heldout, cfg.params, cfg.site, ssite, k + 1,
                            pages, &f->heldout_f1, &f->heldout_f1_start,
                            &f->heldout_f1_start_site, run->threads, err)
             ? -1
             : 0;
    cet_config_free(&cfg);
done:
    cet_site_free(ssite);
    cet_buf_free(&fdir);
    free(list);
    free(heldout);
    free(best);
    return rc;
}

/* folds.csv: each fold's counts and means; with site rules, the start's
 * mean with its fold's rules last (as in heldout.csv). */
static int write_csv(const char *dir, const struct cet_fold *f, size_t K, int site,
                     struct cet_error *err)
{
    struct cet_buf csv = {0};
    int bad = cet_buf_puts(&csv, "fold,train_docs,heldout_docs,train_fitness,heldout_f1,"
                                 "heldout_f1_start,gain") ||
              cet_buf_puts(&csv, site ? ",heldout_f1_start_site\n" : "\n");
    for (size_t k = 0; k < K && !bad; k++)
        bad = cet_buf_printf(&csv, "%zu,%zu,%zu,%.6f,%.6f,%.6f,%.6f", k + 1, f[k].train_docs,
                             f[k].heldout_docs, f[k].train_fitness, f[k].heldout_f1,
                             f[k].heldout_f1_start, f[k].heldout_f1 - f[k].heldout_f1_start) ||
              (site && cet_buf_printf(&csv, ",%.6f", f[k].heldout_f1_start_site)) ||
              cet_buf_puts(&csv, "\n");
    int rc = bad ? cet_fail(err, "out of memory")
                 : cet_run_write_file(dir, CET_RUN_FOLDS, csv.p, csv.len, err);
    cet_buf_free(&csv);
    return rc;
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static int csv_field(struct cet_buf *b, const char *s)
{
    if (!strpbrk(s, ",\"\r\n"))
        return cet_buf_puts(b, s);
    int bad = cet_buf_puts(b, "\"");
    for (; *s && !bad; s++)
        bad = *s == '"' ? cet_buf_puts(b, "\"\"") : cet_buf_printf(b, "%c", *s);
    return bad || cet_buf_puts(b, "\"");
}

/* heldout.csv: every held-out page with its fold, the start's F1 and the
 * fold best's; with site rules, the start's with its fold's rules last. */
static int write_pages(const char *dir, const pages_t *p, int site, struct cet_error *err)
{
    struct cet_buf csv = {0};
    int bad = cet_buf_puts(&csv, site ? "fold,document,f1_start,f1_tuned,gain,f1_start_site\n"
                                      : "fold,document,f1_start,f1_tuned,gain\n");
    for (size_t i = 0; i < p->n && !bad; i++) {
        const struct page *pg = &p->v[i];
        bad = cet_buf_printf(&csv, "%u,", pg->fold) || csv_field(&csv, pg->name) ||
              cet_buf_printf(&csv, ",%.6f,%.6f,%.6f", pg->start, pg->tuned,
                             pg->tuned - pg->start) ||
              (site && cet_buf_printf(&csv, ",%.6f", pg->start_site)) ||
              cet_buf_puts(&csv, "\n");
    }
    int rc = bad ? cet_fail(err, "out of memory")
                 : cet_run_write_file(dir, CET_RUN_HELDOUT_PAGES, csv.p, csv.len, err);
    cet_buf_free(&csv);
    return rc;
}

/* The rule (cet_choice_decide) on candidate `second` against `first`, each
 * an F1 per counted page (n of them; left_out pages were not counted);
 * pair is scratch of 2 n. */
static int decide(const struct cet_run_info *info, const double *first, const double *second,
                  size_t n, size_t left_out, double *pair, struct cet_choice *c,
                  struct cet_error *err)
{
    memcpy(pair, first, n * sizeof *pair);
    memcpy(pair + n, second, n * sizeof *pair);
    if (cet_choice_decide(c, pair, 2, n, info->confidence, info->tolerance, err))
        return -1;
    c->left_out = left_out;
    return 0;
}

int cet_run_folds(struct cet_run *run, cet_fold_fn on_fold, void *ctx, struct cet_fold **out,
                  struct cet_error *err)
{
    size_t K = (size_t)run->info.folds;
    const struct cet_corpus *train = &run->train;
    uint32_t *fold_of = malloc((train->ndocs + 1) * sizeof *fold_of);
    struct cet_fold *f = calloc(K ? K : 1, sizeof *f);
    pages_t pages = {0};
    double *f1 = NULL;
    struct cet_run_local l = {0};
    uint8_t **kept = NULL, *labelled = NULL;
    int site = run->info.site_learn, rc = -1;
    *out = NULL;
    if (!run->dir || K < 2)
        return free(fold_of), free(f), cet_fail(err, "the run has no folds to run");
    if (!fold_of || !f) {
        cet_fail(err, "out of memory");
        goto done;
    }
    /* On pseudo-gold, only the pages with gold of their own are held out,
     * to be scored against it; the others train in every fold. */
    if (cet_run_labelled(run, train, &labelled, err))
        goto done;
    if (cet_folds_split_held(fold_of, train, labelled, K, cet_search_opts(run->engine)->seed,
                             err)) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        cet_fail(err, "--folds: %s", why);
        goto done;
    }
    /* The start's extraction of every training page, for the rules each
     * fold learns as corrections of it. */
    if (site) {
        double *start = malloc((run->desc.ex->nparams + 1) * sizeof *start);
        if (!start) {
            cet_fail(err, "out of memory");
            goto done;
        }
        cet_params_expand(&run->desc, run->info.start, start);
        int bad = cet_run_local_open(run, &l, err) || cet_run_local_kept(&l, start, &kept, err);
        free(start);
        if (bad)
            goto done;
    }
    for (uint32_t k = 0; k < K; k++) {
        for (size_t i = 0; i < train->ndocs; i++)
            f[k].heldout_docs += fold_of[i] == k;
        f[k].train_docs = train->ndocs - f[k].heldout_docs;
        if ((rc = fold(run, fold_of, labelled, k, K, &l, kept, &f[k], &pages, on_fold, ctx, err)))
            goto done;
        rc = -1;
    }
    /* The start's, the fold bests' and the start with its folds' rules' F1
     * on every page the rule counts, and scratch for a pair of them.  A page
     * whose gold holds no text (an index or error page) is left out: its F1
     * is 0 or 1 whatever the setting does with articles, so one such page
     * swings a 5-page estimate by 0.2, and a search buys it by dropping text
     * everywhere (docs/choice.md, "Pages without text"). */
    if (!(f1 = malloc((5 * pages.n + 1) * sizeof *f1))) {
        cet_fail(err, "out of memory");
        goto done;
    }
    double *start = f1, *tuned = f1 + pages.n, *start_site = f1 + 2 * pages.n,
           *pair = f1 + 3 * pages.n;
    size_t n = 0;
    for (size_t i = 0; i < pages.n; i++)
        if (!pages.v[i].no_text) {
            start[n] = pages.v[i].start;
            tuned[n] = pages.v[i].tuned;
            start_site[n++] = pages.v[i].start_site;
        }
    size_t left_out = pages.n - n;
    struct cet_run_info *info = &run->info;
    if (write_csv(run->dir, f, K, site, err) || write_pages(run->dir, &pages, site, err) ||
        decide(info, start, tuned, n, left_out, pair, &info->estimate, err))
        goto done;
    info->has_estimate = 1;
    /* The start with its folds' rules against the start: the fallback's
     * estimate (cet_run_site_start). */
    if (site) {
        if (decide(info, start, start_site, n, left_out, pair, &info->site_estimate, err))
            goto done;
        info->has_site_estimate = 1;
        /* Tuning against the fallback on the same pages, by the same rule:
         * the search's parameters give way to the start with its rules when
         * those did better beyond doubt (docs/choice.md).  With 5 pages
         * that never happened on the site families; with 30 it can. */
        if (decide(info, tuned, start_site, n, left_out, pair, &info->site_vs_tuned, err))
            goto done;
        info->has_site_vs_tuned = 1;
        if (info->estimate.chosen && info->site_vs_tuned.chosen &&
            cet_choice_no_loss(&info->site_estimate, CET_CHOICE_RULES_LOSS))
            info->estimate.chosen = 0;
    }
    /* The folds' runs used the backend too (under MPI, the ranks hold the
     * last fold's documents): the run takes its own back. */
    if (cet_run_rebind(run, err))
        goto done;
    *out = f;
    f = NULL;
    rc = 0;
done:
    cet_run_kept_free(kept, l.train ? l.train->ndocs : 0);
    cet_run_local_close(&l);
    free(fold_of);
    free(labelled);
    free(f);
    free(f1);
    pages_free(&pages);
    return rc;
}
