/* cetune evaluate: scores configurations on corpora.  One configuration
 * prints a row per package; several print table 3 of Gottron (2008): a row
 * per configuration, a column per package and the macro average, grouped by
 * extractor and best first. */
#include <getopt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/eval.h"
#include "cli.h"

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };
enum { SHOW_P = 1, SHOW_R = 2, SHOW_F1 = 4 };

struct result {
    struct cet_config *cfg;
    struct cet_score *docs;    /* per document */
    struct cet_score *pkgs;    /* per package */
    struct cet_score macro;    /* mean over packages */
};

/* Writes DIR/PACKAGE/NAME.txt for every document (DIR/N-EXTRACTOR/... when
 * several configurations are evaluated). */
static int write_extracts(const char *dir, struct cet_evaluator *ev, const struct result *res,
                          size_t idx, size_t nres, const struct cet_corpus *c)
{
    char base[4096];
    if (nres > 1)
        snprintf(base, sizeof base, "%s/%zu-%s", dir, idx + 1, res->cfg->ex->name);
    else
        snprintf(base, sizeof base, "%s", dir);
    struct cet_sel sel = {0};
    struct cet_buf text = {0};
    struct cet_error err;
    int rc = 0;
    for (size_t k = 0; k < c->npkgs && rc == 0; k++) {
        char pdir[4200];
        snprintf(pdir, sizeof pdir, "%s/%s", base, c->pkgs[k].name);
        if (cli_mkdirs(pdir)) {
            cli_error("%s: cannot create directory: %s", pdir, strerror(errno));
            rc = CLI_RUNTIME;
            break;
        }
        for (uint32_t i = c->pkgs[k].first; i < c->pkgs[k].first + c->pkgs[k].count; i++) {
            const struct cet_doc *d = c->docs[i];
            char path[4400];
            snprintf(path, sizeof path, "%s/%s.txt", pdir, d->name);
            text.len = 0;
            if (cet_evaluator_extract(ev, res->cfg->params, i, &sel) ||
                cet_extract_text(d, &sel, &text)) {
                cli_error("out of memory");
                rc = CLI_RUNTIME;
                break;
            }
            if (cet_write_atomic(path, text.p, text.len, &err)) {
                cli_error("%s", err.msg);
                rc = CLI_RUNTIME;
                break;
            }
        }
    }
    cet_sel_free(&sel);
    cet_buf_free(&text);
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

/* A short row label: the file for -c, "(v1;v2)" for -x with parameters. */
static void row_label(const struct cet_config *cfg, char *buf, size_t size)
{
    if (cfg->label && strchr(cfg->label, '.') && !strchr(cfg->label, ' ')) {
        snprintf(buf, size, "%s", cfg->label);
        return;
    }
    size_t n = (size_t)snprintf(buf, size, "(");
    for (size_t i = 0; i < cfg->ex->nparams && n < size; i++) {
        char v[64];
        cet_param_format(cfg->ex, i, cfg->params[i], 0, v, sizeof v);
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ";" : "", v);
    }
    if (n < size)
        snprintf(buf + n, size - n, ")");
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

static void print_single(const struct result *res, const struct cet_corpus *c, enum fmt fmt, int per_doc)
{
    if (per_doc && fmt != FMT_JSON) {
        if (fmt == FMT_CSV)
            printf("package,name,words_extract,words_gold,lcs,precision,recall,f1\n");
        else
            printf("%-16s %-28s %8s %8s %8s %9s %9s %9s\n", "package", "name", "extract", "gold",
                   "lcs", "precision", "recall", "f1");
        for (size_t i = 0; i < c->ndocs; i++) {
            const struct cet_score *s = &res->docs[i];
            const struct cet_doc *d = c->docs[i];
            if (fmt == FMT_CSV)
                printf("%s,%s,%u,%u,%u,%.6f,%.6f,%.6f\n", d->package, d->name, s->n_extract,
                       s->n_gold, s->overlap, s->p, s->r, s->f1);
            else
                printf("%-16s %-28s %8u %8u %8u %9.4f %9.4f %9.4f\n", d->package, d->name,
                       s->n_extract, s->n_gold, s->overlap, s->p, s->r, s->f1);
        }
        return;
    }
    if (fmt == FMT_CSV) {
        printf("package,docs,precision,recall,f1\n");
        for (size_t k = 0; k < c->npkgs; k++)
            printf("%s,%u,%.6f,%.6f,%.6f\n", c->pkgs[k].name, c->pkgs[k].count, res->pkgs[k].p,
                   res->pkgs[k].r, res->pkgs[k].f1);
        printf("macro,%zu,%.6f,%.6f,%.6f\n", c->ndocs, res->macro.p, res->macro.r, res->macro.f1);
        return;
    }
    if (fmt == FMT_TABLE) {
        char label[512];
        row_label(res->cfg, label, sizeof label);
        printf("%s %s: %zu documents in %zu packages\n\n", res->cfg->ex->name,
               res->cfg->ex->nparams ? label : "", c->ndocs, c->npkgs);
        printf("%-20s %6s %10s %10s %10s\n", "package", "docs", "precision", "recall", "f1");
        for (size_t k = 0; k < c->npkgs; k++)
            printf("%-20s %6u %10.4f %10.4f %10.4f\n", c->pkgs[k].name, c->pkgs[k].count,
                   res->pkgs[k].p, res->pkgs[k].r, res->pkgs[k].f1);
        printf("%-20s %6zu %10.4f %10.4f %10.4f\n", "macro average", c->ndocs, res->macro.p,
               res->macro.r, res->macro.f1);
    }
}

static void print_json(const struct result *res, size_t nres, const struct cet_corpus *c, int per_doc)
{
    printf("{\"documents\": %zu, \"skipped\": %zu, \"configurations\": [", c->ndocs, c->nskips);
    for (size_t j = 0; j < nres; j++) {
        struct cet_buf cfg = {0};
        cet_config_json(&cfg, res[j].cfg->ex, res[j].cfg->params, 0, -1);
        printf("%s\n {\"label\": ", j ? "," : "");
        print_json_string(res[j].cfg->label ? res[j].cfg->label : res[j].cfg->ex->name);
        printf(", \"config\": %s, \"packages\": [", cfg.p ? cfg.p : "null");
        cet_buf_free(&cfg);
        for (size_t k = 0; k < c->npkgs; k++) {
            printf("%s{\"name\": ", k ? ", " : "");
            print_json_string(c->pkgs[k].name);
            printf(", \"docs\": %u, \"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f}",
                   c->pkgs[k].count, res[j].pkgs[k].p, res[j].pkgs[k].r, res[j].pkgs[k].f1);
        }
        printf("], \"macro\": {\"docs\": %zu, \"precision\": %.6f, \"recall\": %.6f, \"f1\": %.6f}",
               c->ndocs, res[j].macro.p, res[j].macro.r, res[j].macro.f1);
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

static void print_table3(const struct result *res, size_t nres, const struct cet_corpus *c,
                         enum fmt fmt, int show)
{
    size_t *order = malloc(nres * sizeof *order);
    if (!order)
        return;
    for (size_t j = 0; j < nres; j++)
        order[j] = j;
    sort_base = res;
    qsort(order, nres, sizeof *order, cmp_macro);
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
            printf("%s%s per package (%zu documents)\n\n", which == SHOW_F1 ? "Word sequence F1" :
                   which == SHOW_P ? "Precision" : "Recall", "", c->ndocs);
            printf("%-28s", "");
            for (size_t k = 0; k < c->npkgs; k++)
                printf(" %12.12s", c->pkgs[k].name);
            printf(" %12s\n", "Macro Avg.");
        }
        const struct cet_extractor *group = NULL;
        for (size_t o = 0; o < nres; o++) {
            const struct result *r = &res[order[o]];
            char label[512];
            row_label(r->cfg, label, sizeof label);
            if (fmt == FMT_CSV) {
                printf("%s,%s,\"%s\"", figure_name(which), r->cfg->ex->name, label);
                for (size_t k = 0; k < c->npkgs; k++)
                    printf(",%.6f", figure(&r->pkgs[k], which));
                printf(",%.6f\n", figure(&r->macro, which));
                continue;
            }
            if (r->cfg->ex != group) {
                group = r->cfg->ex;
                printf("%s\n", group->name);
            }
            printf("  %-26.26s", label);
            for (size_t k = 0; k < c->npkgs; k++)
                printf(" %12.3f", figure(&r->pkgs[k], which));
            printf(" %12.3f\n", figure(&r->macro, which));
        }
        if (fmt == FMT_TABLE)
            printf("\n");
    }
    free(order);
}

static int parse_show(const char *s, int *show)
{
    *show = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "p"))
            *show |= SHOW_P;
        else if (!strcmp(tok, "r"))
            *show |= SHOW_R;
        else if (!strcmp(tok, "f1"))
            *show |= SHOW_F1;
        else
            return -1;
    }
    return *show ? 0 : -1;
}

int cmd_evaluate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"config", required_argument, NULL, 'c'}, {"extractor", required_argument, NULL, 'x'},
        {"param", required_argument, NULL, 'P'},  {"dir", required_argument, NULL, 'd'},
        {"sample", required_argument, NULL, 's'}, {"metric", required_argument, NULL, 'm'},
        {"per-doc", no_argument, NULL, 'D'},      {"format", required_argument, NULL, 'f'},
        {"extracts", required_argument, NULL, 'e'}, {"threads", required_argument, NULL, 't'},
        {"show", required_argument, NULL, 'S'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    struct cli_configs cfgs = {0};
    struct cli_list dirs = {0};
    const char *sample = NULL, *extracts = NULL;
    enum fmt fmt = FMT_TABLE;
    int per_doc = 0, show = SHOW_F1, rc = CLI_OK, opt;
    enum cet_metric metric = CET_METRIC_WORD;
    long threads = 0;
    struct cet_corpus corpus = {0};
    struct cet_entries entries = {0};
    struct result *res = NULL;
    struct cet_evaluator **evs = NULL;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":c:x:P:d:s:t:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'c': case 'x': case 'P':
            if ((rc = cli_configs_add(&cfgs, "evaluate", opt, optarg)))
                goto done;
            break;
        case 'd':
            if (cli_list_add(&dirs, optarg)) {
                cli_error("out of memory");
                rc = CLI_RUNTIME;
                goto done;
            }
            break;
        case 's': sample = optarg; break;
        case 'e': extracts = optarg; break;
        case 'D': per_doc = 1; break;
        case 'm':
            if (!strcmp(optarg, "word"))
                metric = CET_METRIC_WORD;
            else if (!strcmp(optarg, "chars"))
                metric = CET_METRIC_CHARS;
            else if (!strcmp(optarg, "lcstring"))
                metric = CET_METRIC_LCSTRING;
            else {
                rc = cli_usage("evaluate", "--metric must be word, chars or lcstring, not '%s'", optarg);
                goto done;
            }
            break;
        case 'f':
            if (!strcmp(optarg, "table")) fmt = FMT_TABLE;
            else if (!strcmp(optarg, "csv")) fmt = FMT_CSV;
            else if (!strcmp(optarg, "json")) fmt = FMT_JSON;
            else {
                rc = cli_usage("evaluate", "--format must be table, csv or json, not '%s'", optarg);
                goto done;
            }
            break;
        case 'S':
            if (parse_show(optarg, &show)) {
                rc = cli_usage("evaluate", "--show takes a list of p, r, f1, not '%s'", optarg);
                goto done;
            }
            break;
        case 't':
            if ((rc = cli_uint("evaluate", "--threads", optarg, 1024, &threads)))
                goto done;
            break;
        case 'h':
            cli_help("evaluate");
            goto done;
        default:
            rc = cli_bad_option("evaluate", opt, argv);
            goto done;
        }
    }
    if (optind < argc) {
        rc = cli_usage("evaluate", "unexpected argument '%s'", argv[optind]);
        goto done;
    }
    if (!cfgs.n) {
        rc = cli_usage("evaluate", "give a configuration with -c CONFIG.json or -x EXTRACTOR");
        goto done;
    }
    if (!dirs.n) {
        rc = cli_usage("evaluate", "give at least one corpus with -d CORPUS");
        goto done;
    }
    if ((rc = cli_load_corpus(&corpus, &entries, dirs.v, dirs.n, sample, (int)threads)))
        goto done;

    res = calloc(cfgs.n, sizeof *res);
    evs = calloc(cfgs.n, sizeof *evs);
    if (!res || !evs) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
        goto done;
    }
    for (size_t j = 0; j < cfgs.n; j++) {
        struct cet_error err;
        res[j].cfg = &cfgs.v[j];
        res[j].docs = calloc(corpus.ndocs, sizeof *res[j].docs);
        res[j].pkgs = calloc(corpus.npkgs, sizeof *res[j].pkgs);
        if (!res[j].docs || !res[j].pkgs) {
            cli_error("out of memory");
            rc = CLI_RUNTIME;
            goto done;
        }
        /* One evaluator per extractor: its preparation is shared. */
        for (size_t i = 0; i < j && !evs[j]; i++)
            if (cfgs.v[i].ex == cfgs.v[j].ex)
                evs[j] = evs[i];
        if (!evs[j] && cet_evaluator_new(&evs[j], &corpus, cfgs.v[j].ex, metric,
                                         (int)threads, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
            goto done;
        }
        if (cet_evaluate(evs[j], cfgs.v[j].params, 1, NULL, 0, res[j].docs, NULL, NULL, NULL, &err)) {
            cli_error("%s", err.msg);
            rc = CLI_RUNTIME;
            goto done;
        }
        cet_score_macro(&corpus, res[j].docs, res[j].pkgs, &res[j].macro);
        if (extracts && (rc = write_extracts(extracts, evs[j], &res[j], j, cfgs.n, &corpus)))
            goto done;
    }
    if (fmt == FMT_JSON)
        print_json(res, cfgs.n, &corpus, per_doc);
    else if (cfgs.n == 1)
        print_single(&res[0], &corpus, fmt, per_doc);
    else
        print_table3(res, cfgs.n, &corpus, fmt, show);
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        rc = CLI_RUNTIME;
    }

done:
    if (res)
        for (size_t j = 0; j < cfgs.n; j++) {
            free(res[j].docs);
            free(res[j].pkgs);
        }
    if (evs)
        for (size_t j = 0; j < cfgs.n; j++) {
            int shared = 0;
            for (size_t i = 0; i < j; i++)
                shared |= evs[i] == evs[j];
            if (!shared)
                cet_evaluator_free(evs[j]);
        }
    free(res);
    free(evs);
    cet_corpus_free(&corpus);
    cet_entries_free(&entries);
    cli_configs_free(&cfgs);
    cli_list_free(&dirs);
    return rc;
}
