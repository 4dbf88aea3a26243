/* A test-only extractor, never registered, with every parameter type, for
 * the tests of parameter descriptions, the GA and racing: their fitness is
 * synthetic, so it extracts nothing.  test_find resolves "test" to it and
 * any other name through the registry. */
#ifndef CETUNE_TEST_EXTRACTOR_H
#define CETUNE_TEST_EXTRACTOR_H

#include <string.h>

#include "cetune/extractor.h"

static const char *const test_modes[] = {"fast", "exact", "fuzzy", NULL};
static const struct cet_param test_params[] = {
    {"n", CET_P_INT, 10, 1, 100, NULL, "an int"},
    {"x", CET_P_FLOAT, 0.5, 0.0, 1.0, NULL, "a float"},
    {"w", CET_P_FLOAT, 1.0, 0.001, 1000, NULL, "a float for a log scale"},
    {"on", CET_P_BOOL, 1, 0, 1, NULL, "a switch"},
    {"mode", CET_P_ENUM, 1, 0, 2, test_modes, "a choice"},
    {"fixed", CET_P_FLOAT, 0.7, 0, 1, NULL, "never described"},
    {"s.t", CET_P_FLOAT, 0.25, 0, 1, NULL, "a stage parameter (a name with a dot)"},
};
static int test_run(const struct cet_doc *d, const void *p, const double *v, struct cet_sel *s)
{
    (void)d, (void)p, (void)v, (void)s;
    return 0;
}
static const struct cet_extractor test_ex = {.name = "test",
                                             .summary = "test",
                                             .params = test_params,
                                             .nparams = sizeof test_params / sizeof *test_params,
                                             .run = test_run};
static inline const struct cet_extractor *test_find(const char *name)
{
    return !strcmp(name, "test") ? &test_ex : cet_extractor_find(name);
}

#endif
