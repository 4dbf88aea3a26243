/* The genetic algorithm: genomes, operators, selection, the archive that
 * prevents re-evaluation, stopping rules, reproducibility and checkpoints.
 * Fitness comes from a synthetic function of the parameters, so these tests
 * need no corpus and no real extractor. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "cetune/search.h"
#include "ga/operators.h" /* white-box: the operators on a random stream */
#include "run/run_internal.h"
#include "test.h"
#include "test_extractor.h"
#include "test_ga.h"

/* All five genes: n int [1,50], x float, w log float, on bool, mode {fast, fuzzy};
 * n and x are correlated. */
static const char *ALL =
    "{\"extractor\": \"test\", \"parameters\": ["
    "{\"name\": \"n\", \"type\": \"int\", \"min\": 1, \"max\": 50, \"default\": 10},"
    "{\"name\": \"x\", \"type\": \"float\", \"default\": 0.5},"
    "{\"name\": \"w\", \"type\": \"float\", \"scale\": \"log\"},"
    "{\"name\": \"on\", \"type\": \"bool\"},"
    "{\"name\": \"mode\", \"type\": \"enum\", \"values\": [\"fast\", \"fuzzy\"]}],"
    " \"correlated\": [[\"n\", \"x\"]]}";

static void desc_of(struct cet_params_desc *d, const char *text)
{
    struct cet_error err;
    if (cet_params_parse(d, text, strlen(text), "t.json", test_find, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
}

static gsl_rng *rng_new(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    return r;
}

static void test_ga__normalise_bounds_rounding_and_grid(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    double g[5] = {7.5, 0.123456, 123.456789, 0.7, 1.2};
    cet_genome_normalise(&d, 1e-4, g);
    CHECK_NEAR(g[0], 8, 0);                     /* rounded */
    CHECK(g[1] == strtod("0.1235", NULL));      /* grid 1e-4 of [0, 1], exact short decimal */
    CHECK(g[2] == strtod("123.5", NULL));       /* log scale: 4 significant digits */
    CHECK_NEAR(g[3], 1, 0);
    CHECK_NEAR(g[4], 2, 0);                     /* nearest allowed enum index */
    double h[5] = {99, -0.2, 0.00123456, 0, 0};
    cet_genome_normalise(&d, 1e-4, h);
    CHECK_NEAR(h[0], 50, 0);                    /* clamped */
    CHECK(h[1] == 0 && !signbit(h[1]));         /* clamped, and never -0.0 */
    CHECK(h[2] == strtod("0.001235", NULL));
    double e[5] = {7.4, 0.123456, 3.3333333, 0, 0};
    cet_genome_normalise(&d, 0, e);             /* resolution 0: exact doubles */
    CHECK_NEAR(e[0], 7, 0);
    CHECK(e[1] == 0.123456);
    CHECK(e[2] == 3.3333333);
    cet_params_free(&d);
}

static void test_ga__random_genomes_uniform_and_log_uniform(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    gsl_rng *r = rng_new(11);
    enum { N = 20000 };
    int seen_n[51] = {0}, seen_mode[3] = {0}, on = 0, below1 = 0;
    double sum_x = 0;
    for (int k = 0; k < N; k++) {
        double g[5];
        cet_genome_random(&d, 1e-4, r, g);
        CHECK(g[0] >= 1 && g[0] <= 50 && g[0] == round(g[0]));
        CHECK(g[1] >= 0 && g[1] <= 1);
        CHECK(g[2] >= 0.001 && g[2] <= 1000);
        CHECK(g[4] == 0 || g[4] == 2);
        seen_n[(int)g[0]]++;
        seen_mode[(int)g[4]]++;
        on += g[3] == 1;
        sum_x += g[1];
        below1 += g[2] < 1;
    }
    int all = 1;
    for (int v = 1; v <= 50; v++)
        all &= seen_n[v] > N / 50 / 2;
    CHECK(all);                                  /* every integer of the range, about equally */
    CHECK_EQ_INT(seen_mode[1], 0);               /* "exact" is not allowed */
    CHECK(seen_mode[0] > N / 3 && seen_mode[2] > N / 3);
    CHECK(on > N / 3 && on < 2 * N / 3);
    CHECK_NEAR(sum_x / N, 0.5, 0.02);
    /* Log-uniform on [0.001, 1000]: half below the geometric middle 1
     * (a linear draw would put 0.1% there). */
    CHECK_NEAR((double)below1 / N, 0.5, 0.02);
    gsl_rng_free(r);
    cet_params_free(&d);
}

static void test_ga__mutation_stays_in_bounds_and_changes_each_type(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    gsl_rng *r = rng_new(5);
    enum { N = 20000 };
    double sum = 0, sq = 0;
    for (int k = 0; k < N; k++) {
        double edge[5] = {k % 2 ? 1 : 50, k % 2 ? 0 : 1, k % 2 ? 0.001 : 1000, k % 2, 0};
        cet_mutate(&d, 1e-4, r, 1.0, 0.3, edge);
        CHECK(edge[0] >= 1 && edge[0] <= 50 && edge[0] == round(edge[0]));
        CHECK(edge[1] >= 0 && edge[1] <= 1);
        CHECK(edge[2] >= 0.001 && edge[2] <= 1000);
        CHECK_NEAR(edge[3], k % 2 ? 0 : 1, 0);   /* rate 1: the boolean flips */
        CHECK_NEAR(edge[4], 2, 0);               /* the enum takes the other allowed value */
        CHECK(edge[0] != (k % 2 ? 1 : 50));      /* an integer always moves */
        double mid[5] = {25, 0.5, 1, 0, 0};
        cet_mutate(&d, 0, r, 1.0, 0.1, mid);
        sum += mid[1] - 0.5;
        sq += (mid[1] - 0.5) * (mid[1] - 0.5);
    }
    /* Gaussian with sigma 0.1 of the range. */
    CHECK_NEAR(sum / N, 0, 0.005);
    CHECK_NEAR(sqrt(sq / N), 0.1, 0.005);
    /* A tiny rate still changes exactly one gene. */
    int changed_total = 0;
    for (int k = 0; k < 1000; k++) {
        double g[5] = {25, 0.5, 1, 0, 0}, o[5];
        memcpy(o, g, sizeof g);
        cet_mutate(&d, 1e-4, r, 1e-12, 0.1, g);
        int changed = 0;
        for (int i = 0; i < 5; i++)
            changed += g[i] != o[i];
        CHECK(changed <= 1);
        changed_total += changed;
    }
    CHECK(changed_total > 950); /* a float step may round back onto its grid point */
    gsl_rng_free(r);
    cet_params_free(&d);
}

static void test_ga__crossover_uniform_and_blended_groups(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    gsl_rng *r = rng_new(3);
    double a[5] = {10, 0.2, 0.01, 0, 0}, b[5] = {30, 0.6, 100, 1, 2};
    int from_a[5] = {0};
    for (int k = 0; k < 2000; k++) {
        double c[5];
        cet_crossover(&d, 0, r, a, b, c);
        for (int i = 2; i < 5; i++) {
            CHECK(c[i] == a[i] || c[i] == b[i]); /* ungrouped: one parent's value */
            from_a[i] += c[i] == a[i];
        }
        /* n and x are blended with one weight: x = w 0.2 + (1-w) 0.6 gives w,
         * and n must be w 10 + (1-w) 30 rounded. */
        CHECK(c[1] >= 0.2 && c[1] <= 0.6);
        double w = (0.6 - c[1]) / 0.4;
        CHECK(fabs(c[0] - (w * 10 + (1 - w) * 30)) <= 0.5 + 1e-9);
    }
    for (int i = 2; i < 5; i++)
        CHECK(from_a[i] > 800 && from_a[i] < 1200);
    cet_params_free(&d);

    /* A log-scale gene blends its logarithm with the group's weight. */
    desc_of(&d, "{\"extractor\": \"test\", \"parameters\": ["
                "{\"name\": \"x\", \"type\": \"float\"},"
                "{\"name\": \"w\", \"type\": \"float\", \"scale\": \"log\"}],"
                " \"correlated\": [[\"x\", \"w\"]]}");
    double p[2] = {0, 0.01}, q[2] = {1, 100};
    for (int k = 0; k < 200; k++) {
        double c[2];
        cet_crossover(&d, 0, r, p, q, c);
        /* x = 1 - wt, log10 w = wt (-2) + (1 - wt) 2 */
        double wt = 1 - c[0];
        CHECK_NEAR(log10(c[1]), wt * -2 + (1 - wt) * 2, 1e-9);
    }
    gsl_rng_free(r);
    cet_params_free(&d);
}

static void test_ga__tournament_and_truncation_selection(void)
{
    gsl_rng *r = rng_new(9);
    enum { N = 30000 };
    double mean1 = 0, mean3 = 0;
    int best3 = 0, trunc_ok = 1, trunc_seen[5] = {0};
    for (int k = 0; k < N; k++) {
        mean1 += (double)cet_select_tournament(r, 20, 1);
        size_t t = cet_select_tournament(r, 20, 3);
        mean3 += (double)t;
        best3 += t == 0;
        size_t u = cet_select_truncation(r, 20, 0.25);
        trunc_ok &= u < 5;
        if (u < 5)
            trunc_seen[u]++;
    }
    CHECK_NEAR(mean1 / N, 9.5, 0.15);              /* size 1: uniform */
    CHECK(mean3 / N < 6);                          /* size 3 presses towards the best */
    CHECK_NEAR((double)best3 / N, 1 - pow(19.0 / 20, 3), 0.01);
    CHECK(trunc_ok);                               /* only the best quarter */
    for (int i = 0; i < 5; i++)
        CHECK_NEAR((double)trunc_seen[i] / N, 0.2, 0.015);
    CHECK(cet_select_truncation(r, 20, 0.01) < 2); /* at least two candidates */
    gsl_rng_free(r);
}

/* ---- whole runs with a synthetic fitness ---- */

struct counter {
    long calls, configs;
    long cancel_after; /* cancel when this many eval calls were made (0 = never) */
    int flat;          /* constant fitness */
    double creep;      /* add creep x configs evaluated so far */
};

static int fitness(void *ctx, const double *params, size_t k, double *f, double *p, double *r,
                   struct cet_error *err)
{
    (void)err;
    struct counter *c = ctx;
    c->calls++;
    for (size_t j = 0; j < k; j++) {
        const double *v = params + j * test_ex.nparams;
        double y = 1 - fabs(v[1] - 0.3) - fabs(v[0] - 20) / 100 - fabs(log10(v[2])) / 10 -
                   (v[3] ? 0 : 0.1) - (v[4] == 2 ? 0 : 0.05);
        if (c->flat)
            y = 0.5;
        y += c->creep * (double)c->configs++;
        f[j] = y;
        p[j] = y / 2;
        r[j] = y / 3;
    }
    return 0;
}

static int cancel_cb(void *ctx)
{
    struct counter *c = ctx;
    return c->cancel_after && c->calls >= c->cancel_after;
}

/* ga_new's options: seed, population and generations, no patience;
 * change others before ga_start. */
static struct cet_search_options opts(uint64_t seed, size_t pop, long gens)
{
    struct cet_search_options o;
    cet_search_default_options(&o);
    o.seed = seed;
    o.pop = pop;
    o.generations = gens;
    o.patience = 0;
    return o;
}

/* A GA of d with options o, set up with the synthetic fitness counted in c. */
static struct cet_search *ga_start(const struct cet_params_desc *d, struct counter *c,
                               const struct cet_search_options *o)
{
    struct cet_search *engine;
    struct cet_error err;
    if (cet_search_new(&engine, d, &err))
        exit(1);
    cet_search_set_options(engine, o);
    cet_search_set_ndocs(engine, 3); /* as the checkpoint test's run says */
    if (cet_search_setup(engine, fitness, cancel_cb, c, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    return engine;
}

static struct cet_search *ga_new(const struct cet_params_desc *d, struct counter *c, uint64_t seed,
                             size_t pop, long gens)
{
    struct cet_search_options o = opts(seed, pop, gens);
    return ga_start(d, c, &o);
}

static void run_to_end(struct cet_search *engine)
{
    struct cet_error err;
    if (test_ga_run(engine, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
}

/* Shortcuts of cet_search_status. */
static long gen_of(const struct cet_search *engine) { return test_ga_status(engine).gen; }
static long evals_of(const struct cet_search *engine) { return test_ga_status(engine).evals; }
static size_t narch_of(const struct cet_search *engine) { return test_ga_status(engine).narch; }
static enum cet_stop stop_of(const struct cet_search *engine) { return test_ga_status(engine).stop; }

static int same_archive(const struct cet_search *a, const struct cet_search *b)
{
    size_t n = narch_of(a), ng = cet_search_desc(a)->ngenes, npa, npb;
    const size_t *pa = cet_search_population(a, &npa), *pb = cet_search_population(b, &npb);
    int same = n == narch_of(b) && gen_of(a) == gen_of(b) && npa == npb &&
               !memcmp(pa, pb, npa * sizeof *pa);
    for (size_t i = 0; same && i < n; i++) {
        struct cet_individual x, y;
        cet_search_individual(a, i, &x);
        cet_search_individual(b, i, &y);
        same = !memcmp(x.genes, y.genes, ng * sizeof *x.genes) &&
               !memcmp(&x.fit, &y.fit, sizeof x.fit) && x.born == y.born;
    }
    return same;
}

/* Every genome of the archive differs from every other (5 genes). */
static int archive_distinct(const struct cet_search *engine)
{
    int distinct = 1;
    for (size_t i = 0; i < narch_of(engine); i++)
        for (size_t j = 0; j < i; j++)
            distinct &= memcmp(cet_search_genes(engine, i), cet_search_genes(engine, j), 5 * sizeof(double)) != 0;
    return distinct;
}

static void test_ga__archive_prevents_re_evaluation(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    struct counter c = {0};
    struct cet_search *engine = ga_new(&d, &c, 1, 16, 15);
    run_to_end(engine);
    CHECK_EQ_INT(c.configs, evals_of(engine));
    CHECK_EQ_INT((long)narch_of(engine), evals_of(engine));
    CHECK(archive_distinct(engine));
    /* Elites are carried, not re-evaluated: fewer evaluations than slots. */
    CHECK(evals_of(engine) < 16 * 15);
    /* With elitism the best never gets worse. */
    size_t nhist;
    const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
    for (size_t h = 1; h < nhist; h++)
        CHECK(hist[h].best >= hist[h - 1].best);
    CHECK(hist[nhist - 1].best > hist[0].best);
    cet_search_free(engine);
    cet_params_free(&d);

    /* A space of four genomes is evaluated at most four times, then the run
     * has nothing new to try. */
    desc_of(&d, "{\"extractor\": \"test\", \"parameters\": [{\"name\": \"on\", \"type\": \"bool\"},"
                "{\"name\": \"mode\", \"type\": \"enum\", \"values\": [\"fast\", \"fuzzy\"]}]}");
    struct counter c2 = {0};
    engine = ga_new(&d, &c2, 2, 6, 20);
    run_to_end(engine);
    CHECK(evals_of(engine) <= 4);
    CHECK_EQ_INT(c2.configs, evals_of(engine));
    CHECK_EQ_INT(stop_of(engine), CET_STOP_EXHAUSTED);
    cet_search_free(engine);
    cet_params_free(&d);
}

static void test_ga__seeds_enter_the_first_generation(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL); /* no "seeds": the defaults are the seed */
    struct counter c = {0};
    struct cet_search *engine;
    struct cet_error err;
    CHECK_EQ_INT(cet_search_new(&engine, &d, &err), 0);
    double full[5] = {20, 0.3, 1, 1, 2};
    CHECK_EQ_INT(cet_search_add_seed(engine, full, &err), 0);
    full[0] = 70; /* outside [1, 50] */
    CHECK_EQ_INT(cet_search_add_seed(engine, full, &err), -1);
    struct cet_search_options o = *cet_search_opts(engine);
    o.pop = 5;
    o.generations = 1;
    cet_search_set_options(engine, &o);
    CHECK_EQ_INT(cet_search_setup(engine, fitness, NULL, &c, &err), 0);
    run_to_end(engine);
    double def[5] = {10, 0.5, 1, 1, 0}, seed[5] = {20, 0.3, 1, 1, 2};
    CHECK(!memcmp(cet_search_genes(engine, 0), def, sizeof def));
    CHECK(!memcmp(cet_search_genes(engine, 1), seed, sizeof seed));
    CHECK_EQ_INT(narch_of(engine), 5);
    /* The seed is the optimum of the synthetic fitness. */
    size_t best;
    CHECK_EQ_INT(cet_search_best(engine, &best), 0);
    CHECK_EQ_INT(best, 1);
    cet_search_free(engine);
    /* More seeds than the population is an error. */
    CHECK_EQ_INT(cet_search_new(&engine, &d, &err), 0);
    o = *cet_search_opts(engine);
    o.pop = 2;
    o.elite = 1;
    cet_search_set_options(engine, &o);
    CHECK_EQ_INT(cet_search_add_seed(engine, seed, &err), 0);
    CHECK_EQ_INT(cet_search_add_seed(engine, seed, &err), 0);
    CHECK_EQ_INT(cet_search_setup(engine, fitness, NULL, &c, &err), -1);
    CHECK_STR(err.msg, "3 seed individuals do not fit in a population of 2");
    cet_search_free(engine);
    cet_params_free(&d);
}

static int nan_fitness(void *ctx, const double *params, size_t k, double *f, double *p,
                       double *r, struct cet_error *err)
{
    int rc = fitness(ctx, params, k, f, p, r, err);
    p[k - 1] = NAN; /* the last configuration's precision */
    return rc;
}

static void test_ga__non_finite_fitness_fails_the_generation(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    struct counter c = {0};
    struct cet_search *engine;
    struct cet_error err;
    CHECK_EQ_INT(cet_search_new(&engine, &d, &err), 0);
    struct cet_search_options o = *cet_search_opts(engine);
    o.pop = 6;
    cet_search_set_options(engine, &o);
    CHECK_EQ_INT(cet_search_setup(engine, nan_fitness, NULL, &c, &err), 0);
    size_t narch = narch_of(engine);
    CHECK_EQ_INT(cet_search_generation(engine, &err), -1);
    CHECK(strstr(err.msg, "fitness function returned nan") != NULL);
    CHECK(narch_of(engine) == narch); /* nothing of the failed generation is kept */
    cet_search_free(engine);
    cet_params_free(&d);
}

static void test_ga__stopping_rules(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    /* --generations: that many generations, the first being generation 0. */
    struct counter c = {0};
    struct cet_search *engine = ga_new(&d, &c, 4, 8, 6);
    run_to_end(engine);
    size_t nhist;
    CHECK_EQ_INT(stop_of(engine), CET_STOP_GENERATIONS);
    CHECK_EQ_INT(gen_of(engine), 5);
    CHECK(cet_search_history(engine, &nhist) != NULL);
    CHECK_EQ_INT(nhist, 6);
    cet_search_free(engine);

    /* --patience: a flat fitness never improves after generation 0. */
    struct counter flat = {.flat = 1};
    struct cet_search_options o = opts(4, 8, 100);
    o.patience = 3;
    engine = ga_start(&d, &flat, &o);
    run_to_end(engine);
    CHECK_EQ_INT(stop_of(engine), CET_STOP_PATIENCE);
    CHECK_EQ_INT(gen_of(engine), 3);
    cet_search_free(engine);

    /* Gains below epsilon are no improvement. */
    struct counter creep = {.flat = 1, .creep = 1e-7};
    o = opts(4, 8, 100);
    o.patience = 3;
    o.epsilon = 1e-4;
    engine = ga_start(&d, &creep, &o);
    run_to_end(engine);
    CHECK_EQ_INT(stop_of(engine), CET_STOP_PATIENCE);
    CHECK_EQ_INT(gen_of(engine), 3);
    cet_search_free(engine);
    /* ... but with epsilon 0 they are. */
    struct counter creep0 = {.flat = 1, .creep = 1e-7};
    o = opts(4, 8, 12);
    o.patience = 3;
    o.epsilon = 0;
    engine = ga_start(&d, &creep0, &o);
    run_to_end(engine);
    CHECK_EQ_INT(stop_of(engine), CET_STOP_GENERATIONS);
    cet_search_free(engine);

    /* --max-evals is exact: the last generation evaluates what is left. */
    struct counter me = {0};
    o = opts(4, 10, 100);
    o.max_evals = 25;
    engine = ga_start(&d, &me, &o);
    run_to_end(engine);
    CHECK_EQ_INT(stop_of(engine), CET_STOP_EVALS);
    CHECK_EQ_INT(evals_of(engine), 25);
    CHECK_EQ_INT(me.configs, 25);
    CHECK_EQ_INT(narch_of(engine), 25);
    cet_search_free(engine);

    /* A run that could never stop is refused. */
    struct cet_error err;
    CHECK_EQ_INT(cet_search_new(&engine, &d, &err), 0);
    o = *cet_search_opts(engine);
    o.generations = 0;
    o.patience = 0;
    cet_search_set_options(engine, &o);
    CHECK_EQ_INT(cet_search_setup(engine, fitness, NULL, &me, &err), -1);
    cet_search_free(engine);
    cet_params_free(&d);
}

/* Generation 5, the last improvement in generation 5, 3, then -100. */
static void test_ga__adaptive_mutation_widens_while_stagnating(void)
{
    struct cet_search_options o = opts(1, 4, 10);
    CHECK_NEAR(cet_sigma_adapted(&o, 5 - 5), 0.1, 0);
    CHECK_NEAR(cet_sigma_adapted(&o, 5 - 3), 0.1, 0); /* off by default */
    o.adaptive = 1;
    CHECK_NEAR(cet_sigma_adapted(&o, 5 - 3), 0.1 * 1.5 * 1.5, 1e-12);
    CHECK_NEAR(cet_sigma_adapted(&o, 5 + 100), 0.5, 0); /* capped at half the range */
}

static void test_ga__same_seed_same_run(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    struct counter c1 = {0}, c2 = {0}, c3 = {0};
    struct cet_search *a = ga_new(&d, &c1, 42, 12, 8), *b = ga_new(&d, &c2, 42, 12, 8),
                  *x = ga_new(&d, &c3, 43, 12, 8);
    run_to_end(a);
    run_to_end(b);
    run_to_end(x);
    CHECK(same_archive(a, b));
    CHECK(!same_archive(a, x));
    cet_search_free(a);
    cet_search_free(b);
    cet_search_free(x);
    /* Truncation selection runs, and differs from tournament. */
    struct counter c4 = {0}, c5 = {0};
    struct cet_search_options o = opts(42, 12, 8);
    o.select = CET_SELECT_TRUNCATION;
    a = ga_start(&d, &c4, &o);
    b = ga_new(&d, &c5, 42, 12, 8);
    run_to_end(a);
    run_to_end(b);
    CHECK(!same_archive(a, b));
    cet_search_free(a);
    cet_search_free(b);
    cet_params_free(&d);
}

static void test_ga__cancel_leaves_the_state_unchanged(void)
{
    struct cet_params_desc d;
    desc_of(&d, ALL);
    struct counter ref = {0}, c = {0};
    struct cet_search_options o = opts(8, 40, 6);
    o.elite = 2;
    struct cet_search *a = ga_start(&d, &ref, &o), *b = ga_start(&d, &c, &o);
    run_to_end(a);
    struct cet_error err;
    /* Generation 0 is 40 evaluations in chunks of 16: cancel after the first chunk. */
    c.cancel_after = 1;
    CHECK_EQ_INT(cet_search_generation(b, &err), 1);
    CHECK_EQ_INT(gen_of(b), -1);
    CHECK_EQ_INT(narch_of(b), 0);
    CHECK_EQ_INT(evals_of(b), 0);
    c.cancel_after = 0;
    run_to_end(b);
    CHECK(same_archive(a, b));
    cet_search_free(a);
    cet_search_free(b);
    cet_params_free(&d);
}

static void checkpoint_resumes_exactly(const char *text)
{
    struct cet_params_desc d;
    desc_of(&d, text);
    struct counter ref = {0}, c = {0}, c2 = {0};
    struct cet_search *a = ga_new(&d, &ref, 77, 10, 9), *b = ga_new(&d, &c, 77, 10, 9);
    run_to_end(a);
    struct cet_error err;
    for (int g = 0; g < 4; g++)
        CHECK_EQ_INT(cet_search_generation(b, &err), 0);
    struct test_resume t;
    if (test_resume_begin(&t, b, 3))
        return;
    struct cet_search *r = t.engine;
    CHECK_EQ_INT(gen_of(r), 3);
    CHECK_EQ_INT(t.run2.docs, 3);
    CHECK_EQ_INT(cet_search_setup(r, fitness, NULL, &c2, &err), 0);
    run_to_end(r);
    CHECK(same_archive(a, r));
    CHECK_EQ_INT(c2.configs + c.configs, ref.configs); /* nothing evaluated twice */
    test_resume_end(&t, a);
    cet_params_free(&d);
}

static void test_ga__checkpoint_resumes_exactly(void)
{
    checkpoint_resumes_exactly(ALL);
}

/* ---- conditional parameters and forbidden combinations ---- */

/* Genes: mode {fast, fuzzy}; on only with fuzzy; n only with on; x only
 * with fast; w always.  Forbidden: n = 2, and fuzzy with n = 5. */
static const char *COND =
    "{\"extractor\": \"test\", \"parameters\": ["
    "{\"name\": \"mode\", \"type\": \"enum\", \"values\": [\"fast\", \"fuzzy\"]},"
    "{\"name\": \"on\", \"type\": \"bool\", \"when\": {\"mode\": [\"fuzzy\"]}},"
    "{\"name\": \"n\", \"type\": \"int\", \"min\": 1, \"max\": 5, \"default\": 3,"
    " \"when\": {\"on\": [true]}},"
    "{\"name\": \"x\", \"type\": \"float\", \"default\": 0.5, \"when\": {\"mode\": [\"fast\"]}},"
    "{\"name\": \"w\", \"type\": \"float\", \"scale\": \"log\"}],"
    " \"forbidden\": [{\"n\": 2}, {\"mode\": \"fuzzy\", \"n\": 5}],"
    " \"correlated\": [[\"x\", \"w\"]]}";
enum { C_MODE, C_ON, C_N, C_X, C_W };

/* Every inactive gene of g holds its default. */
static int inactive_at_default(const struct cet_params_desc *d, const double *g)
{
    uint8_t act[5];
    cet_params_active(d, g, act);
    for (size_t i = 0; i < d->ngenes; i++)
        if (!act[i] && g[i] != d->genes[i].def)
            return 0;
    return 1;
}

static void test_ga__inactive_genes_never_change(void)
{
    struct cet_params_desc d;
    desc_of(&d, COND);
    gsl_rng *r = rng_new(9);
    /* Genomes differing only in inactive genes normalise to one. */
    double g1[5] = {0, 0, 4, 0.25, 1}, g2[5] = {0, 1, 1, 0.25, 1};
    cet_genome_normalise(&d, 1e-4, g1);
    cet_genome_normalise(&d, 1e-4, g2);
    CHECK(!memcmp(g1, g2, sizeof g1));
    CHECK_NEAR(g1[C_ON], 1, 0);
    CHECK_NEAR(g1[C_N], 3, 0);
    /* Mutation with a tiny rate changes exactly one active gene: with mode
     * fast that is mode, x or w, about equally often; on and n stay. */
    int changed[5] = {0};
    for (int k = 0; k < 3000; k++) {
        double g[5] = {0, 1, 3, 0.25, 1};
        cet_mutate(&d, 1e-4, r, 1e-12, 0.1, g);
        CHECK(inactive_at_default(&d, g));
        CHECK(g[C_ON] == 1 && g[C_N] == 3);
        changed[C_MODE] += g[C_MODE] != 0;
        changed[C_X] += g[C_MODE] == 0 && g[C_X] != 0.25;
        changed[C_W] += g[C_W] != 1;
    }
    CHECK(changed[C_MODE] > 850 && changed[C_MODE] < 1150);
    CHECK(changed[C_X] > 800 && changed[C_X] < 1150); /* a step may round back onto 0.25 */
    CHECK(changed[C_W] > 800 && changed[C_W] < 1150);
    /* Any rate: inactive genes stay at their defaults. */
    for (int k = 0; k < 3000; k++) {
        double g[5];
        cet_genome_random(&d, 1e-4, r, g);
        CHECK(inactive_at_default(&d, g));
        cet_mutate(&d, 1e-4, r, k % 2 ? 0.0 : 0.7, 0.3, g);
        CHECK(inactive_at_default(&d, g));
    }
    /* Crossover: a gene active in one parent only comes from that parent;
     * x (fast only) is not blended with w when the other parent lacks it. */
    double a[5] = {0, 1, 3, 0.2, 0.01}, b[5] = {2, 1, 4, 0.5, 100};
    int fast = 0;
    for (int k = 0; k < 2000; k++) {
        double c[5];
        cet_crossover(&d, 0, r, a, b, c);
        CHECK(inactive_at_default(&d, c));
        if (c[C_MODE] == 0) {
            fast++;
            CHECK_NEAR(c[C_X], 0.2, 0);
        } else {
            CHECK(c[C_ON] == 1 && c[C_N] == 4);
        }
    }
    CHECK(fast > 850 && fast < 1150);
    gsl_rng_free(r);
    cet_params_free(&d);
}

/* Counts evaluations of forbidden configurations (full vectors: n x w on mode). */
static long forbidden_seen;
static int cond_fitness(void *ctx, const double *params, size_t k, double *f, double *p,
                        double *r, struct cet_error *err)
{
    for (size_t j = 0; j < k; j++) {
        const double *v = params + j * test_ex.nparams;
        int n_active = v[4] == 2 && v[3] == 1;
        forbidden_seen += n_active && (v[0] == 2 || v[0] == 5);
    }
    return fitness(ctx, params, k, f, p, r, err);
}

static void test_ga__forbidden_never_evaluated_and_archive_ignores_inactive_genes(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    desc_of(&d, COND);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        struct cet_search *engine;
        struct counter c = {0};
        CHECK_EQ_INT(cet_search_new(&engine, &d, &err), 0);
        struct cet_search_options o = opts(seed, 12, 12);
        cet_search_set_options(engine, &o);
        forbidden_seen = 0;
        CHECK_EQ_INT(cet_search_setup(engine, cond_fitness, NULL, &c, &err), 0);
        run_to_end(engine);
        CHECK_EQ_INT(forbidden_seen, 0);
        CHECK(evals_of(engine) > 24);
        int fuzzy_on = 0;
        for (size_t i = 0; i < narch_of(engine); i++) {
            const double *g = cet_search_genes(engine, i);
            CHECK(inactive_at_default(&d, g));
            CHECK(!cet_params_forbidden(&d, g));
            fuzzy_on += g[C_MODE] == 2 && g[C_ON] == 1;
        }
        CHECK(archive_distinct(engine));
        CHECK(fuzzy_on > 0); /* the conditional chain was explored */
        /* A genome found again with other inactive values is the same individual. */
        double g[5];
        memcpy(g, cet_search_genes(engine, 0), sizeof g);
        if (g[C_MODE] == 0)
            g[C_N] = 4;
        else
            g[C_X] = 0.9;
        cet_genome_normalise(&d, cet_search_opts(engine)->resolution, g);
        size_t at;
        CHECK_EQ_INT(cet_search_lookup(engine, g, &at), 0);
        CHECK_EQ_INT(at, 0);
        size_t nhist;
        const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
        for (size_t h = 0; h < nhist; h++)
            CHECK(hist[h].diversity >= 0 && hist[h].diversity <= 1);
        cet_search_free(engine);
    }
    /* A seed configuration that is forbidden is refused. */
    struct cet_search *engine;
    CHECK_EQ_INT(cet_search_new(&engine, &d, &err), 0);
    double full[5] = {5, 0.5, 1, 1, 2};
    CHECK_EQ_INT(cet_search_add_seed(engine, full, &err), -1);
    CHECK_STR(err.msg, "the seed is forbidden by entry 2 of \"forbidden\" in t.json");
    full[4] = 0; /* fast: n is inactive, so 5 is no longer forbidden */
    CHECK_EQ_INT(cet_search_add_seed(engine, full, &err), 0);
    cet_search_free(engine);
    cet_params_free(&d);
}

/* Diversity counts a gene over the individuals where it is active. */
static void test_ga__diversity_over_active_genes(void)
{
    struct cet_params_desc d;
    desc_of(&d, COND);
    /* Two fast genomes: mode, x and w count (on and n are inactive in
     * both); only x differs, by its whole range: (0 + 0.5 + 0) / 3. */
    double two[10] = {0, 1, 3, 0, 1, 0, 1, 3, 1, 1};
    CHECK_NEAR(cet_genome_diversity(&d, two, 2), 0.5 / 3, 1e-12);
    cet_params_free(&d);
}

/* The parameter cells of one individuals.csv row: mode, on, n, x. */
static void csv_cells(const char *line, char cells[4][16])
{
    const char *c = strchr(line, ',') + 1; /* after the generation */
    for (int k = 0; k < 4; k++) {
        size_t n = strcspn(c, ",");
        snprintf(cells[k], 16, "%.*s", (int)n, c);
        c += n + 1;
    }
}

static void test_ga__results_leave_inactive_parameters_out(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    desc_of(&d, COND);
    struct counter c = {0};
    struct cet_search *engine = ga_new(&d, &c, 5, 10, 6);
    run_to_end(engine);
    char dir[] = "/tmp/cetune-test-ga-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct cet_run_info run = {0};
    run.docs = 3;
    run.top = 5;
    CHECK_EQ_INT(test_write_results(engine, &run, dir, &err), 0);
    char path[4200];
    struct cet_buf b = {0};
    /* individuals.csv: generation,mode,on,n,x,w,...: empty where inactive. */
    snprintf(path, sizeof path, "%s/individuals.csv", dir);
    CHECK_EQ_INT(cet_read_file(&b, path, 1 << 24, &err), 0);
    CHECK(!strncmp(b.p, "generation,mode,on,n,x,w,fitness", 32));
    size_t rows = 0;
    int fuzzy = 0;
    for (const char *line = strchr(b.p, '\n') + 1; *line; line = strchr(line, '\n') + 1, rows++) {
        char cell[4][16];
        csv_cells(line, cell);
        if (!strcmp(cell[0], "fast")) {
            CHECK(!*cell[1] && !*cell[2] && *cell[3]);
        } else {
            fuzzy++;
            CHECK(!strcmp(cell[1], "true") || !strcmp(cell[1], "false"));
            CHECK(!strcmp(cell[1], "true") == (*cell[2] != 0));
            CHECK(!*cell[3]);
        }
    }
    CHECK(fuzzy > 0);
    CHECK_EQ_INT(rows, narch_of(engine));
    cet_buf_free(&b);
    /* top.json: each configuration names exactly its active parameters. */
    snprintf(path, sizeof path, "%s/top.json", dir);
    CHECK_EQ_INT(cet_read_file(&b, path, 1 << 24, &err), 0);
    cJSON *top = cJSON_ParseWithLength(b.p, b.len);
    CHECK(cJSON_GetArraySize(top) > 1);
    for (const cJSON *e = top ? top->child : NULL; e; e = e->next) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "params");
        const char *mode = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "mode"));
        int fast = mode && !strcmp(mode, "fast");
        const cJSON *on = cJSON_GetObjectItemCaseSensitive(p, "on");
        CHECK(!fast == (on != NULL));
        CHECK(fast == (cJSON_GetObjectItemCaseSensitive(p, "x") != NULL));
        CHECK((on && cJSON_IsTrue(on)) == (cJSON_GetObjectItemCaseSensitive(p, "n") != NULL));
        CHECK(cJSON_GetObjectItemCaseSensitive(p, "w") != NULL);
    }
    cJSON_Delete(top);
    cet_buf_free(&b);
    test_rundir_remove(dir);
    cet_search_free(engine);
    cet_params_free(&d);
}

static void test_ga__conditional_checkpoint_resumes_exactly(void)
{
    checkpoint_resumes_exactly(COND);
}

int main(void)
{
    RUN(test_ga__normalise_bounds_rounding_and_grid);
    RUN(test_ga__random_genomes_uniform_and_log_uniform);
    RUN(test_ga__mutation_stays_in_bounds_and_changes_each_type);
    RUN(test_ga__crossover_uniform_and_blended_groups);
    RUN(test_ga__tournament_and_truncation_selection);
    RUN(test_ga__archive_prevents_re_evaluation);
    RUN(test_ga__seeds_enter_the_first_generation);
    RUN(test_ga__non_finite_fitness_fails_the_generation);
    RUN(test_ga__stopping_rules);
    RUN(test_ga__adaptive_mutation_widens_while_stagnating);
    RUN(test_ga__same_seed_same_run);
    RUN(test_ga__cancel_leaves_the_state_unchanged);
    RUN(test_ga__checkpoint_resumes_exactly);
    RUN(test_ga__inactive_genes_never_change);
    RUN(test_ga__forbidden_never_evaluated_and_archive_ignores_inactive_genes);
    RUN(test_ga__diversity_over_active_genes);
    RUN(test_ga__results_leave_inactive_parameters_out);
    RUN(test_ga__conditional_checkpoint_resumes_exactly);
    TEST_END();
}
