/* cetune report (report.h): report.md, the run's settings, best individuals,
 * validation, folds, racing and plots in Markdown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/sort.h"
#include "report_internal.h"

/* Markdown table cell text: | escaped, no line breaks. */
static int md_cell(struct cet_buf *b, const char *s)
{
    int rc = 0;
    for (; *s && !rc; s++)
        rc = *s == '|' ? cet_buf_puts(b, "\\|") : *s == '\n' ? cet_buf_puts(b, " ")
                                                             : cet_buf_add(b, s, 1);
    return rc;
}

/* A run.json value in one cell: strings as they are (code for commands and
 * paths), numbers short, arrays (items separated by sep) and objects
 * flattened. */
static int md_value(struct cet_buf *b, const cJSON *v, int code, const char *sep)
{
    int rc = 0;
    if (cJSON_IsString(v))
        return (code && cet_buf_puts(b, "`")) || md_cell(b, v->valuestring) ||
               (code && cet_buf_puts(b, "`"));
    if (cJSON_IsNumber(v))
        return cet_buf_printf(b, "%.10g", v->valuedouble);
    if (cJSON_IsBool(v))
        return cet_buf_puts(b, cJSON_IsTrue(v) ? "yes" : "no");
    if (cJSON_IsNull(v))
        return cet_buf_puts(b, "-");
    if (cJSON_IsArray(v) && !v->child)
        return cet_buf_puts(b, "none");
    if (cJSON_IsRaw(v))
        return md_cell(b, v->valuestring);
    for (const cJSON *x = v->child; x && !rc; x = x->next) {
        rc = x != v->child && cet_buf_puts(b, cJSON_IsArray(v) ? sep : ", ");
        if (cJSON_IsObject(v))
            rc = rc || md_cell(b, x->string) || cet_buf_puts(b, " ");
        rc = rc || md_value(b, x, code, sep);
    }
    return rc;
}

static int md_settings(const struct cet_report *r, struct cet_buf *b)
{
    int rc = cet_buf_puts(b, "## Settings\n\nFrom `run.json`.\n\n"
                             "| setting | value |\n| --- | --- |\n");
    for (const cJSON *m = r->info.root->child; m && !rc; m = m->next) {
        int code = !strcmp(m->string, "command") || !strcmp(m->string, "resumed") ||
                   !strcmp(m->string, "params") || !strcmp(m->string, "corpus") ||
                   !strcmp(m->string, "validate");
        rc = cet_buf_puts(b, "| ") || md_cell(b, m->string) || cet_buf_puts(b, " | ");
        if (!strcmp(m->string, "race_order")) /* one number per document: only its length */
            rc = rc || cet_buf_printf(b, "%d documents (places in `sample.txt`) |\n",
                                      cJSON_GetArraySize(m));
        else
            rc = rc || md_value(b, m, code, "<br>") || cet_buf_puts(b, " |\n");
    }
    return rc;
}

/* What the fitness is, when not mean F1, and the constraints. */
static int md_goal(const struct cet_search *engine, struct cet_buf *b)
{
    const struct cet_goal *g = &cet_search_opts(engine)->goal;
    char name[64];
    int rc = 0;
    if (g->npareto) {
        rc = cet_buf_puts(b, "  A Pareto search (NSGA-II) of");
        for (size_t k = 0; k < g->npareto && !rc; k++) {
            cet_objective_name(&g->pareto[k], name, sizeof name);
            rc = cet_buf_printf(b, "%s `%s`", k ? "," : "", name);
        }
        rc = rc || cet_buf_puts(b, ": fitness is mean F1, and `best.json` the non-dominated "
                                   "setting with the highest.");
    } else if (g->objective.m != CET_MEASURE_F1) {
        cet_objective_name(&g->objective, name, sizeof name);
        rc = cet_buf_printf(b, "  Fitness is the objective `%s`.", name);
    }
    for (size_t k = 0; k < g->ncons && !rc; k++) {
        cet_constraint_name(&g->cons[k], name, sizeof name);
        rc = cet_buf_printf(b, "%s `%s`", k ? "," : "  Constraints (feasible settings rank first):",
                            name);
    }
    if (!rc && g->ncons) {
        size_t feasible = 0;
        struct cet_search_status st;
        struct cet_individual in;
        cet_search_status(engine, &st);
        for (size_t i = 0; i < st.narch; i++) {
            cet_search_individual(engine, i, &in);
            feasible += in.viol == 0;
        }
        rc = feasible ? cet_buf_printf(b, "; %zu of %zu evaluated settings are feasible.",
                                       feasible, st.narch)
                      : cet_buf_printf(b, "; no evaluated setting is feasible.");
    }
    return rc;
}

/* Gene k of genome g as a table cell: its value, or empty when inactive. */
static void gene_cell(const struct cet_params_desc *d, const double *g, const uint8_t *active,
                      size_t k, char *v, size_t size)
{
    v[0] = 0;
    if (active[k])
        cet_param_format(d->ex, d->genes[k].index, g[k], 0, v, size);
}

/* More parameter columns than this, and the table turns: one row per
 * parameter, one column per individual (a pipeline evolves dozens). */
enum { MD_WIDE = 8 };

/* The label of row k of n ranks then the defaults: the rank or "defaults",
 * with "(best.json)" on row mark. */
static const char *row_label(char *buf, size_t size, size_t k, size_t n, size_t mark)
{
    char r[32];
    snprintf(r, sizeof r, k < n ? "%zu" : "defaults", k + 1);
    snprintf(buf, size, "%s%s", r, k == mark ? " (best.json)" : "");
    return buf;
}

/* The cross-validated choice in one sentence (cet_run_choice_text), as
 * the run wrote it into run.json's "final" when there: only the run knew
 * the rules it learned for the start (docs/choice.md). */
static int choice_text(const struct cet_report *r, char *buf, size_t size)
{
    if (cet_run_choice_text(r->engine, &r->run, buf, size))
        return -1;
    const cJSON *fin = cJSON_GetObjectItemCaseSensitive(r->info.root, "final");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(fin, "sentence");
    if (cJSON_IsString(s))
        snprintf(buf, size, "%s", s->valuestring);
    return 0;
}

/* The site rules best.json carries (docs/site.md), read from it: a
 * sentence, or nothing when it has none. */
static int site_rules(const struct cet_report *r, struct cet_buf *b)
{
    char *path = cet_run_path(r->dir, CET_RUN_BEST);
    struct cet_config cfg;
    struct cet_error err;
    int rc = 0;
    if (path && !cet_config_load(&cfg, path, &err)) {
        if (cfg.site) {
            char what[128];
            cet_site_counts(cfg.site, what, sizeof what);
            rc = cet_buf_printf(b, "`best.json` carries %zu site rules learned from the training "
                                   "pages%s (%s; docs/site.md); the fitness of the table is "
                                   "without them, `best.json`'s own with them (%.4f).\n\n",
                                cet_site_nrules(cfg.site), r->run.template_refs ? " with gold" : "",
                                what, cfg.fitness);
        }
        cet_config_free(&cfg);
    }
    free(path);
    return rc;
}

/* Table 2 of Gottron 2008: the best distinct individuals (top.json), then the
 * defaults; only the parameters active in one of them.  best.json's row is
 * named, and the final choice said in words. */
static int md_best(const struct cet_report *r, struct cet_buf *b)
{
    const struct cet_search *engine = r->engine;
    const struct cet_params_desc *d = &r->desc;
    size_t *rank = NULL, n = 0, G = d->ngenes;
    double *def = malloc((d->ngenes + 1) * sizeof *def);
    struct cet_individual *in = NULL;
    uint8_t (*act)[CET_MAX_GENES] = NULL, shown[CET_MAX_GENES] = {0};
    int rc = !def || cet_search_top(engine, r->run.top ? r->run.top : 5, &rank, &n);
    rc = rc || cet_buf_puts(b, "## Best individuals\n\n");
    if (!rc && !n) {
        rc = cet_buf_puts(b, "Nothing was evaluated yet.\n\n");
        goto done;
    }
    /* Rows 0..n-1 the best, row n the defaults (in[n] only when evaluated). */
    in = rc ? NULL : calloc(n + 1, sizeof *in);
    act = in ? malloc((n + 1) * sizeof *act) : NULL;
    if (rc || !act) {
        rc = -1;
        goto done;
    }
    cet_params_default_genome(d, def);
    cet_genome_normalise(d, cet_search_opts(engine)->resolution, def);
    size_t di, nshown = 0;
    int def_known = !cet_run_full_index(engine, def, &di);
    for (size_t k = 0; k <= n; k++) {
        if (k < n)
            cet_search_individual(engine, rank[k], &in[k]);
        else if (def_known)
            cet_search_individual(engine, di, &in[k]);
        cet_params_active(d, k < n ? in[k].genes : def, act[k]);
        for (size_t g = 0; g < G; g++)
            shown[g] |= act[k][g];
    }
    for (size_t g = 0; g < G; g++)
        nshown += shown[g];
    /* best.json's row (0..n-1, n: the defaults; n + 1: none shown) is named. */
    size_t best, mark = n + 1;
    int found = !cet_run_info_best(engine, &r->run, &best);
    for (size_t k = 0; k < n && found; k++)
        if (rank[k] == best)
            mark = k;
    if (mark > n && ((r->run.has_chosen && r->run.start_outside && !r->run.start_from) ||
                     (found && def_known && di == best)))
        mark = n;
    char label[64];
    rc = cet_buf_printf(b, "The best distinct individuals on the training sample of %ld "
                           "documents (`top.json`; table 2 of Gottron 2008), then the "
                           "defaults%s.", r->run.docs,
                        nshown < G ? "; parameters inactive in all of them are left out" : "") ||
         md_goal(engine, b) || cet_buf_puts(b, "\n\n");
    char v[64];
    if (nshown > MD_WIDE) {
        rc = rc || cet_buf_puts(b, "| parameter |");
        for (size_t k = 0; k <= n && !rc; k++)
            rc = cet_buf_printf(b, " %s |", row_label(label, sizeof label, k, n, mark));
        rc = rc || cet_buf_puts(b, "\n| --- |");
        for (size_t k = 0; k <= n && !rc; k++)
            rc = cet_buf_puts(b, " ---: |");
        rc = rc || cet_buf_puts(b, "\n");
        for (size_t g = 0; g < G && !rc; g++) {
            if (!shown[g])
                continue;
            rc = cet_buf_printf(b, "| %s |", d->genes[g].name);
            for (size_t k = 0; k <= n && !rc; k++) {
                gene_cell(d, k < n ? in[k].genes : def, act[k], g, v, sizeof v);
                rc = cet_buf_printf(b, " %s |", v);
            }
            rc = rc || cet_buf_puts(b, "\n");
        }
        static const char *const rows[] = {"fitness", "precision", "recall", "generation"};
        for (size_t m = 0; m < 4 && !rc; m++) {
            rc = cet_buf_printf(b, "| %s |", rows[m]);
            for (size_t k = 0; k <= n && !rc; k++) {
                const struct cet_individual *x = &in[k];
                if (k == n && !def_known)
                    rc = cet_buf_puts(b, m ? " |" : " not evaluated |");
                else if (m == 3)
                    rc = cet_buf_printf(b, " %ld |", x->born);
                else
                    rc = cet_buf_printf(b, " %.4f |", m == 0 ? x->fit : m == 1 ? x->prec : x->rec);
            }
            rc = rc || cet_buf_puts(b, "\n");
        }
        rc = rc || cet_buf_puts(b, "\n");
    } else {
        rc = rc || cet_buf_puts(b, "| rank |");
        for (size_t g = 0; g < G && !rc; g++)
            if (shown[g])
                rc = cet_buf_printf(b, " %s |", d->genes[g].name);
        rc = rc || cet_buf_puts(b, " fitness | precision | recall | generation |\n| ---: |");
        for (size_t g = 0; g < G && !rc; g++)
            if (shown[g])
                rc = cet_buf_puts(b, " ---: |");
        rc = rc || cet_buf_puts(b, " ---: | ---: | ---: | ---: |\n");
        for (size_t k = 0; k <= n && !rc; k++) {
            rc = cet_buf_printf(b, "| %s |", row_label(label, sizeof label, k, n, mark));
            for (size_t g = 0; g < G && !rc; g++)
                if (shown[g]) {
                    gene_cell(d, k < n ? in[k].genes : def, act[k], g, v, sizeof v);
                    rc = cet_buf_printf(b, " %s |", v);
                }
            if (k == n && !def_known)
                rc = rc || cet_buf_puts(b, " not evaluated | | | |\n");
            else
                rc = rc || cet_buf_printf(b, " %.4f | %.4f | %.4f | %ld |\n", in[k].fit,
                                          in[k].prec, in[k].rec, in[k].born);
        }
        rc = rc || cet_buf_puts(b, "\n");
    }
    if (def_known && !r->run.has_chosen && r->run.choose != CET_CHOOSE_CV)
        rc = rc || cet_buf_printf(b, "The best is %+.4f over the defaults on the training "
                                     "sample.\n\n", in[0].fit - in[n].fit);
    struct cet_search_status st;
    cet_search_status(engine, &st);
    char sentence[2048];
    if (!choice_text(r, sentence, sizeof sentence)) {
        rc = rc || cet_buf_printf(b, "%s (`heldout.csv` lists every held-out page; the rule: "
                                     "docs/choice.md)\n\n", sentence);
        rc = rc || site_rules(r, b);
    }
    else if (r->run.has_chosen && r->run.holdout_docs && r->run.chosen < st.narch) {
        char which[64] = "the defaults";
        if (r->run.chosen_rank)
            snprintf(which, sizeof which, "rank %zu", r->run.chosen_rank);
        rc = rc || cet_buf_printf(b, "`best.json` is %s, chosen among these on the %ld training "
                                     "documents the search did not see (`holdout.txt`; the "
                                     "table's fitness is on the other %ld): a tuned setting must "
                                     "beat the defaults there beyond chance.  Over the defaults "
                                     "it gains %+.4f in training and %+.4f on the held-out "
                                     "documents (mean F1 %.4f against %.4f), the estimate for "
                                     "unseen pages.\n\n", which, r->run.holdout_docs,
                                  r->run.docs - r->run.holdout_docs,
                                  cet_search_fitness(engine, r->run.chosen) - r->run.defaults_train,
                                  r->run.chosen_holdout - r->run.defaults_holdout,
                                  r->run.chosen_holdout, r->run.defaults_holdout);
        if (r->run.top_rank && !isnan(r->run.top_pvalue))
            rc = rc || cet_buf_printf(b, "The search's best there, rank %zu, gains %+.4f in "
                                         "training and %+.4f on the held-out documents (mean F1 "
                                         "%.4f); the sign-flip test gives p = %.3g (it must be "
                                         "below %g).\n\n", r->run.top_rank,
                                      r->run.top_train - r->run.defaults_train,
                                      r->run.top_holdout - r->run.defaults_holdout,
                                      r->run.top_holdout, r->run.top_pvalue,
                                      CET_HOLDOUT_ALPHA);
    }
done:
    free(act);
    free(in);
    free(def);
    free(rank);
    return rc;
}

/* Splits a CSV line (no quoting: validation.csv has none) in place into at
 * most max fields; returns how many. */
static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = 0;
        p = c + 1;
    }
    return n;
}

static double csv_number(char **f, int n, int col)
{
    return col >= 0 && col < n && *f[col] ? strtod(f[col], NULL) : NAN;
}

/* validation.csv as a table, and the gaps of the best and the defaults. */
/* One CSV row's fields f[0..n) as a Markdown table row; after the header
 * row, the alignment row (the first column left, the others right). */
static int md_row(struct cet_buf *b, char **f, int n, int header)
{
    int rc = cet_buf_puts(b, "|");
    for (int c = 0; c < n && !rc; c++)
        rc = cet_buf_puts(b, " ") || md_cell(b, f[c]) || cet_buf_puts(b, " |");
    rc = rc || cet_buf_puts(b, header ? "\n|" : "\n");
    for (int c = 0; header && c < n && !rc; c++)
        rc = cet_buf_puts(b, c ? " ---: |" : " --- |");
    return rc || (header && cet_buf_puts(b, "\n"));
}

static int md_validation(const struct cet_report *r, struct cet_buf *b)
{
    enum { MAX_FIELDS = 512 };
    if (!r->validation)
        return 0;
    const cJSON *dirs = cJSON_GetObjectItemCaseSensitive(r->info.root, "validate");
    int rc = cet_buf_puts(b, "## Validation\n\nThe best individuals and the defaults on the "
                             "validation corpora (`validation.csv`): ") ||
             (dirs ? md_value(b, dirs, 1, ", ") : cet_buf_puts(b, "see run.json")) ||
             cet_buf_puts(b, ".  train_fitness and valid_fitness are the same measure (the "
                             "run's objective: mean F1 over documents unless --objective says "
                             "otherwise), and gap = train_fitness - valid_fitness: a large "
                             "positive gap means the run fitted its sample rather than the "
                             "task.\n\n");
    char *text = strdup(r->validation), **f = malloc(MAX_FIELDS * sizeof *f);
    int col_train = -1, col_valid = -1, col_best = -1, header = 1;
    double best_train = NAN, best_valid = NAN, def_train = NAN, def_valid = NAN;
    char best_row[64] = "";
    rc = rc || !text || !f;
    for (char *save = NULL, *l = rc ? NULL : strtok_r(text, "\n", &save); l && !rc;
         l = strtok_r(NULL, "\n", &save)) {
        int n = split_csv(l, f, MAX_FIELDS);
        if (header) {
            rc = md_row(b, f, n, header);
            header = 0;
            for (int c = 0; c < n; c++) {
                col_train = strcmp(f[c], "train_fitness") ? col_train : c;
                col_best = strcmp(f[c], "best_json") ? col_best : c;
                /* valid_fitness; runs before it had only valid_f1 (F1 runs). */
                col_valid = !strcmp(f[c], "valid_fitness") ||
                                    (col_valid < 0 && !strcmp(f[c], "valid_f1"))
                                ? c
                                : col_valid;
            }
            continue;
        }
        /* best.json's row: marked (runs before the mark: rank 1). */
        int is_best = col_best >= 0 ? csv_number(f, n, col_best) == 1 : !strcmp(f[0], "1");
        if (is_best) {
            best_train = csv_number(f, n, col_train);
            best_valid = csv_number(f, n, col_valid);
            snprintf(best_row, sizeof best_row, "%s", f[0]);
        }
        if (!strcmp(f[0], "defaults")) {
            def_train = csv_number(f, n, col_train);
            def_valid = csv_number(f, n, col_valid);
        }
        char label[80];
        if (is_best && n > 0) {
            snprintf(label, sizeof label, "%s (best.json)", f[0]);
            f[0] = label;
        }
        rc = md_row(b, f, n, 0);
    }
    free(text);
    free(f);
    rc = rc || cet_buf_puts(b, "\n");
    if (isnan(best_valid))
        return rc;
    char which[80];
    snprintf(which, sizeof which, "%s%s", strcmp(best_row, "defaults") && strcmp(best_row, "start")
                                                ? "rank " : "the ", best_row);
    rc = rc || cet_buf_printf(b, "Training against validation fitness: best.json (%s) %.4f -> "
                                 "%.4f (gap %+.4f)", which, best_train, best_valid,
                              best_train - best_valid);
    if (!isnan(def_train) && !isnan(def_valid) && strcmp(best_row, "defaults"))
        rc = rc || cet_buf_printf(b, ", the defaults %.4f -> %.4f (gap %+.4f)", def_train,
                                  def_valid, def_train - def_valid);
    if (!isnan(def_valid))
        rc = rc || cet_buf_printf(b, "; on the validation corpora best.json is %+.4f over the "
                                     "defaults", best_valid - def_valid);
    return rc || cet_buf_puts(b, ".\n\n");
}

/* How many documents each individual was evaluated on: with racing, a
 * table of the document counts (raced-out individuals stop at a test,
 * survivors see every document). */
static int md_racing(const struct cet_report *r, struct cet_buf *b)
{
    const struct cet_search *engine = r->engine;
    const struct cet_search_options *o = cet_search_opts(engine);
    struct cet_search_status st;
    struct cet_individual in;
    cet_search_status(engine, &st);
    size_t n = st.ncomplete, raced = 0;
    double full = (double)n * (double)st.ndocs;
    int rc = cet_buf_puts(b, "## Documents evaluated\n\n");
    if (!o->race || !n)
        return rc || cet_buf_printf(b, "Every individual was evaluated on all %zu training "
                                       "documents (%ld document evaluations; no racing).\n\n",
                                    st.ndocs, st.doc_evals);
    uint32_t *v = malloc(n * sizeof *v);
    if (!v)
        return -1;
    long docs = 0;
    for (size_t i = 0; i < n; i++) {
        cet_search_individual(engine, i, &in);
        v[i] = in.ndone;
        raced += (size_t)in.raced;
        docs += in.ndone;
    }
    qsort(v, n, sizeof *v, cet_cmp_u32);
    rc = rc || cet_buf_printf(b, "Raced (`--race`: a sign-flip test at alpha %g after the "
                                 "pages where the best's F1 is below %g and %zu documents, then "
                                 "every %zu): %zu of %zu individuals were raced "
                                 "out.  The run used %ld document evaluations, %.2fx fewer than "
                                 "evaluating every one on all %zu documents (%.0f).\n\n"
                                 "| documents evaluated | individuals | share |\n"
                                 "| ---: | ---: | ---: |\n",
                              o->race_alpha, o->race_weak, o->race_first, o->race_block, raced,
                              n, docs, docs ? full / (double)docs : 0.0, st.ndocs, full);
    for (size_t i = 0; i < n && !rc;) {
        size_t j = i;
        while (j < n && v[j] == v[i])
            j++;
        rc = cet_buf_printf(b, "| %u%s | %zu | %.1f%% |\n", v[i],
                            v[i] == st.ndocs ? " (all)" : "", j - i,
                            100.0 * (double)(j - i) / (double)n);
        i = j;
    }
    free(v);
    return rc || cet_buf_puts(b, "\n");
}

static int md_plots(const struct cet_report *r, const char *no_plots, struct cet_buf *b)
{
    const struct cet_search *engine = r->engine;
    int rc = cet_buf_puts(b, "## Plots\n\n");
    if (!r->nplots)
        return rc || cet_buf_puts(b, "None: no generation is complete yet.\n");
    if (no_plots)
        return rc || cet_buf_printf(b, "Not drawn: %s.  The gnuplot script `report.gp` and its "
                                       "data (`report-*.dat`) are written; install gnuplot "
                                       "(Debian: `gnuplot-nox`, or `scripts/install-deps.sh`) and "
                                       "run `cetune report %s` again, or `gnuplot report.gp` in "
                                       "this directory.\n", no_plots, r->dir);
    size_t nhist, npop;
    const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
    const struct cet_search_stats *first = &hist[0], *last = &hist[nhist - 1];
    struct cet_individual best;
    cet_search_individual(engine, r->best, &best);
    cet_search_population(engine, &npop);
    int pareto = cet_search_opts(engine)->goal.npareto != 0;
    size_t nplots = r->nplots - (size_t)pareto; /* pareto.png comes last */
    rc = rc || cet_buf_printf(b, "### Convergence\n\nBest, mean and worst fitness of each "
                                 "generation.  The best rose from %.4f in generation 0 to %.4f "
                                 "(found in generation %ld); the last generation's mean is "
                                 "%.4f.\n\n![convergence](%s)\n\n",
                              first->best, best.fit, best.born, last->mean, r->plots[0]);
    rc = rc || cet_buf_puts(b, "### Explored parameters\n\n");
    if (r->desc.ngenes == 1)
        rc = rc || cet_buf_printf(b, "Every evaluated individual's %s against its fitness, "
                                     "coloured by the generation that evaluated it.\n\n",
                                  r->desc.genes[0].name);
    else
        rc = rc || cet_buf_printf(b, "Every evaluated individual at its values of each pair of "
                                     "parameters, coloured by fitness (like figure 4 of Gottron "
                                     "2008); the best is ringed in red, the defaults crossed in "
                                     "black.%s\n\n",
                                  r->pair_genes < r->desc.ngenes
                                      ? "  Only the pairs of the first parameters are drawn "
                                        "(numeric ones first, those active in most individuals "
                                        "first)."
                                      : "");
    for (size_t i = 1; i + 1 < nplots && !rc; i++)
        rc = cet_buf_printf(b, "![%s](%s)\n\n", r->plots[i], r->plots[i]);
    rc = rc || cet_buf_printf(b, "### Final population\n\nHow the %zu individuals of the last "
                                 "generation spread over each parameter's range; the dashed "
                                 "line marks the default, the red line the best "
                                 "individual.\n\n![distribution](%s)\n",
                              npop, r->plots[nplots - 1]);
    if (pareto)
        rc = rc || cet_buf_printf(b, "\n### Pareto front\n\nEvery evaluated setting (grey), "
                                     "the non-dominated ones (blue, `pareto.csv`) and the "
                                     "defaults (black cross).\n\n![pareto](%s)\n",
                                  r->plots[r->nplots - 1]);
    return rc;
}

/* folds.csv as a table, with the estimate: the mean gain and its spread. */
static int md_folds(const struct cet_report *r, struct cet_buf *b)
{
    enum { MAX_FIELDS = 16 };
    if (!r->folds)
        return 0;
    int rc = cet_buf_printf(b, "## Cross-validation\n\nThe search run on K-1 of K folds of the "
                               "training documents, its best and the start scored on the "
                               "held-out fold (`folds.csv`, every page in `heldout.csv`; each "
                               "fold's run is in `folds/K`).  The folds estimate what tuning "
                               "gains on unseen pages.%s\n\n",
                               r->run.template_refs ? "  On pseudo-gold only the pages with gold "
                                                      "of their own are held out, scored against "
                                                      "it; the others train in every fold."
                                                    : "");
    char *text = strdup(r->folds), *f[MAX_FIELDS];
    double sum = 0, sq = 0, gains[128];
    size_t n = 0;
    int header = 1, col_gain = -1;
    rc = rc || !text;
    for (char *save = NULL, *l = rc ? NULL : strtok_r(text, "\n", &save); l && !rc;
         l = strtok_r(NULL, "\n", &save)) {
        int nf = split_csv(l, f, MAX_FIELDS);
        rc = md_row(b, f, nf, header);
        if (header) {
            header = 0;
            for (int c = 0; c < nf; c++)
                col_gain = strcmp(f[c], "gain") ? col_gain : c;
        } else if (n < 128 && !isnan(csv_number(f, nf, col_gain))) {
            gains[n] = csv_number(f, nf, col_gain);
            sum += gains[n++];
        }
    }
    free(text);
    const struct cet_choice *e = &r->run.estimate;
    char bounds[96];
    if (!rc && r->run.has_estimate && cet_choice_interval(bounds, sizeof bounds, e) > 0)
        return cet_buf_printf(b, "\nEstimate: tuning gains %+.4f F1 over the start on held-out "
                                 "pages (%s over %zu pages).\n\n", cet_choice_round(e->gain),
                              bounds, e->n);
    if (rc || n < 2)
        return rc || cet_buf_puts(b, "\n");
    for (size_t k = 0; k < n; k++)
        sq += (gains[k] - sum / (double)n) * (gains[k] - sum / (double)n);
    return cet_buf_printf(b, "\nEstimate: tuning gains %+.4f F1 over the defaults on held-out "
                             "documents (mean over %zu folds; standard deviation %.4f).\n\n",
                          sum / (double)n, n, sqrt(sq / (double)(n - 1)));
}

int cet_report_write_md(const struct cet_report *r, const char *no_plots, struct cet_error *err)
{
    struct cet_buf b = {0};
    struct cet_search_status st;
    cet_search_status(r->engine, &st);
    const char *name = strrchr(r->dir, '/') ? strrchr(r->dir, '/') + 1 : r->dir;
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(r->info.root, "status");
    const char *said = cJSON_IsString(status) ? status->valuestring : "status unknown";
    /* "running" with nobody holding the lock: killed before it could say so. */
    if (!strcmp(said, "running") && !cet_rundir_alive(r->dir))
        said = "not running: the process ended without recording its end (killed; "
               "cetune evolve --resume continues it)";
    int rc = cet_buf_printf(&b, "# Run %s: %s\n\n", name, r->desc.ex->name) ||
             (r->desc.description &&
              (md_cell(&b, r->desc.description) || cet_buf_puts(&b, ".\n\n"))) ||
             cet_buf_printf(&b, "%s evolved %zu parameter%s on %ld documents: %ld generation%s, "
                                "%ld evaluations, %s%s%s.\n\n",
                            r->desc.ex->name, r->desc.ngenes, r->desc.ngenes == 1 ? "" : "s",
                            r->run.docs, st.gen + 1, st.gen == 0 ? "" : "s", st.evals,
                            said,
                            st.stop != CET_STOP_NONE ? ", stopped by " : "",
                            st.stop != CET_STOP_NONE ? cet_search_stop_name(st.stop) : "") ||
             md_settings(r, &b) || cet_buf_puts(&b, "\n") || md_best(r, &b) ||
             md_validation(r, &b) || md_folds(r, &b) || md_racing(r, &b) ||
             md_plots(r, no_plots, &b);
    if (rc) {
        cet_buf_free(&b);
        return cet_fail(err, "%s: out of memory writing report.md", r->dir);
    }
    rc = cet_run_write_file(r->dir, CET_RUN_REPORT, b.p, b.len, err);
    cet_buf_free(&b);
    return rc;
}
