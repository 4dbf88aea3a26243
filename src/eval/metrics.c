/* P, R and F1 as README.md ("The metric") defines them, including the empty cases. */
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

void cet_score_macro(const struct cet_corpus *c, const struct cet_score *docs,
                     struct cet_score *pkgs, struct cet_score *macro)
{
    *macro = (struct cet_score){0};
    for (size_t k = 0; k < c->npkgs; k++) {
        const struct cet_package *pk = &c->pkgs[k];
        struct cet_score s = {0};
        for (uint32_t i = pk->first; i < pk->first + pk->count; i++) {
            s.p += docs[i].p;
            s.r += docs[i].r;
            s.f1 += docs[i].f1;
        }
        s.p /= pk->count;
        s.r /= pk->count;
        s.f1 /= pk->count;
        if (pkgs)
            pkgs[k] = s;
        macro->p += s.p / (double)c->npkgs;
        macro->r += s.r / (double)c->npkgs;
        macro->f1 += s.f1 / (double)c->npkgs;
    }
}
