/* P, R and F1 as DESIGN.md defines them, including the empty cases. */
#include "cetune/eval.h"

void cet_score_set(struct cet_score *s, uint32_t n_extract, uint32_t n_gold, uint32_t overlap)
{
    s->n_extract = n_extract;
    s->n_gold = n_gold;
    s->overlap = overlap;
    if (n_extract == 0 && n_gold == 0) {
        s->p = s->r = s->f1 = 1.0;
        return;
    }
    s->p = n_extract ? (double)overlap / n_extract : 1.0;
    s->r = n_gold ? (double)overlap / n_gold : 1.0;
    if (n_extract == 0 || n_gold == 0 || overlap == 0)
        s->f1 = 0.0;
    else
        s->f1 = 2.0 * s->p * s->r / (s->p + s->r);
}
