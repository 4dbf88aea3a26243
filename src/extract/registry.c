/* The table of extractors; parameter names here are part of the contract. */
#include <string.h>

#include "cetune/extractor.h"
#include "extractors.h"
#include "pipeline.h"

static const struct cet_extractor *const registry[] = {
    &cet_extractor_alltext,
    &cet_extractor_lqf,
    &cet_extractor_ccb, &cet_extractor_accb, &cet_extractor_tccb,
    &cet_extractor_density,
    &cet_extractor_sw,
    &cet_extractor_crunch, &cet_extractor_mantratzis,
    &cet_extractor_score,
    &cet_extractor_pipeline,
};

size_t cet_extractor_count(void)
{
    return sizeof registry / sizeof registry[0];
}

const struct cet_extractor *cet_extractor_at(size_t i)
{
    cet_pipeline_init();
    return i < cet_extractor_count() ? registry[i] : NULL;
}

const struct cet_extractor *cet_extractor_find(const char *name)
{
    cet_pipeline_init();
    for (size_t i = 0; i < cet_extractor_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

int cet_param_index(const struct cet_extractor *ex, const char *name)
{
    for (size_t i = 0; i < ex->nparams; i++)
        if (strcmp(ex->params[i].name, name) == 0)
            return (int)i;
    return -1;
}

int cet_param_active(const struct cet_extractor *ex, const double *p, size_t i)
{
    return !ex->active || ex->active(p, i);
}

void cet_params_default(const struct cet_extractor *ex, double *p)
{
    for (size_t i = 0; i < ex->nparams; i++)
        p[i] = ex->params[i].def;
}
