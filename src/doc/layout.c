/* The text layout of a selection (include/cetune/layout.h).  The model
 * records what separates each text node from the one before it
 * (cet_node_sep, set by the parser); this joins the kept ones. */
#include "cetune/layout.h"

const char *cet_sep_str(enum cet_sep sep)
{
    static const char *const str[] = {"", " ", "\t", "\n", "\n\n"};
    return (unsigned)sep <= CET_SEP_PARA ? str[sep] : "";
}

int cet_layout_walk(const struct cet_doc *doc, const uint8_t *keep, const uint32_t *extra,
                    uint32_t nextra, cet_layout_fn fn, void *ctx)
{
    int first = 1, skipped = 0, rc;
    enum cet_sep sep = CET_SEP_NONE; /* the strongest since the last node printed */
    for (uint32_t k = 0; k < doc->ntexts; k++) {
        uint32_t i = doc->texts[k];
        enum cet_sep s = cet_node_sep(doc, i);
        if (s > sep)
            sep = s;
        if (!keep[i]) {
            /* Text left out between two kept nodes: their words must not join. */
            skipped = 1;
            continue;
        }
        if (skipped && sep < CET_SEP_SPACE)
            sep = CET_SEP_SPACE;
        if ((rc = fn(ctx, i, first ? CET_SEP_NONE : sep)))
            return rc;
        first = 0;
        skipped = 0;
        sep = CET_SEP_NONE;
    }
    for (uint32_t j = 0; j < nextra; j++) {
        /* An alternate's paragraphs (past the page's nodes) keep their own. */
        enum cet_sep s = extra[j] >= doc->nnodes ? cet_node_sep(doc, extra[j]) : CET_SEP_LINE;
        if ((rc = fn(ctx, extra[j], first ? CET_SEP_NONE : s)))
            return rc;
        first = 0;
    }
    return 0;
}
