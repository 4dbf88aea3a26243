/* Objectives, constraints (objective.c) and NSGA-II's sorting, crowding and
 * survival (nsga2.c) on hand-made scores and objective vectors. */
#include "search/nsga2.h"
#include "cetune/objective.h"
#include "test.h"
#include "test_extractor.h"

static void test_objective__parse_and_name(void)
{
    struct cet_objective o;
    struct cet_constraint c;
    struct cet_goal g = {0};
    struct cet_error err;
    char name[64];
    CHECK(cet_objective_parse(&o, "macro-f1", &err) == 0 && o.m == CET_MEASURE_MACRO_F1);
    CHECK(cet_objective_parse(&o, "fbeta:0.5", &err) == 0 && o.m == CET_MEASURE_FBETA);
    cet_objective_name(&o, name, sizeof name);
    CHECK(!strcmp(name, "fbeta:0.5"));
    CHECK(cet_objective_parse(&o, "fbeta:", &err) < 0);
    CHECK(cet_objective_parse(&o, "fbeta:-1", &err) < 0);
    CHECK(cet_objective_parse(&o, "words", &err) < 0); /* a constraint, not an objective */
    CHECK(cet_objective_parse(&o, "F1", &err) < 0 && strstr(err.msg, "allowed"));
    CHECK(cet_constraint_parse(&c, "precision>=0.95", &err) == 0 && !c.upper &&
          c.m == CET_MEASURE_PRECISION && c.bound == 0.95);
    CHECK(cet_constraint_parse(&c, "words<=300", &err) == 0 && c.upper && c.bound == 300);
    cet_constraint_name(&c, name, sizeof name);
    CHECK(!strcmp(name, "words<=300"));
    CHECK(cet_constraint_parse(&c, "precision>0.9", &err) < 0);
    CHECK(cet_constraint_parse(&c, "recall>=1.5", &err) < 0);
    CHECK(cet_constraint_parse(&c, "macro-f1>=0.5", &err) == 0 && c.m == CET_MEASURE_MACRO_F1);
    CHECK(cet_constraint_parse(&c, "fbeta:1>=0.5", &err) < 0);
    CHECK(cet_pareto_parse(&g, "precision,recall", &err) == 0 && g.npareto == 2);
    CHECK(cet_pareto_parse(&g, "precision", &err) < 0);
    CHECK(cet_pareto_parse(&g, "f1,precision,recall,macro-f1", &err) < 0);
    CHECK(cet_pareto_parse(&g, "recall,recall", &err) < 0);
}

/* Two packages: a with documents 0 and 1, b with document 2. */
static void two_packages(struct cet_corpus *c, struct cet_package *pk)
{
    memset(c, 0, sizeof *c);
    pk[0] = (struct cet_package){.first = 0, .count = 2};
    pk[1] = (struct cet_package){.first = 2, .count = 1};
    c->pkgs = pk;
    c->npkgs = 2;
    c->ndocs = 3;
}

static void test_objective__measures(void)
{
    struct cet_corpus c;
    struct cet_package pk[2];
    struct cet_score s[3];
    struct cet_measures m;
    struct cet_goal g = {0};
    struct cet_error err;
    two_packages(&c, pk);
    cet_score_set(&s[0], 10, 20, 10); /* P 1, R 0.5 */
    cet_score_set(&s[1], 0, 0, 0);    /* both empty: 1 */
    cet_score_set(&s[2], 40, 10, 10); /* P 0.25, R 1 */
    cet_goal_measure(&g, &c, s, &m);
    CHECK(fabs(m.f1 - (s[0].f1 + 1 + s[2].f1) / 3) < 1e-12 && m.fit == m.f1 && m.viol == 0);
    CHECK(fabs(m.words - 50.0 / 3) < 1e-12);
    CHECK(cet_objective_parse(&g.objective, "macro-f1", &err) == 0);
    cet_goal_measure(&g, &c, s, &m);
    CHECK(fabs(m.fit - ((s[0].f1 + 1) / 2 + s[2].f1) / 2) < 1e-12);
    /* fbeta:1 is F1; beta 2 weighs recall. */
    CHECK(cet_objective_parse(&g.objective, "fbeta:1", &err) == 0);
    cet_goal_measure(&g, &c, s, &m);
    CHECK(fabs(m.fit - m.f1) < 1e-12);
    CHECK(cet_objective_parse(&g.objective, "fbeta:2", &err) == 0);
    cet_goal_measure(&g, &c, s, &m);
    double f2a = 5.0 * 0.5 / (4 + 0.5), f2c = 5.0 * 0.25 / (4 * 0.25 + 1);
    CHECK(fabs(m.fit - (f2a + 1 + f2c) / 3) < 1e-12);
    /* Violations: absolute for fractions, relative to the bound for words. */
    g.objective.m = CET_MEASURE_PRECISION;
    CHECK(cet_constraint_parse(&g.cons[0], "precision>=0.9", &err) == 0);
    CHECK(cet_constraint_parse(&g.cons[1], "words<=10", &err) == 0);
    g.ncons = 2;
    cet_goal_measure(&g, &c, s, &m);
    CHECK(fabs(m.fit - 0.75) < 1e-12);
    /* precision must hold as the mean (0.75) and as the macro average
     * ((1 + 1) / 2 and 0.25: 0.625); the worse of the two counts. */
    CHECK(fabs(m.viol - ((0.9 - 0.625) + (50.0 / 3 - 10) / 10)) < 1e-12);
    /* Macro averages: per package, then over packages. */
    struct cet_score macro;
    cet_score_macro(&c, s, NULL, &macro);
    CHECK(cet_constraint_parse(&g.cons[0], "macro-precision>=1", &err) == 0);
    g.ncons = 1;
    cet_goal_measure(&g, &c, s, &m);
    CHECK(fabs(m.viol - (1 - macro.p)) < 1e-12 && fabs(macro.p - (1 + 0.25) / 2) < 1e-12);
    CHECK(cet_objective_parse(&g.objective, "macro-recall", &err) == 0);
    cet_goal_measure(&g, &c, s, &m);
    CHECK(fabs(m.fit - macro.r) < 1e-12);
    g.ncons = 2;
    CHECK(cet_constraint_parse(&g.cons[0], "recall>=0.5", &err) == 0);
    CHECK(cet_constraint_parse(&g.cons[1], "words<=20", &err) == 0);
    cet_goal_measure(&g, &c, s, &m);
    CHECK(m.viol == 0);
}

static void test_objective__dominance_and_fronts(void)
{
    /* Maximised (p, r): 0 and 1 trade off, 2 is dominated by 0, 3 by 2,
     * 4 equals 1, 5 is the best point but infeasible. */
    const double obj[] = {0.9, 0.5, 0.5, 0.9, 0.8, 0.4, 0.7, 0.3, 0.5, 0.9, 1.0, 1.0};
    const double viol[] = {0, 0, 0, 0, 0, 0.1};
    const size_t idx[] = {0, 1, 2, 3, 4, 5};
    size_t front[6];
    CHECK(cet_dominates(obj, obj + 4, 2, 0, 0));
    CHECK(!cet_dominates(obj, obj + 2, 2, 0, 0) && !cet_dominates(obj + 2, obj, 2, 0, 0));
    CHECK(!cet_dominates(obj + 2, obj + 8, 2, 0, 0)); /* equal points */
    CHECK(cet_dominates(obj, obj + 10, 2, 0, 0.1));   /* feasible first */
    CHECK(cet_dominates(obj + 10, obj, 2, 0.1, 0.2)); /* smaller violation */
    CHECK(cet_nsga2_fronts(front, obj, 2, viol, idx, 6) == 0);
    CHECK(front[0] == 0 && front[1] == 0 && front[4] == 0);
    CHECK(front[2] == 1 && front[3] == 2 && front[5] == 3);
    /* Crowding on the front {0, 1, 4}: ends infinite. */
    double dist[6];
    const size_t members[] = {0, 1, 4};
    CHECK(cet_nsga2_crowding(dist, obj, 2, idx, members, 3) == 0);
    CHECK(isinf(dist[0]) && isinf(dist[1]) && isinf(dist[4])); /* three points: all ends */
    /* Survival of 4 of 6: the front, then the best of front 1. */
    size_t v[6] = {5, 4, 3, 2, 1, 0};
    CHECK(cet_nsga2_survive(v, 6, 4, obj, 2, viol) == 0);
    int in_front = 0;
    for (int k = 0; k < 3; k++)
        in_front += v[k] == 0 || v[k] == 1 || v[k] == 4;
    CHECK(in_front == 3 && v[3] == 2);
}

static void test_objective__crowding_distances(void)
{
    /* Five points on a line p + r = 1: the middle ones get the gap of their
     * neighbours, per objective, over the range. */
    const double obj[] = {0, 1, 0.1, 0.9, 0.5, 0.5, 0.8, 0.2, 1, 0};
    const size_t idx[] = {0, 1, 2, 3, 4}, members[] = {0, 1, 2, 3, 4};
    double dist[5];
    CHECK(cet_nsga2_crowding(dist, obj, 2, idx, members, 5) == 0);
    CHECK(isinf(dist[0]) && isinf(dist[4]));
    CHECK(fabs(dist[1] - 2 * 0.5) < 1e-12);
    CHECK(fabs(dist[2] - 2 * 0.7) < 1e-12);
    CHECK(fabs(dist[3] - 2 * 0.5) < 1e-12);
}

/* lcb-f1: the mean F1 minus its standard error, from the same left fold. */
static void test_objective__lower_bound(void)
{
    struct cet_corpus c;
    struct cet_package pk[2];
    struct cet_score s[3];
    struct cet_measures m, same;
    struct cet_goal g = {0};
    struct cet_error err;
    char name[32];
    two_packages(&c, pk);
    CHECK(cet_objective_parse(&g.objective, "lcb-f1", &err) == 0);
    cet_objective_name(&g.objective, name, sizeof name);
    CHECK_STR(name, "lcb-f1");
    CHECK(!cet_goal_is_default(&g));
    cet_score_set(&s[0], 10, 20, 10); /* F1 2/3 */
    cet_score_set(&s[1], 0, 0, 0);    /* 1 */
    cet_score_set(&s[2], 40, 10, 10); /* 0.4 */
    cet_goal_measure(&g, &c, s, &m);
    double f[3] = {s[0].f1, s[1].f1, s[2].f1}, mean = (f[0] + f[1] + f[2]) / 3, var = 0;
    for (int i = 0; i < 3; i++)
        var += (f[i] - mean) * (f[i] - mean) / 2;
    CHECK(fabs(m.f1 - mean) < 1e-12);
    CHECK(fabs(m.fit - (mean - sqrt(var / 3))) < 1e-12);
    /* Equal pages: no spread, the mean itself; one page: its F1. */
    s[0] = s[2] = s[1];
    cet_goal_measure(&g, &c, s, &same);
    CHECK(fabs(same.fit - 1) < 1e-12);
    c.ndocs = 1;
    c.npkgs = 1;
    pk[0].count = 1;
    cet_score_set(&s[0], 40, 10, 10);
    cet_goal_measure(&g, &c, s, &same);
    CHECK(fabs(same.fit - s[0].f1) < 1e-12);
    CHECK(cet_constraint_parse(&g.cons[0], "lcb-f1>=0.5", &err) < 0); /* an objective only */
}

/* --shrink: the distance to the start in shares of each gene's range. */
static void test_objective__shrink_distance(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    const char *text =
        "{\"extractor\": \"test\", \"parameters\": [\n"
        "  {\"name\": \"n\", \"type\": \"int\", \"min\": 1, \"max\": 51},\n"
        "  {\"name\": \"x\", \"type\": \"float\"},\n"
        "  {\"name\": \"w\", \"type\": \"float\", \"scale\": \"log\"},\n"
        "  {\"name\": \"on\", \"type\": \"bool\"},\n"
        "  {\"name\": \"mode\", \"type\": \"enum\"}]}";
    int rc = cet_params_parse(&d, text, strlen(text), "t.json", test_find, &err);
    CHECK_EQ_INT(rc, 0);
    if (rc)
        return;
    double start[7], full[7];
    memcpy(start, d.base, sizeof start);
    memcpy(full, d.base, sizeof full);
    CHECK(cet_goal_shrink_distance(&d, full, start) == 0);
    full[0] = start[0] + 5;   /* a tenth of 1..51 */
    full[1] = start[1] - 0.2; /* a fifth of 0..1 */
    CHECK(fabs(cet_goal_shrink_distance(&d, full, start) - 0.3) < 1e-12);
    full[2] = start[2] * 10;  /* one decade of six (0.001..1000) */
    full[3] = !start[3];      /* a switch flipped: 1 */
    full[4] = start[4] == 2 ? 0 : 2;
    CHECK(fabs(cet_goal_shrink_distance(&d, full, start) - (0.3 + 1.0 / 6 + 2)) < 1e-12);
    full[5] = 0.1; /* a parameter the description does not evolve: no cost */
    CHECK(fabs(cet_goal_shrink_distance(&d, full, start) - (0.3 + 1.0 / 6 + 2)) < 1e-12);
    /* Symmetric. */
    CHECK(fabs(cet_goal_shrink_distance(&d, start, full) - (0.3 + 1.0 / 6 + 2)) < 1e-12);
    struct cet_goal g = {.shrink = 0.5};
    CHECK(!cet_goal_is_default(&g));
    cet_params_free(&d);
}

int main(void)
{
    RUN(test_objective__parse_and_name);
    RUN(test_objective__measures);
    RUN(test_objective__dominance_and_fronts);
    RUN(test_objective__crowding_distances);
    RUN(test_objective__lower_bound);
    RUN(test_objective__shrink_distance);
    TEST_END();
}
