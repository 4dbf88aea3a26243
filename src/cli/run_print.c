/* What cetune evolve prints of a run: the progress line, the best
 * distinct individuals against the defaults, and the validation against
 * the training fitness. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/clock.h"
#include "cetune/run.h"
#include "cli.h"

int cli_quiet;
double cli_progress_every = 60;

void cli_progress_start(struct cli_progress *p, const struct cet_search *engine, const char *label)
{
    struct cet_search_status st = {0};
    if (engine) /* NULL: a run that has not begun (a fold's) */
        cet_search_status(engine, &st);
    p->evals0 = st.evals;
    p->t0 = cet_now();
    p->last = -1;
    p->tty = cli_is_tty();
    p->label = label;
}

void cli_progress_end(const struct cli_progress *p, const struct cet_search *engine)
{
    size_t nhist;
    /* engine NULL: a line was printed (the caller knows), its run is gone. */
    if (!cli_quiet && p->tty && (!engine || (cet_search_history(engine, &nhist) && nhist)))
        fputc('\n', stderr);
}

void cli_progress_print(struct cli_progress *p, const struct cet_search *engine)
{
    const struct cet_search_options *o = cet_search_opts(engine);
    struct cet_search_status st;
    size_t nhist;
    const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
    cet_search_status(engine, &st);
    double at = cet_now(), spent = at - p->t0;
    if (cli_quiet || !nhist)
        return;
    /* Not a terminal: the first generation, then one line per interval, and the last. */
    if (!p->tty && p->last >= 0 && st.stop == CET_STOP_NONE && at - p->last < cli_progress_every)
        return;
    p->last = at;
    const struct cet_search_stats *last = hist + nhist - 1;
    double rate = spent > 0 ? (double)(st.evals - p->evals0) / spent : 0;
    char left[32] = "?", gens[48];
    if (st.stop != CET_STOP_NONE) {
        snprintf(left, sizeof left, "0:00");
    } else {
        double per_gen = st.elapsed / (double)(st.gen + 1), t = -1;
        if (o->generations > 0)
            t = per_gen * (double)(o->generations - st.gen - 1);
        if (o->time > 0 && (t < 0 || o->time - st.elapsed < t))
            t = fmax(0, o->time - st.elapsed);
        long l = (long)(t + 0.5);
        if (t >= 0 && l >= 3600)
            snprintf(left, sizeof left, "%ld:%02ld:%02ld", l / 3600, l / 60 % 60, l % 60);
        else if (t >= 0)
            snprintf(left, sizeof left, "%ld:%02ld", l / 60, l % 60);
    }
    int n = snprintf(gens, sizeof gens, "%ld", st.gen + 1);
    if (o->generations > 0)
        snprintf(gens + n, sizeof gens - (size_t)n, "/%ld", o->generations);
    /* With racing, the document evaluations and the saving against scoring
     * every individual on every document. */
    char docs[64] = "";
    if (o->race && st.doc_evals > 0)
        snprintf(docs, sizeof docs, "  docs %ld (%.1fx fewer)", st.doc_evals,
                 (double)st.evals * (double)st.ndocs / (double)st.doc_evals);
    char label[64] = "";
    if (p->label)
        snprintf(label, sizeof label, "%s: ", p->label);
    if (p->tty)
        fprintf(stderr, "\r%sgeneration %-9s best %.4f  mean %.4f  %6.1f evals/s%s  left %s (at "
                        "most)   ", label, gens, last->best, last->mean, rate, docs, left);
    else
        fprintf(stderr, "cetune: %sgeneration %s best %.4f mean %.4f %.1f evals/s%s left %s (at "
                        "most)\n", label, gens, last->best, last->mean, rate, docs, left);
    fflush(stderr);
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

/* What the run optimised, when not mean F1, and whether its constraints
 * could be met. */
static void print_goal(const struct cet_search *engine, const char *dir)
{
    const struct cet_goal *g = &cet_search_opts(engine)->goal;
    struct cet_search_status st;
    struct cet_individual ind;
    cet_search_status(engine, &st);
    char name[64];
    if (g->npareto) {
        size_t *front = NULL, n = 0;
        printf("Pareto search (NSGA-II) on ");
        for (size_t k = 0; k < g->npareto; k++) {
            cet_objective_name(&g->pareto[k], name, sizeof name);
            printf("%s%s", k ? ", " : "", name);
        }
        if (!cet_search_front(engine, &front, &n))
            printf(": %zu non-dominated settings in %s/pareto.csv; fitness is mean F1, and "
                   "best.json the front's highest\n", n, dir);
        free(front);
    } else if (g->objective.m != CET_MEASURE_F1) {
        cet_objective_name(&g->objective, name, sizeof name);
        printf("objective: %s (the fitness column)\n", name);
    }
    if (!g->ncons)
        return;
    size_t feasible = 0, best;
    int found = !cet_search_best(engine, &best);
    for (size_t i = 0; i < st.narch; i++) {
        cet_search_individual(engine, i, &ind);
        feasible += ind.viol == 0;
    }
    printf("constraints:");
    for (size_t k = 0; k < g->ncons; k++) {
        cet_constraint_name(&g->cons[k], name, sizeof name);
        printf(" %s", name);
    }
    if (feasible)
        printf("; %zu of %zu evaluated settings feasible\n", feasible, st.narch);
    else {
        if (found)
            cet_search_individual(engine, best, &ind);
        printf("; NO FEASIBLE SETTING FOUND among %zu evaluated: best.json is the one closest "
               "to feasible (violation %.4f)\n", st.narch, found ? ind.viol : NAN);
    }
}

/* Wider than this (a score or pipeline run evolves dozens of parameters),
 * the table of the best turns: a row per parameter, a column per rank. */
enum { TABLE_WIDTH = 100 };

/* The rank column's label of row j (1-based), starred when it is best.json. */
static void rank_label(char *buf, size_t size, size_t j, size_t mark)
{
    snprintf(buf, size, j == mark ? "%zu*" : "%zu", j);
}

static void print_transposed(const struct cet_search *engine, const struct cet_params_desc *d,
                             const size_t *rank, size_t n, const uint8_t *shown, int wname,
                             int wval, size_t mark)
{
    struct cet_individual ind;
    wname = wname < 10 ? 10 : wname;
    wval = wval < 9 ? 9 : wval;
    printf("%-*s", wname, "rank");
    for (size_t j = 0; j < n; j++) {
        char r[32];
        rank_label(r, sizeof r, j + 1, mark);
        printf("  %*s", wval, r);
    }
    putchar('\n');
    for (size_t k = 0; k < d->ngenes; k++) {
        if (!shown[k])
            continue;
        printf("%-*s", wname, d->genes[k].name);
        for (size_t j = 0; j < n; j++) {
            char v[64];
            cet_search_individual(engine, rank[j], &ind);
            gene_text(d, ind.genes, k, v, sizeof v);
            printf("  %*s", wval, v);
        }
        putchar('\n');
    }
    static const char *const rows[] = {"fitness", "precision", "recall", "generation"};
    for (size_t m = 0; m < 4; m++) {
        printf("%-*s", wname, rows[m]);
        for (size_t j = 0; j < n; j++) {
            cet_search_individual(engine, rank[j], &ind);
            if (m == 3)
                printf("  %*ld", wval, ind.born);
            else
                printf("  %*.4f", wval, m == 0 ? ind.fit : m == 1 ? ind.prec : ind.rec);
        }
        putchar('\n');
    }
}

/* Prints text wrapped at TABLE_WIDTH columns, the lines after the first
 * indented by two spaces. */
static void print_wrapped(const char *text)
{
    size_t col = 0;
    while (*text) {
        size_t len = strcspn(text, " ");
        if (col && col + 1 + len > TABLE_WIDTH) {
            printf("\n  ");
            col = 2;
        } else if (col) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)len, text);
        col += len;
        text += len;
        while (*text == ' ')
            text++;
    }
    putchar('\n');
}

/* The cross-validated choice (src/run/choose.c): what best.json holds,
 * then the estimate on unseen pages in one sentence. */
static void print_choice(const struct cet_run_info *info, size_t mark, int def_best,
                         const char *sentence)
{
    const char *base = info->start_from ? strrchr(info->start_from, '/') : NULL;
    const char *start = !info->start_from ? "the defaults" : base ? base + 1 : info->start_from;
    if (info->estimate.chosen && mark)
        printf("best.json: rank %zu (*), the search's best on all %ld documents\n", mark,
               info->docs);
    else if (info->estimate.chosen)
        printf("best.json: the search's best on all %ld documents\n", info->docs);
    else if (mark)
        printf("best.json: the start, %s (rank %zu, *)\n", start, mark);
    else
        printf("best.json: the start, %s%s\n", start, def_best ? " (*)" : "");
    const struct cet_site *site = cet_run_best_site(info);
    if (site) {
        size_t nrules = cet_site_nrules(site);
        char docs[64], from[96], counts[160], what[128];
        /* On pseudo-gold the rules learn from the pages with gold alone. */
        if (info->template_refs && info->has_estimate)
            snprintf(docs, sizeof docs, "the %zu documents with gold", info->estimate.n);
        else if (info->template_refs)
            snprintf(docs, sizeof docs, "the documents with gold");
        else
            snprintf(docs, sizeof docs, "the %ld documents", info->docs);
        if (info->estimate.chosen)
            snprintf(from, sizeof from, "%s", info->template_refs ? docs : "them");
        else
            snprintf(from, sizeof from, "%s as corrections of it", docs);
        cet_site_counts(site, what, sizeof what);
        snprintf(counts, sizeof counts, "(%s; docs/site.md)", what);
        int len = printf("  with %zu site rule%s learned from %s", nrules, nrules == 1 ? "" : "s",
                         from);
        /* The counts go on a line of their own past 100 columns. */
        printf(len + 1 + (int)strlen(counts) > 100 ? "\n    %s\n" : " %s\n", counts);
    }
    print_wrapped(sentence);
}

/* Table 2 of Gottron (2008): the best distinct individuals, then the defaults
 * (their active parameters). */
void cli_print_run(struct cet_run *run)
{
    const struct cet_search *engine = cet_run_search(run);
    const struct cet_params_desc *d = cet_search_desc(engine);
    const struct cet_run_info *info = cet_run_info(run);
    struct cet_search_status st;
    struct cet_individual ind;
    size_t *rank = NULL, n = 0;
    cet_search_status(engine, &st);
    int *w = calloc(d->ngenes + 1, sizeof *w);
    double *g = malloc((d->ngenes + 1) * sizeof *g);
    uint8_t *shown = calloc(d->ngenes + 1, 1);
    if (!w || !g || !shown || cet_search_top(engine, info->top ? info->top : 5, &rank, &n) || !n)
        goto done;
    /* A parameter inactive in every row shown (a stage extractor no row
     * chose) gets no column: a pipeline has over a hundred. */
    for (size_t j = 0; j < n; j++) {
        uint8_t active[CET_MAX_GENES];
        cet_search_individual(engine, rank[j], &ind);
        cet_params_active(d, ind.genes, active);
        for (size_t k = 0; k < d->ngenes; k++)
            shown[k] |= active[k];
    }
    printf("%s on %ld document%s: %ld generation%s, %ld evaluation%s, stopped by %s\n",
           d->ex->name, info->docs, cli_s((size_t)info->docs), st.gen + 1,
           cli_s((size_t)st.gen + 1), st.evals, cli_s((size_t)st.evals), cet_search_stop_name(st.stop));
    if (info->holdout_docs)
        printf("the search used %ld of them; %ld were held out to choose best.json\n",
               info->docs - info->holdout_docs, info->holdout_docs);
    /* The document evaluations; with racing, the saving against scoring
     * every individual on every document. */
    size_t raced = 0;
    for (size_t i = 0; i < st.narch; i++) {
        cet_search_individual(engine, i, &ind);
        raced += (size_t)ind.raced;
    }
    if (cet_search_opts(engine)->race && st.doc_evals > 0)
        printf("%ld document evaluations, %.2fx fewer than evaluating every individual fully "
               "(%.0f); %zu of %zu individuals raced out\n",
               st.doc_evals, (double)st.evals * (double)st.ndocs / (double)st.doc_evals,
               (double)st.evals * (double)st.ndocs, raced, st.narch);
    else
        printf("%ld document evaluations\n", st.doc_evals);
    print_goal(engine, cet_run_dir(run));
    putchar('\n');
    int width = 4 + 2 + 8 + 2 + 9 + 2 + 8 + 2 + 10, wname = 0, wval = 6;
    for (size_t k = 0; k < d->ngenes; k++) {
        if (!shown[k])
            continue;
        w[k] = (int)strlen(d->genes[k].name);
        wname = w[k] > wname ? w[k] : wname;
        for (size_t j = 0; j < n; j++) {
            char v[64];
            cet_search_individual(engine, rank[j], &ind);
            gene_text(d, ind.genes, k, v, sizeof v);
            if ((int)strlen(v) > w[k])
                w[k] = (int)strlen(v);
            wval = (int)strlen(v) > wval ? (int)strlen(v) : wval;
        }
        width += 2 + w[k];
    }
    /* best.json's row (1-based; 0: not in the table) is starred. */
    size_t best, mark = 0;
    int best_found = !cet_run_best(run, &best);
    for (size_t j = 0; j < n && best_found && !mark; j++)
        if (rank[j] == best)
            mark = j + 1;
    if (width > TABLE_WIDTH) {
        print_transposed(engine, d, rank, n, shown, wname, wval, mark);
        goto defaults;
    }
    printf("%4s", "rank");
    for (size_t k = 0; k < d->ngenes; k++)
        if (shown[k])
            printf("  %*s", w[k], d->genes[k].name);
    printf("  %8s  %9s  %8s  %10s\n", "fitness", "precision", "recall", "generation");
    for (size_t j = 0; j < n; j++) {
        char r[32];
        cet_search_individual(engine, rank[j], &ind);
        rank_label(r, sizeof r, j + 1, mark);
        printf("%4s", r);
        for (size_t k = 0; k < d->ngenes; k++) {
            char v[64];
            if (!shown[k])
                continue;
            gene_text(d, ind.genes, k, v, sizeof v);
            printf("  %*s", w[k], v);
        }
        printf("  %8.4f  %9.4f  %8.4f  %10ld\n", ind.fit, ind.prec, ind.rec, ind.born);
    }
defaults:;
    double f = cet_run_defaults_fitness(run, g);
    uint8_t active[CET_MAX_GENES];
    cet_params_active(d, g, active);
    printf("\ndefaults (");
    /* Wrapped like the table: a long list goes on indented lines. */
    for (size_t k = 0, sep = 0, col = 10; k < d->ngenes; k++) {
        char v[64];
        cet_param_format(d->ex, d->genes[k].index, g[k], 0, v, sizeof v);
        if (!active[k])
            continue;
        size_t len = strlen(d->genes[k].name) + 1 + strlen(v);
        if (sep && col + 1 + len > TABLE_WIDTH) {
            printf("\n  ");
            col = 2;
        } else if (sep++) {
            putchar(' ');
            col++;
        }
        printf("%s=%s", d->genes[k].name, v);
        col += len;
    }
    /* The defaults are best.json when it is the start outside the archive
     * (the start is then the defaults: a --seed-config start was evaluated). */
    int def_best = info->has_chosen && info->start_outside;
    size_t di;
    if (best_found && !cet_search_lookup(engine, g, &di) && di == best)
        def_best = 1;
    char sentence[2048];
    int cv = !cet_run_choice_text(engine, info, sentence, sizeof sentence);
    if (isnan(f))
        printf(")%s\n", def_best ? " *" : "");
    else if (cv)
        printf("): fitness %.4f%s\n", f, def_best ? " *" : "");
    else if (!info->has_chosen) {
        cet_search_individual(engine, rank[0], &ind);
        printf("): fitness %.4f\nbest: %+.4f over the defaults\n", f, ind.fit - f);
    } else {
        /* best.json was chosen on the holdout (src/run/choose.c). */
        char which[64] = "the defaults";
        if (info->chosen_rank)
            snprintf(which, sizeof which, "rank %zu", info->chosen_rank);
        cet_search_individual(engine, info->chosen, &ind);
        printf("): fitness %.4f\nbest.json: %s, chosen among the top %zu and the defaults on the %ld\n"
               "  training documents the search did not see (holdout.txt); a tuned setting must\n"
               "  beat the defaults there beyond chance\n"
               "gain over the defaults: %+.4f in training (%ld documents), %+.4f on the held-out\n"
               "  documents (F1 %.4f against %.4f): the estimate for unseen pages\n",
               f, which, n, info->holdout_docs, ind.fit - f, info->docs - info->holdout_docs,
               info->chosen_holdout - info->defaults_holdout, info->chosen_holdout,
               info->defaults_holdout);
        if (info->top_rank && !isnan(info->top_pvalue))
            printf("the search's best there, rank %zu: %+.4f in training, %+.4f on the held-out\n"
                   "  documents (F1 %.4f), p = %.3g (sign-flip test; it must be below %g)\n",
                   info->top_rank, info->top_train - f, info->top_holdout - info->defaults_holdout,
                   info->top_holdout, info->top_pvalue, CET_HOLDOUT_ALPHA);
    }
    /* The choice, also when the defaults' fitness is unknown (a finished
     * run shown again by --resume). */
    if (cv)
        print_choice(info, mark, def_best, sentence);
    printf("best configuration: %s/best.json\n", cet_run_dir(run));
done:
    free(g);
    free(shown);
    free(w);
    free(rank);
}

/* Validates the finished run: every row's training and validation fitness
 * and their gap, then the best individual's and the defaults' in one line. */
int cli_validate_run(struct cet_run *run, int threads)
{
    const struct cet_run_info *info = cet_run_info(run);
    const char *dir = cet_run_dir(run);
    struct cet_corpus vc = {0};
    struct cet_entries ve = {0};
    struct cet_validation v = {0};
    struct cet_error err;
    fflush(stdout); /* the table first, then validation's messages on stderr */
    fprintf(stderr, "cetune: validating the best individuals and the defaults on %zu corpus "
                    "director%s\n", info->nvalidate, info->nvalidate == 1 ? "y" : "ies");
    int rc = cli_load_corpus(&vc, &ve, (const char *const *)info->validate, info->nvalidate,
                             NULL, cet_search_desc(cet_run_search(run))->ex->load, threads, NULL);
    if (!rc && cli_signal) {
        fprintf(stderr, "cetune: interrupted by %s before the validation; the run is finished, "
                        "and 'cetune evolve --resume %s' validates it\n", cli_signal_name(), dir);
        rc = 128 + cli_signal;
    } else if (!rc && cet_run_validate(run, &vc, &v, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
    } else if (!rc) {
        printf("\nvalidation on %zu document%s in %zu package%s", v.docs, cli_s(v.docs), v.npkgs,
               cli_s(v.npkgs));
        if (v.shared)
            printf(" (%zu of them in the training sample)", v.shared);
        printf(": %s/validation.csv\n", dir);
        /* Training and validation fitness are the run's objective: say which when not F1. */
        const struct cet_goal *goal = &cet_search_opts(cet_run_search(run))->goal;
        if (!goal->npareto && goal->objective.m != CET_MEASURE_F1) {
            char name[64];
            cet_objective_name(&goal->objective, name, sizeof name);
            printf("training and validation fitness: %s\n", name);
        }
        printf("\n%9s  %8s  %10s  %8s  %8s  %9s  %8s  %8s\n", "rank", "training", "validation",
               "F1", "macro F1", "precision", "recall", "gap");
        for (size_t k = 0; k < v.n; k++) {
            char rank[40], label[32];
            cet_validation_label(&v, k, label, sizeof label);
            snprintf(rank, sizeof rank, "%s%s", label, k == v.best ? "*" : "");
            printf("%9s  ", rank);
            if (isnan(v.train[k]))
                printf("%8s  %10.4f  %8.4f  %8.4f  %9.4f  %8.4f  %8s\n", "-", v.fit[k], v.f1[k],
                       v.macro_f1[k], v.p[k], v.r[k], "-");
            else
                printf("%8.4f  %10.4f  %8.4f  %8.4f  %9.4f  %8.4f  %+8.4f\n", v.train[k], v.fit[k],
                       v.f1[k], v.macro_f1[k], v.p[k], v.r[k], v.train[k] - v.fit[k]);
        }
        /* The figures of what best.json holds (starred), not of rank 1. */
        size_t d = v.n - 1, b = v.best < v.n ? v.best : 0;
        char label[32];
        cet_validation_label(&v, b, label, sizeof label);
        printf("\nbest.json is %s%s (*)\n", b == d || v.extra ? "" : "rank ", label);
        printf("gap (training - validation fitness): best.json %+.4f", v.train[b] - v.fit[b]);
        if (!isnan(v.train[d]) && b != d)
            printf(", defaults %+.4f", v.train[d] - v.fit[d]);
        printf("; on the validation corpora best.json is %+.4f over the defaults\n",
               v.fit[b] - v.fit[d]);
    }
    cet_validation_free(&v);
    cet_corpus_free(&vc);
    cet_entries_free(&ve);
    return rc;
}
