/* Parameter descriptions: what a valid one becomes, and that every kind of
 * mistake is refused with the file, line and column of the culprit. */
#include <dirent.h>

#include "cetune/params.h"
#include "test.h"

/* A test-only extractor (never registered) with every parameter type. */
static const char *const modes[] = {"fast", "exact", "fuzzy", NULL};
static const struct cet_param tparams[] = {
    {"n", CET_P_INT, 10, 1, 100, NULL, "an int"},
    {"x", CET_P_FLOAT, 0.5, 0.0, 1.0, NULL, "a float"},
    {"w", CET_P_FLOAT, 1.0, 0.001, 1000, NULL, "a float for a log scale"},
    {"on", CET_P_BOOL, 1, 0, 1, NULL, "a switch"},
    {"mode", CET_P_ENUM, 1, 0, 2, modes, "a choice"},
    {"fixed", CET_P_FLOAT, 0.7, 0, 1, NULL, "never described"},
};
static int trun(const struct cet_doc *d, const void *p, const double *v, struct cet_sel *s)
{
    (void)d, (void)p, (void)v, (void)s;
    return 0;
}
static const struct cet_extractor test_ex = {
    .name = "test", .summary = "test", .params = tparams, .nparams = 6, .run = trun};
static const struct cet_extractor *find(const char *name)
{
    return !strcmp(name, "test") ? &test_ex : cet_extractor_find(name);
}

static int parse(struct cet_params_desc *d, const char *text, struct cet_error *err)
{
    return cet_params_parse(d, text, strlen(text), "x.json", find, err);
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
    double g[5] = {7, 0.25, 3, 1, 2}, full[6], back[5];
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

/* Every description shipped in params/ is valid for the registered extractors. */
static void test_params__shipped_descriptions_load(void)
{
    const char *dir = CETUNE_SOURCE_DIR "/params";
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    struct dirent *de;
    while ((de = readdir(dp))) {
        size_t n = strlen(de->d_name);
        if (n < 6 || strcmp(de->d_name + n - 5, ".json"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct cet_params_desc d;
        struct cet_error err;
        int rc = cet_params_load(&d, path, NULL, &err);
        if (rc)
            fprintf(stderr, "%s\n", err.msg);
        CHECK_EQ_INT(rc, 0);
        if (!rc)
            cet_params_free(&d);
    }
    closedir(dp);
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
    RUN(test_params__shipped_descriptions_load);
    TEST_END();
}
