/* cetune evaluate: scores configurations on corpora.  One configuration
 * prints a row per package; several print table 3 of Gottron (2008): a row
 * per configuration, a column per package and the macro average, grouped by
 * extractor and best first. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/eval.h"
#include "cetune/guard.h"
#include "cetune/page.h"
#include "cli.h"

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };
enum { SHOW_P = 1, SHOW_R = 2, SHOW_F1 = 4 };

/* A configuration's row: its scores (cet_evaluate_configs) and label. */
struct result {
    struct cet_config *cfg;
    char *label;               /* unique among its extractor's rows (make_labels) */
    struct cet_score *docs;    /* per document */
    struct cet_score *pkgs;    /* per package */
    struct cet_score macro;    /* mean over packages */
};

/* Extractions that came back empty while the gold was not, among the
 * documents [first, first + count): the pages a crawler would lose. */
static unsigned empties(const struct cet_score *docs, uint32_t first, uint32_t count)
{
    unsigned n = 0;
    for (uint32_t i = first; i < first + count; i++)
        n += docs[i].n_extract == 0 && docs[i].n_gold > 0;
    return n;
}

static unsigned pkg_empties(const struct result *r, const struct cet_corpus *c, size_t k)
{
    return empties(r->docs, c->pkgs[k].first, c->pkgs[k].count);
}

static unsigned all_empties(const struct result *r, const struct cet_corpus *c)
{
    return empties(r->docs, 0, (uint32_t)c->ndocs);
}

/* Writes DIR/PACKAGE/NAME.txt for every document (DIR/N-EXTRACTOR/... when
 * several configurations are evaluated); with a guard instead of an
 * evaluator, only checks that no file written would touch a corpus, nor,
 * without force, replace an existing file. */
static int write_extracts(const char *dir, struct cet_evaluator *ev, struct cet_guard *guard,
                          int force, const struct cet_config *cfg, size_t idx, size_t nres,
                          const struct cet_corpus *c)
{
    struct cet_buf path = {0}, text = {0};
    struct cet_sel sel = {0};
    struct cet_error err;
    int rc = 0;
    /* DIR[/N-EXTRACTOR], then /PACKAGE, then /NAME.txt after it. */
    if (nres > 1 ? cet_buf_printf(&path, "%s/%zu-%s", dir, idx + 1, cfg->ex->name)
                 : cet_buf_puts(&path, dir)) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
    }
    size_t base = path.len;
    for (size_t k = 0; k < c->npkgs && rc == 0; k++) {
        path.len = base;
        if (cet_buf_printf(&path, "/%s", c->pkgs[k].name)) {
            cli_error("out of memory");
            rc = CLI_RUNTIME;
            break;
        }
        size_t pdir = path.len;
        if (!guard && cet_mkdirs(path.p)) {
            cli_error("%s: cannot create directory: %s", path.p, strerror(errno));
            rc = CLI_RUNTIME;
            break;
        }
        for (uint32_t i = c->pkgs[k].first; i < c->pkgs[k].first + c->pkgs[k].count; i++) {
            const struct cet_doc *d = c->docs[i];
            path.len = pdir;
            text.len = 0;
            if (cet_buf_printf(&path, "/%s.txt", d->name)) {
                cli_error("out of memory");
                rc = CLI_RUNTIME;
                break;
            }
            if (guard) {
                if ((rc = cli_guard_check(guard, "--extracts", path.p, 0)) ||
                    (rc = cli_refuse_existing("--extracts", path.p, force)))
                    break;
                continue;
            }
            if (cet_evaluator_extract(ev, cfg->params, i, &sel) ||
                cet_extract_text(d, &sel, &text)) {
                cli_error("out of memory");
                rc = CLI_RUNTIME;
                break;
            }
            if (cet_write_atomic(path.p, text.p, text.len, &err)) {
                cli_error("%s", err.msg);
                rc = CLI_RUNTIME;
                break;
            }
        }
    }
    cet_sel_free(&sel);
    cet_buf_free(&text);
    cet_buf_free(&path);
    return rc;
}

/* --extracts: every configuration's extracts, one extractor's preparation
 * at a time (this process: the documents' models are here). */
static int write_all_extracts(const char *dir, const struct result *res, size_t n,
                              const struct cet_corpus *c, enum cet_metric metric, int threads)
{
    int rc = 0;
    for (size_t j = 0; j < n && !rc; j++) {
        int seen = 0;
        for (size_t i = 0; i < j; i++)
            seen |= res[i].cfg->ex == res[j].cfg->ex;
        if (seen)
            continue;
        struct cet_evaluator *ev;
        struct cet_error err;
        if (cet_evaluator_new(&ev, c, res[j].cfg->ex, metric, threads, &err)) {
            cli_error("%s", err.msg);
            return CLI_RUNTIME;
        }
        for (size_t i = j; i < n && !rc; i++)
            if (res[i].cfg->ex == res[j].cfg->ex) {
                if (cet_evaluator_set_site(ev, res[i].cfg->site, &err)) {
                    cli_error("%s", err.msg);
                    rc = CLI_RUNTIME;
                    break;
                }
                rc = write_extracts(dir, ev, NULL, 1, res[i].cfg, i, n, c);
            }
        cet_evaluator_free(ev);
    }
    return rc;
}

static double figure(const struct cet_score *s, int which)
{
    return which == SHOW_P ? s->p : which == SHOW_R ? s->r : s->f1;
}

static const char *figure_name(int which)
{
    return which == SHOW_P ? "precision" : which == SHOW_R ? "recall" : "f1";
}

/* A readable label for configuration j: for -c FILE the run directory's
 * name (runs/NAME/best.json) or the file's name without .json, with the -P
 * settings that follow it; for -x the parameters that differ from the
 * defaults as name=value, or "defaults".  NULL when out of memory. */
static char *label_of(const struct cet_config *cfg, const char *file)
{
    struct cet_buf b = {0};
    int bad = 0;
    if (file) {
        const char *base = strrchr(file, '/');
        base = base ? base + 1 : file;
        size_t n = strlen(base);
        if (!strcmp(base, "best.json") && base - file >= 2) {
            /* the run directory's name */
            const char *end = base - 1, *start = end;
            while (start > file && start[-1] != '/')
                start--;
            bad = cet_buf_add(&b, start, (size_t)(end - start));
        } else {
            bad = cet_buf_add(&b, base, n > 5 && !strcmp(base + n - 5, ".json") ? n - 5 : n);
        }
        /* cfg->label is the file, then each -P assignment (cet_config_set). */
        size_t fl = strlen(file);
        if (!bad && cfg->label && !strncmp(cfg->label, file, fl))
            bad = cet_buf_puts(&b, cfg->label + fl);
    } else {
        double *def = malloc((cfg->ex->nparams + 1) * sizeof *def);
        if (!def)
            return NULL;
        cet_params_default(cfg->ex, def);
        for (size_t i = 0; i < cfg->ex->nparams && !bad; i++) {
            char v[64];
            if (cfg->params[i] == def[i])
                continue;
            cet_param_format(cfg->ex, i, cfg->params[i], 0, v, sizeof v);
            bad = cet_buf_printf(&b, "%s%s=%s", b.len ? " " : "", cfg->ex->params[i].name, v);
        }
        free(def);
        if (!bad && !b.len)
            bad = cet_buf_puts(&b, "defaults");
    }
    if (bad || !b.p) {
        cet_buf_free(&b);
        return NULL;
    }
    return b.p;
}

/* Labels every result, unique among the rows of one extractor: equal
 * labels of files become their paths, then equal ones are numbered. */
static int make_labels(struct result *res, size_t n, const struct cli_configs *cfgs)
{
    for (size_t j = 0; j < n; j++)
        if (!(res[j].label = label_of(res[j].cfg, cfgs->files[j])))
            return -1;
    unsigned char *dup = calloc(n, 1);
    if (!dup)
        return -1;
    int rc = 0;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < n; i++)
                if (i != j && res[i].cfg->ex == res[j].cfg->ex &&
                    !strcmp(res[i].label, res[j].label))
                    dup[j] = 1;
        for (size_t j = 0; j < n && !rc; j++) {
            struct cet_buf b = {0};
            if (!dup[j] || (pass == 0 && !cfgs->files[j]))
                continue;
            if (pass == 0) /* the path, and the -P settings after it */
                rc = cet_buf_puts(&b, res[j].cfg->label ? res[j].cfg->label : cfgs->files[j]);
            else
                rc = cet_buf_printf(&b, "%s #%zu", res[j].label, j + 1);
            if (rc) {
                cet_buf_free(&b);
                break;
            }
            free(res[j].label);
            res[j].label = b.p;
            dup[j] = 0;
        }
    }
    free(dup);
    return rc ? -1 : 0;
}

/* The metric's name in titles. */
static const char *metric_name(enum cet_metric m)
{
    return m == CET_METRIC_CHARS ? "Character LCS" : m == CET_METRIC_LCSTRING
                                                         ? "Longest common substring"
                                                         : "Word sequence";
}

/* A row's head in the multi-configuration tables: its extractor's name
 * when the group changes, then its label or legend key. */
static void row_head(const struct result *r, size_t at, const struct cet_extractor **group,
                     int legend, int lw)
{
    if (r->cfg->ex != *group) {
        *group = r->cfg->ex;
        printf("%s\n", (*group)->name);
    }
    if (legend) {
        char key[32];
        snprintf(key, sizeof key, "[%zu]", at + 1);
        printf("  %-*s", lw, key);
    } else {
        printf("  %-*s", lw, r->label);
    }
}

/* A CSV field, quoted. */
static void print_csv_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void print_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

/* One row per document of one configuration, in the table or CSV format. */
static void print_per_doc(const struct result *res, const struct cet_corpus *c, enum fmt fmt,
                          int several)
{
    if (fmt == FMT_TABLE)
        printf("%-16s %-28s %8s %8s %8s %9s %9s %9s\n", "package", "name", "extract", "gold",
               "lcs", "precision", "recall", "f1");
    for (size_t i = 0; i < c->ndocs; i++) {
        const struct cet_score *s = &res->docs[i];
        const struct cet_doc *d = c->docs[i];
        if (fmt == FMT_CSV && several) {
            print_csv_string(res->label);
            printf(",%s,", res->cfg->ex->name);
        }
        if (fmt == FMT_CSV)
            printf("%s,%s,%u,%u,%u,%.6f,%.6f,%.6f\n", d->package, d->name, s->n_extract,
                   s->n_gold, s->overlap, s->p, s->r, s->f1);
        else
            printf("%-16s %-28s %8u %8u %8u %9.4f %9.4f %9.4f\n", d->package, d->name,
                   s->n_extract, s->n_gold, s->overlap, s->p, s->r, s->f1);
    }
}

static void print_single(const struct result *res, const struct cet_corpus *c, enum fmt fmt,
                         int per_doc, enum cet_metric metric)
{
    if (fmt == FMT_TABLE)
        printf("%s (%s): %zu document%s in %zu package%s; metric: %s\n\n", res->cfg->ex->name,
               res->label, c->ndocs, cli_s(c->ndocs), c->npkgs, cli_s(c->npkgs),
               metric_name(metric));
    if (per_doc) {
        if (fmt == FMT_CSV)
            printf("package,name,words_extract,words_gold,lcs,precision,recall,f1\n");
        print_per_doc(res, c, fmt, 0);
        return;
    }
    if (fmt == FMT_CSV) {
        printf("package,docs,precision,recall,f1,empty\n");
        for (size_t k = 0; k < c->npkgs; k++)
            printf("%s,%u,%.6f,%.6f,%.6f,%u\n", c->pkgs[k].name, c->pkgs[k].count, res->pkgs[k].p,
                   res->pkgs[k].r, res->pkgs[k].f1, pkg_empties(res, c, k));
        printf("macro,%zu,%.6f,%.6f,%.6f,%u\n", c->ndocs, res->macro.p, res->macro.r, res->macro.f1,
               all_empties(res, c));
        return;
    }
    int w = 13; /* "macro average" */
    for (size_t k = 0; k < c->npkgs; k++)
        if ((int)strlen(c->pkgs[k].name) > w)
            w = (int)strlen(c->pkgs[k].name);
    printf("%-*s %6s %10s %10s %10s %6s\n", w, "package", "docs", "precision", "recall", "f1",
           "empty");
    for (size_t k = 0; k < c->npkgs; k++)
        printf("%-*s %6u %10.4f %10.4f %10.4f %6u\n", w, c->pkgs[k].name, c->pkgs[k].count,
               res->pkgs[k].p, res->pkgs[k].r, res->pkgs[k].f1, pkg_empties(res, c, k));
    printf("%-*s %6zu %10.4f %10.4f %10.4f %6u\n", w, "macro average", c->ndocs, res->macro.p,
           res->macro.r, res->macro.f1, all_empties(res, c));
    printf("\nempty: extractions that came back empty while the gold was not\n");
}

/* --per-doc with several configurations: each one's rows, in command-line
 * order; the CSV starts with the configuration and its extractor. */
static void print_per_doc_all(const struct result *res, size_t nres, const struct cet_corpus *c,
                              enum fmt fmt, enum cet_metric metric)
{
    if (fmt == FMT_CSV)
        printf("config,extractor,package,name,words_extract,words_gold,lcs,precision,recall,f1\n");
    for (size_t j = 0; j < nres; j++) {
        if (fmt == FMT_TABLE)
            printf("%s%s (%s): %zu documents; metric: %s\n\n", j ? "\n" : "",
                   res[j].cfg->ex->name, res[j].label, c->ndocs, metric_name(metric));
        print_per_doc(&res[j], c, fmt, 1);
    }
}

static void print_json(const struct result *res, size_t nres, const struct cet_corpus *c, int per_doc)
{
    printf("{\"documents\": %zu, \"skipped\": %zu, \"configurations\": [", c->ndocs, c->nskips);
    for (size_t j = 0; j < nres; j++) {
        struct cet_buf cfg = {0};
        cet_config_json(&cfg, res[j].cfg->ex, res[j].cfg->params, NULL, 0, -1);
        printf("%s\n {\"label\": ", j ? "," : "");
        print_json_string(res[j].cfg->label ? res[j].cfg->label : res[j].cfg->ex->name);
        printf(", \"config\": %s, \"packages\": [", cfg.p ? cfg.p : "null");
        cet_buf_free(&cfg);
        for (size_t k = 0; k < c->npkgs; k++) {
            printf("%s{\"name\": ", k ? ", " : "");
            print_json_string(c->pkgs[k].name);
            printf(", \"docs\": %u, \"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f, "
                   "\"empty\": %u}",
                   c->pkgs[k].count, res[j].pkgs[k].p, res[j].pkgs[k].r, res[j].pkgs[k].f1,
                   pkg_empties(&res[j], c, k));
        }
        printf("], \"macro\": {\"docs\": %zu, \"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f, "
               "\"empty\": %u}",
               c->ndocs, res[j].macro.p, res[j].macro.r, res[j].macro.f1, all_empties(&res[j], c));
        if (per_doc) {
            printf(", \"per_doc\": [");
            for (size_t i = 0; i < c->ndocs; i++) {
                const struct cet_score *s = &res[j].docs[i];
                printf("%s\n  {\"package\": ", i ? "," : "");
                print_json_string(c->docs[i]->package);
                printf(", \"name\": ");
                print_json_string(c->docs[i]->name);
                printf(", \"words_extract\": %u, \"words_gold\": %u, \"lcs\": %u, \"precision\": "
                       "%.6f, \"recall\": %.6f, \"f1\": %.6f}",
                       s->n_extract, s->n_gold, s->overlap, s->p, s->r, s->f1);
            }
            printf("]");
        }
        printf("}");
    }
    printf("]}\n");
}

static const struct result *sort_base;
static int cmp_macro(const void *a, const void *b)
{
    const struct result *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];
    /* Grouped by extractor in order of first appearance, then best first. */
    if (x->cfg->ex != y->cfg->ex) {
        for (const struct result *r = sort_base;; r++) {
            if (r->cfg->ex == x->cfg->ex)
                return -1;
            if (r->cfg->ex == y->cfg->ex)
                return 1;
        }
    }
    if (x->macro.f1 != y->macro.f1)
        return x->macro.f1 > y->macro.f1 ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* Labels longer than this make the table use numbers and a legend. */
enum { MAX_LABEL = 40 };

static void print_table3(const struct result *res, size_t nres, const struct cet_corpus *c,
                         enum fmt fmt, int show, enum cet_metric metric)
{
    size_t *order = malloc(nres * sizeof *order);
    int *w = malloc((c->npkgs + 1) * sizeof *w);
    if (!order || !w) {
        free(order);
        free(w);
        return;
    }
    for (size_t j = 0; j < nres; j++)
        order[j] = j;
    sort_base = res;
    qsort(order, nres, sizeof *order, cmp_macro);
    /* Columns as wide as their package's name: a header is never cut. */
    for (size_t k = 0; k < c->npkgs; k++)
        w[k] = strlen(c->pkgs[k].name) > 8 ? (int)strlen(c->pkgs[k].name) : 8;
    int lw = 8, legend = 0;
    for (size_t j = 0; j < nres; j++)
        if ((int)strlen(res[j].label) > lw)
            lw = (int)strlen(res[j].label);
    if (lw > MAX_LABEL) {
        legend = 1; /* rows show [N]; the legend under the table says what N is */
        lw = 2 + snprintf(NULL, 0, "%zu", nres);
    }
    if (fmt == FMT_CSV) {
        printf("figure,extractor,config");
        for (size_t k = 0; k < c->npkgs; k++)
            printf(",%s", c->pkgs[k].name);
        printf(",macro\n");
    }
    for (int which = SHOW_P; which <= SHOW_F1; which <<= 1) {
        if (!(show & which))
            continue;
        if (fmt == FMT_TABLE) {
            printf("%s %s per package (%zu documents)\n\n", metric_name(metric),
                   which == SHOW_F1 ? "F1" : which == SHOW_P ? "precision" : "recall", c->ndocs);
            printf("  %-*s", lw, "");
            for (size_t k = 0; k < c->npkgs; k++)
                printf(" %*s", w[k], c->pkgs[k].name);
            printf(" %10s\n", "Macro Avg.");
        }
        const struct cet_extractor *group = NULL;
        for (size_t o = 0; o < nres; o++) {
            const struct result *r = &res[order[o]];
            if (fmt == FMT_CSV) {
                printf("%s,%s,", figure_name(which), r->cfg->ex->name);
                print_csv_string(r->label);
                for (size_t k = 0; k < c->npkgs; k++)
                    printf(",%.6f", figure(&r->pkgs[k], which));
                printf(",%.6f\n", figure(&r->macro, which));
                continue;
            }
            row_head(r, order[o], &group, legend, lw);
            for (size_t k = 0; k < c->npkgs; k++)
                printf(" %*.3f", w[k], figure(&r->pkgs[k], which));
            printf(" %10.3f\n", figure(&r->macro, which));
        }
        if (fmt == FMT_TABLE)
            printf("\n");
    }
    /* The empty extractions (the gold is not empty), always: per package and
     * in all; the CSV's rows "empty" come last. */
    if (fmt == FMT_TABLE) {
        printf("Empty extractions where the gold is not empty (%zu documents)\n\n", c->ndocs);
        printf("  %-*s", lw, "");
        for (size_t k = 0; k < c->npkgs; k++)
            printf(" %*s", w[k], c->pkgs[k].name);
        printf(" %10s\n", "All");
    }
    const struct cet_extractor *group = NULL;
    for (size_t o = 0; o < nres; o++) {
        const struct result *r = &res[order[o]];
        if (fmt == FMT_CSV) {
            printf("empty,%s,", r->cfg->ex->name);
            print_csv_string(r->label);
            for (size_t k = 0; k < c->npkgs; k++)
                printf(",%u", pkg_empties(r, c, k));
            printf(",%u\n", all_empties(r, c));
            continue;
        }
        row_head(r, order[o], &group, legend, lw);
        for (size_t k = 0; k < c->npkgs; k++)
            printf(" %*u", w[k], pkg_empties(r, c, k));
        printf(" %10u\n", all_empties(r, c));
    }
    if (fmt == FMT_TABLE)
        printf("\n");
    for (size_t j = 0; legend && fmt == FMT_TABLE && j < nres; j++)
        printf("[%zu] %s %s\n", j + 1, res[j].cfg->ex->name, res[j].label);
    free(order);
    free(w);
}

/* --show p,r,f1: which figures the multi-configuration table prints. */
static int parse_show(const char *cmd, const struct cli_opt *o, void *field, const char *arg)
{
    (void)o;
    int show = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "p"))
            show |= SHOW_P;
        else if (!strcmp(tok, "r"))
            show |= SHOW_R;
        else if (!strcmp(tok, "f1"))
            show |= SHOW_F1;
        else
            show = -1;
        if (show < 0)
            break;
    }
    if (show <= 0 || strlen(arg) >= sizeof buf)
        return cli_usage(cmd, "--show takes a list of p, r, f1, not '%s'", arg);
    memcpy(field, &show, sizeof show);
    return 0;
}

struct args {
    struct cli_configs cfgs;
    struct cli_list dirs, template_refs;
    const char *sample, *extracts;
    int metric, fmt, per_doc, show, fitness, force;
    long threads;
    size_t max_body;
};
#define ARG(field) offsetof(struct args, field)

static void init(void *p)
{
    struct args *a = p;
    a->max_body = CET_MAX_PAGE_BYTES;
    a->show = SHOW_F1;
}

/* In the order of enum cet_metric and enum fmt. */
static const char *const metrics[] = {"word", "chars", "lcstring", NULL};
static const char *const formats[] = {"table", "csv", "json", NULL};
static const char *const fitnesses[] = {"gold", "template", NULL};

/* The option table (cli.h): one row per option. */
static const struct cli_opt options[] = {
    {.name = "config", .letter = 'c', .arg = "CONFIG.json", .type = CLI_FUNC, .off = ARG(cfgs),
     .parse = cli_configs_opt, .flags = CLI_ONE_OF | CLI_MANY,
     .help = "a configuration to score, e.g. a run's best.json; repeatable"},
    {.name = "extractor", .letter = 'x', .arg = "EXTRACTOR", .type = CLI_FUNC, .off = ARG(cfgs),
     .parse = cli_configs_opt, .flags = CLI_ONE_OF | CLI_MANY,
     .help = "an extractor at its defaults (cetune list); repeatable"},
    {.name = "param", .letter = 'P', .arg = "name=value", .type = CLI_FUNC, .off = ARG(cfgs),
     .parse = cli_configs_opt, .flags = CLI_MANY,
     .help = "sets a parameter of the -x or -c before it; repeatable"},
    {.name = "dir", .letter = 'd', .arg = "CORPUS", .type = CLI_LIST, .off = ARG(dirs),
     .flags = CLI_REQ | CLI_MANY,
     .help = "a corpus directory (canonical, CleanEval or article JSON layout); repeatable"},
    {.name = "sample", .letter = 's', .arg = "SAMPLE", .type = CLI_STR, .off = ARG(sample),
     .def = "every document", .help = "score only the documents this sample file lists"},
    {.name = "metric", .type = CLI_ENUM, .off = ARG(metric), .values = metrics,
     .help = "word: word-sequence F1; chars: LCS of characters; lcstring: longest common "
             "substring of characters"},
    {.name = "fitness", .type = CLI_ENUM, .off = ARG(fitness), .values = fitnesses,
     .help = "score against: gold, the gold files; template, their family's pseudo-gold for "
             "pages without gold (docs/template.md)"},
    {.name = "template-ref", .arg = "CONFIG.json", .type = CLI_LIST, .off = ARG(template_refs),
     .flags = CLI_MANY, .def = "the shipped configuration",
     .help = "with --fitness template: an extraction the family's repetition corrects; "
             "repeatable (the first decides what they disagree on)"},
    {.name = "per-doc", .type = CLI_FLAG, .off = ARG(per_doc),
     .help = "one row per document instead of per package (of each configuration)"},
    {.name = "format", .type = CLI_ENUM, .off = ARG(fmt), .values = formats,
     .help = "output format"},
    {.name = "extracts", .arg = "DIR", .type = CLI_STR, .off = ARG(extracts),
     .help = "also write each extract to DIR/PACKAGE/NAME.txt (DIR/N-EXTRACTOR/... with "
             "several configurations)"},
    {.name = "force", .type = CLI_FLAG, .off = ARG(force),
     .help = "let --extracts replace files that exist already"},
    {.name = "show", .arg = "p,r,f1", .type = CLI_FUNC, .off = ARG(show), .parse = parse_show,
     .def = "f1", .help = "the figures of the multi-configuration table, one table each"},
    {.name = "max-body", .arg = "BYTES", .type = CLI_SIZE, .off = ARG(max_body), .min = 1,
     .max = CET_MAX_PAGE_BYTES,
     .help = "largest page read (as extract's and serve's); a larger one is skipped"},
    {.name = "threads", .arg = "N", .type = CLI_LONG, .off = ARG(threads), .max = 1024,
     .help = "threads; 0: all cores"},
    {0}};

static int cmd_evaluate(int argc, char **argv);
const struct cli_command cli_evaluate = {
    .name = "evaluate", .run = cmd_evaluate, .opts = options, .size = sizeof(struct args),
    .init = init, .summary = "score configurations on corpora, per package",
    .about = "With one configuration, prints one row per package and the macro average; with "
             "several, one row per\nconfiguration and one column per package (table 3 of "
             "Gottron 2008)."};

static int cmd_evaluate(int argc, char **argv)
{
    struct args a;
    int rc = cli_parse(&cli_evaluate, &a, argc, argv);
    struct cli_configs cfgs = a.cfgs;
    struct cli_list dirs = a.dirs;
    const char *sample = a.sample, *extracts = a.extracts;
    enum fmt fmt = (enum fmt)a.fmt;
    int per_doc = a.per_doc, show = a.show;
    enum cet_metric metric = (enum cet_metric)a.metric;
    long threads = a.threads;
    struct cet_corpus corpus = {0};
    struct cet_entries entries = {0};
    struct result *res = NULL;
    struct cet_config_scores *sc = NULL;
    struct cet_guard *guard = NULL;
    struct cet_error err;
    if (rc || (rc = cli_adhosts(NULL)))
        goto done;
    if (!cfgs.n) {
        rc = cli_usage("evaluate", "give a configuration with -c CONFIG.json or -x EXTRACTOR");
        goto done;
    }
    if (!dirs.n) {
        rc = cli_usage("evaluate", "give at least one corpus with -d CORPUS");
        goto done;
    }
    /* Under MPI the ranks load and score their shards; --extracts needs the
     * documents' models in this process, so it loads them all here. */
    const struct cet_backend *be = extracts ? NULL : cli_backend();
    /* What the metric, the extractors and the extracts read: the character
     * metrics both texts, the word metric the words only. */
    unsigned flags = metric == CET_METRIC_WORD ? 0 : CET_LOAD_GOLD_TEXT | CET_LOAD_TEXT;
    if (extracts)
        flags |= CET_LOAD_TEXT;
    for (size_t j = 0; j < cfgs.n; j++)
        flags |= cfgs.v[j].ex->load;
    char shipped[4096];
    if (a.fitness && metric != CET_METRIC_WORD) {
        rc = cli_usage("evaluate", "--fitness template scores words only (--metric word): the "
                                   "pseudo-gold is the words of the page");
        goto done;
    }
    if (a.fitness && (rc = cli_template_scan(&entries, dirs.v, dirs.n, &a.template_refs, NULL,
                                             shipped, sizeof shipped, (int)threads, &flags)))
        goto done;
    if (a.max_body < CET_MAX_PAGE_BYTES) { /* the entries carry the limit, to any rank */
        if (!(flags & CET_LOAD_SCANNED) && cet_corpus_scan(&entries, dirs.v, dirs.n, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
            goto done;
        }
        flags |= CET_LOAD_SCANNED;
        for (size_t i = 0; i < entries.n; i++)
            entries.v[i].max_bytes = a.max_body;
    }
    if (extracts && (rc = cli_guard_new(&guard, dirs.v, dirs.n)))
        goto done;
    if ((rc = cli_load_corpus(&corpus, &entries, dirs.v, dirs.n, sample, flags, (int)threads, be)))
        goto done;
    /* Every file --extracts would write is checked before the first is. */
    for (size_t j = 0; guard && j < cfgs.n && !rc; j++)
        rc = write_extracts(extracts, NULL, guard, a.force, &cfgs.v[j], j, cfgs.n, &corpus);
    if (rc)
        goto done;
    res = calloc(cfgs.n, sizeof *res);
    sc = calloc(cfgs.n, sizeof *sc);
    if (!res || !sc) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
        goto done;
    }
    if (cet_evaluate_configs(&corpus, cfgs.v, cfgs.n, metric, (int)threads, be, sc, &err)) {
        cli_error("%s", err.msg);
        rc = CLI_RUNTIME;
        goto done;
    }
    for (size_t j = 0; j < cfgs.n; j++)
        res[j] = (struct result){&cfgs.v[j], NULL, sc[j].docs, sc[j].pkgs, sc[j].macro};
    if (extracts && (rc = write_all_extracts(extracts, res, cfgs.n, &corpus, metric, (int)threads)))
        goto done;
    if (make_labels(res, cfgs.n, &cfgs)) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
        goto done;
    }
    if (fmt == FMT_JSON)
        print_json(res, cfgs.n, &corpus, per_doc);
    else if (cfgs.n == 1)
        print_single(&res[0], &corpus, fmt, per_doc, metric);
    else if (per_doc)
        print_per_doc_all(res, cfgs.n, &corpus, fmt, metric);
    else
        print_table3(res, cfgs.n, &corpus, fmt, show, metric);
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        rc = CLI_RUNTIME;
    }

done:
    if (res)
        for (size_t j = 0; j < cfgs.n; j++)
            free(res[j].label);
    if (sc)
        cet_config_scores_free(sc, cfgs.n);
    free(sc);
    free(res);
    cet_corpus_free(&corpus);
    cet_entries_free(&entries);
    cet_guard_free(guard);
    cli_configs_free(&cfgs);
    cli_list_free(&dirs);
    cli_list_free(&a.template_refs);
    return rc;
}
