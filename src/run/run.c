/* A run (run.h): the search on a training sample, with its directory.
 *
 * - cet_run_start writes sample.txt, run.json ("running") and the first
 *   checkpoint before any evaluation, so even a run stopped during its
 *   first generation resumes.
 * - Every complete generation rewrites individuals.csv, generations.csv,
 *   best.json, top.json and, last, checkpoint.json (each atomically), so the
 *   directory is always consistent.
 * - A cancelled generation leaves no trace (cet_search_generation restores the
 *   GA), so cet_run_interrupt checkpoints the last complete one; a raced
 *   one (--race, src/search/race.c) is paused after its last block instead,
 *   and the checkpoint holds it.
 * - A resumed run takes everything from checkpoint.json and sample.txt;
 *   only the number of threads may change, which changes no result. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cetune/adhosts.h"
#include "cetune/config.h"
#include "run_internal.h"

static void utc_now(char *buf, size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int eval_cb(void *ctx, const double *params, size_t k, double *f, double *p, double *r,
                   struct cet_error *err)
{
    return cet_run_train_eval(ctx, params, k, NULL, f, p, r, err);
}

/* Racing: per-document scores of docs[0..n), here or with the backend. */
static int score_cb(void *ctx, const double *params, size_t k, const uint32_t *docs, size_t n,
                    struct cet_score *scores, struct cet_error *err)
{
    return cet_run_eval_docs(ctx, params, k, docs, n, scores, NULL, NULL, NULL, err);
}

static enum cet_stop run_stop(const struct cet_run *run)
{
    struct cet_search_status st;
    cet_search_status(run->engine, &st);
    return st.stop;
}

/* Racing (when the options ask for it) on the loaded training sample; a
 * resumed run keeps its stored document order. */
static int race_setup(struct cet_run *run, struct cet_error *err)
{
    struct cet_search *engine = run->engine;
    cet_search_set_ndocs(engine, run->train.ndocs);
    const struct cet_search_options *o = cet_search_opts(engine);
    if (!o->race)
        return 0;
    uint32_t *order = malloc((run->train.ndocs ? run->train.ndocs : 1) * sizeof *order);
    int rc = !order ? cet_fail(err, "out of memory")
                    : cet_race_order(order, &run->train, o->seed, err) ||
                          cet_search_race_setup(engine, score_cb, order, err);
    free(order);
    return rc ? -1 : 0;
}

static int cancel_cb(void *ctx)
{
    struct cet_run *run = ctx;
    return run->cancel && run->cancel(run->cancel_ctx);
}

static int measure_cb(void *ctx, const double *params, size_t k, struct cet_measures *m,
                      struct cet_error *err)
{
    return cet_run_measure(ctx, params, k, m, err);
}

/* cet_search_setup, measuring the run's goal unless it is plain mean F1. */
static int setup(struct cet_run *run, struct cet_error *err)
{
    if (cet_search_setup(run->engine, eval_cb, cancel_cb, run, err))
        return -1;
    if (!cet_goal_is_default(&cet_search_opts(run->engine)->goal))
        cet_search_set_measure(run->engine, measure_cb);
    return 0;
}

int cet_run_new(struct cet_run **out, const char *params_path,
                const struct cet_search_options *opt, struct cet_error *err)
{
    struct cet_run *run = calloc(1, sizeof *run);
    *out = NULL;
    if (!run)
        return cet_fail(err, "out of memory");
    run->lock = -1;
    if (cet_params_load(&run->desc, params_path, NULL, err) ||
        cet_search_new(&run->engine, &run->desc, err) ||
        !(run->info.params_path = strdup(params_path))) {
        if (run->engine)
            cet_fail(err, "out of memory");
        cet_run_free(run);
        return -1;
    }
    cet_search_set_options(run->engine, opt);
    run->info.sample_size = -1;
    *out = run;
    return 0;
}

/* The run's start (cet_run_info: start) from a full parameter vector, or
 * the defaults when full is NULL; from records the file it came from. */
static int set_start(struct cet_run *run, const double *full, const char *from,
                     struct cet_error *err)
{
    const struct cet_params_desc *d = &run->desc;
    double *g = malloc((d->ngenes + 1) * sizeof *g);
    char *abs = from ? realpath(from, NULL) : NULL;
    if (!g || (from && !abs && !(abs = strdup(from)))) {
        free(g);
        free(abs);
        return cet_fail(err, "out of memory");
    }
    if (full && cet_params_genome(d, full, g, err)) {
        free(g);
        free(abs);
        return -1;
    }
    if (!full)
        cet_params_default_genome(d, g);
    cet_genome_normalise(d, cet_search_opts(run->engine)->resolution, g);
    free(run->info.start);
    free(run->info.start_from);
    run->info.start = g;
    run->info.start_from = abs;
    return 0;
}

int cet_run_add_seed_config(struct cet_run *run, const char *path, uint8_t **ignored,
                            struct cet_error *err)
{
    const struct cet_params_desc *d = &run->desc;
    struct cet_config cfg;
    *ignored = NULL;
    if (cet_config_load(&cfg, path, err))
        return -1;
    int rc = -1;
    if (cfg.ex != d->ex)
        cet_fail(err, "%s: a configuration of '%s', but the run evolves '%s'", path,
                 cfg.ex->name, d->ex->name);
    else if (!(*ignored = calloc(d->ex->nparams + 1, 1)))
        cet_fail(err, "out of memory");
    else if (cet_search_add_seed(run->engine, cfg.params, err)) {
        struct cet_error why = *err;
        cet_fail(err, "%s: %s", path, why.msg);
    } else if (!run->info.start && set_start(run, cfg.params, path, err)) {
        ;
    } else {
        rc = 0;
    }
    for (size_t k = 0; !rc && k < d->ex->nparams; k++) {
        int evolved = 0;
        for (size_t g = 0; g < d->ngenes; g++)
            evolved |= d->genes[g].index == k;
        (*ignored)[k] = !evolved && cfg.params[k] != d->base[k];
    }
    if (rc) {
        free(*ignored);
        *ignored = NULL;
    }
    cet_config_free(&cfg);
    return rc;
}

int cet_run_check(const struct cet_run *run, struct cet_error *err)
{
    return cet_search_check(run->engine, err);
}

/* Absolute paths of dirs (so that a resume works from any directory); an
 * unresolvable path is kept as given. */
static int absolute_dirs(char ***out, size_t *n, const char *const *dirs, size_t ndirs)
{
    *n = 0;
    if (!(*out = calloc(ndirs + 1, sizeof **out)))
        return -1;
    for (size_t i = 0; i < ndirs; i++) {
        char *abs = realpath(dirs[i], NULL);
        if (!((*out)[(*n)++] = abs ? abs : strdup(dirs[i])))
            return -1;
    }
    return 0;
}

/* The identity of the ad-host list in use into digest (17 bytes) and *file
 * (allocated, NULL when built in). */
static int adhosts_in_use(char *digest, char **file, struct cet_error *err)
{
    const struct cet_adhosts *h = cet_adhosts_current(err);
    if (!h)
        return -1;
    cet_adhosts_digest(h, digest);
    const char *src = cet_adhosts_source(h);
    *file = NULL;
    if (src && !(*file = realpath(src, NULL)) && !(*file = strdup(src)))
        return cet_fail(err, "out of memory");
    return 0;
}

static int write_sample(const char *dir, const struct cet_corpus *c, struct cet_error *err)
{
    struct cet_buf b = {0};
    int rc = cet_buf_printf(&b, "# training sample of %s: %zu documents\n", dir, c->ndocs) ||
                     cet_sample_format(&b, c)
                 ? cet_fail(err, "out of memory")
                 : cet_run_write_file(dir, CET_RUN_SAMPLE, b.p, b.len, err);
    cet_buf_free(&b);
    return rc;
}

/* The evaluator of the GA's fitness, on the loaded training sample. */
static int bind(struct cet_run *run, struct cet_error *err)
{
    int rc = run->be.prepare
                 ? run->be.prepare(run->be.ctx, run->desc.ex, CET_METRIC_WORD, err)
                 : cet_evaluator_new(&run->ev, &run->train, run->desc.ex, CET_METRIC_WORD,
                                     run->threads, err);
    run->bound = rc == 0;
    return rc;
}

int cet_run_rebind(struct cet_run *run, struct cet_error *err)
{
    if (!run->be.load || !run->bound)
        return 0;
    /* The sample's entries: both lists are in corpus order. */
    const struct cet_entries *e = &run->entries;
    const struct cet_corpus *t = &run->train;
    uint8_t *want = calloc(e->n + 1, 1);
    if (!want)
        return cet_fail(err, "out of memory");
    for (size_t i = 0, k = 0; i < e->n && k < t->ndocs; i++)
        if (!strcmp(e->v[i].package, t->docs[k]->package) &&
            !strcmp(e->v[i].name, t->docs[k]->name)) {
            want[i] = 1;
            k++;
        }
    struct cet_corpus c;
    int rc = run->be.load(run->be.ctx, &c, e, want, run->desc.ex->load, run->threads, err);
    free(want);
    if (!rc && c.ndocs != t->ndocs)
        rc = cet_fail(err, "%s: the run trained on %zu documents but only %zu of them load now",
                      run->dir, t->ndocs, c.ndocs);
    if (!rc)
        cet_corpus_free(&c); /* the same catalogue as run->train */
    return rc ? -1 : bind(run, err);
}

void cet_run_set_backend(struct cet_run *run, const struct cet_backend *be)
{
    if (be)
        run->be = *be;
    else
        memset(&run->be, 0, sizeof run->be);
}

char *cet_run_dir_name(const struct cet_run *run, const char *given)
{
    struct cet_buf b = {0};
    char stamp[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime_r(&t, &tm));
    if (given ? cet_buf_puts(&b, given)
              : cet_buf_printf(&b, "runs/%s-%s", run->desc.ex->name, stamp)) {
        cet_buf_free(&b);
        return NULL;
    }
    while (b.len > 1 && b.p[b.len - 1] == '/')
        b.p[--b.len] = 0;
    return b.p;
}

int cet_run_claim(struct cet_run *run, const char *dir, int force, struct cet_error *err)
{
    if (run->dir)
        return cet_fail(err, "the run has a directory already: %s", run->dir);
    if (!(run->dir = strdup(dir)))
        return cet_fail(err, "out of memory");
    int r = cet_rundir_lock(&run->lock, &run->created, dir, !force, err);
    if (r > 0)
        cet_fail(err, "%s exists and is not empty", dir);
    if (r) {
        free(run->dir);
        run->dir = NULL;
    }
    run->force = force;
    return r > 0 ? CET_EEXISTS : r;
}

int cet_run_start(struct cet_run *run, const struct cet_run_settings *s, struct cet_corpus *train,
                  struct cet_entries *entries, struct cet_error *err)
{
    struct cet_run_info *info = &run->info;
    const char *dir = run->dir;
    run->train = *train;
    run->entries = *entries;
    memset(train, 0, sizeof *train);
    memset(entries, 0, sizeof *entries);
    run->threads = s->threads;
    if (!dir)
        return cet_fail(err, "the run has no directory (cet_run_claim)");
    if (!run->train.ndocs)
        return cet_fail(err, "the training sample has no usable document");
    if (setup(run, err) || race_setup(run, err))
        return -1;
    if (run->force && cet_rundir_clear(dir, err))
        return -1;
    if ((s->sample_from && !(info->sample_from = strdup(s->sample_from))) ||
        !(info->command = strdup(s->command ? s->command : "")) ||
        absolute_dirs(&info->dirs, &info->ndirs, s->dirs, s->ndirs) ||
        absolute_dirs(&info->validate, &info->nvalidate, s->validate, s->nvalidate))
        return cet_fail(err, "out of memory");
    info->sample_size = s->sample_size;
    info->by_package = s->by_package;
    info->docs = (long)run->train.ndocs;
    info->top = s->top ? s->top : 5;
    info->folds = s->folds;
    info->choose = s->choose;
    info->confidence = s->confidence > 0 ? s->confidence : CET_CHOICE_LEVEL;
    info->tolerance = s->tolerance > 0 ? s->tolerance : 0;
    info->fold_evals = s->fold_evals;
    info->site_learn = s->site;
    info->guard = s->site && s->guard;
    info->start_train = NAN;
    if (info->choose == CET_CHOOSE_CV && info->folds < 2)
        return cet_fail(err, "a cross-validated choice needs at least 2 folds");
    if (!info->start && set_start(run, NULL, NULL, err))
        return -1;
    if (s->template_refs) {
        if (!(info->template_refs = calloc(s->ntemplate_refs + 1, sizeof *info->template_refs)))
            return cet_fail(err, "out of memory");
        for (; info->ntemplate_refs < s->ntemplate_refs; info->ntemplate_refs++) {
            const char *ref = s->template_refs[info->ntemplate_refs];
            if (!(info->template_refs[info->ntemplate_refs] = realpath(ref, NULL)))
                return cet_fail(err, "%s: %s", ref, strerror(errno));
        }
        info->template_defaults = s->template_defaults;
    }
    if (s->nfold_args &&
        !(info->fold_args = calloc(s->nfold_args + 1, sizeof *info->fold_args)))
        return cet_fail(err, "out of memory");
    for (size_t i = 0; i < s->nfold_args; i++)
        if (!(info->fold_args[info->nfold_args++] = strdup(s->fold_args[i])))
            return cet_fail(err, "out of memory");
    utc_now(info->started, sizeof info->started);
    if (run->desc.ex->adhosts && adhosts_in_use(info->adhosts, &info->adhosts_file, err))
        return -1;
    if (write_sample(dir, &run->train, err))
        return -1;
    run->wrote = 1;
    if (cet_run_data_record(run, err))
        return -1;
    if (cet_run_holdout_split(run, 0, err))
        return -1;
    if (cet_run_write_info(run->engine, info, dir, "running", NULL, run->threads, err) ||
        cet_run_checkpoint(run->engine, info, dir, err))
        return -1;
    return bind(run, err);
}

int cet_run_open(struct cet_run **out, const char *dir, int threads, struct cet_error *err)
{
    struct cet_run *run = calloc(1, sizeof *run);
    *out = NULL;
    if (!run || !(run->dir = strdup(dir))) {
        free(run);
        return cet_fail(err, "out of memory");
    }
    run->threads = threads;
    run->lock = -1;
    /* A missing directory is reported by the restore; one nobody can write
     * (read-only media) needs no lock: a finished run is only shown, an
     * unfinished one fails at its first write. */
    struct stat st;
    if ((stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK) == 0 &&
         cet_rundir_lock(&run->lock, &run->created, dir, 0, err)) ||
        cet_run_restore(&run->engine, &run->desc, &run->info, dir, NULL, err)) {
        cet_run_free(run);
        return -1;
    }
    *out = run;
    return 0;
}

int cet_run_resume(struct cet_run *run, const char *command, struct cet_error *err)
{
    int threads = run->threads;
    struct cet_run_info *info = &run->info;
    if (cet_run_stopped(run))
        return cet_fail(err, "%s has finished already (stopped by %s)", run->dir,
                        cet_search_stop_name(run_stop(run)));
    if (run->desc.ex->adhosts && info->adhosts[0]) {
        char digest[17], *file;
        if (adhosts_in_use(digest, &file, err))
            return -1;
        int same = !strcmp(digest, info->adhosts);
        if (!same)
            cet_fail(err, "%s: the run was started with the ad-host list %s (digest %s), but the "
                          "list in use is %s (digest %s); a run resumes with the list it started "
                          "with", run->dir, info->adhosts_file ? info->adhosts_file : "built in",
                     info->adhosts, file ? file : "built in", digest);
        free(file);
        if (!same)
            return -1;
    }
    /* Before the sample loads: a page removed is named as a changed one is. */
    if (cet_run_data_check(run, err))
        return -1;
    cet_rundir_remove_temporaries(run->dir);
    char *sample = cet_run_path(run->dir, CET_RUN_SAMPLE);
    if (!sample)
        return cet_fail(err, "out of memory");
    /* A run on pseudo-gold makes it again, from the same pages and
     * reference: the same gold as when it started. */
    unsigned flags = run->desc.ex->load;
    int rc = 0;
    if (info->template_refs) {
        rc = cet_template_scan(&run->entries, (const char *const *)info->dirs, info->ndirs,
                               (const char *const *)info->template_refs, info->ntemplate_refs,
                               info->template_defaults ? &run->desc : NULL, threads, err);
        flags |= CET_LOAD_SCANNED;
    }
    if (rc == 0)
        rc = cet_corpus_load_dirs(&run->train, &run->entries, (const char *const *)info->dirs,
                                  info->ndirs, sample, flags, threads,
                                  run->be.load ? &run->be : NULL, err);
    free(sample);
    if (rc)
        return -1;
    if ((long)run->train.ndocs != info->docs)
        return cet_fail(err, "%s: the run trained on %ld documents but only %zu of its sample "
                             "load now", run->dir, info->docs, run->train.ndocs);
    char *cmd = strdup(command ? command : "");
    char **v = realloc(info->resumed, (info->nresumed + 1) * sizeof *v);
    if (v)
        info->resumed = v;
    if (!cmd || !v) {
        free(cmd);
        return cet_fail(err, "out of memory");
    }
    info->resumed[info->nresumed++] = cmd;
    if (setup(run, err) || race_setup(run, err) || cet_run_holdout_split(run, 1, err) ||
        cet_run_write_info(run->engine, info, run->dir, "running", NULL, threads, err))
        return -1;
    return bind(run, err);
}

void cet_run_set_cancel(struct cet_run *run, cet_search_cancel_fn cancel, void *ctx)
{
    run->cancel = cancel;
    run->cancel_ctx = ctx;
}

void cet_run_set_progress(struct cet_run *run, cet_run_progress_fn progress, void *ctx)
{
    run->progress = progress;
    run->progress_ctx = ctx;
}

int cet_run_local_open(struct cet_run *run, struct cet_run_local *l, struct cet_error *err)
{
    memset(l, 0, sizeof *l);
    if (run->ev) {
        /* The training pages are here, prepared for the run's evaluator. */
        l->train = &run->train;
        l->ev = run->ev;
        return 0;
    }
    const struct cet_run_info *info = &run->info;
    char *sample = cet_run_path(run->dir, CET_RUN_SAMPLE);
    /* On pseudo-gold, the run's entries carry it (pages without gold
     * would not load otherwise). */
    int scanned = info->template_refs != NULL;
    int rc = !sample ? cet_fail(err, "out of memory")
                     : cet_corpus_load_dirs(&l->own, scanned ? &run->entries : &l->e,
                                            (const char *const *)info->dirs, info->ndirs, sample,
                                            run->desc.ex->load | (scanned ? CET_LOAD_SCANNED : 0),
                                            run->threads, NULL, err) ||
                           cet_evaluator_new(&l->own_ev, &l->own, run->desc.ex, CET_METRIC_WORD,
                                             run->threads, err);
    free(sample);
    /* The folds index the run's documents: the copy must hold the same. */
    for (size_t i = 0; !rc && i < run->train.ndocs; i++)
        if (l->own.ndocs != run->train.ndocs ||
            strcmp(l->own.docs[i]->package, run->train.docs[i]->package) ||
            strcmp(l->own.docs[i]->name, run->train.docs[i]->name))
            rc = cet_fail(err, "%s: the sample loads other documents here than the run holds",
                          run->dir);
    if (rc) {
        cet_run_local_close(l);
        return -1;
    }
    l->train = &l->own;
    l->ev = l->own_ev;
    return 0;
}

void cet_run_local_close(struct cet_run_local *l)
{
    cet_evaluator_free(l->own_ev);
    cet_corpus_free(&l->own);
    cet_entries_free(&l->e);
    memset(l, 0, sizeof *l);
}

int cet_run_local_kept(struct cet_run_local *l, const double *params, uint8_t ***out,
                       struct cet_error *err)
{
    const struct cet_corpus *c = l->train;
    struct cet_sel sel = {0};
    uint8_t **kept = calloc(c->ndocs ? c->ndocs : 1, sizeof *kept);
    int rc = kept ? 0 : -1;
    for (size_t i = 0; i < c->ndocs && !rc; i++) {
        const struct cet_doc *d = c->docs[i];
        if (!(kept[i] = malloc(d->ntexts ? d->ntexts : 1)) ||
            cet_evaluator_extract(l->ev, params, i, &sel)) {
            rc = -1;
            break;
        }
        for (uint32_t k = 0; k < d->ntexts; k++)
            kept[i][k] = sel.keep[d->texts[k]];
    }
    cet_sel_free(&sel);
    if (rc) {
        cet_run_kept_free(kept, c->ndocs);
        return cet_fail(err, "out of memory");
    }
    *out = kept;
    return 0;
}

void cet_run_kept_free(uint8_t **kept, size_t n)
{
    for (size_t i = 0; kept && i < n; i++)
        free(kept[i]);
    free(kept);
}

int cet_run_labelled(const struct cet_run *run, const struct cet_corpus *c, uint8_t **out,
                     struct cet_error *err)
{
    size_t n;
    *out = NULL;
    if (!run->info.template_refs)
        return 0;
    if (!(*out = malloc(c->ndocs + 1)))
        return cet_fail(err, "out of memory");
    if (cet_corpus_labelled(c, &run->entries, *out, &n, err)) { /* err says why */
        free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

int cet_run_learn_rules(const struct cet_corpus *c, uint8_t *const *kept, const uint8_t *use,
                        const double *guard, size_t nguard, struct cet_site **out,
                        struct cet_error *err)
{
    struct cet_doc **docs = malloc((c->ndocs + 1) * sizeof *docs);
    const uint8_t **kk = malloc((c->ndocs + 1) * sizeof *kk);
    size_t n = 0;
    int rc = docs && kk ? 0 : cet_fail(err, "out of memory");
    for (size_t i = 0; i < c->ndocs && !rc; i++)
        if (!use || use[i]) {
            docs[n] = c->docs[i];
            kk[n++] = kept[i];
        }
    struct cet_site_opts o;
    cet_site_default(&o);
    o.guard = guard;
    o.nguard = nguard;
    *out = NULL;
    rc = rc || cet_site_learn(docs, n, kk, &o, out, err);
    free(docs);
    free(kk);
    return rc ? -1 : 0;
}

/* Site rules learned from the training pages of l with gold of their own
 * (labelled; NULL: all) as corrections of full parameters params into
 * *out (NULL: none), with a guard to the start's full parameters guard (n
 * of them) unless that is NULL. */
static int learn_for(struct cet_run_local *l, const uint8_t *labelled, const double *params,
                     const double *guard, size_t n, struct cet_site **out, struct cet_error *err)
{
    uint8_t **kept = NULL;
    int rc = cet_run_local_kept(l, params, &kept, err) ||
             cet_run_learn_rules(l->train, kept, labelled, guard, n, out, err);
    cet_run_kept_free(kept, l->train->ndocs);
    return rc ? -1 : 0;
}

/* The site rules (cetune/site.h), learned once the search has stopped,
 * from the training pages: as corrections of the search's best (site.json,
 * and best.json's when tuning is adopted), and when cross-validation kept
 * the start's parameters, as corrections of the start too (best.json's
 * when cet_run_site_start).  A function of the sample, the archive and the
 * estimate, so a resumed run and any number of threads or ranks learn the
 * same. */
static int learn_site(struct cet_run *run, struct cet_error *err)
{
    struct cet_run_info *info = &run->info;
    size_t best;
    if (!info->site_learn || info->site_done || cet_search_best(run->engine, &best))
        return 0;
    int start = info->choose == CET_CHOOSE_CV && info->has_estimate && !info->estimate.chosen;
    size_t P = run->desc.ex->nparams;
    double *full = malloc((2 * P + 1) * sizeof *full), *sfull = full + P;
    if (!full)
        return cet_fail(err, "out of memory");
    cet_params_expand(&run->desc, cet_search_genes(run->engine, best), full);
    cet_params_expand(&run->desc, info->start, sfull);
    /* The guard holds the tuned parameters to a start worth deferring to, a
     * configuration tuned elsewhere; not to a description's defaults, and
     * not when they are the start's own. */
    int guard = info->guard && info->start_from &&
                memcmp(full, sfull, P * sizeof *full) != 0;
    struct cet_run_local l = {0};
    uint8_t *labelled = NULL; /* on pseudo-gold, the rules learn from real gold alone */
    int rc = cet_run_local_open(run, &l, err) || cet_run_labelled(run, l.train, &labelled, err) ||
             learn_for(&l, labelled, full, guard ? sfull : NULL, P, &info->site, err) ||
             (start && learn_for(&l, labelled, sfull, NULL, 0, &info->site_start, err));
    free(labelled);
    /* Tuning gave way to the start with its rules (folds.c), but all the
     * labelled pages together give the start no rule: the start alone
     * gained nothing in the folds, so tuning, whose gain is sure, stands. */
    if (!rc && start && !info->site_start && cet_choice_passed(&info->estimate)) {
        info->estimate.chosen = info->estimate.best;
        info->has_chosen = 0;
        rc = cet_run_choose(run, err);
    }
    /* best.json's fitness with its rules is what `evaluate` gives it. */
    const struct cet_site *rules = cet_run_best_site(info);
    if (!rc && rules)
        rc = cet_evaluator_set_site(l.ev, rules, err) ||
             cet_evaluate(l.ev, rules == info->site ? full : sfull, 1, NULL, 0, NULL,
                          &info->site_fitness, NULL, NULL, err) ||
             cet_evaluator_set_site(l.ev, NULL, err);
    cet_run_local_close(&l);
    free(full);
    info->site_done = rc == 0;
    return rc ? -1 : 0;
}

int cet_run_step(struct cet_run *run, struct cet_error *err)
{
    if (!run->bound)
        return cet_fail(err, "the run is neither started nor resumed");
    int r = cet_search_generation(run->engine, err);
    if (r)
        return r;
    /* The choice is made in the step that stops the GA, so that the files
     * and the checkpoint of the last generation hold it. */
    if (cet_run_stopped(run) && (cet_run_choose(run, err) || learn_site(run, err)))
        return -1;
    struct cet_search_status st;
    cet_search_status(run->engine, &st);
    return cet_run_write_results(run->engine, &run->info, &run->rows, run->dir, err) ||
                   (st.narch && cet_search_opts(run->engine)->goal.npareto &&
                    cet_run_write_pareto(run->engine, &run->info, run->dir, err)) ||
                   cet_run_checkpoint(run->engine, &run->info, run->dir, err)
               ? -1
               : 0;
}

int cet_run_stopped(const struct cet_run *run)
{
    return run_stop(run) != CET_STOP_NONE;
}

int cet_run_interrupt(struct cet_run *run, struct cet_error *err)
{
    char ended[32];
    utc_now(ended, sizeof ended);
    return cet_run_checkpoint(run->engine, &run->info, run->dir, err) ||
                   cet_run_write_info(run->engine, &run->info, run->dir, "interrupted", ended,
                                      run->threads, err)
               ? -1
               : 0;
}

int cet_run_finish(struct cet_run *run, struct cet_error *err)
{
    char ended[32];
    utc_now(ended, sizeof ended);
    return cet_run_write_info(run->engine, &run->info, run->dir, "finished", ended, run->threads,
                              err);
}

void cet_run_free(struct cet_run *run)
{
    if (!run)
        return;
    cet_evaluator_free(run->ev);
    free(run->search);
    free(run->hold);
    cet_search_free(run->engine);
    cet_corpus_free(&run->train);
    cet_entries_free(&run->entries);
    cet_params_free(&run->desc);
    cet_run_info_free(&run->info);
    cet_buf_free(&run->rows.buf);
    /* A run that failed before writing leaves no directory it made. */
    cet_rundir_unlock(run->lock, run->created && !run->wrote ? run->dir : NULL);
    free(run->dir);
    free(run);
}

int cet_run_best(const struct cet_run *run, size_t *i)
{
    struct cet_search_status st;
    cet_search_status(run->engine, &st);
    return st.narch ? cet_run_info_best(run->engine, &run->info, i) : CET_ENOTFOUND;
}

struct cet_search *cet_run_search(const struct cet_run *run)
{
    return run->engine;
}

const struct cet_run_info *cet_run_info(const struct cet_run *run)
{
    return &run->info;
}

const char *cet_run_dir(const struct cet_run *run)
{
    return run->dir;
}

const struct cet_corpus *cet_run_train(const struct cet_run *run)
{
    return &run->train;
}

int cet_run_needs_validation(const struct cet_run *run)
{
    char *path = cet_run_path(run->dir, CET_RUN_VALIDATION);
    int needs = run->info.nvalidate && path && access(path, F_OK) != 0;
    free(path);
    return needs;
}

int cet_run_validate(struct cet_run *run, const struct cet_corpus *vc, struct cet_validation *v,
                     struct cet_error *err)
{
    struct cet_evaluator *ev = NULL;
    double *g = malloc((run->desc.ngenes + 1) * sizeof *g);
    memset(v, 0, sizeof *v);
    if (!g)
        return cet_fail(err, "out of memory");
    double defaults = cet_run_defaults_fitness(run, g);
    free(g);
    int rc = cet_evaluator_new(&ev, vc, run->desc.ex, CET_METRIC_WORD, run->threads, err) ||
                     cet_validation_compute(v, run->engine, &run->info, ev, vc, defaults,
                                            run->bound ? &run->train : NULL, err) ||
                     cet_validation_write(v, run->engine, run->dir, err)
                 ? -1
                 : 0;
    cet_evaluator_free(ev);
    return rc;
}
