/* Racing (evolve --race): the sign-flip test against known values, the
 * stratified document order, and whole raced runs: raced-out individuals
 * are never elite, top or best; survivors get exactly the fitness of a
 * full evaluation; a run paused in the middle of a raced generation and
 * resumed from its checkpoint ends exactly as the run left alone.  Most
 * runs use a synthetic per-document fitness; one uses the real evaluator
 * on the demo corpus. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cetune/eval.h"
#include "cetune/search.h"
#include "eval/signflip.h" /* the sign-flip test */
#include "search/race.h"  /* white-box: the racing state and its sequence */
#include "search/state.h" /* the racing state as a checkpoint stores it */
#include "run/run_internal.h"
#include "test.h"
#include "test_extractor.h"
#include "test_ga.h"

/* ---- the test statistic ---- */

/* P(S <= sum d) for S the sum of |d[i]| with random signs, by enumerating
 * all 2^n sign patterns: the textbook definition, for small n. */
static double flip_brute(const double *d, int n)
{
    double obs = 0;
    for (int i = 0; i < n; i++)
        obs += d[i];
    int le = 0;
    for (int pat = 0; pat < 1 << n; pat++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += (pat >> i & 1 ? -1 : 1) * fabs(d[i]);
        le += s <= obs + 1e-12;
    }
    return le / (double)(1 << n);
}

static double pvalue(const double *d, size_t n)
{
    double v[128];
    memcpy(v, d, n * sizeof *v);
    return cet_signflip_pvalue(v, n);
}

static void test_race__sign_flip_test_known_values(void)
{
    /* Three losses of any size: only the all-negative pattern of 8 is as
     * low, p = 1/8, whatever the sizes (a t-test gave p 0.0077 for
     * -1, -1, -2 and near 0 for equal losses). */
    double three[] = {-1, -1, -2};
    CHECK_NEAR(pvalue(three, 3), 0.125, 1e-15);
    double eq[] = {-0.25, -0.25, -0.25};
    CHECK_NEAR(pvalue(eq, 3), 0.125, 1e-15);
    /* Two pages can never make p < 0.25: no individual is dropped at
     * alpha 0.2 by two pages. */
    double two[] = {-0.9, -0.01};
    CHECK_NEAR(pvalue(two, 2), 0.25, 1e-15);
    /* Ties count for nothing: the same three losses among zeros. */
    double tied[] = {0, -1, 0, -1, 0, 0, -2, 0};
    CHECK_NEAR(pvalue(tied, 8), 0.125, 1e-15);
    /* One page differing among many is no evidence, however large. */
    double one[40] = {0};
    one[17] = -0.7;
    CHECK_NEAR(pvalue(one, 40), 0.5, 1e-15);
    /* No difference at all: p = 1. */
    CHECK_NEAR(pvalue(one, 17), 1, 0);
    /* Mixed signs, against the brute-force definition: the sum is -0.3,
     * |d| = 0.5, 0.4, 0.3, 0.1, and a pattern is at most -0.3 when the
     * |d| it negates sum to 0.8 or more: 7 of the 16 subsets. */
    double mixed[] = {-0.5, 0.4, -0.3, 0.1};
    CHECK_NEAR(pvalue(mixed, 4), flip_brute(mixed, 4), 1e-15);
    CHECK_NEAR(pvalue(mixed, 4), 7 / 16.0, 1e-15);
    /* A loss on one page with small wins elsewhere: the mean is below 0
     * but the test cannot be sure (p well above 0.2). */
    double skew[] = {-0.5, 0.05, 0.05, 0.05, 0.05, 0.05};
    CHECK_NEAR(pvalue(skew, 6), flip_brute(skew, 6), 1e-15);
    CHECK(pvalue(skew, 6) > 0.4);
    /* Up to 12 differing pages the enumeration is exact. */
    double twelve[12];
    for (int i = 0; i < 12; i++)
        twelve[i] = (i % 3 ? -0.01 : 0.015) * (1 + i / 10.0);
    CHECK_NEAR(pvalue(twelve, 12), flip_brute(twelve, 12), 1e-12);
    /* Beyond 12, the smaller ones' sign-flip sum is normal with variance
     * sum d^2: 12 large differences and one of 0.3, checked against the
     * mixture written out (erfc, independent of GSL). */
    double big[13];
    for (int i = 0; i < 12; i++)
        big[i] = (i % 4 ? -1 : 1) * (1 + i / 8.0);
    big[12] = -0.3;
    double obs = 0, want = 0;
    for (int i = 0; i < 13; i++)
        obs += big[i];
    for (int pat = 0; pat < 1 << 12; pat++) {
        double s = 0;
        for (int i = 0; i < 12; i++)
            s += (pat >> i & 1 ? -1 : 1) * fabs(big[i]);
        want += 0.5 * erfc(-(obs - s) / 0.3 / sqrt(2)) / 4096;
    }
    CHECK_NEAR(pvalue(big, 13), want, 1e-9);
    /* Many small consistent losses are strong evidence, the same the other
     * way none. */
    double many[72];
    for (int i = 0; i < 72; i++)
        many[i] = i < 12 ? -0.02 : -0.01;
    double p = pvalue(many, 72);
    CHECK(p > 0 && p < 1e-9);
    for (int i = 0; i < 72; i++)
        many[i] = -many[i];
    CHECK(pvalue(many, 72) > 0.999);
}

/* The incumbent's weak pages come first, and a gain there is counted
 * exactly: a child that rescues one page (+0.85) while losing 0.02 on all
 * the others is better in total and must not be raced out, although its
 * first 20 other pages all show a loss. */
static void test_race__weak_pages_first_and_counted(void)
{
    enum { N = 40, WEAK = 25 };
    uint32_t order[N], seq[N], pos[N];
    double inc[N], d[N];
    struct cet_score sc[3 * N];
    for (uint32_t i = 0; i < N; i++) {
        order[i] = (i * 7) % N; /* a permutation */
        inc[i] = i == WEAK ? 0.1 : 0.9;
        for (int j = 0; j < 3; j++)
            sc[j * N + i] = (struct cet_score){.f1 = 0.88};
    }
    sc[0 * N + WEAK].f1 = 0.95; /* child 0 rescues the weak page */
    sc[1 * N + WEAK].f1 = 0.1;  /* child 1 does not */
    sc[2 * N + WEAK].f1 = 0.0;  /* child 2 loses it too */
    struct cet_race R = {.order = order, .seq = seq, .pos = pos, .ndocs = N,
                         .has_incumbent = 1, .incumbent = 0, .inc_f1 = inc, .scores = sc};
    cet_race_sequence(&R, 0.5);
    CHECK_EQ_INT(R.nweak, 1);
    CHECK_EQ_INT(seq[0], WEAK);
    int inorder = 1, perm = 1;
    for (uint32_t i = 1, k = 0; i < N; i++, k++) {
        if (order[k] == WEAK)
            k++;
        inorder &= seq[i] == order[k];
    }
    for (uint32_t i = 0; i < N; i++)
        perm &= seq[pos[i]] == i;
    CHECK(inorder); /* the others keep the run's order */
    CHECK(perm);
    R.done = 1 + 20;
    CHECK(!cet_search_race_worse(&R, 0, 0.2, d));
    CHECK(cet_search_race_worse(&R, 1, 0.2, d));
    CHECK(cet_search_race_worse(&R, 2, 0.2, d));
    /* Without weak pages the rescue is not seen (the weak page is 16th in
     * the run's order), and child 0 is dropped after 15 pages. */
    cet_race_sequence(&R, 0);
    CHECK_EQ_INT(R.nweak, 0);
    CHECK(!memcmp(seq, order, sizeof seq));
    CHECK_EQ_INT(order[15], WEAK);
    R.done = 15;
    CHECK(cet_search_race_worse(&R, 0, 0.2, d));
    /* No incumbent yet (generation 0): no weak pages. */
    R.has_incumbent = 0;
    cet_race_sequence(&R, 0.5);
    CHECK_EQ_INT(R.nweak, 0);
}

/* ---- the document order ---- */

static void test_race__order_is_a_seeded_stratified_permutation(void)
{
    /* Three packages of 60, 30 and 10 documents. */
    struct cet_package pk[3] = {{"a", 0, 60}, {"b", 60, 30}, {"c", 90, 10}};
    struct cet_corpus c = {0};
    c.pkgs = pk;
    c.npkgs = 3;
    c.ndocs = 100;
    uint32_t o1[100], o2[100], o3[100];
    struct cet_error err;
    CHECK_EQ_INT(cet_race_order(o1, &c, 5, &err), 0);
    CHECK_EQ_INT(cet_race_order(o2, &c, 5, &err), 0);
    CHECK_EQ_INT(cet_race_order(o3, &c, 6, &err), 0);
    CHECK(!memcmp(o1, o2, sizeof o1));
    CHECK(memcmp(o1, o3, sizeof o1) != 0);
    int seen[100] = {0}, perm = 1, strat = 1, shuffled = 0;
    int count[3] = {0};
    for (int i = 0; i < 100; i++) {
        perm &= o1[i] < 100 && !seen[o1[i]]++;
        count[o1[i] < 60 ? 0 : o1[i] < 90 ? 1 : 2]++;
        /* Every prefix holds each package within one document of its share. */
        for (int p = 0; p < 3; p++)
            strat &= fabs(count[p] - (i + 1) * pk[p].count / 100.0) <= 1.0;
        shuffled += i > 0 && o1[i] < 60 && o1[i - 1] < 60 && o1[i] < o1[i - 1];
    }
    CHECK(perm);
    CHECK(strat);
    CHECK(shuffled > 0); /* within a package the order is random */
}

/* ---- raced runs with a synthetic fitness ---- */

static const char *DESC =
    "{\"extractor\": \"test\", \"parameters\": ["
    "{\"name\": \"n\", \"type\": \"int\", \"min\": 1, \"max\": 60, \"default\": 10},"
    "{\"name\": \"x\", \"type\": \"float\", \"default\": 0.5}], \"seeds\": [{\"n\": 10, \"x\": 0.5}]}";

enum { NDOCS = 60 };

struct synth {
    long calls, doc_evals;
    long cancel_after; /* cancel once this many score calls were made (0 = never) */
};

/* F1 of configuration v on document d: a smooth peak at n = 20, x = 0.3,
 * a per-document difficulty shared by all configurations, and a
 * per-(configuration, document) wobble. */
static double synth_f1(const double *v, size_t d)
{
    double base = 0.9 - fabs(v[1] - 0.3) - fabs(v[0] - 20) / 80;
    double f = base - 0.2 * sin((double)d * 1.7) + 0.08 * sin((double)d * 0.9 + v[1] * 11 + v[0]);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

static int synth_score(void *ctx, const double *params, size_t k, const uint32_t *docs, size_t n,
                       struct cet_score *scores, struct cet_error *err)
{
    (void)err;
    struct synth *s = ctx;
    s->calls++;
    s->doc_evals += (long)(k * n);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < n; i++) {
            double f = synth_f1(params + j * test_ex.nparams, docs[i]);
            scores[j * n + i] = (struct cet_score){0, 0, 0, f / 2 + 0.25, f / 3 + 0.5, f};
        }
    return 0;
}

/* The full evaluation racing must reproduce: every document, summed in
 * corpus order. */
static int synth_eval(void *ctx, const double *params, size_t k, double *f, double *p, double *r,
                      struct cet_error *err)
{
    struct cet_score sc[NDOCS];
    uint32_t all[NDOCS];
    for (uint32_t i = 0; i < NDOCS; i++)
        all[i] = i;
    for (size_t j = 0; j < k; j++) {
        if (synth_score(ctx, params + j * test_ex.nparams, 1, all, NDOCS, sc, err))
            return -1;
        cet_score_means(sc, 1, NDOCS, f + j, p + j, r + j);
    }
    return 0;
}

static int synth_cancel(void *ctx)
{
    struct synth *s = ctx;
    return s->cancel_after && s->calls >= s->cancel_after;
}

static void synth_order(uint32_t *order, uint64_t seed)
{
    struct cet_package pk[2] = {{"a", 0, 40}, {"b", 40, 20}};
    struct cet_corpus c = {0};
    struct cet_error err;
    c.pkgs = pk;
    c.npkgs = 2;
    c.ndocs = NDOCS;
    if (cet_race_order(order, &c, seed, &err))
        exit(1);
}

/* raced_ga's options; change others before raced_start. */
static struct cet_search_options raced_opts(uint64_t seed)
{
    struct cet_search_options o;
    cet_search_default_options(&o);
    o.seed = seed;
    o.pop = 16;
    o.generations = 12;
    o.patience = 0;
    o.race = 1;
    o.race_first = 8;
    o.race_block = 6;
    o.race_alpha = 0.1;
    return o;
}

static struct cet_search *raced_start(const struct cet_params_desc *d, struct synth *s,
                                  const struct cet_search_options *o)
{
    struct cet_search *engine;
    struct cet_error err;
    uint32_t order[NDOCS];
    if (cet_search_new(&engine, d, &err))
        exit(1);
    cet_search_set_options(engine, o);
    cet_search_set_ndocs(engine, NDOCS);
    synth_order(order, o->seed);
    if (cet_search_setup(engine, synth_eval, synth_cancel, s, &err) ||
        cet_search_race_setup(engine, synth_score, order, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    return engine;
}

static struct cet_search *raced_ga(const struct cet_params_desc *d, struct synth *s, uint64_t seed)
{
    struct cet_search_options o = raced_opts(seed);
    return raced_start(d, s, &o);
}

static struct cet_individual ind(const struct cet_search *engine, size_t i)
{
    struct cet_individual x;
    cet_search_individual(engine, i, &x);
    return x;
}

/* x's fitness, precision and recall are exactly f, p and r. */
static int same_means(const struct cet_individual *x, double f, double p, double r)
{
    return !memcmp(&f, &x->fit, sizeof f) && !memcmp(&p, &x->prec, sizeof p) &&
           !memcmp(&r, &x->rec, sizeof r);
}

/* The racing state as the GA's checkpoint stores it (cet_search_save): the
 * incumbent's archive index (-1: none yet) and into *nweak its weak pages
 * (F1 below race_weak), which a generation scores first. */
static long saved_incumbent(struct cet_search *engine, size_t *nweak)
{
    struct cet_error err;
    cJSON *j = cJSON_CreateObject(), *back = NULL;
    char *text = NULL;
    long inc = -2;
    *nweak = 0;
    CHECK(j && !cet_search_save(engine, j, &err) && (text = cJSON_PrintUnformatted(j)) &&
          (back = cJSON_Parse(text)));
    const cJSON *race = cJSON_GetObjectItemCaseSensitive(back, "race"), *x;
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(race, "incumbent");
    if (cJSON_IsNumber(n))
        inc = (long)n->valuedouble;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(race, "incumbent_f1"))
        *nweak += x->valuedouble < cet_search_opts(engine)->race_weak;
    cJSON_Delete(back);
    free(text);
    cJSON_Delete(j);
    return inc;
}

static void test_race__raced_out_never_elite_top_or_best(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    CHECK_EQ_INT(cet_params_parse(&d, DESC, strlen(DESC), "t.json", test_find, &err), 0);
    struct synth s = {0};
    struct cet_search *engine = raced_ga(&d, &s, 3);
    size_t raced = 0, elite_ok = 1, full_first = 1, *prev = malloc(16 * sizeof *prev), nprev = 0;
    const struct cet_search_options *o = cet_search_opts(engine);
    while (test_ga_status(engine).stop == CET_STOP_NONE) {
        CHECK_EQ_INT(cet_search_generation(engine, &err), 0);
        size_t npop, nweak;
        const size_t *pop = cet_search_population(engine, &npop);
        /* The elites (the best distinct fully evaluated of the last
         * generation) are all in this one, never re-evaluated. */
        for (size_t e = 0, k = 0; k < nprev && e < o->elite; k++) {
            if (ind(engine, prev[k]).raced)
                break;
            int in = 0;
            for (size_t m = 0; m < npop; m++)
                in |= pop[m] == prev[k];
            elite_ok &= in;
            e++;
        }
        /* The ranking puts every fully evaluated member first. */
        for (size_t m = 1; m < npop; m++)
            full_first &= !(ind(engine, pop[m - 1]).raced && !ind(engine, pop[m]).raced);
        CHECK(!ind(engine, pop[0]).raced);
        size_t best;
        CHECK(!cet_search_best(engine, &best) && !ind(engine, best).raced && ind(engine, best).ndone == NDOCS);
        CHECK_EQ_INT(best, saved_incumbent(engine, &nweak));
        memcpy(prev, pop, npop * sizeof *prev);
        nprev = npop;
    }
    CHECK(elite_ok);
    CHECK(full_first);
    size_t *top, ntop;
    CHECK_EQ_INT(cet_search_top(engine, 100, &top, &ntop), 0);
    for (size_t k = 0; k < ntop; k++)
        CHECK(!ind(engine, top[k]).raced);
    free(top);
    long docs = 0;
    struct cet_search_status st = test_ga_status(engine);
    for (size_t i = 0; i < st.narch; i++) {
        struct cet_individual x = ind(engine, i);
        raced += x.raced;
        docs += x.ndone;
        if (x.raced) /* raced out after a test, before the last document */
            CHECK(x.ndone >= o->race_first && x.ndone < NDOCS);
        else
            CHECK_EQ_INT(x.ndone, NDOCS);
    }
    CHECK(raced > st.narch / 4); /* racing did stop many */
    CHECK_EQ_INT(docs, st.doc_evals);
    CHECK_EQ_INT(s.doc_evals, st.doc_evals);
    CHECK(st.doc_evals < (long)st.narch * NDOCS / 2);
    size_t nhist;
    const struct cet_search_stats *hist = cet_search_history(engine, &nhist);
    CHECK_EQ_INT(hist[nhist - 1].doc_evaluations, st.doc_evals);
    free(prev);
    cet_search_free(engine);
    cet_params_free(&d);
}

/* Parents come from the fully evaluated members only.  With mutation alone
 * (no crossover) a child keeps its parent's x whenever only n mutates, and
 * x (a float on a 1e-4 grid) rarely repeats by chance, so a child whose x
 * is found only among raced-out members of the last generation was bred
 * from one of them. */
static void test_race__parents_are_fully_evaluated(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    CHECK_EQ_INT(cet_params_parse(&d, DESC, strlen(DESC), "t.json", test_find, &err), 0);
    struct synth s = {0};
    struct cet_search_options o = raced_opts(5);
    o.crossover_rate = 0;
    struct cet_search *engine = raced_start(&d, &s, &o);
    size_t prev[16], nprev = 0, known = 0, offered = 0, from_raced = 0;
    while (test_ga_status(engine).stop == CET_STOP_NONE) {
        size_t first = test_ga_status(engine).narch, narch, npop;
        CHECK_EQ_INT(cet_search_generation(engine, &err), 0);
        narch = test_ga_status(engine).narch;
        for (size_t i = first; nprev && i < narch; i++) {
            size_t full = 0, raced = 0;
            for (size_t k = 0; k < nprev; k++)
                if (cet_search_genes(engine, prev[k])[1] == cet_search_genes(engine, i)[1]) {
                    full += !ind(engine, prev[k]).raced;
                    raced += ind(engine, prev[k]).raced;
                }
            known += full + raced > 0;
            from_raced += full == 0 && raced > 0;
        }
        for (size_t k = 0; k < nprev; k++)
            offered += ind(engine, prev[k]).raced;
        const size_t *pop = cet_search_population(engine, &npop);
        memcpy(prev, pop, npop * sizeof *prev);
        nprev = npop;
    }
    CHECK(offered > 20); /* raced-out members were there to be chosen */
    CHECK(known > 20);
    CHECK_EQ_INT(from_raced, 0);
    cet_search_free(engine);
    cet_params_free(&d);
}

static void test_race__survivors_get_the_full_fitness(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    CHECK_EQ_INT(cet_params_parse(&d, DESC, strlen(DESC), "t.json", test_find, &err), 0);
    struct synth s = {0};
    struct cet_search *engine = raced_ga(&d, &s, 9);
    CHECK_EQ_INT(test_ga_run(engine, &err), 0);
    size_t full = 0, same = 0, below = 0, raced = 0, nweak;
    long inc = saved_incumbent(engine, &nweak);
    CHECK(inc >= 0);
    for (size_t i = 0; inc >= 0 && i < test_ga_status(engine).narch; i++) {
        double v[sizeof test_params / sizeof *test_params], f, p, r;
        struct cet_individual x = ind(engine, i);
        cet_params_expand(&d, x.genes, v);
        synth_eval(&s, v, 1, &f, &p, &r, &err);
        if (!x.raced) {
            full++;
            same += same_means(&x, f, p, r);
        } else {
            raced++;
            below += f <= cet_search_fitness(engine, (size_t)inc);
        }
    }
    CHECK(full > 0);
    CHECK_EQ_INT(same, full);
    /* Raced-out individuals were truly worse than the final best (here, with a
     * smooth fitness, almost always). */
    CHECK(raced > 0 && below >= raced * 9 / 10);
    cet_search_free(engine);
    cet_params_free(&d);
}

static int same_run(const struct cet_search *a, const struct cet_search *b)
{
    struct cet_search_status sa = test_ga_status(a), sb = test_ga_status(b);
    size_t ng = cet_search_desc(a)->ngenes, npa, npb;
    const size_t *pa = cet_search_population(a, &npa), *pb = cet_search_population(b, &npb);
    int same = sa.narch == sb.narch && sa.gen == sb.gen && sa.doc_evals == sb.doc_evals &&
               npa == npb && !memcmp(pa, pb, npa * sizeof *pa);
    for (size_t i = 0; same && i < sa.narch; i++) {
        struct cet_individual x = ind(a, i), y = ind(b, i);
        same = !memcmp(x.genes, y.genes, ng * sizeof *x.genes) &&
               !memcmp(&x.fit, &y.fit, sizeof x.fit) && x.ndone == y.ndone &&
               x.raced == y.raced;
    }
    return same;
}

static void test_race__resumes_in_the_middle_of_a_raced_generation(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    CHECK_EQ_INT(cet_params_parse(&d, DESC, strlen(DESC), "t.json", test_find, &err), 0);
    struct synth ref = {0}, s = {0}, s2 = {0};
    /* Weak pages there are (the incumbent's F1 lies between about 0.6
     * and 1), so the paused generation's sequence must be rebuilt. */
    struct cet_search_options o = raced_opts(21);
    o.race_weak = 0.75;
    struct cet_search *a = raced_start(&d, &ref, &o), *b = raced_start(&d, &s, &o);
    CHECK_EQ_INT(test_ga_run(a, &err), 0);
    for (int g = 0; g < 3; g++)
        CHECK_EQ_INT(cet_search_generation(b, &err), 0);
    /* Pause generation 3 after its first block. */
    s.cancel_after = s.calls + 1;
    CHECK_EQ_INT(cet_search_generation(b, &err), 1);
    struct cet_search_status st = test_ga_status(b);
    size_t nweak;
    saved_incumbent(b, &nweak);
    CHECK(st.race_pending);
    CHECK(nweak > 0 && nweak < NDOCS / 2);
    CHECK_EQ_INT(st.race_done, nweak + o.race_first);
    CHECK_EQ_INT(st.gen, 2);
    struct test_resume t;
    if (test_resume_begin(&t, b, NDOCS))
        return;
    struct cet_search *r = t.engine;
    CHECK(test_ga_status(r).race_pending);
    uint32_t other[NDOCS];
    synth_order(other, 99); /* ignored: the stored order wins */
    CHECK_EQ_INT(cet_search_setup(r, synth_eval, NULL, &s2, &err), 0);
    CHECK_EQ_INT(cet_search_race_setup(r, synth_score, other, &err), 0);
    CHECK_EQ_INT(test_ga_run(r, &err), 0);
    CHECK(same_run(a, r));
    CHECK_EQ_INT(s.doc_evals + s2.doc_evals, ref.doc_evals); /* nothing scored twice */
    test_resume_end(&t, a);
    cet_params_free(&d);
}

/* ---- the real evaluator ---- */

static int real_score(void *ctx, const double *params, size_t k, const uint32_t *docs, size_t n,
                      struct cet_score *scores, struct cet_error *err)
{
    return cet_evaluate(ctx, params, k, docs, n, scores, NULL, NULL, NULL, err);
}

static void test_race__survivors_match_evaluate_on_the_demo_corpus(void)
{
    struct test_real t;
    struct cet_error err;
    uint32_t *order = NULL;
    int rc = test_real_new(&t, CETUNE_SOURCE_DIR "/samples/demo",
                           CETUNE_SOURCE_DIR "/params/density.json", 2, &err) ||
             !(order = malloc(t.c.ndocs * sizeof *order)) ||
             cet_race_order(order, &t.c, 4, &err);
    CHECK_EQ_INT(rc, 0);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        goto done;
    }
    struct cet_search *engine = t.engine;
    test_ga_run_options(engine, 4, 12, 6);
    struct cet_search_options o = *cet_search_opts(engine);
    o.race = 1;
    o.race_first = 6;
    o.race_block = 6;
    cet_search_set_options(engine, &o);
    CHECK_EQ_INT(test_real_setup(&t, &err), 0);
    CHECK_EQ_INT(cet_search_race_setup(engine, real_score, order, &err), 0);
    CHECK_EQ_INT(test_ga_run(engine, &err), 0);
    size_t full = 0, same = 0, raced = 0;
    double *v = malloc(t.d.ex->nparams * sizeof *v);
    for (size_t i = 0; v && i < test_ga_status(engine).narch; i++) {
        double f, p, r;
        struct cet_individual x = ind(engine, i);
        if (x.raced) {
            raced++;
            continue;
        }
        cet_params_expand(&t.d, x.genes, v);
        CHECK_EQ_INT(cet_evaluate(t.ev, v, 1, NULL, 0, NULL, &f, &p, &r, &err), 0);
        full++;
        same += same_means(&x, f, p, r);
    }
    free(v);
    CHECK(full > 0 && raced > 0);
    CHECK_EQ_INT(same, full);
done:
    free(order);
    test_real_free(&t);
}

int main(void)
{
    RUN(test_race__sign_flip_test_known_values);
    RUN(test_race__weak_pages_first_and_counted);
    RUN(test_race__order_is_a_seeded_stratified_permutation);
    RUN(test_race__raced_out_never_elite_top_or_best);
    RUN(test_race__parents_are_fully_evaluated);
    RUN(test_race__survivors_get_the_full_fitness);
    RUN(test_race__resumes_in_the_middle_of_a_raced_generation);
    RUN(test_race__survivors_match_evaluate_on_the_demo_corpus);
    TEST_END();
}
