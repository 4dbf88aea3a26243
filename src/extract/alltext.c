/* The everything-is-content baseline: all visible text. */
#include "cetune/extractor.h"

static int alltext_run(const struct cet_doc *doc, const void *prep, const double *p,
                       struct cet_sel *sel)
{
    (void)prep;
    (void)p;
    cet_sel_keep_all(doc, sel);
    return 0;
}

const struct cet_extractor cet_extractor_alltext = {
    .name = "alltext",
    .summary = "Baseline: all visible text is content",
    .run = alltext_run,
};
