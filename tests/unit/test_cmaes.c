/* CMA-ES (src/cmaes/cmaes.c) on small functions written here: it must
 * converge on float problems (sphere, ellipsoid, Rosenbrock, a log-scale
 * gene), reach integer and categorical optima exactly (the margin and
 * CatCMA), handle conditional genes, and continue bit for bit after
 * save -> restore.  No corpus, no extractor: fitness is computed from the
 * genome. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "cetune/search.h"
#include "cmaes/cmaes.h"
#include "test.h"
#include "util/json.h"

static const char *const cm_values[] = {"a", "b", "c", "d", "e", NULL};
/* x0..x9 floats in [-5, 5], k0..k3 ints in [0, 50], c0..c3 enums of 5
 * values, lw a float for a log scale, sw a switch. */
#define FLOAT(name) {name, CET_P_FLOAT, 0, -5, 5, NULL, "a float"}
#define INT(name) {name, CET_P_INT, 0, 0, 50, NULL, "an int"}
#define ENUM(name) {name, CET_P_ENUM, 0, 0, 4, cm_values, "a choice"}
static const struct cet_param cm_params[] = {
    FLOAT("x0"), FLOAT("x1"), FLOAT("x2"), FLOAT("x3"), FLOAT("x4"), FLOAT("x5"), FLOAT("x6"),
    FLOAT("x7"), FLOAT("x8"), FLOAT("x9"), INT("k0"),   INT("k1"),   INT("k2"),   INT("k3"),
    ENUM("c0"),  ENUM("c1"),  ENUM("c2"),  ENUM("c3"),
    {"lw", CET_P_FLOAT, 1, 0.001, 1000, NULL, "a log-scale float"},
    {"sw", CET_P_BOOL, 0, 0, 1, NULL, "a switch"},
};
static int cm_run(const struct cet_doc *d, const void *p, const double *v, struct cet_sel *s)
{
    (void)d, (void)p, (void)v, (void)s;
    return 0;
}
static const struct cet_extractor cm_ex = {.name = "cm",
                                           .summary = "test",
                                           .params = cm_params,
                                           .nparams = sizeof cm_params / sizeof *cm_params,
                                           .run = cm_run};
static const struct cet_extractor *cm_find(const char *name)
{
    return !strcmp(name, "cm") ? &cm_ex : NULL;
}

static void desc_of(struct cet_params_desc *d, const char *text)
{
    struct cet_error err;
    if (cet_params_parse(d, text, strlen(text), "t.json", cm_find, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
}

/* A fitness to minimise; the search maximises its negation. */
typedef double (*cost_fn)(const struct cet_params_desc *d, const double *g);

static double value(const struct cet_params_desc *d, const double *g, const char *name)
{
    for (size_t i = 0; i < d->ngenes; i++)
        if (!strcmp(d->genes[i].name, name))
            return g[i];
    return NAN;
}

static double sphere(const struct cet_params_desc *d, const double *g)
{
    double f = 0;
    for (size_t i = 0; i < d->ngenes; i++)
        f += (g[i] - 1.234) * (g[i] - 1.234);
    return f;
}

static double ellipsoid(const struct cet_params_desc *d, const double *g)
{
    double f = 0;
    for (size_t i = 0; i < d->ngenes; i++)
        f += pow(100, (double)i / (double)(d->ngenes - 1)) * (g[i] - 1.234) * (g[i] - 1.234);
    return f;
}

static double rosenbrock(const struct cet_params_desc *d, const double *g)
{
    double f = 0;
    for (size_t i = 0; i + 1 < d->ngenes; i++)
        f += 100 * pow(g[i + 1] - g[i] * g[i], 2) + pow(1 - g[i], 2);
    return f;
}

/* Floats to 1.234, ints to 0, 17, 50 and 33, enums to values 0, 2, 4 and 1. */
static double mixed(const struct cet_params_desc *d, const double *g)
{
    static const double kt[] = {0, 17, 50, 33}, ct[] = {0, 2, 4, 1};
    double f = 0;
    for (size_t i = 0; i < d->ngenes; i++) {
        const struct cet_gene *ge = &d->genes[i];
        size_t k = (size_t)(ge->name[1] - '0');
        if (ge->type == CET_P_FLOAT)
            f += (g[i] - 1.234) * (g[i] - 1.234);
        else if (ge->type == CET_P_INT)
            f += fabs(g[i] - kt[k]);
        else
            f += g[i] != ct[k];
    }
    return f;
}

static double logscale(const struct cet_params_desc *d, const double *g)
{
    double f = sphere(d, g) - pow(value(d, g, "lw") - 1.234, 2);
    return f + pow(log10(value(d, g, "lw")) + 2, 2); /* best at lw = 0.01 */
}

/* x0 matters while sw is on, x1 while it is off (then x0 is inactive);
 * on is better (x0's optimum 0 against x1's 1). */
static double conditional(const struct cet_params_desc *d, const double *g)
{
    double sw = value(d, g, "sw"), x0 = value(d, g, "x0"), x1 = value(d, g, "x1");
    return sw ? (x0 - 2) * (x0 - 2) : 1 + (x1 + 3) * (x1 + 3);
}

struct run {
    struct cet_cmaes *s;
    gsl_rng *rng;
    double best;
    long evals;
};

/* One iteration: ask, rank by cost (ties by index), tell; the candidates
 * go to out when given. */
static void step(const struct cet_params_desc *d, struct run *r, cost_fn cost, double *out)
{
    size_t lambda = cet_cmaes_lambda(r->s), G = d->ngenes;
    double *cand = malloc(lambda * G * sizeof *cand), *fit = malloc(lambda * sizeof *fit);
    size_t *order = malloc(lambda * sizeof *order);
    size_t n = cet_cmaes_ask(r->s, r->rng, cand);
    CHECK_EQ_INT(n, lambda);
    for (size_t k = 0; k < n; k++) {
        fit[k] = -cost(d, cand + k * G);
        r->best = fmax(r->best, fit[k]);
        order[k] = k;
    }
    r->evals += (long)n;
    for (size_t a = 1; a < n; a++) /* insertion sort, best first, stable */
        for (size_t b = a; b > 0 && fit[order[b]] > fit[order[b - 1]]; b--) {
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    double *ranked = malloc(n * sizeof *ranked);
    for (size_t k = 0; k < n; k++)
        ranked[k] = fit[order[k]];
    struct cet_error err;
    CHECK_EQ_INT(cet_cmaes_tell(r->s, r->rng, order, ranked, n, 0, NULL, &err), 0);
    if (out)
        memcpy(out, cand, n * G * sizeof *cand);
    free(ranked);
    free(cand);
    free(fit);
    free(order);
}

/* Runs until cost <= target or evals spent; returns the best cost. */
static double minimise(const char *text, cost_fn cost, long evals, double target,
                       unsigned long seed)
{
    struct cet_params_desc d;
    desc_of(&d, text);
    struct cet_cmaes_settings set;
    cet_cmaes_default_settings(&set);
    struct run r = {.rng = gsl_rng_alloc(gsl_rng_mt19937), .best = -INFINITY};
    gsl_rng_set(r.rng, seed);
    struct cet_error err;
    CHECK_EQ_INT(cet_cmaes_create(&r.s, &d, &set, NULL, &err), 0);
    while (r.evals < evals && -r.best > target)
        step(&d, &r, cost, NULL);
    if (getenv("CMAES_TRACE"))
        fprintf(stderr, "%ld evaluations, best %g, %ld restarts\n", r.evals, -r.best,
                cet_cmaes_restarts(r.s));
    cet_cmaes_free(r.s);
    gsl_rng_free(r.rng);
    cet_params_free(&d);
    return -r.best;
}

#define P(name, type) "{\"name\": \"" name "\", \"type\": \"" type "\"}"
#define FLOATS10                                                                              \
    P("x0", "float") "," P("x1", "float") "," P("x2", "float") "," P("x3", "float") ","      \
        P("x4", "float") "," P("x5", "float") "," P("x6", "float") "," P("x7", "float") ","  \
        P("x8", "float") "," P("x9", "float")
static const char *F10 = "{\"extractor\": \"cm\", \"parameters\": [" FLOATS10 "]}";
static const char *F4 = "{\"extractor\": \"cm\", \"parameters\": [" P("x0", "float") "," P(
    "x1", "float") "," P("x2", "float") "," P("x3", "float") "]}";
static const char *MIXED =
    "{\"extractor\": \"cm\", \"parameters\": [" P("x0", "float") "," P("x1", "float") "," P(
        "x2", "float") "," P("k0", "int") "," P("k1", "int") "," P("k2", "int") "," P("k3", "int") "," P("c0", "enum") "," P("c1", "enum") "," P("c2", "enum") "," P("c3", "enum") "]}";
static const char *LOG =
    "{\"extractor\": \"cm\", \"parameters\": [" P("x0", "float") "," P("x1", "float") ","
    "{\"name\": \"lw\", \"type\": \"float\", \"scale\": \"log\"}]}";
static const char *COND =
    "{\"extractor\": \"cm\", \"parameters\": [" P("sw", "bool") ","
    "{\"name\": \"x0\", \"type\": \"float\", \"when\": {\"sw\": [true]}},"
    "{\"name\": \"x1\", \"type\": \"float\", \"when\": {\"sw\": [false]}}," P("x2", "float") "]}";

static void test_cmaes__sphere_and_ellipsoid_converge(void)
{
    /* The float grid is 1e-4 of the range (0.001 here): the optimum is on it. */
    for (unsigned long seed = 1; seed <= 3; seed++) {
        CHECK(minimise(F10, sphere, 3000, 1e-6, seed) <= 1e-6);
        CHECK(minimise(F10, ellipsoid, 6000, 1e-4, seed) <= 1e-4);
    }
}

static void test_cmaes__rosenbrock_converges(void)
{
    int solved = 0;
    for (unsigned long seed = 1; seed <= 3; seed++)
        solved += minimise(F4, rosenbrock, 8000, 1e-3, seed) <= 1e-3;
    CHECK(solved >= 2); /* a run may stop in the local optimum near x0 = -1 */
}

static void test_cmaes__integers_and_categories_reach_their_optimum(void)
{
    /* Ints at both ends of the range and inside, every category: rounding
     * would freeze them, the margin keeps them moving. */
    for (unsigned long seed = 1; seed <= 3; seed++)
        CHECK(minimise(MIXED, mixed, 6000, 1e-5, seed) <= 1e-5);
}

static void test_cmaes__log_scale_gene(void)
{
    for (unsigned long seed = 1; seed <= 3; seed++)
        CHECK(minimise(LOG, logscale, 3000, 1e-5, seed) <= 1e-5);
}

static void test_cmaes__conditional_genes(void)
{
    for (unsigned long seed = 1; seed <= 3; seed++)
        CHECK(minimise(COND, conditional, 2000, 1e-6, seed) <= 1e-6);
}

static char *saved(const struct cet_cmaes *s)
{
    cJSON *j = cet_cmaes_save(s);
    char *t = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return t;
}

/* Restores a state from its JSON text, as a checkpoint reader does. */
static int restore_text(struct cet_cmaes **out, const struct cet_params_desc *d, const char *text,
                        struct cet_error *err)
{
    struct cet_json doc;
    if (cet_json_parse(&doc, text, strlen(text), "state.json", err))
        return -1;
    int rc = cet_cmaes_restore(out, d, &doc, doc.root, err);
    cet_json_free(&doc);
    return rc;
}

/* The same after an edit of j; j is deleted. */
static int restore_edited(struct cet_cmaes **out, const struct cet_params_desc *d, cJSON *j,
                          struct cet_error *err)
{
    char *t = cJSON_PrintUnformatted(j);
    int rc = restore_text(out, d, t, err);
    free(t);
    cJSON_Delete(j);
    return rc;
}

static void test_cmaes__save_restore_continues_bit_for_bit(void)
{
    const char *descs[] = {MIXED, F4};
    cost_fn costs[] = {mixed, sphere};
    for (int c = 0; c < 2; c++) {
        struct cet_params_desc d;
        desc_of(&d, descs[c]);
        struct cet_cmaes_settings set;
        cet_cmaes_default_settings(&set);
        struct cet_error err;
        struct run a = {.rng = gsl_rng_alloc(gsl_rng_mt19937), .best = -INFINITY};
        struct run b = {.rng = gsl_rng_alloc(gsl_rng_mt19937), .best = -INFINITY};
        gsl_rng_set(a.rng, 7);
        gsl_rng_set(b.rng, 7);
        double g0[32];
        cet_params_default_genome(&d, g0);
        CHECK_EQ_INT(cet_cmaes_create(&a.s, &d, &set, g0, &err), 0);
        CHECK_EQ_INT(cet_cmaes_create(&b.s, &d, &set, g0, &err), 0);
        size_t room = 64 * 1024 * d.ngenes;
        double *ca = malloc(room * sizeof *ca), *cb = malloc(room * sizeof *cb);
        int same = 1;
        for (int it = 0; it < 300; it++) {
            if (it % 37 == 5) { /* b goes through JSON text and back */
                char *t = saved(b.s);
                struct cet_cmaes *r;
                CHECK_EQ_INT(restore_text(&r, &d, t, &err), 0);
                char *t2 = saved(r);
                CHECK_STR(t2, t);
                free(t);
                free(t2);
                cet_cmaes_free(b.s);
                b.s = r;
            }
            size_t n = cet_cmaes_lambda(a.s);
            same &= n == cet_cmaes_lambda(b.s);
            step(&d, &a, costs[c], ca);
            step(&d, &b, costs[c], cb);
            same &= !memcmp(ca, cb, n * d.ngenes * sizeof *ca);
        }
        CHECK(same);
        char *ta = saved(a.s), *tb = saved(b.s);
        CHECK_STR(ta, tb);
        CHECK(cet_cmaes_restarts(a.s) > 0 || c == 0); /* the restarts were crossed too */
        free(ta);
        free(tb);
        free(ca);
        free(cb);
        cet_cmaes_free(a.s);
        cet_cmaes_free(b.s);
        gsl_rng_free(a.rng);
        gsl_rng_free(b.rng);
        cet_params_free(&d);
    }
}

static void test_cmaes__restore_refuses_bad_states(void)
{
    struct cet_params_desc d;
    desc_of(&d, MIXED);
    struct cet_cmaes_settings set;
    cet_cmaes_default_settings(&set);
    struct cet_error err;
    struct cet_cmaes *s, *r = NULL;
    CHECK_EQ_INT(cet_cmaes_create(&s, &d, &set, NULL, &err), 0);
    const char *edits[][3] = {
        {"sigma", "-1", "sigma"},       {"lambda", "1", "lambda"},
        {"lambda", "2.5", "lambda"},    {"m", "[1, 2]", "expected 7 numbers"},
        {"C", "\"x\"", "\"C\""},       {"q", "[0.5]", "expected 20 numbers"},
        {"iterations", "null", "iterations"}, {"hist", "[1, 2, 3]", "expected 0 numbers"},
        {"A", "[0, 1, 1, 1, 1, 1, 1]", "\"A\" must be positive"},
        {"m", "[1, 2, 3, 4, 5, 6, 1e999]", "expected a number"},
    };
    for (size_t e = 0; e < sizeof edits / sizeof *edits; e++) {
        char *t = saved(s);
        cJSON *j = cJSON_Parse(t);
        free(t);
        cJSON_ReplaceItemInObject(j, edits[e][0], cJSON_Parse(edits[e][1]));
        err.msg[0] = 0;
        CHECK_EQ_INT(restore_edited(&r, &d, j, &err), -1);
        CHECK(r == NULL);
        CHECK(strstr(err.msg, "state.json:1:") && strstr(err.msg, "checkpoint: "));
        if (!strstr(err.msg, edits[e][2]))
            fprintf(stderr, "edit %zu: %s\n", e, err.msg);
        CHECK(strstr(err.msg, edits[e][2]) != NULL);
    }
    /* An asymmetric C and categories that do not sum to 1. */
    char *t = saved(s);
    CHECK_EQ_INT(restore_text(&r, &d, t, &err), 0);
    cet_cmaes_free(r);
    cJSON *j = cJSON_Parse(t);
    cJSON_ReplaceItemInArray(cJSON_GetObjectItem(j, "C"), 1, cJSON_CreateNumber(0.5));
    CHECK_EQ_INT(restore_edited(&r, &d, j, &err), -1);
    CHECK(strstr(err.msg, "symmetric") != NULL);
    j = cJSON_Parse(t);
    cJSON_ReplaceItemInArray(cJSON_GetObjectItem(j, "q"), 0, cJSON_CreateNumber(0.9));
    CHECK_EQ_INT(restore_edited(&r, &d, j, &err), -1);
    CHECK(strstr(err.msg, "sum to 1") != NULL);
    CHECK_EQ_INT(restore_text(&r, &d, "[1]", &err), -1);
    CHECK(strstr(err.msg, "must be an object") != NULL);
    free(t);
    cet_cmaes_free(s);
    cet_params_free(&d);
}

static void test_cmaes__mean_starts_at_the_genome_given(void)
{
    struct cet_params_desc d;
    desc_of(&d, MIXED);
    struct cet_cmaes_settings set;
    cet_cmaes_default_settings(&set);
    struct cet_error err;
    struct cet_cmaes *s;
    double g[16], m[16];
    cet_params_default_genome(&d, g);
    g[0] = 4.5, g[3] = 50, g[4] = 0, g[7] = 3;
    cet_genome_normalise(&d, 1e-4, g);
    CHECK_EQ_INT(cet_cmaes_create(&s, &d, &set, g, &err), 0);
    cet_cmaes_mean(s, m);
    CHECK(!memcmp(g, m, d.ngenes * sizeof *g));
    CHECK_NEAR(cet_cmaes_sigma(s), set.sigma0, 0);
    cet_cmaes_free(s);
    cet_params_free(&d);
}

/* A generation whose samples were all evaluated before (stale) restarts
 * the search, with twice the samples, once the restart has had two
 * iterations; before that, or when not stale, it does not. */
static void test_cmaes__stale_generation_restarts(void)
{
    struct cet_params_desc d;
    desc_of(&d, F4);
    struct cet_cmaes_settings set;
    cet_cmaes_default_settings(&set);
    struct run r = {.rng = gsl_rng_alloc(gsl_rng_mt19937), .best = -INFINITY};
    gsl_rng_set(r.rng, 5);
    struct cet_error err;
    CHECK_EQ_INT(cet_cmaes_create(&r.s, &d, &set, NULL, &err), 0);
    size_t lambda = cet_cmaes_lambda(r.s), order[64];
    double cand[64 * 4], fit[64] = {0};
    for (size_t k = 0; k < lambda; k++)
        order[k] = k;
    int restarted = -1;
    CHECK_EQ_INT(cet_cmaes_ask(r.s, r.rng, cand), lambda);
    CHECK_EQ_INT(cet_cmaes_tell(r.s, r.rng, order, fit, lambda, 1, &restarted, &err), 0);
    CHECK_EQ_INT(restarted, 0); /* the first iteration: too early to tell */
    step(&d, &r, sphere, NULL);
    CHECK_EQ_INT(cet_cmaes_restarts(r.s), 0);
    CHECK_EQ_INT(cet_cmaes_ask(r.s, r.rng, cand), lambda);
    CHECK_EQ_INT(cet_cmaes_tell(r.s, r.rng, order, fit, lambda, 1, &restarted, &err), 0);
    CHECK_EQ_INT(restarted, 1);
    CHECK_EQ_INT(cet_cmaes_restarts(r.s), 1);
    CHECK_EQ_INT(cet_cmaes_lambda(r.s), 2 * lambda);
    cet_cmaes_free(r.s);
    gsl_rng_free(r.rng);
    cet_params_free(&d);
}

int main(void)
{
    RUN(test_cmaes__sphere_and_ellipsoid_converge);
    RUN(test_cmaes__rosenbrock_converges);
    RUN(test_cmaes__integers_and_categories_reach_their_optimum);
    RUN(test_cmaes__log_scale_gene);
    RUN(test_cmaes__conditional_genes);
    RUN(test_cmaes__save_restore_continues_bit_for_bit);
    RUN(test_cmaes__restore_refuses_bad_states);
    RUN(test_cmaes__mean_starts_at_the_genome_given);
    RUN(test_cmaes__stale_generation_restarts);
    TEST_END();
}
