/* Parameter descriptions: what a valid one becomes, and that every kind of
 * mistake is refused with the file, line and column of the culprit. */

#include "cetune/params.h"
#include "test.h"
#include "test_extractor.h"

static int parse(struct cet_params_desc *d, const char *text, struct cet_error *err)
{
    return cet_params_parse(d, text, strlen(text), "x.json", test_find, err);
}

static void expect_error(const char *text, const char *msg)
{
    struct cet_params_desc d;
    struct cet_error err = {""};
    int rc = parse(&d, text, &err);
    CHECK_EQ_INT(rc, -1);
    CHECK_STR(err.msg, msg);
    if (rc == 0)
        cet_params_free(&d);
}

static void test_params__full_description(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    const char *text =
        "{\"extractor\": \"test\", \"description\": \"all types\", \"parameters\": [\n"
        "  {\"name\": \"n\", \"type\": \"int\", \"min\": 1, \"max\": 50, \"default\": 10},\n"
        "  {\"name\": \"x\", \"type\": \"float\", \"help\": \"h\"},\n"
        "  {\"name\": \"w\", \"type\": \"float\", \"scale\": \"log\"},\n"
        "  {\"name\": \"on\", \"type\": \"bool\", \"default\": false},\n"
        "  {\"name\": \"mode\", \"type\": \"enum\", \"values\": [\"fuzzy\", \"fast\"]}],\n"
        " \"seeds\": [{\"n\": 20}, {\"mode\": \"fuzzy\", \"on\": true}],\n"
        " \"correlated\": [[\"n\", \"x\"]]}";
    CHECK_EQ_INT(parse(&d, text, &err), 0);
    CHECK(d.ex == &test_ex);
    CHECK_EQ_INT(d.ngenes, 5);
    CHECK_STR(d.description, "all types");
    /* Ranges: given, or the extractor's. */
    CHECK_NEAR(d.genes[0].max, 50, 0);
    CHECK_NEAR(d.genes[1].min, 0, 0);
    CHECK_NEAR(d.genes[1].max, 1, 0);
    CHECK_EQ_INT(d.genes[2].log, 1);
    CHECK_NEAR(d.genes[2].min, 0.001, 0);
    /* Enum values become the extractor's indices, ascending; the
     * extractor's default (exact = 1) is not allowed, so the first allowed. */
    CHECK_EQ_INT(d.genes[4].nvalues, 2);
    CHECK_NEAR(d.genes[4].values[0], 0, 0);
    CHECK_NEAR(d.genes[4].values[1], 2, 0);
    CHECK_NEAR(d.genes[4].def, 0, 0);
    CHECK_NEAR(d.genes[3].def, 0, 0);
    /* Seeds: given values, the rest from the defaults. */
    CHECK_EQ_INT(d.nseeds, 2);
    CHECK_NEAR(d.seeds[0], 20, 0);
    CHECK_NEAR(d.seeds[1], 0.5, 0);
    CHECK_NEAR(d.seeds[5 + 3], 1, 0);
    CHECK_NEAR(d.seeds[5 + 4], 2, 0);
    /* Groups. */
    CHECK_EQ_INT(d.ngroups, 1);
    CHECK_EQ_INT(d.genes[0].group, 0);
    CHECK_EQ_INT(d.genes[1].group, 0);
    CHECK_EQ_INT(d.genes[2].group, -1);
    /* Undescribed parameters keep the C default. */
    double g[5] = {7, 0.25, 3, 1, 2}, full[7], back[5];
    cet_params_expand(&d, g, full);
    CHECK_NEAR(full[0], 7, 0);
    CHECK_NEAR(full[4], 2, 0);
    CHECK_NEAR(full[5], 0.7, 0);
    CHECK_EQ_INT(cet_params_genome(&d, full, back, &err), 0);
    CHECK(!memcmp(back, g, sizeof g));
    full[0] = 80; /* outside the described [1, 50] */
    CHECK_EQ_INT(cet_params_genome(&d, full, back, &err), -1);
    CHECK_STR(err.msg, "n = 80 is outside the described range [1, 50]");
    full[0] = 7;
    full[4] = 1; /* "exact" is not among the described values */
    CHECK_EQ_INT(cet_params_genome(&d, full, back, &err), -1);
    CHECK_STR(err.msg, "mode = exact is not among the described values");
    cet_params_free(&d);
}

static void test_params__seeds_default_to_the_defaults(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    CHECK_EQ_INT(parse(&d, "{\"extractor\": \"test\", \"parameters\": ["
                           "{\"name\": \"x\", \"type\": \"float\", \"min\": 0.6}]}", &err), 0);
    /* No "seeds": the defaults are the one seed (clamped into the range). */
    CHECK_EQ_INT(d.nseeds, 1);
    CHECK_NEAR(d.seeds[0], 0.6, 0);
    cet_params_free(&d);
    CHECK_EQ_INT(parse(&d, "{\"extractor\": \"test\", \"parameters\": ["
                           "{\"name\": \"x\", \"type\": \"float\"}], \"seeds\": []}", &err), 0);
    CHECK_EQ_INT(d.nseeds, 0);
    cet_params_free(&d);
}

static void test_params__malformed_files_name_line_and_column(void)
{
    expect_error("{\"extractor\": \"test\",\n \"parameters\": [}",
                 "x.json:2:17: malformed JSON: expected a value (object, array, string, number, "
                 "true, false or null)");
    expect_error("[1, 2]", "x.json:1:1: a parameter description must be a JSON object");
    expect_error("{\"extractor\": \"test\"}", "x.json:1:1: the description has no \"parameters\"");
    expect_error("{\"extractor\": \"test\", \"parameters\": []}",
                 "x.json:1:37: \"parameters\" must be a non-empty array: there is nothing to evolve");
    expect_error("{\"extractor\": \"test\", \"parameters\": [{\"name\": \"x\", \"type\": \"float\"}],\n"
                 " \"mutation\": 0.5}",
                 "x.json:2:2: unknown member \"mutation\" in a parameter description");
}

static void test_params__unknown_extractor_or_parameter(void)
{
    expect_error("{\"extractor\": \"nope\", \"parameters\": []}",
                 "x.json:1:15: unknown extractor 'nope' (see 'cetune list')");
    expect_error("{\"extractor\": \"test\",\n \"parameters\": [\n  {\"name\": \"q\", \"type\": \"int\"}]}",
                 "x.json:3:12: extractor 'test' has no parameter \"q\"");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"step\": 0.1}]}",
                 "x.json:2:34: unknown member \"step\" in a parameter");
}

static void test_params__ranges(void)
{
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"min\": 0.8, \"max\": 0.2}]}",
                 "x.json:2:41: \"min\" 0.8 is above \"max\" 0.2");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"max\": 2}]}",
                 "x.json:2:41: \"max\" 2 is outside what test.x allows, [0, 1]");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"n\", \"type\": \"int\", \"min\": 1, \"max\": 50,\n   \"default\": 60}]}",
                 "x.json:3:15: \"default\" 60 of \"n\" is outside its range [1, 50]");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"min\": 0, \"scale\": \"log\"}]}",
                 "x.json:2:53: a log scale needs \"min\" above 0, not 0");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"scale\": \"cubic\"}]}",
                 "x.json:2:43: \"scale\" must be \"linear\" or \"log\"");
}

static void test_params__wrong_types(void)
{
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"int\"}]}",
                 "x.json:2:25: test.x is of type float, not int");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"double\"}]}",
                 "x.json:2:25: unknown type \"double\" (int, float, bool or enum)");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"min\": \"zero\"}]}",
                 "x.json:2:41: \"min\" must be a number");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"n\", \"type\": \"int\", \"min\": 1.5}]}",
                 "x.json:2:39: \"min\" of int parameter \"n\" must be a whole number");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"default\": true}]}",
                 "x.json:2:45: \"default\" of \"x\" must be a number");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"on\", \"type\": \"bool\", \"min\": 0}]}",
                 "x.json:2:34: a bool parameter has no \"min\"");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"mode\", \"type\": \"enum\", \"values\": [\"fast\", \"slow\"]}]}",
                 "x.json:2:55: \"slow\" is not a value of test.mode");
}

static void test_params__duplicates(void)
{
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\"},\n  {\"name\": \"x\", \"type\": \"float\"}]}",
                 "x.json:3:12: parameter \"x\" is described twice");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"name\": \"n\"}]}",
                 "x.json:2:34: member \"name\" is given twice");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"mode\", \"type\": \"enum\", \"values\": [\"fast\", \"fast\"]}]}",
                 "x.json:2:55: value \"fast\" is listed twice");
}

static void test_params__seeds_and_groups(void)
{
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"float\"}],\n"
                 " \"seeds\": [{\"x\": 0.5, \"n\": 3}]}",
                 "x.json:3:23: seed parameter \"n\" is not described in \"parameters\", so it is "
                 "not evolved");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"float\"}],\n"
                 " \"seeds\": [{\"zz\": 3}]}",
                 "x.json:3:13: seed names \"zz\", but extractor 'test' has no such parameter");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"max\": 0.6}],\n \"seeds\": [{\"x\": 0.7}]}",
                 "x.json:3:18: seed value 0.7 of \"x\" is outside its range [0, 0.6]");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"float\"}],\n"
                 " \"correlated\": [[\"x\", \"w\"]]}",
                 "x.json:3:23: correlated parameter \"w\" is not described in \"parameters\"");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"float\"}, "
                 "{\"name\": \"on\", \"type\": \"bool\"}],\n \"correlated\": [[\"x\", \"on\"]]}",
                 "x.json:3:23: correlated parameter \"on\" is a bool; only int and float "
                 "parameters can be blended");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"float\"}],\n"
                 " \"correlated\": [[\"x\"]]}",
                 "x.json:3:17: a correlated group needs at least two parameters");
    expect_error("{\"extractor\": \"test\", \"parameters\": [\n  {\"name\": \"x\", \"type\": \"float\"}, "
                 "{\"name\": \"n\", \"type\": \"int\"}, {\"name\": \"w\", \"type\": \"float\"}],\n"
                 " \"correlated\": [[\"x\", \"n\"], [\"w\", \"x\"]]}",
                 "x.json:3:35: parameter \"x\" is already in a correlated group");
}

/* An enum parent, a bool child and a chain below it, a dotted name. */
#define COND_HEAD "{\"extractor\": \"test\", \"parameters\": [\n"
#define COND_MODE "  {\"name\": \"mode\", \"type\": \"enum\", \"values\": [\"fast\", \"fuzzy\"]},\n"

static void test_params__conditions_and_forbidden(void)
{
    struct cet_params_desc d;
    struct cet_error err;
    /* n comes before the parameter it depends on; the order puts it after. */
    const char *text = COND_HEAD
        "  {\"name\": \"n\", \"type\": \"int\", \"min\": 1, \"max\": 50, \"when\": {\"on\": [true]}},\n"
        COND_MODE
        "  {\"name\": \"on\", \"type\": \"bool\", \"when\": {\"mode\": [\"fuzzy\"]}},\n"
        "  {\"name\": \"s.t\", \"type\": \"float\", \"when\": {\"mode\": [\"fast\"]}},\n"
        "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"mode\": [\"fuzzy\"], \"on\": [false]}}],\n"
        " \"seeds\": [{\"mode\": \"fuzzy\", \"on\": true, \"n\": 20}, {\"s.t\": 0.3}],\n"
        " \"forbidden\": [{\"mode\": \"fuzzy\", \"n\": 50}, {\"on\": false, \"mode\": \"fuzzy\"}]}";
    int rc = parse(&d, text, &err);
    CHECK_EQ_INT(rc, 0);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    CHECK(d.conditional);
    CHECK_EQ_INT(d.genes[0].nwhen, 1);
    CHECK_EQ_INT(d.genes[0].when[0].parent, 2);
    CHECK_EQ_INT(d.genes[4].nwhen, 2);
    size_t pos[5];
    for (size_t k = 0; k < 5; k++)
        pos[cet_params_gene_at(&d, k)] = k;
    CHECK(pos[1] < pos[2] && pos[2] < pos[0] && pos[1] < pos[3] && pos[2] < pos[4]);
    /* Genes: n, mode (0 fast, 2 fuzzy), on, s.t, x. */
    uint8_t act[5];
    double fast[5] = {10, 0, 1, 0.5, 0.5}, fuzzy_on[5] = {10, 2, 1, 0.5, 0.5},
           fuzzy_off[5] = {10, 2, 0, 0.5, 0.5};
    CHECK_EQ_INT(cet_params_active(&d, fast, act), 2);
    CHECK(!act[0] && act[1] && !act[2] && act[3] && !act[4]);
    CHECK_EQ_INT(cet_params_active(&d, fuzzy_on, act), 3);
    CHECK(act[0] && act[1] && act[2] && !act[3] && !act[4]);
    CHECK_EQ_INT(cet_params_active(&d, fuzzy_off, act), 3);
    CHECK(!act[0] && act[2] && act[4]);
    /* Forbidden only with every named parameter active. */
    CHECK_EQ_INT(cet_params_forbidden(&d, fuzzy_off), 2);
    fuzzy_on[0] = 50;
    CHECK_EQ_INT(cet_params_forbidden(&d, fuzzy_on), 1);
    fast[0] = 50;
    fast[4] = 0.5;
    CHECK_EQ_INT(cet_params_forbidden(&d, fast), 0);
    /* Configurations: inactive values may be anything and become the default. */
    double full[7], back[5];
    cet_params_default(&test_ex, full);
    full[0] = 80; /* n outside [1, 50], but inactive with mode fast */
    full[4] = 0;
    CHECK_EQ_INT(cet_params_genome(&d, full, back, &err), 0);
    CHECK_NEAR(back[0], 10, 0);
    full[4] = 2; /* fuzzy: on (true by default) and n become active */
    CHECK_EQ_INT(cet_params_genome(&d, full, back, &err), -1);
    CHECK_STR(err.msg, "n = 80 is outside the described range [1, 50]");
    uint8_t shown[7];
    cet_params_full_active(&d, fast, shown);
    CHECK(!shown[0] && shown[4] && !shown[3] && shown[5] && shown[6] && !shown[1]);
    /* Seeds: the values given, the rest defaults. */
    CHECK_EQ_INT(d.nseeds, 2);
    CHECK_NEAR(d.seeds[0], 20, 0);
    CHECK_NEAR(d.seeds[5 + 3], 0.3, 0);
    cet_params_free(&d);
}

static void test_params__condition_mistakes_name_line_and_column(void)
{
    expect_error(COND_HEAD COND_MODE "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"zz\": [1]}}]}",
                 "x.json:3:43: condition names \"zz\", but extractor 'test' has no such parameter");
    expect_error(COND_HEAD COND_MODE
                 "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"fixed\": [1]}}]}",
                 "x.json:3:43: condition parameter \"fixed\" is not described in \"parameters\", "
                 "so it is not evolved");
    expect_error(COND_HEAD "  {\"name\": \"n\", \"type\": \"int\"},\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"n\": [1]}}]}",
                 "x.json:3:43: condition on \"n\", an int parameter: conditions need an enum or "
                 "bool parameter");
    expect_error(COND_HEAD COND_MODE
                 "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"mode\": [\"slow\"]}}]}",
                 "x.json:3:52: condition value \"slow\" is not a value of test.mode (fast, exact, fuzzy)");
    expect_error(COND_HEAD COND_MODE
                 "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"mode\": [\"exact\"]}}]}",
                 "x.json:3:52: condition value \"exact\" of \"mode\" is not among its \"values\"");
    expect_error(COND_HEAD "  {\"name\": \"on\", \"type\": \"bool\"},\n"
                 "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"on\": [\"yes\"]}}]}",
                 "x.json:3:50: condition value of \"on\" must be true or false");
    expect_error(COND_HEAD COND_MODE
                 "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"mode\": [\"fast\", \"fast\"]}}]}",
                 "x.json:3:60: condition value listed twice");
    expect_error(COND_HEAD COND_MODE "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"mode\": \"fast\"}}]}",
                 "x.json:3:51: the condition on \"mode\" must be a non-empty array of its values");
    expect_error(COND_HEAD COND_MODE "  {\"name\": \"x\", \"type\": \"float\", \"when\": [\"mode\"]}]}",
                 "x.json:3:42: \"when\" must be an object mapping enum or bool parameters to the "
                 "lists of values that make \"x\" active");
    expect_error(COND_HEAD "  {\"name\": \"mode\", \"type\": \"enum\", \"when\": {\"mode\": [\"fast\"]}}]}",
                 "x.json:2:45: parameter \"mode\" cannot depend on itself");
    expect_error(COND_HEAD "  {\"name\": \"on\", \"type\": \"bool\", \"when\": {\"mode\": [\"fast\"]}},\n"
                 "  {\"name\": \"mode\", \"type\": \"enum\", \"when\": {\"on\": [true]}}]}",
                 "x.json:3:45: conditions form a cycle: \"on\" -> \"mode\" -> \"on\" (each depends on "
                 "the next)");
}

static void test_params__forbidden_mistakes_name_line_and_column(void)
{
    const char *genes = COND_HEAD COND_MODE "  {\"name\": \"on\", \"type\": \"bool\"},\n"
                        "  {\"name\": \"x\", \"type\": \"float\"}],\n";
    char text[1024];
    snprintf(text, sizeof text, "%s \"forbidden\": [{\"mode\": \"fast\", \"zz\": 1}]}", genes);
    expect_error(text, "x.json:5:33: forbidden names \"zz\", but extractor 'test' has no such parameter");
    snprintf(text, sizeof text, "%s \"forbidden\": [{\"x\": 0.5}]}", genes);
    expect_error(text, "x.json:5:17: forbidden combinations hold enum, bool or int values; \"x\" is "
                       "a float");
    snprintf(text, sizeof text, "%s \"forbidden\": [{\"mode\": \"slow\"}]}", genes);
    expect_error(text, "x.json:5:25: forbidden value \"slow\" is not a value of test.mode (fast, exact, fuzzy)");
    snprintf(text, sizeof text, "%s \"forbidden\": [{\"on\": \"yes\"}]}", genes);
    expect_error(text, "x.json:5:23: forbidden value of \"on\" must be true or false");
    snprintf(text, sizeof text, "%s \"forbidden\": [{}]}", genes);
    expect_error(text, "x.json:5:16: a forbidden combination must be a non-empty object of "
                       "parameter values");
    snprintf(text, sizeof text, "%s \"forbidden\": {\"on\": true}}", genes);
    expect_error(text, "x.json:5:15: \"forbidden\" must be an array of objects of parameter values");
    /* Seeds must be allowed and set only active parameters. */
    snprintf(text, sizeof text, "%s \"forbidden\": [{\"mode\": \"fast\", \"on\": true}],\n"
             " \"seeds\": [{\"on\": false}, {\"mode\": \"fast\"}]}", genes);
    expect_error(text, "x.json:6:27: the seed is forbidden by \"forbidden\" entry 1");
    snprintf(text, sizeof text, "%s \"forbidden\": [{\"mode\": \"fast\", \"on\": true}]}", genes);
    expect_error(text, "x.json:5:16: this combination forbids the defaults, which are the only "
                       "seed: give \"seeds\"");
    snprintf(text, sizeof text, "%s \"forbidden\": [{\"on\": true}, {\"on\": false}],\n"
             " \"seeds\": []}", genes);
    expect_error(text, "x.json:5:2: \"forbidden\" rules out every configuration");
    expect_error(COND_HEAD COND_MODE "  {\"name\": \"x\", \"type\": \"float\", \"when\": {\"mode\": "
                 "[\"fuzzy\"]}}],\n \"seeds\": [{\"x\": 0.5}]}",
                 "x.json:4:13: the seed sets \"x\", which its \"when\" leaves inactive in this seed");
}

/* Every description shipped in params/ is valid for the registered extractors. */
/* Every shipped description loads, and every extractor with parameters
 * has one (params/NAME.json). */
static void test_params__shipped_descriptions_load(void)
{
    const char *dir = CETUNE_SOURCE_DIR "/params";
    char **names;
    int n = test_files(dir, ".json", &names), loaded = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct cet_params_desc d;
        struct cet_error err;
        int rc = cet_params_load(&d, path, NULL, &err);
        if (rc)
            fprintf(stderr, "%s\n", err.msg);
        CHECK_EQ_INT(rc, 0);
        if (!rc) {
            loaded++;
            cet_params_free(&d);
        }
    }
    test_files_free(names, n);
    size_t with_params = 0;
    for (size_t x = 0; x < cet_extractor_count(); x++) {
        const struct cet_extractor *ex = cet_extractor_at(x);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.json", dir, ex->name);
        FILE *f = ex->nparams ? fopen(path, "r") : NULL;
        if (ex->nparams && !f)
            fprintf(stderr, "%s has parameters but no %s\n", ex->name, path);
        CHECK(!ex->nparams || f);
        if (f)
            fclose(f);
        with_params += ex->nparams > 0;
    }
    CHECK(loaded > 0);
    CHECK(loaded >= (int)with_params);
}

int main(void)
{
    RUN(test_params__full_description);
    RUN(test_params__seeds_default_to_the_defaults);
    RUN(test_params__malformed_files_name_line_and_column);
    RUN(test_params__unknown_extractor_or_parameter);
    RUN(test_params__ranges);
    RUN(test_params__wrong_types);
    RUN(test_params__duplicates);
    RUN(test_params__seeds_and_groups);
    RUN(test_params__conditions_and_forbidden);
    RUN(test_params__condition_mistakes_name_line_and_column);
    RUN(test_params__forbidden_mistakes_name_line_and_column);
    RUN(test_params__shipped_descriptions_load);
    TEST_END();
}
