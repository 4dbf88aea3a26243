/* P, R and F1 as README.md ("The metric") defines them, including the
 * empty cases, and the alignment of a page's words with its gold. */
#include "cetune/eval.h"

#include <stdlib.h>
#include <string.h>

#include "cetune/doc.h"
#include "cetune/lcs.h"

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

int cet_gold_align(const struct cet_doc *d, uint8_t *in)
{
    memset(in, 0, d->nwords);
    if (!d->ngold || !d->nwords)
        return 0;
    uint32_t *g = malloc(d->ngold * sizeof *g), *unit = malloc(d->nwords * sizeof *unit);
    int rc = !g || !unit ? -1 : 0;
    for (uint32_t j = 0; !rc && j < d->ngold; j++)
        g[j] = cet_gold_word(d, j);
    for (uint32_t w = 0; !rc && w < d->nwords; w++)
        unit[w] = CET_NONE;
    for (uint32_t k = 0; !rc && k < d->ntexts; k++) { /* a word's unit: its block */
        const struct cet_node *t = &d->nodes[d->texts[k]];
        for (uint32_t w = t->w0; w < t->w1; w++)
            unit[w] = t->block;
    }
    if (!rc)
        rc = cet_lcs_align_in(in, d->words, d->nwords, g, d->ngold, d->nvocab, unit, d->nnodes);
    free(g);
    free(unit);
    return rc ? -1 : 0;
}
