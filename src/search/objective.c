/* Objectives and constraints (objective.h): parsing them, and measuring
 * one configuration's per-document scores under a run's goal.
 *
 * Constraints follow Deb's rules (Deb 2000, the rules NSGA-II's constrained
 * domination uses): the GA ranks a feasible individual above any infeasible
 * one and an infeasible one by its total violation, smallest first; no
 * penalty weight has to be tuned. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/objective.h"

static const char *const names[] = {"f1",       "precision", "recall",
                                    "fbeta",    "macro-f1",  "words",
                                    "macro-precision", "macro-recall", "lcb-f1"};

int cet_objective_parse(struct cet_objective *o, const char *s, struct cet_error *err)
{
    *o = (struct cet_objective){0};
    if (!strncmp(s, "fbeta:", 6)) {
        char *end;
        double b = strtod(s + 6, &end);
        if (end == s + 6 || *end || !(b > 0 && b <= 100))
            return cet_fail(err, "fbeta:B needs a beta in (0, 100], got '%s'", s);
        o->m = CET_MEASURE_FBETA;
        o->beta = b;
        return 0;
    }
    for (int m = CET_MEASURE_F1; m <= CET_MEASURE_LCB_F1; m++)
        if (m != CET_MEASURE_FBETA && m != CET_MEASURE_WORDS && !strcmp(s, names[m])) {
            o->m = (enum cet_measure)m;
            return 0;
        }
    return cet_fail(err, "unknown objective '%s' (allowed: f1, precision, recall, fbeta:B, "
                         "macro-f1, macro-precision, macro-recall, lcb-f1)", s);
}

void cet_objective_name(const struct cet_objective *o, char *buf, size_t size)
{
    if (o->m == CET_MEASURE_FBETA)
        snprintf(buf, size, "fbeta:%g", o->beta);
    else
        snprintf(buf, size, "%s", names[o->m]);
}

int cet_constraint_parse(struct cet_constraint *c, const char *s, struct cet_error *err)
{
    const char *op = strpbrk(s, "<>");
    if (!op || op[1] != '=')
        return cet_fail(err, "a constraint is MEASURE>=BOUND or MEASURE<=BOUND, got '%s'", s);
    size_t n = (size_t)(op - s);
    int found = 0;
    static const enum cet_measure allowed[] = {
        CET_MEASURE_PRECISION,       CET_MEASURE_RECALL,       CET_MEASURE_F1, CET_MEASURE_WORDS,
        CET_MEASURE_MACRO_PRECISION, CET_MEASURE_MACRO_RECALL, CET_MEASURE_MACRO_F1};
    for (size_t k = 0; k < sizeof allowed / sizeof *allowed && !found; k++)
        if (strlen(names[allowed[k]]) == n && !strncmp(s, names[allowed[k]], n)) {
            c->m = allowed[k];
            found = 1;
        }
    if (!found)
        return cet_fail(err, "constraint '%s': the measure must be precision, recall, f1, "
                             "macro-precision, macro-recall, macro-f1 or words", s);
    char *end;
    c->upper = *op == '<';
    c->bound = strtod(op + 2, &end);
    if (end == op + 2 || *end || !isfinite(c->bound) || c->bound < 0)
        return cet_fail(err, "constraint '%s': the bound must be a number of at least 0", s);
    if (c->m != CET_MEASURE_WORDS && c->bound > 1)
        return cet_fail(err, "constraint '%s': %s lies in [0, 1]", s, names[c->m]);
    return 0;
}

void cet_constraint_name(const struct cet_constraint *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%g", names[c->m], c->upper ? "<=" : ">=", c->bound);
}

int cet_pareto_parse(struct cet_goal *g, const char *s, struct cet_error *err)
{
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        return cet_fail(err, "out of memory");
    g->npareto = 0;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
        struct cet_objective o;
        if (g->npareto == CET_MAX_PARETO)
            rc = cet_fail(err, "a Pareto search takes two or three objectives, got more in '%s'",
                          s);
        else if (!(rc = cet_objective_parse(&o, t, err))) {
            for (size_t k = 0; k < g->npareto && !rc; k++)
                if (g->pareto[k].m == o.m && g->pareto[k].beta == o.beta)
                    rc = cet_fail(err, "'%s' is named twice in '%s'", t, s);
            g->pareto[g->npareto++] = o;
        }
    }
    if (!rc && g->npareto < 2)
        rc = cet_fail(err, "a Pareto search takes two or three objectives separated by commas, "
                           "got '%s'", s);
    free(copy);
    return rc;
}

int cet_goal_is_default(const struct cet_goal *g)
{
    return g->objective.m == CET_MEASURE_F1 && !g->ncons && !g->npareto && !(g->shrink > 0);
}

int cet_goal_judged_by_f1(const struct cet_goal *g)
{
    return g->objective.m == CET_MEASURE_F1 && !g->ncons && !g->npareto;
}

void cet_goal_resolve_shrink(struct cet_goal *g, int race, int seeded)
{
    if (g->shrink < 0)
        g->shrink = seeded && cet_goal_judged_by_f1(g) && !race ? CET_SHRINK_DEFAULT : 0;
}

double cet_goal_shrink_distance(const struct cet_params_desc *d, const double *full,
                                const double *start)
{
    double dist = 0;
    for (size_t k = 0; k < d->ngenes; k++) {
        const struct cet_gene *g = &d->genes[k];
        double x = full[g->index], x0 = start[g->index];
        if (g->type == CET_P_BOOL || g->type == CET_P_ENUM)
            dist += x != x0;
        else if (g->max > g->min)
            dist += g->log ? fabs(log(x / x0)) / log(g->max / g->min)
                           : fabs(x - x0) / (g->max - g->min);
    }
    return dist;
}

/* F_beta of one document, with the metric's empty cases (README.md, "The metric"). */
static double fbeta(const struct cet_score *s, double beta)
{
    if (!s->n_extract && !s->n_gold)
        return 1;
    if (!s->n_extract || !s->n_gold || s->p + s->r == 0)
        return 0;
    double b2 = beta * beta;
    return (1 + b2) * s->p * s->r / (b2 * s->p + s->r);
}

/* An objective's value from the sums; slot is its F_beta sum (fbeta only). */
static double objective_value(const struct cet_objective *o, const struct cet_goal_sums *a,
                              size_t ndocs, int slot, const struct cet_measures *m)
{
    switch (o->m) {
    case CET_MEASURE_PRECISION: return m->p;
    case CET_MEASURE_RECALL: return m->r;
    case CET_MEASURE_WORDS: return m->words;
    case CET_MEASURE_FBETA: return ndocs && slot >= 0 ? a->fbeta[slot] / (double)ndocs : 0;
    case CET_MEASURE_MACRO_F1: return a->macro[2];
    case CET_MEASURE_MACRO_PRECISION: return a->macro[0];
    case CET_MEASURE_MACRO_RECALL: return a->macro[1];
    case CET_MEASURE_LCB_F1: {
        /* The mean minus its standard error; one document has none. */
        if (ndocs < 2)
            return m->f1;
        double n = (double)ndocs, var = (a->f1sq - n * m->f1 * m->f1) / (n - 1);
        return m->f1 - sqrt(var > 0 ? var / n : 0);
    }
    case CET_MEASURE_F1: break;
    }
    return m->f1;
}

void cet_goal_sums_add(struct cet_goal_sums *a, const struct cet_goal *g, const struct cet_score *s,
                       uint32_t pkg_count, size_t npkgs)
{
    a->f1 += s->f1;
    a->f1sq += s->f1 * s->f1;
    a->p += s->p;
    a->r += s->r;
    a->words += s->n_extract;
    if (g->objective.m == CET_MEASURE_FBETA)
        a->fbeta[0] += fbeta(s, g->objective.beta);
    for (size_t k = 0; k < g->npareto; k++)
        if (g->pareto[k].m == CET_MEASURE_FBETA)
            a->fbeta[1 + k] += fbeta(s, g->pareto[k].beta);
    /* The macro average as cet_score_macro computes it: each package's mean,
     * then their sum divided by the number of packages, term by term. */
    a->pkg[0] += s->p;
    a->pkg[1] += s->r;
    a->pkg[2] += s->f1;
    if (pkg_count) {
        for (int i = 0; i < 3; i++) {
            a->pkg[i] /= pkg_count;
            a->macro[i] += a->pkg[i] / (double)npkgs;
            a->pkg[i] = 0;
        }
    }
}

void cet_goal_sums_measure(const struct cet_goal_sums *a, const struct cet_goal *g, size_t ndocs,
                           struct cet_measures *m)
{
    *m = (struct cet_measures){0};
    double n = ndocs ? (double)ndocs : 1.0;
    m->f1 = a->f1 / n;
    m->p = a->p / n;
    m->r = a->r / n;
    m->words = a->words / n;
    m->fit = objective_value(&g->objective, a, ndocs, 0, m);
    for (size_t k = 0; k < g->npareto; k++)
        m->obj[k] = objective_value(&g->pareto[k], a, ndocs, 1 + (int)k, m);
    for (size_t k = 0; k < g->ncons; k++) {
        const struct cet_constraint *cn = &g->cons[k];
        struct cet_objective o = {.m = cn->m};
        double v = objective_value(&o, a, ndocs, -1, m);
        double over = cn->upper ? v - cn->bound : cn->bound - v;
        /* precision, recall and f1 must hold both as means over documents
         * and as macro averages over packages, so that the figure `cetune
         * evaluate` prints for the best (the macro average) meets it too. */
        int macro = cn->m == CET_MEASURE_PRECISION   ? CET_MEASURE_MACRO_PRECISION
                    : cn->m == CET_MEASURE_RECALL ? CET_MEASURE_MACRO_RECALL
                    : cn->m == CET_MEASURE_F1     ? CET_MEASURE_MACRO_F1
                                                  : -1;
        if (macro >= 0) {
            struct cet_objective om = {.m = macro};
            double vm = objective_value(&om, a, ndocs, -1, m);
            over = fmax(over, cn->upper ? vm - cn->bound : cn->bound - vm);
        }
        if (over > 0)
            m->viol += over / fmax(1.0, cn->bound);
    }
}

void cet_goal_measure(const struct cet_goal *g, const struct cet_corpus *c,
                      const struct cet_score *s, struct cet_measures *m)
{
    struct cet_goal_sums a = {0};
    /* Packages are contiguous ranges of the corpus order (corpus.h). */
    for (size_t k = 0; k < c->npkgs; k++) {
        const struct cet_package *pk = &c->pkgs[k];
        for (uint32_t i = pk->first; i < pk->first + pk->count; i++)
            cet_goal_sums_add(&a, g, &s[i], i + 1 == pk->first + pk->count ? pk->count : 0,
                              c->npkgs);
    }
    cet_goal_sums_measure(&a, g, c->ndocs, m);
}
