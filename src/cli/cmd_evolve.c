/* cetune evolve: tunes an extractor's parameters with the genetic algorithm
 * of 003 section 4 (src/ga) on a training sample, writing the run directory
 * of DESIGN.md as it goes.
 *
 * - The run directory is -o DIR, by default runs/EXTRACTOR-YYYYmmdd-HHMMSS;
 *   an existing non-empty one is refused unless --force, which first
 *   removes the files a run writes.
 * - Every complete generation rewrites individuals.csv, generations.csv,
 *   best.json, top.json and, last, checkpoint.json (each atomically), so
 *   the directory is always consistent.
 * - SIGINT or SIGTERM: the generation in progress is abandoned (the
 *   checkpoint of the last complete one is on disk), run.json says
 *   "interrupted", the command to resume is printed and the exit status is
 *   130 (SIGINT) or 143 (SIGTERM).  A second signal kills at once.
 * - --resume DIR takes everything from DIR/checkpoint.json and sample.txt
 *   (only --threads may change) and ends exactly where the uninterrupted
 *   run would have.
 * - Progress (generation, best, mean, evaluations per second, time left) goes
 *   to stderr only when it is a terminal; the result table goes to stdout.
 * - --validate CORPUS (repeatable, kept by --resume): when the run ends, the
 *   rows of top.json and the defaults are scored on those corpora, whole,
 *   into validation.csv, and the gap between training and validation
 *   fitness is printed.  Their directories are checked before evolving, so
 *   a typo does not cost a whole run; an interrupted or failed validation is
 *   done by --resume on the finished run. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <omp.h>

#include "cetune/config.h"
#include "cetune/eval.h"
#include "cetune/ga.h"
#include "cetune/rundir.h"
#include "cli.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* The second signal takes the default action: a stuck run can still be killed. */
    sa.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

struct evolve {
    struct cet_evaluator *ev;
    const struct cet_corpus *train; /* the training sample, for validation's overlap count */
    long evals_at_start;
    double t_start;
};

static int eval_cb(void *ctx, const double *params, size_t k, double *f, double *p, double *r,
                   struct cet_error *err)
{
    struct evolve *s = ctx;
    return cet_evaluate(s->ev, params, k, NULL, 0, NULL, f, p, r, err);
}

static int cancel_cb(void *ctx)
{
    (void)ctx;
    return got_signal != 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void utc_now(char *buf, size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The command line as a shell would need it. */
static char *command_line(int argc, char **argv)
{
    struct cet_buf b = {0};
    int bad = cet_buf_puts(&b, "cetune");
    for (int i = 0; i < argc && !bad; i++) {
        const char *a = argv[i];
        int plain = *a != 0;
        for (const char *p = a; *p && plain; p++)
            plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%",
                           *p) != NULL;
        bad = cet_buf_puts(&b, " ");
        if (plain) {
            bad = bad || cet_buf_puts(&b, a);
            continue;
        }
        bad = bad || cet_buf_puts(&b, "'");
        for (const char *p = a; *p && !bad; p++)
            bad = *p == '\'' ? cet_buf_puts(&b, "'\\''") : cet_buf_add(&b, p, 1);
        bad = bad || cet_buf_puts(&b, "'");
    }
    if (bad) {
        cet_buf_free(&b);
        return NULL;
    }
    return b.p;
}

/* --time: seconds, with an optional s, m or h. */
static int parse_time(const char *cmd, const struct cli_opt *o, void *field, const char *arg)
{
    (void)o;
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60
                : !strcmp(end, "h") ? 3600 : -1;
    if (end == arg || errno || unit < 0 || !isfinite(v) || v < 0)
        return cli_usage(cmd, "--time expects seconds, or a number with s, m or h, got '%s'", arg);
    v *= unit;
    memcpy(field, &v, sizeof v);
    return 0;
}

static void format_duration(double s, char *buf, size_t size)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

static void progress(const struct cet_ga *ga, const struct evolve *s)
{
    const struct cet_ga_stats *st = &ga->hist[ga->nhist - 1];
    double spent = now() - s->t_start;
    double rate = spent > 0 ? (double)(ga->evals - s->evals_at_start) / spent : 0;
    char left[32] = "?";
    if (ga->stop != CET_STOP_NONE) {
        snprintf(left, sizeof left, "0:00");
    } else {
        double per_gen = ga->elapsed / (double)(ga->gen + 1), t = -1;
        if (ga->opt.generations > 0)
            t = per_gen * (double)(ga->opt.generations - ga->gen - 1);
        if (ga->opt.time_limit > 0 && (t < 0 || ga->opt.time_limit - ga->elapsed < t))
            t = fmax(0, ga->opt.time_limit - ga->elapsed);
        if (t >= 0)
            format_duration(t, left, sizeof left);
    }
    char gens[48];
    if (ga->opt.generations > 0)
        snprintf(gens, sizeof gens, "%ld/%ld", ga->gen + 1, ga->opt.generations);
    else
        snprintf(gens, sizeof gens, "%ld", ga->gen + 1);
    fprintf(stderr, "\rgeneration %-9s best %.4f  mean %.4f  %6.1f evals/s  left %s (at most)   ",
            gens, st->best, st->mean, rate, left);
    fflush(stderr);
}

/* The described defaults' training fitness: from the archive when they
 * were evaluated, else evaluated once with ev (not counted as an evaluation
 * of the run); NAN when unknown.  g receives their normalised genome. */
static double defaults_fitness(const struct cet_ga *ga, struct cet_evaluator *ev, double *g)
{
    const struct cet_params_desc *d = ga->desc;
    cet_params_default_genome(d, g);
    cet_genome_normalise(d, ga->opt.resolution, g);
    size_t i = cet_ga_lookup(ga, g);
    if (i != (size_t)-1)
        return ga->fit[i];
    double f = NAN, *full = malloc((ga->nfull + 1) * sizeof *full);
    struct cet_error err;
    if (full && ev) {
        cet_params_expand(d, g, full);
        if (cet_evaluate(ev, full, 1, NULL, 0, NULL, &f, NULL, NULL, &err))
            f = NAN;
    }
    free(full);
    return f;
}

/* Gene k of genome g for people: its value, or "-" when inactive. */
static void gene_text(const struct cet_params_desc *d, const double *g, size_t k, char *v,
                      size_t size)
{
    uint8_t active[CET_MAX_GENES];
    cet_params_active(d, g, active);
    if (active[k])
        cet_param_format(d->ex, d->genes[k].index, g[k], 0, v, size);
    else
        snprintf(v, size, "-");
}

/* Table 2 of 003: the best distinct individuals, then the defaults (their
 * active parameters). */
static void print_table(const struct cet_ga *ga, const struct cet_run *run, const char *dir,
                        struct cet_evaluator *ev)
{
    const struct cet_params_desc *d = ga->desc;
    size_t *rank = NULL, n = 0;
    if (cet_ga_top(ga, run->top ? run->top : 5, &rank, &n) || !n) {
        free(rank);
        return;
    }
    printf("%s on %ld documents: %ld generations, %ld evaluations, stopped by %s\n\n",
           d->ex->name, run->docs, ga->gen + 1, ga->evals, cet_ga_stop_name(ga->stop));
    int *w = calloc(d->ngenes, sizeof *w);
    if (!w) {
        free(rank);
        return;
    }
    /* A parameter inactive in every row shown (a stage extractor no row
     * chose) gets no column: a pipeline has over a hundred. */
    uint8_t *shown = calloc(d->ngenes + 1, 1);
    if (!shown) {
        free(w);
        free(rank);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        uint8_t active[CET_MAX_GENES];
        cet_params_active(d, ga->genes + rank[k] * ga->ngenes, active);
        for (size_t g = 0; g < d->ngenes; g++)
            shown[g] |= active[g];
    }
    printf("%4s", "rank");
    for (size_t g = 0; g < d->ngenes; g++) {
        if (!shown[g])
            continue;
        w[g] = (int)strlen(d->genes[g].name);
        for (size_t k = 0; k < n; k++) {
            char v[64];
            gene_text(d, ga->genes + rank[k] * ga->ngenes, g, v, sizeof v);
            if ((int)strlen(v) > w[g])
                w[g] = (int)strlen(v);
        }
        printf("  %*s", w[g], d->genes[g].name);
    }
    printf("  %8s  %9s  %8s  %10s\n", "fitness", "precision", "recall", "generation");
    for (size_t k = 0; k < n; k++) {
        size_t i = rank[k];
        printf("%4zu", k + 1);
        for (size_t g = 0; g < d->ngenes; g++) {
            char v[64];
            if (!shown[g])
                continue;
            gene_text(d, ga->genes + i * ga->ngenes, g, v, sizeof v);
            printf("  %*s", w[g], v);
        }
        printf("  %8.4f  %9.4f  %8.4f  %10ld\n", ga->fit[i], ga->prec[i], ga->rec[i], ga->born[i]);
    }
    /* The defaults, for comparison. */
    double *g = malloc((ga->ngenes + 1) * sizeof *g);
    if (g) {
        double f = defaults_fitness(ga, ev, g);
        uint8_t active[CET_MAX_GENES];
        cet_params_active(d, g, active);
        printf("\ndefaults (");
        for (size_t k = 0, sep = 0; k < d->ngenes; k++) {
            char v[64];
            if (!active[k])
                continue;
            cet_param_format(d->ex, d->genes[k].index, g[k], 0, v, sizeof v);
            printf("%s%s=%s", sep++ ? " " : "", d->genes[k].name, v);
        }
        if (isnan(f))
            printf(")\n");
        else
            printf("): fitness %.4f\nbest: %+.4f over the defaults\n", f, ga->fit[rank[0]] - f);
    }
    printf("best configuration: %s/best.json\n", dir);
    free(g);
    free(shown);
    free(w);
    free(rank);
}

/* The validation table: every row's training and validation fitness and
 * their gap, then the best individual's and the defaults' in one line. */
static void print_validation(const struct cet_validation *v, const char *dir)
{
    printf("\nvalidation on %zu documents in %zu packages", v->docs, v->npkgs);
    if (v->shared)
        printf(" (%zu of them in the training sample)", v->shared);
    printf(": %s/validation.csv\n\n", dir);
    printf("%8s  %8s  %10s  %8s  %9s  %8s  %8s\n", "rank", "training", "validation", "macro F1",
           "precision", "recall", "gap");
    for (size_t k = 0; k < v->n; k++) {
        char rank[32];
        snprintf(rank, sizeof rank, k + 1 < v->n ? "%zu" : "defaults", k + 1);
        printf("%8s  ", rank);
        if (isnan(v->train[k]))
            printf("%8s  %10.4f  %8.4f  %9.4f  %8.4f  %8s\n", "-", v->f1[k], v->macro_f1[k],
                   v->p[k], v->r[k], "-");
        else
            printf("%8.4f  %10.4f  %8.4f  %9.4f  %8.4f  %+8.4f\n", v->train[k], v->f1[k],
                   v->macro_f1[k], v->p[k], v->r[k], v->train[k] - v->f1[k]);
    }
    size_t d = v->n - 1;
    printf("\ngap (training - validation fitness): best %+.4f", v->train[0] - v->f1[0]);
    if (!isnan(v->train[d]))
        printf(", defaults %+.4f", v->train[d] - v->f1[d]);
    printf("; on the validation corpora the best is %+.4f over the defaults\n",
           v->f1[0] - v->f1[d]);
}

/* --validate: scores top.json's rows and the defaults on the validation
 * corpora, writes validation.csv and prints the gaps. */
static int validate_run(const struct cet_ga *ga, const struct cet_run *run, const char *dir,
                        const struct evolve *s, int threads)
{
    struct cet_corpus vc = {0};
    struct cet_entries ve = {0};
    struct cet_evaluator *ev = NULL;
    struct cet_validation v = {0};
    struct cet_error err;
    double *g = malloc((ga->ngenes + 1) * sizeof *g);
    int rc = CLI_RUNTIME;
    if (!g) {
        cli_error("out of memory");
        goto done;
    }
    fprintf(stderr, "cetune: validating the best individuals and the defaults on %zu corpus "
                    "director%s\n", run->nvalidate, run->nvalidate == 1 ? "y" : "ies");
    if ((rc = cli_load_corpus(&vc, &ve, (const char *const *)run->validate, run->nvalidate, NULL,
                              threads)))
        goto done;
    rc = CLI_RUNTIME;
    if (got_signal) {
        fprintf(stderr, "cetune: interrupted by %s before the validation; the run is finished, "
                        "and 'cetune evolve --resume %s' validates it\n",
                got_signal == SIGINT ? "SIGINT" : "SIGTERM", dir);
        rc = 128 + got_signal;
        goto done;
    }
    double defaults = defaults_fitness(ga, s ? s->ev : NULL, g);
    if (cet_evaluator_new(&ev, &vc, ga->desc->ex, CET_METRIC_WORD, threads, &err) ||
        cet_ga_validate(&v, ga, run, ev, &vc, defaults, s ? s->train : NULL, &err) ||
        cet_validation_write(&v, ga, dir, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    print_validation(&v, dir);
    rc = 0;
done:
    free(g);
    cet_validation_free(&v);
    cet_evaluator_free(ev);
    cet_corpus_free(&vc);
    cet_entries_free(&ve);
    return rc;
}

/* Absolute paths of dirs into *out (so that --resume works from any
 * directory); an unresolvable path is kept as given. */
static int absolute_dirs(char ***out, size_t *n, const struct cli_list *dirs)
{
    *n = 0;
    if (!(*out = calloc(dirs->n + 1, sizeof **out)))
        return -1;
    for (size_t i = 0; i < dirs->n; i++) {
        char *abs = realpath(dirs->v[i], NULL);
        if (!((*out)[(*n)++] = abs ? abs : strdup(dirs->v[i])))
            return -1;
    }
    return 0;
}

/* What the command line asked for. */
struct args {
    const char *params, *sample, *out, *resume;
    struct cli_list dirs, seed_configs, validate;
    long sample_size, threads, top;
    int by_package, force, select;
    struct cet_ga_options opt;
};
#define ARG(field) offsetof(struct args, field)

static void init(void *p)
{
    struct args *a = p;
    cet_ga_default_options(&a->opt);
    a->select = (int)a->opt.select;
    a->sample_size = -1;
    a->top = 5;
}

static const char *const selections[] = {"tournament", "truncation", NULL}; /* enum cet_select */

/* The option table (cli.h): one row per option. */
static const struct cli_opt options[] = {
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
    {.name = "pop", .arg = "N", .type = CLI_SIZE, .off = ARG(opt.pop), .max = 1000000,
     .help = "individuals per generation"},
    {.name = "generations", .arg = "N", .type = CLI_LONG, .off = ARG(opt.generations),
     .max = 100000000, .help = "stop after N generations, the initial one included; 0: no limit"},
    {.name = "patience", .arg = "N", .type = CLI_LONG, .off = ARG(opt.patience), .max = 100000000,
     .help = "stop after N generations without an improvement above --epsilon; 0: never"},
    {.name = "epsilon", .arg = "E", .type = CLI_DOUBLE, .off = ARG(opt.epsilon), .max = 1,
     .help = "the smallest improvement of the best fitness that counts"},
    {.name = "max-evals", .arg = "N", .type = CLI_LONG, .off = ARG(opt.max_evals),
     .max = 1000000000, .help = "stop after exactly N evaluations; 0: no limit"},
    {.name = "time", .arg = "T[s|m|h]", .type = CLI_FUNC, .off = ARG(opt.time_limit),
     .parse = parse_time, .def = "0",
     .help = "stop at the first generation that ends after this wall-clock time; 0: no limit"},
    {.name = "elite", .arg = "N", .type = CLI_SIZE, .off = ARG(opt.elite), .max = 1000000,
     .help = "the best distinct individuals copied unchanged into the next generation"},
    {.name = "select", .type = CLI_ENUM, .off = ARG(select), .values = selections,
     .help = "how parents are chosen"},
    {.name = "tournament", .arg = "K", .type = CLI_SIZE, .off = ARG(opt.tournament),
     .max = 1000000, .help = "individuals per tournament (--select tournament)"},
    {.name = "truncation", .arg = "F", .type = CLI_DOUBLE, .off = ARG(opt.truncation), .max = 1,
     .help = "the best fraction of the population that may be parents (--select truncation)"},
    {.name = "crossover-rate", .arg = "P", .type = CLI_DOUBLE, .off = ARG(opt.crossover_rate),
     .max = 1, .help = "chance that a child is recombined from two parents, else mutated"},
    {.name = "mutation-rate", .arg = "P", .type = CLI_DOUBLE, .off = ARG(opt.mutation_rate),
     .max = 1, .def = "0, that is 1/(active genes)",
     .help = "chance that each gene of a mutated child changes; 0: 1/(active genes)"},
    {.name = "mutation-sigma", .arg = "S", .type = CLI_DOUBLE, .off = ARG(opt.sigma), .max = 1,
     .help = "spread of the Gaussian mutation, as a fraction of the parameter's range"},
    {.name = "adaptive", .type = CLI_FLAG, .off = ARG(opt.adaptive),
     .help = "widen the mutation spread while the run stagnates"},
    {.name = "adapt-factor", .arg = "F", .type = CLI_DOUBLE, .off = ARG(opt.adapt_factor),
     .min = 1, .max = 10,
     .help = "with --adaptive, the spread grows by this factor per stagnant generation, up to 0.5"},
    {.name = "resolution", .arg = "R", .type = CLI_DOUBLE, .off = ARG(opt.resolution), .max = 0.1,
     .help = "floats are rounded to this fraction of their range, so that no setting is "
             "evaluated twice; 0: exact"},
    {.name = "seed", .arg = "S", .type = CLI_SEED, .off = ARG(opt.seed),
     .help = "the run seed: the same seed gives the same results for any --threads"},
    {.name = "seed-config", .arg = "FILE", .type = CLI_LIST, .off = ARG(seed_configs),
     .flags = CLI_MANY, .help = "a configuration (e.g. a best.json) added to generation 0; "
                                "repeatable"},
    {.name = "threads", .arg = "N", .type = CLI_LONG, .off = ARG(threads), .max = 1024,
     .forms = 3, .help = "threads, which never change the results; 0: all cores"},
    {.name = "top", .arg = "N", .type = CLI_LONG, .off = ARG(top), .min = 1, .max = 1000,
     .help = "distinct individuals in top.json, the final table and the validation"},
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

int cmd_evolve(int argc, char **argv);
const struct cli_command cli_evolve = {
    .name = "evolve", .run = cmd_evolve, .opts = options, .size = sizeof(struct args),
    .init = init, .summary = "tune an extractor's parameters with the genetic algorithm",
    .about = "Evolves the parameters that PARAMS.json describes on the training documents and "
             "writes the run\ndirectory: run.json, generations.csv, individuals.csv, top.json, "
             "best.json, sample.txt,\ncheckpoint.json.  Ctrl-C keeps the last complete "
             "generation; --resume finishes the run."};

/* Adds --seed-config individuals; their non-evolved parameters are ignored
 * (with a warning when they differ from the fixed values). */
static int add_seed_configs(struct cet_ga *ga, const struct cli_list *files)
{
    const struct cet_params_desc *d = ga->desc;
    for (size_t i = 0; i < files->n; i++) {
        struct cet_config cfg;
        struct cet_error err;
        int rc = cli_readable(files->v[i]);
        if (rc)
            return rc;
        if (cet_config_load(&cfg, files->v[i], &err)) {
            cli_error("%s", err.msg);
            return CLI_USAGE;
        }
        if (cfg.ex != d->ex) {
            cli_error("%s: a configuration of '%s', but the run evolves '%s'", files->v[i],
                      cfg.ex->name, d->ex->name);
            rc = CLI_USAGE;
        } else if (cet_ga_add_seed(ga, cfg.params, &err)) {
            cli_error("%s: %s", files->v[i], err.msg);
            rc = CLI_USAGE;
        } else {
            for (size_t k = 0; k < d->ex->nparams; k++) {
                int evolved = 0;
                for (size_t g = 0; g < d->ngenes; g++)
                    evolved |= d->genes[g].index == k;
                if (!evolved && cfg.params[k] != d->base[k])
                    cli_warn("%s: %s is not evolved; the run keeps it at its fixed value",
                             files->v[i], d->ex->params[k].name);
            }
        }
        cet_config_free(&cfg);
        if (rc)
            return rc;
    }
    return 0;
}

static int write_sample(const char *dir, const struct cet_corpus *c)
{
    struct cet_buf b = {0};
    struct cet_error err;
    char path[4200];
    snprintf(path, sizeof path, "%s/" CET_RUN_SAMPLE, dir);
    int rc = cet_buf_printf(&b, "# training sample of %s: %zu documents\n", dir, c->ndocs) ||
                     cet_sample_format(&b, c)
                 ? cet_fail(&err, "out of memory")
                 : cet_write_atomic(path, b.p, b.len, &err);
    cet_buf_free(&b);
    if (rc) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    return 0;
}

/* Generations until the GA stops or a signal arrives. */
static int run_loop(struct cet_ga *ga, struct cet_run *run, const char *dir, struct evolve *s,
                    int threads)
{
    struct cet_error err;
    int tty = cli_is_tty(), rc = 0;
    s->evals_at_start = ga->evals;
    s->t_start = now();
    while (ga->stop == CET_STOP_NONE && !got_signal) {
        int r = cet_ga_generation(ga, &err);
        if (r < 0) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
            break;
        }
        if (r > 0)
            break;
        if (cet_ga_write_results(ga, run, dir, &err) || cet_ga_checkpoint(ga, run, dir, &err)) {
            /* Every file is whole (atomic writes): the last checkpoint on disk still resumes. */
            cli_error("%s", err.msg);
            fprintf(stderr, "cetune: the run can go on from its last checkpoint once the files "
                            "can be written: cetune evolve --resume %s\n", dir);
            rc = CLI_RUNTIME;
            break;
        }
        if (tty)
            progress(ga, s);
    }
    if (tty && ga->nhist)
        fputc('\n', stderr);
    char ended[32];
    utc_now(ended, sizeof ended);
    if (rc == 0 && got_signal && ga->stop == CET_STOP_NONE) {
        /* The GA is back at its last complete generation (an abandoned one
         * leaves no trace): this checkpoint is that generation's. */
        if (cet_ga_checkpoint(ga, run, dir, &err) ||
            cet_run_write_info(ga, run, dir, "interrupted", ended, threads, &err))
            cli_error("%s", err.msg);
        fprintf(stderr, "cetune: interrupted by %s after %ld complete generation%s; "
                        "the checkpoint is in %s/checkpoint.json\n"
                        "cetune: resume with: cetune evolve --resume %s\n",
                got_signal == SIGINT ? "SIGINT" : "SIGTERM", ga->gen + 1,
                ga->gen == 0 ? "" : "s", dir, dir);
        return 128 + got_signal;
    }
    if (rc)
        return rc;
    if (cet_run_write_info(ga, run, dir, "finished", ended, threads, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    print_table(ga, run, dir, s->ev);
    if (run->nvalidate) {
        fflush(stdout); /* the table first, then validation's messages on stderr */
        if ((rc = validate_run(ga, run, dir, s, threads)))
            return rc;
    }
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        return CLI_RUNTIME;
    }
    return 0;
}

static int resume_locked(struct args *a, int argc, char **argv)
{
    struct cet_params_desc desc;
    struct cet_run run;
    struct cet_ga *ga = NULL;
    struct cet_corpus corpus = {0};
    struct cet_entries entries = {0};
    struct evolve s = {0};
    struct cet_error err;
    int rc = CLI_RUNTIME;
    if (cet_ga_restore(&ga, &desc, &run, a->resume, NULL, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    cet_rundir_remove_temporaries(a->resume);
    if (ga->stop != CET_STOP_NONE) {
        fprintf(stderr, "cetune: %s has finished already (stopped by %s); nothing to resume\n",
                a->resume, cet_ga_stop_name(ga->stop));
        print_table(ga, &run, a->resume, NULL);
        rc = 0;
        /* A validation that was interrupted or failed is done now. */
        char vpath[4200];
        snprintf(vpath, sizeof vpath, "%s/" CET_RUN_VALIDATION, a->resume);
        if (run.nvalidate && access(vpath, F_OK)) {
            catch_signals();
            fflush(stdout);
            rc = validate_run(ga, &run, a->resume, NULL, (int)a->threads);
        }
        goto done;
    }
    catch_signals();
    char sample[4200];
    snprintf(sample, sizeof sample, "%s/" CET_RUN_SAMPLE, a->resume);
    if ((rc = cli_load_corpus(&corpus, &entries, (const char *const *)run.dirs, run.ndirs, sample,
                              (int)a->threads)))
        goto done;
    rc = CLI_RUNTIME;
    s.train = &corpus;
    if ((long)corpus.ndocs != run.docs) {
        cli_error("%s: the run trained on %ld documents but only %zu of its sample load now",
                  a->resume, run.docs, corpus.ndocs);
        goto done;
    }
    char *cmd = command_line(argc, argv);
    char **v = realloc(run.resumed, (run.nresumed + 1) * sizeof *v);
    if (!cmd || !v) {
        free(cmd);
        if (v)
            run.resumed = v;
        cli_error("out of memory");
        goto done;
    }
    run.resumed = v;
    run.resumed[run.nresumed++] = cmd;
    if (cet_ga_setup(ga, eval_cb, cancel_cb, &s, &err) ||
        cet_run_write_info(ga, &run, a->resume, "running", NULL, (int)a->threads, &err) ||
        cet_evaluator_new(&s.ev, &corpus, desc.ex, CET_METRIC_WORD, (int)a->threads, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    fprintf(stderr, "cetune: resuming %s after generation %ld (%ld evaluations so far)\n",
            a->resume, ga->gen, ga->evals);
    rc = run_loop(ga, &run, a->resume, &s, (int)a->threads);
done:
    cet_evaluator_free(s.ev);
    cet_ga_destroy(ga);
    cet_corpus_free(&corpus);
    cet_entries_free(&entries);
    cet_params_free(&desc);
    cet_run_free(&run);
    return rc;
}

/* --resume, holding the run directory's lock (a missing directory is
 * reported by cet_ga_restore). */
static int resume(struct args *a, int argc, char **argv)
{
    struct cet_error err;
    struct stat st;
    int lock = -1, created;
    /* A directory nobody can write (read-only media) needs no lock: a
     * finished run is only shown, an unfinished one fails at its first write. */
    if (stat(a->resume, &st) == 0 && S_ISDIR(st.st_mode) && access(a->resume, W_OK) == 0 &&
        cet_rundir_lock(&lock, &created, a->resume, 0, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    int rc = resume_locked(a, argc, argv);
    cet_rundir_unlock(lock, NULL);
    return rc;
}

int cmd_evolve(int argc, char **argv)
{
    struct args a;
    struct cet_params_desc desc = {0};
    struct cet_ga *ga = NULL;
    struct cet_corpus corpus = {0};
    struct cet_entries entries = {0};
    struct cet_run run = {0};
    struct evolve s = {0};
    struct cet_error err;
    char dir[4096];
    int rc, lock = -1, created = 0, wrote = 0;

    if ((rc = cli_parse(&cli_evolve, &a, argc, argv)))
        goto done;
    a.opt.select = (enum cet_select)a.select;
    if (!a.threads)
        a.threads = omp_get_max_threads();
    if (a.resume) {
        rc = resume(&a, argc, argv);
        goto done;
    }
    rc = CLI_USAGE;
    if (!a.params) {
        cli_usage("evolve", "give a parameter description with -p PARAMS.json (or --resume runs/NAME)");
        goto done;
    }
    if (!a.dirs.n) {
        cli_usage("evolve", "give at least one corpus with -d CORPUS");
        goto done;
    }
    if (a.sample && a.sample_size >= 0) {
        cli_usage("evolve", "-s FILE and --sample-size N exclude each other");
        goto done;
    }
    if (a.by_package && a.sample_size < 0) {
        cli_usage("evolve", "--by-package shapes a drawn sample: it needs --sample-size N");
        goto done;
    }
    if ((rc = cli_readable(a.params)))
        goto done;
    rc = CLI_USAGE;
    if (cet_params_load(&desc, a.params, NULL, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    if (a.validate.n) {
        /* Only scanned now (cheap); loaded when the run ends. */
        struct cet_entries ve = {0};
        int bad = cet_corpus_scan(&ve, a.validate.v, a.validate.n, &err);
        cet_entries_free(&ve);
        if (bad) {
            cli_error("--validate: %s", err.msg);
            rc = CLI_RUNTIME;
            goto done;
        }
    }
    if (cet_ga_create(&ga, &desc, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
        goto done;
    }
    ga->opt = a.opt;
    if ((rc = add_seed_configs(ga, &a.seed_configs)))
        goto done;
    rc = CLI_USAGE;
    if (cet_ga_setup(ga, eval_cb, cancel_cb, &s, &err)) {
        cli_usage("evolve", "%s", err.msg);
        goto done;
    }
    if (a.out) {
        snprintf(dir, sizeof dir, "%s", a.out);
    } else {
        time_t t = time(NULL);
        struct tm tm;
        char stamp[32];
        localtime_r(&t, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(dir, sizeof dir, "runs/%s-%s", desc.ex->name, stamp);
    }
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dir[--dl] = 0;
    /* The directory is ours for the whole run, taken before the corpora
     * load (an unwritable -o fails at once) and before --force removes
     * anything (a second run cannot clobber the first's files). */
    rc = CLI_RUNTIME;
    int r = cet_rundir_lock(&lock, &created, dir, !a.force, &err);
    if (r > 0)
        cli_error("%s exists and is not empty; use --force to overwrite it, or --resume %s "
                  "to continue it", dir, dir);
    else if (r < 0)
        cli_error("%s", err.msg);
    if (r)
        goto done;

    catch_signals();
    if (a.sample_size >= 0)
        rc = cli_sample_corpus(&corpus, &entries, a.dirs.v, a.dirs.n, (size_t)a.sample_size,
                               a.opt.seed, a.by_package, (int)a.threads);
    else
        rc = cli_load_corpus(&corpus, &entries, a.dirs.v, a.dirs.n, a.sample, (int)a.threads);
    if (rc)
        goto done;
    rc = CLI_RUNTIME;
    if (a.force && cet_rundir_clear(dir, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }

    run.params_path = strdup(a.params);
    run.sample_from = a.sample ? strdup(a.sample) : NULL;
    run.command = command_line(argc, argv);
    if (!run.params_path || (a.sample && !run.sample_from) || !run.command ||
        absolute_dirs(&run.dirs, &run.ndirs, &a.dirs) ||
        absolute_dirs(&run.validate, &run.nvalidate, &a.validate)) {
        cli_error("out of memory");
        goto done;
    }
    run.sample_size = a.sample_size;
    run.by_package = a.by_package;
    run.docs = (long)corpus.ndocs;
    run.top = (size_t)a.top;
    utc_now(run.started, sizeof run.started);
    if ((rc = write_sample(dir, &corpus)))
        goto done;
    wrote = 1;
    rc = CLI_RUNTIME;
    if (cet_run_write_info(ga, &run, dir, "running", NULL, (int)a.threads, &err) ||
        cet_ga_checkpoint(ga, &run, dir, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    if (cet_evaluator_new(&s.ev, &corpus, desc.ex, CET_METRIC_WORD, (int)a.threads, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    fprintf(stderr, "cetune: evolving %s (%zu parameter%s) on %zu documents: population %zu, "
                    "seed %llu, run directory %s\n",
            desc.ex->name, desc.ngenes, desc.ngenes == 1 ? "" : "s", corpus.ndocs, ga->opt.pop,
            (unsigned long long)ga->opt.seed, dir);
    s.train = &corpus;
    rc = run_loop(ga, &run, dir, &s, (int)a.threads);
done:
    cet_evaluator_free(s.ev);
    cet_ga_destroy(ga);
    cet_corpus_free(&corpus);
    cet_entries_free(&entries);
    cet_params_free(&desc);
    cet_run_free(&run);
    cli_list_free(&a.dirs);
    cli_list_free(&a.seed_configs);
    cli_list_free(&a.validate);
    /* A run that failed before writing leaves no directory it made. */
    cet_rundir_unlock(lock, created && !wrote ? dir : NULL);
    return rc;
}
