/* Learning site rules (include/cetune/site.h, docs/site.md) from labelled
 * pages: the names on enough of them, then per slot the share of its words
 * the gold holds, aligned as the word metric aligns it. */
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "cetune/eval.h"
#include "cetune/site.h"
#include "extract/site_slots.h"
#include "util/array.h"

void cet_site_default(struct cet_site_opts *o)
{
    o->min_pages = 2;
    o->keep_share = 0.9;
    o->drop_share = 0.1;
    o->min_words = 3;
    o->name_share = 0.5;
    o->slot_share = 0.3;
    o->depth = 2;
    o->texts = 1;
    o->guard = NULL;
    o->nguard = 0;
}

/* Each labelled page's family (its package: a site family is a package of
 * the corpus) as a small number into fam[], with the labelled pages of each
 * family into fpages[] (both hold n entries); returns how many families. */
static size_t families(struct cet_doc *const *docs, size_t n, uint32_t *fam, size_t *fpages)
{
    size_t nf = 0;
    for (size_t p = 0; p < n; p++) {
        if (!docs[p]->has_gold)
            continue;
        size_t q = 0;
        while (q < p && !(docs[q]->has_gold && !strcmp(docs[q]->package ? docs[q]->package : "",
                                                        docs[p]->package ? docs[p]->package : "")))
            q++;
        fam[p] = q < p ? fam[q] : (uint32_t)nf++;
        if (q == p)
            fpages[fam[p]] = 0;
        fpages[fam[p]]++;
    }
    return nf;
}

/* The pages of family f a name or slot must be on: share of them, and min_pages at least. */
static double needed(const size_t *fpages, uint32_t f, double share, const struct cet_site_opts *o)
{
    double need = share * (double)fpages[f];
    return need < (double)o->min_pages ? (double)o->min_pages : need;
}

/* A name of a page: its hash, the page, the name. */
struct name {
    uint64_t h;
    uint32_t fam, page;
    char *s;
};

static int cmp_name(const void *a, const void *b)
{
    const struct name *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    if (x->fam != y->fam)
        return x->fam < y->fam ? -1 : 1;
    if (x->page != y->page)
        return x->page < y->page ? -1 : 1;
    return strcmp(x->s, y->s);
}

/* Appends the names of page p (ids and classes of its elements but <html>
 * and <body>) to v. */
static int page_names(const struct cet_doc *d, uint32_t f, uint32_t p, struct name **v, size_t *n,
                      size_t *cap)
{
    static const char *const attrs[] = {"id", "class"};
    char buf[CET_SITE_STEP_MAX], *tok[64];
    for (uint32_t i = 0; i < d->nnodes; i++) {
        if (d->nodes[i].kind != CET_ELEMENT || cet_site_page_element(d, i))
            continue;
        for (int a = 0; a < 2; a++) {
            size_t nt = cet_site_tokens(cet_node_attr(d, i, attrs[a]), buf, sizeof buf, tok, a ? 64 : 1);
            for (size_t k = 0; k < nt; k++) {
                if (CET_GROW(*v, *cap, *n + 1, 256))
                    return -1;
                struct name *x = &(*v)[*n];
                if (!(x->s = strdup(tok[k])))
                    return -1;
                x->h = cet_site_token_hash(tok[k]);
                x->fam = f;
                x->page = p;
                (*n)++;
            }
        }
    }
    return 0;
}

/* The names on enough of the labelled pages of some family into s: the
 * names of every family, so that the slots of all are computed alike. */
static int learn_names(struct cet_site *s, struct cet_doc *const *docs, size_t n,
                       const uint32_t *fam, const size_t *fpages, const struct cet_site_opts *o)
{
    struct name *v = NULL;
    size_t nv = 0, cap = 0, nkeep = 0;
    int rc = 0;
    for (size_t p = 0; p < n && !rc; p++)
        if (docs[p]->has_gold)
            rc = page_names(docs[p], fam[p], (uint32_t)p, &v, &nv, &cap);
    char **keep = rc ? NULL : malloc((nv ? nv : 1) * sizeof *keep);
    if (!rc && !keep)
        rc = -1;
    if (!rc && nv)
        qsort(v, nv, sizeof *v, cmp_name);
    for (size_t a = 0, b; a < nv && !rc; a = b) {
        int known = 0;
        for (b = a; b < nv && v[b].h == v[a].h;) { /* one family at a time */
            size_t npages = 0, c = b;
            for (; c < nv && v[c].h == v[a].h && v[c].fam == v[b].fam; c++)
                npages += c == b || v[c].page != v[c - 1].page;
            known |= (double)npages >= needed(fpages, v[b].fam, o->name_share, o);
            b = c;
        }
        if (known) {
            keep[nkeep++] = v[a].s;
            v[a].s = NULL;
        }
    }
    for (size_t k = 0; k < nv; k++)
        free(v[k].s);
    free(v);
    if (rc) {
        for (size_t k = 0; k < nkeep; k++)
            free(keep[k]);
        free(keep);
        return -1;
    }
    return cet_site_set_names(s, keep, nkeep);
}

/* ---- learning ---- */

/* One text node of a labelled page: where it stands and how much of it is
 * gold.  For texts to drop, one block: slot is then the block's text. */
struct rec {
    uint64_t slot;
    uint32_t fam;        /* its page's family */
    uint32_t page, node; /* index into docs, and its block element */
    uint32_t text;       /* its index in the page's texts (ties, for a total order) */
    uint32_t words, gold;
    uint32_t kept, kept_gold; /* of those, what the base extraction keeps */
};

static int cmp_rec(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    if (x->fam != y->fam)
        return x->fam < y->fam ? -1 : 1;
    if (x->page != y->page)
        return x->page < y->page ? -1 : 1;
    return x->text < y->text ? -1 : x->text > y->text;
}

static int cmp_slot(const void *a, const void *b)
{
    const struct cet_site_rule *x = a, *y = b;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Which of labelled page d's words are gold, aligned as the metric aligns
 * them, into *in (d->nwords bytes); 0, or -1 when out of memory. */
static int align_gold(const struct cet_doc *d, uint8_t **in)
{
    /* A gold word matches one place of the page, so "Home" in the menu
     * stays out when the gold's is the article's. */
    *in = malloc(d->nwords ? d->nwords : 1);
    return !*in || cet_gold_align(d, *in) ? -1 : 0;
}

/* The records of labelled page p: one per text node with words in a block,
 * at its slot of depth steps (0: the whole path); in: its gold words. */
static int page_recs(const struct cet_site *s, const struct cet_doc *d, size_t depth, uint32_t f,
                     uint32_t p, const uint8_t *in, const uint8_t *kept, struct rec **v, size_t *n,
                     size_t *cap)
{
    uint64_t *slots = malloc((d->ntexts ? d->ntexts : 1) * sizeof *slots);
    int rc = !slots || cet_site_slots_at(s, d, depth, slots);
    for (uint32_t k = 0; k < d->ntexts && !rc; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        if (!slots[k] || t->w1 == t->w0 || (t->flags & CET_NF_UNSCORED))
            continue;
        if (CET_GROW(*v, *cap, *n + 1, 256)) {
            rc = -1;
            break;
        }
        struct rec *r = &(*v)[(*n)++];
        *r = (struct rec){slots[k], f, p, t->block, k, t->w1 - t->w0, 0, 0, 0};
        for (uint32_t w = t->w0; w < t->w1; w++)
            r->gold += in[w];
        if (kept && kept[k]) {
            r->kept = r->words;
            r->kept_gold = r->gold;
        }
    }
    free(slots);
    return rc ? -1 : 0;
}

/* What the records v[a..b) of one slot in one family say: CET_SITE_KEEP,
 * CET_SITE_DROP or CET_SITE_NONE.  base: they hold the extraction to correct. */
static int family_rule(const struct rec *v, size_t a, size_t b, const size_t *fpages, int base,
                       const struct cet_site_opts *o)
{
    uint64_t words = 0, gold = 0, kept = 0, kept_gold = 0;
    size_t npages = 0;
    int above = 1, below = 1;
    for (size_t c = a; c < b;) { /* per page, the slot's share of gold words */
        uint64_t pw = 0, pg = 0;
        size_t e = c;
        for (; e < b && v[e].page == v[c].page; e++) {
            pw += v[e].words;
            pg += v[e].gold;
            kept += v[e].kept;
            kept_gold += v[e].kept_gold;
        }
        above &= 2 * pg > pw;
        below &= 2 * pg < pw;
        words += pw;
        gold += pg;
        npages++;
        c = e;
    }
    /* A place of the template is on most of the family's pages: a path on
     * two pages of a family of ten, or of a corpus of many sites, can be a
     * generic one (html/body/div/ul/li) that means something else elsewhere. */
    if ((double)npages < needed(fpages, v[a].fam, o->slot_share, o) || words < o->min_words)
        return CET_SITE_NONE;
    int keep = above && (double)gold >= o->keep_share * (double)words;
    int drop = below && (double)gold <= o->drop_share * (double)words;
    /* A keep rule must correct the extraction on these pages: bring back
     * more gold words than it adds others.  One that changes nothing here
     * has shown nothing, and a slot that holds only gold on a few pages can
     * be a generic place (a layout table's cell) holding navigation on the
     * next.  A drop rule needs no correction here: text that is never gold
     * at a place of the template is boilerplate wherever the extractor
     * would keep it (measured in docs/experiment.md, "Site rules"). */
    if (keep && base) {
        int64_t other = (int64_t)(words - gold), kept_other = (int64_t)(kept - kept_gold);
        keep = (int64_t)(gold - kept_gold) - (other - kept_other) > 0;
    }
    return keep ? CET_SITE_KEEP : drop ? CET_SITE_DROP : CET_SITE_NONE;
}

/* The rules of the records v[0..nv), sorted by slot and family, into s
 * (suffix rules of depth steps when depth is not 0): a slot's rule is its
 * families' when they agree, none when they conflict. */
static int learn_rules(struct cet_site *s, const struct rec *v, size_t nv, size_t depth,
                       struct cet_doc *const *docs, const size_t *fpages, int base,
                       const struct cet_site_opts *o)
{
    size_t cap = 0;
    for (size_t a = 0, b; a < nv; a = b) {
        int rule = CET_SITE_NONE, conflict = 0;
        size_t from = a;
        for (b = a; b < nv && v[b].slot == v[a].slot;) {
            size_t c = b;
            while (c < nv && v[c].slot == v[a].slot && v[c].fam == v[b].fam)
                c++;
            int r = family_rule(v, b, c, fpages, base, o);
            if (r != CET_SITE_NONE && rule != CET_SITE_NONE && r != rule)
                conflict = 1;
            if (r != CET_SITE_NONE && rule == CET_SITE_NONE) {
                rule = r;
                from = b;
            }
            b = c;
        }
        if (rule == CET_SITE_NONE || conflict)
            continue;
        if (CET_GROW(s->v, cap, s->n + 1, 16))
            return -1;
        struct cet_site_rule *r = &s->v[s->n];
        r->slot = v[a].slot;
        r->keep = rule == CET_SITE_KEEP;
        r->suffix = depth > 0;
        char *p = cet_site_path_of(docs[v[from].page], v[from].node, s, depth);
        if (p && depth) { /* a suffix rule's path is written with its marker first */
            struct cet_buf b = {0};
            int bad = cet_buf_printf(&b, "%s%s", CET_SITE_SUFFIX, p);
            free(p);
            p = bad ? NULL : b.p;
            if (bad)
                cet_buf_free(&b);
        }
        if (!(r->path = p))
            return -1;
        s->n++;
    }
    return 0;
}

/* The guard's trusted slots from the whole-path records v[0..nv), sorted:
 * a slot whose blocks hold more gold than not on every labelled page that
 * has it, one page being enough.  The guard does not keep anything there;
 * it only lets the tuned parameters' choice stand, so it asks for less
 * evidence than a keep rule (measured in docs/experiment.md, "The guard"). */
static int learn_trust(struct cet_site *s, const struct rec *v, size_t nv,
                       struct cet_doc *const *docs, const size_t *fpages,
                       const struct cet_site_opts *o, struct cet_error *err)
{
    struct cet_site_opts t = *o;
    t.min_pages = 1;
    t.slot_share = 0;
    t.min_words = 1;
    t.keep_share = 0.5;
    t.drop_share = 0; /* a slot never gold: a drop, which no slot trusts */
    struct cet_site tmp = *s; /* the names of s, its own rules */
    tmp.v = NULL;
    tmp.n = 0;
    int rc = learn_rules(&tmp, v, nv, 0, docs, fpages, 0, &t);
    /* The held slots: of the trusted ones, those that would be keep rules
     * without the correction (the article's places by a keep rule's
     * evidence) and whose words the extraction to correct kept in full on
     * the labelled pages.  Where the tuned parameters drop some of such a
     * slot's text there (a dateline in the story's paragraphs), they were
     * judged on doing so; where they keep all of it there and drop some on
     * another page, they do what no labelled page showed. */
    struct cet_site firm = *s;
    firm.v = NULL;
    firm.n = 0;
    rc = rc || learn_rules(&firm, v, nv, 0, docs, fpages, 0, o);
    const char **paths = malloc((2 * tmp.n + 1) * sizeof *paths), **hold = paths + tmp.n;
    size_t np = 0, nh = 0;
    for (size_t k = 0; k < tmp.n && paths && !rc; k++) {
        const struct cet_site_rule *t = &tmp.v[k];
        if (!t->keep)
            continue;
        paths[np++] = t->path;
        int is_firm = 0;
        for (size_t f = 0; f < firm.n && !is_firm; f++)
            is_firm = firm.v[f].keep && firm.v[f].slot == t->slot;
        uint64_t words = 0, kept = 0;
        for (size_t i = 0; i < nv && is_firm; i++)
            if (v[i].slot == t->slot) {
                words += v[i].words;
                kept += v[i].kept;
            }
        if (is_firm && kept == words)
            hold[nh++] = t->path;
    }
    rc = rc || !paths ? cet_fail(err, "out of memory learning site rules")
                      : cet_site_set_guard(s, o->guard, o->nguard, paths, np, err) ||
                            cet_site_set_hold(s, hold, nh, err);
    for (size_t k = 0; k < tmp.n; k++)
        free(tmp.v[k].path);
    free(tmp.v);
    for (size_t k = 0; k < firm.n; k++)
        free(firm.v[k].path);
    free(firm.v);
    free((void *)paths);
    return rc ? -1 : 0;
}

/* ---- texts to drop ---- */

/* The blocks of labelled page p with words, as records of their text
 * (cet_site_text_hashes) in place of a slot, each at its block and its
 * first text node.  What counts as kept is the extraction corrected by the
 * slot rules of s: a text they drop already needs no rule of its own, one a
 * keep slot brings back may. */
static int page_trecs(const struct cet_site *s, const struct cet_doc *d, uint32_t f, uint32_t p,
                      const uint8_t *in, const uint8_t *kept, struct rec **v, size_t *n,
                      size_t *cap)
{
    uint64_t *h = malloc((d->ntexts ? d->ntexts : 1) * sizeof *h);
    size_t *at = calloc(d->nnodes ? d->nnodes : 1, sizeof *at); /* block -> record + 1 */
    uint8_t *marks = calloc(d->ntexts ? d->ntexts : 1, 1);
    int rc = !h || !at || !marks || cet_site_text_hashes(d, h) || cet_site_marks(s, d, marks);
    for (uint32_t k = 0; k < d->ntexts && !rc; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        if (!h[k] || t->w1 == t->w0 || (t->flags & CET_NF_UNSCORED))
            continue;
        if (!at[t->block]) {
            if (CET_GROW(*v, *cap, *n + 1, 256)) {
                rc = -1;
                break;
            }
            (*v)[*n] = (struct rec){h[k], f, p, t->block, k, 0, 0, 0, 0};
            at[t->block] = ++*n;
        }
        struct rec *r = &(*v)[at[t->block] - 1];
        r->words += t->w1 - t->w0;
        for (uint32_t w = t->w0; w < t->w1; w++)
            r->gold += in[w];
        uint8_t rule = marks[k] & CET_SITE_RULE;
        if (rule == CET_SITE_KEEP || (kept[k] && rule != CET_SITE_DROP))
            r->kept += t->w1 - t->w0;
    }
    free(h);
    free(at);
    free(marks);
    return rc ? -1 : 0;
}

/* The texts to drop of the records v[0..nv), sorted: a block text that the
 * extraction with the slot rules keeps on min_pages labelled pages of one
 * family at least (a correction it makes there), that no page's gold holds
 * (at most drop_share of its words over all pages, less than half on each)
 * and that has min_words words over all of them.  A text that is gold
 * anywhere, in any family, gives no rule.  Unlike a keep rule, it needs no
 * slot: the copyright line under every story stands in the story's own
 * place. */
static int learn_texts(struct cet_site *s, const struct rec *v, size_t nv,
                       struct cet_doc *const *docs, const struct cet_site_opts *o,
                       struct cet_error *err)
{
    char **t = NULL;
    size_t nt = 0, cap = 0;
    int rc = 0;
    for (size_t a = 0, b; a < nv && !rc; a = b) {
        uint64_t words = 0, gold = 0;
        size_t most = 0, kpages = 0; /* pages that keep it, of the family with most */
        int below = 1;
        for (b = a; b < nv && v[b].slot == v[a].slot;) {
            size_t e = b;
            uint64_t pw = 0, pg = 0, pk = 0;
            for (; e < nv && v[e].slot == v[a].slot && v[e].page == v[b].page; e++) {
                pw += v[e].words;
                pg += v[e].gold;
                pk += v[e].kept;
            }
            if (b > a && v[b].fam != v[b - 1].fam)
                kpages = 0;
            kpages += 2 * pk > pw;
            most = kpages > most ? kpages : most;
            below &= 2 * pg < pw;
            words += pw;
            gold += pg;
            b = e;
        }
        if (!below || most < o->min_pages || words < o->min_words ||
            (double)gold > o->drop_share * (double)words)
            continue;
        char *text =
            CET_GROW(t, cap, nt + 1, 16) ? NULL : cet_site_text(docs[v[a].page], v[a].node);
        if (!text)
            rc = -1;
        else
            t[nt++] = text;
    }
    if (rc) {
        for (size_t k = 0; k < nt; k++)
            free(t[k]);
        free(t);
        return cet_fail(err, "out of memory learning site rules");
    }
    rc = nt ? cet_site_take_texts(s, t, nt, err) : 0;
    free(t);
    return rc;
}

int cet_site_learn(struct cet_doc *const *docs, size_t n, const uint8_t *const *kept,
                   const struct cet_site_opts *o, struct cet_site **out, struct cet_error *err)
{
    *out = NULL;
    struct rec *v = NULL;
    struct rec *tv = NULL;
    size_t nv = 0, cap = 0, ntv = 0, tcap = 0, pages = 0;
    struct cet_site *s = calloc(1, sizeof *s);
    uint32_t *fam = calloc(n ? n : 1, sizeof *fam);
    size_t *fpages = calloc(n ? n : 1, sizeof *fpages);
    uint8_t **in = calloc(n ? n : 1, sizeof *in); /* each labelled page's gold words */
    for (size_t p = 0; p < n; p++)
        pages += docs[p]->has_gold != 0;
    int rc = !s || !fam || !fpages || !in;
    if (!rc)
        families(docs, n, fam, fpages);
    for (size_t p = 0; p < n && !rc; p++)
        if (docs[p]->has_gold)
            rc = align_gold(docs[p], &in[p]);
    rc = rc || learn_names(s, docs, n, fam, fpages, o);
    /* Whole paths, then suffixes (applied only where no whole path rules). */
    const size_t depths[2] = {0, o->depth};
    for (size_t i = 0; i < (o->depth ? 2u : 1u) && !rc; i++) {
        size_t depth = depths[i];
        nv = 0;
        size_t before = s->n;
        for (size_t p = 0; p < n && !rc; p++)
            if (docs[p]->has_gold)
                rc = page_recs(s, docs[p], depth, fam[p], (uint32_t)p, in[p],
                               kept ? kept[p] : NULL, &v, &nv, &cap);
        if (!rc && nv)
            qsort(v, nv, sizeof *v, cmp_rec);
        rc = rc || learn_rules(s, v, nv, depth, docs, fpages, kept != NULL, o) ||
             (!depth && o->guard && learn_trust(s, v, nv, docs, fpages, o, err));
        if (!rc && depth && s->n > before)
            s->depth = depth;
    }
    if (!rc && s->n) /* found by slot (site.c) */
        qsort(s->v, s->n, sizeof *s->v, cmp_slot);
    /* Texts to drop correct an extraction: without one there are none. */
    for (size_t p = 0; p < n && !rc && kept && o->texts; p++)
        if (docs[p]->has_gold)
            rc = page_trecs(s, docs[p], fam[p], (uint32_t)p, in[p], kept[p], &tv, &ntv, &tcap);
    if (!rc && ntv)
        qsort(tv, ntv, sizeof *tv, cmp_rec);
    int bad = rc;
    rc = rc || learn_texts(s, tv, ntv, docs, o, err);
    free(v);
    free(tv);
    for (size_t p = 0; in && p < n; p++)
        free(in[p]);
    free(in);
    free(fam);
    free(fpages);
    if (rc) {
        cet_site_free(s);
        return bad ? cet_fail(err, "out of memory learning site rules") : -1;
    }
    if (!cet_site_nrules(s) && !s->guard) {
        cet_site_free(s);
        return 0;
    }
    s->pages = (long)pages;
    *out = s;
    return 0;
}
