/* The search options' table (src/search/options.c): every row survives the
 * whole trip a value makes, default -> JSON (run.json, checkpoints) ->
 * restore -> command-line words (the folds' runs) -> parse, and so does a
 * value other than the default; checkpoints written before the table
 * (old names, rows added later) still read; parsing checks each row's
 * range. */
#include "cetune/search.h"
#include "search/options.h"
#include "test.h"

/* 1 when every row of a and b holds the same value. */
static int same_options(const struct cet_search_options *a, const struct cet_search_options *b)
{
    int same = 1;
    for (const struct cet_option *r = cet_search_options; r->name; r++) {
        if (r->type == CET_OPT_SEED) {
            same &= a->seed == b->seed;
            continue;
        }
        if (r->type < CET_OPT_OBJECTIVE &&
            memcmp(&(double){cet_option_number(r, a)}, &(double){cet_option_number(r, b)},
                   sizeof(double))) {
            fprintf(stderr, "row %s: %.17g, then %.17g\n", r->name, cet_option_number(r, a),
                    cet_option_number(r, b));
            same = 0;
        }
    }
    char x[64], y[64];
    const struct cet_goal *g = &a->goal, *h = &b->goal;
    cet_objective_name(&g->objective, x, sizeof x);
    cet_objective_name(&h->objective, y, sizeof y);
    same &= !strcmp(x, y) && g->ncons == h->ncons && g->npareto == h->npareto;
    for (size_t k = 0; same && k < g->ncons; k++) {
        cet_constraint_name(&g->cons[k], x, sizeof x);
        cet_constraint_name(&h->cons[k], y, sizeof y);
        same &= !strcmp(x, y);
    }
    for (size_t k = 0; same && k < g->npareto; k++) {
        cet_objective_name(&g->pareto[k], x, sizeof x);
        cet_objective_name(&h->pareto[k], y, sizeof y);
        same &= !strcmp(x, y);
    }
    return same;
}

/* o -> JSON -> restore -> words -> parse: back at o. */
static void round_trip(const struct cet_search_options *o)
{
    struct cet_error err;
    cJSON *j = cJSON_CreateObject();
    CHECK(j && !cet_search_options_json(j, o));
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    struct cet_json doc;
    CHECK(text && !cet_json_parse(&doc, text, strlen(text), "options.json", &err));
    free(text);
    struct cet_json_reader r = {.j = &doc, .err = &err, .what = "options"};
    struct cet_search_options restored = {0};
    CHECK_EQ_INT(cet_search_options_read(&r, doc.root, &restored), 0);
    CHECK(same_options(o, &restored));
    cet_json_free(&doc);

    char **argv = NULL;
    size_t n = 0;
    CHECK_EQ_INT(cet_search_options_argv(&restored, &argv, &n, &err), 0);
    struct cet_search_options parsed;
    cet_search_default_options(&parsed);
    parsed.adaptive = parsed.race = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cet_option *row = cet_search_option_find(argv[i] + 2);
        CHECK(row != NULL && !strncmp(argv[i], "--", 2));
        if (!row)
            break;
        const char *arg = row->type == CET_OPT_FLAG ? NULL : argv[++i];
        if (cet_option_parse(row, &parsed, arg, &err)) {
            fprintf(stderr, "%s %s: %s\n", argv[i - (arg != NULL)], arg ? arg : "", err.msg);
            CHECK(0);
        }
    }
    CHECK(same_options(o, &parsed));
    for (size_t i = 0; i < n; i++)
        free(argv[i]);
    free(argv);
}

static void test_options__defaults_round_trip(void)
{
    struct cet_search_options o;
    for (int s = 0; s < CET_STRATEGY_COUNT; s++) {
        cet_search_default_options(&o);
        o.strategy = (enum cet_strategy_kind)s; /* as a GA resolves it */
        round_trip(&o);
    }
}

/* Each row set to a value other than its default, one at a time. */
static void test_options__every_row_round_trips(void)
{
    struct cet_error err;
    size_t rows = 0;
    for (const struct cet_option *r = cet_search_options; r->name; r++, rows++) {
        struct cet_search_options o;
        cet_search_default_options(&o);
        o.strategy = CET_STRATEGY_GA;
        int bad = 0;
        switch (r->type) {
        case CET_OPT_FLAG: bad = cet_option_parse(r, &o, NULL, &err); break;
        case CET_OPT_SEED: bad = cet_option_parse(r, &o, "18446744073709551615", &err); break;
        case CET_OPT_ENUM: {
            size_t k = 0;
            while (r->values[k + 1])
                k++;
            bad = cet_option_parse(r, &o, r->values[k], &err);
            break;
        }
        case CET_OPT_OBJECTIVE: bad = cet_option_parse(r, &o, "macro-f1", &err); break;
        case CET_OPT_CONSTRAINT:
            bad = cet_option_parse(r, &o, "precision>=0.8", &err) ||
                  cet_option_parse(r, &o, "words<=500", &err);
            break;
        case CET_OPT_PARETO: bad = cet_option_parse(r, &o, "precision,recall", &err); break;
        case CET_OPT_DOUBLE:
        case CET_OPT_SECONDS: {
            /* a number with all its digits, inside the range */
            double v = r->min + (r->max - r->min) / 3;
            cet_option_set_number(r, &o, v);
            break;
        }
        default: cet_option_set_number(r, &o, r->max); break;
        }
        CHECK(!bad);
        struct cet_search_options def;
        cet_search_default_options(&def);
        def.strategy = CET_STRATEGY_GA;
        CHECK(cet_option_number(r, &o) != cet_option_number(r, &def) || r->type > CET_OPT_SEED ||
              r->type == CET_OPT_SEED);
        round_trip(&o);
    }
    CHECK(rows >= 27);
}

/* A checkpoint's options written before the table: "sigma" and
 * "constraints" were the old names, and rows added later are absent. */
static void test_options__old_checkpoints_read(void)
{
    const char *old = "{\"pop\": 12, \"generations\": 60, \"patience\": 0, \"epsilon\": 0.0001, "
                      "\"max_evals\": 0, \"time\": 0, \"elite\": 2, \"select\": \"tournament\", "
                      "\"tournament\": 3, \"truncation\": 0.5, \"crossover_rate\": 0.5, "
                      "\"mutation_rate\": 0, \"sigma\": 0.25, \"adaptive\": false, "
                      "\"adapt_factor\": 1.5, \"resolution\": 0, \"seed\": \"5\", "
                      "\"constraints\": [\"recall>=0.5\"]}";
    struct cet_error err;
    struct cet_json doc;
    CHECK(!cet_json_parse(&doc, old, strlen(old), "checkpoint.json", &err));
    struct cet_json_reader r = {.j = &doc, .err = &err, .what = "checkpoint"};
    struct cet_search_options o;
    cet_search_default_options(&o);
    CHECK_EQ_INT(cet_search_options_read(&r, doc.root, &o), 0);
    CHECK(o.mutation_sigma == 0.25 && o.pop == 12 && o.seed == 5);
    CHECK_EQ_INT(o.goal.ncons, 1);
    CHECK_EQ_INT(o.strategy, CET_STRATEGY_GA);
    CHECK(o.race == 0 && o.race_weak == 0 && o.race_first == 20 && o.crossover == CET_CROSS_UNIFORM);
    cet_json_free(&doc);

    /* A value outside its row's range names the member. */
    const char *bad = "{\"pop\": 1}";
    CHECK(!cet_json_parse(&doc, bad, strlen(bad), "checkpoint.json", &err));
    r = (struct cet_json_reader){.j = &doc, .err = &err, .what = "checkpoint"};
    CHECK(cet_search_options_read(&r, doc.root, &o) < 0);
    CHECK(strstr(err.msg, "\"pop\" must be a whole number from 2 to 1000000") != NULL);
    cet_json_free(&doc);
}

static void test_options__parse_checks_ranges(void)
{
    struct cet_search_options o;
    struct cet_error err;
    cet_search_default_options(&o);
    const struct cet_option *sigma = cet_search_option_find("mutation-sigma");
    CHECK(sigma && sigma == cet_search_option_find("mutation_sigma"));
    CHECK(cet_option_parse(sigma, &o, "0", &err) < 0 && strstr(err.msg, "--mutation-sigma"));
    CHECK(cet_option_parse(sigma, &o, "1.5", &err) < 0);
    CHECK(cet_option_parse(sigma, &o, "x", &err) < 0);
    CHECK(!cet_option_parse(sigma, &o, "0.3", &err) && o.mutation_sigma == 0.3);
    const struct cet_option *pop = cet_search_option_find("pop");
    CHECK(cet_option_parse(pop, &o, "1", &err) < 0 && strstr(err.msg, "from 2 to 1000000"));
    CHECK(cet_option_parse(cet_search_option_find("time"), &o, "2m", &err) == 0 && o.time == 120);
    CHECK(cet_option_parse(cet_search_option_find("select"), &o, "roulette", &err) < 0 &&
          strstr(err.msg, "tournament|truncation"));
    CHECK(cet_search_option_find("holdout") == NULL); /* the run's, not the search's */
    o.strategy = CET_STRATEGY_GA;
    CHECK(cet_search_options_check(&o, &err) == 0);
    o.truncation = 0;
    CHECK(cet_search_options_check(&o, &err) < 0 && strstr(err.msg, "--truncation"));
}

int main(void)
{
    RUN(test_options__defaults_round_trip);
    RUN(test_options__every_row_round_trips);
    RUN(test_options__old_checkpoints_read);
    RUN(test_options__parse_checks_ranges);
    TEST_END();
}
