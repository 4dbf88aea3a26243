/* Pseudo-gold for the pages of a corpus that have no gold (--fitness
 * template): each family (package) is read once, each reference
 * configuration extracts from every page, and the family's repetition
 * corrects them (src/doc/template.c).  The result goes into the entries as
 * inline gold, and the text nodes it is unsure of as their unscored ranges,
 * so everything after (samples, loading, MPI, evaluation) treats it as gold. */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "cetune/eval.h"
#include "cetune/extractor.h"
#include "cetune/params.h"
#include "cetune/template.h"

/* Sets bit `bit` of keep[k] for the text nodes of d that ref keeps. */
static int reference(const struct cet_doc *d, const struct cet_config *ref, struct cet_sel *sel,
                     uint8_t *keep, unsigned bit, struct cet_error *err)
{
    const struct cet_extractor *ex = ref->ex;
    void *prep = NULL;
    if (ex->prepare && !(prep = ex->prepare(d, err)))
        return -1;
    int rc = cet_sel_reset(sel, d) || ex->run(d, prep, ref->params, sel) ? -1 : 0;
    if (prep && ex->release)
        ex->release(prep);
    if (rc)
        return cet_fail(err, "out of memory");
    /* Text nodes an extractor appends (Crunch's retained links) count as
     * kept: marked in the scratch selection, then read with the others. */
    for (uint32_t x = 0; x < sel->nextra; x++)
        sel->keep[sel->extra[x]] = 1;
    for (uint32_t k = 0; k < d->ntexts; k++)
        keep[k] |= (uint8_t)(sel->keep[d->texts[k]] ? 1u << bit : 0);
    return 0;
}

/* The unsure text nodes of a page as the entry's unscored ranges. */
static int unscored(struct cet_entry *x, const uint8_t *marks, uint32_t ntexts)
{
    size_t n = 0;
    for (uint32_t k = 0; k < ntexts; k++)
        n += marks[k] == CET_TEMPLATE_UNSURE && (k == 0 || marks[k - 1] != CET_TEMPLATE_UNSURE);
    free(x->unscored);
    x->unscored = NULL;
    x->nunscored = 0;
    if (!n)
        return 0;
    if (!(x->unscored = malloc(2 * n * sizeof *x->unscored)))
        return -1;
    for (uint32_t k = 0; k < ntexts; k++) {
        if (marks[k] != CET_TEMPLATE_UNSURE)
            continue;
        if (k == 0 || marks[k - 1] != CET_TEMPLATE_UNSURE)
            x->unscored[2 * x->nunscored] = k;
        if (k + 1 == ntexts || marks[k + 1] != CET_TEMPLATE_UNSURE)
            x->unscored[2 * x->nunscored++ + 1] = k + 1;
    }
    return 0;
}

/* Entries s..t-1 (one family, some without gold): reads them, marks, and
 * stores the pseudo-gold of those without gold. */
static int family(struct cet_entries *e, size_t s, size_t t, const struct cet_template_opts *o,
                  const struct cet_config *refs, size_t nref, int threads, struct cet_error *err)
{
    size_t n = t - s, m = 0;
    struct cet_doc **docs = calloc(n, sizeof *docs);
    uint8_t **keep = calloc(n, sizeof *keep), **marks = calloc(n, sizeof *marks);
    /* The readable pages, compacted: their models, marks and entries. */
    struct cet_doc **rd = calloc(n, sizeof *rd);
    uint8_t **rkeep = calloc(n, sizeof *rkeep), **rmarks = calloc(n, sizeof *rmarks);
    size_t *entry = calloc(n, sizeof *entry);
    int failed = 0, rc = -1;
    unsigned load = CET_LOAD_PAGE_ONLY;
    for (size_t r = 0; r < nref; r++)
        load |= refs[r].ex->load;
    if (!docs || !keep || !marks || !rd || !rkeep || !rmarks || !entry) {
        cet_fail(err, "out of memory");
        goto done;
    }
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        struct cet_sel sel = {0};
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < n; i++) {
            struct cet_error ignored, mine;
            /* A page that cannot be read keeps its missing gold: the load
             * that follows skips it with its reason. */
            if (cet_entry_load(&docs[i], &e->v[s + i], load, &ignored))
                continue;
            uint32_t nt = docs[i]->ntexts ? docs[i]->ntexts : 1;
            int bad = !(keep[i] = calloc(nt, 1)) || !(marks[i] = malloc(nt));
            if (bad)
                cet_fail(&mine, "out of memory");
            for (size_t r = 0; r < nref && !bad; r++)
                bad = reference(docs[i], &refs[r], &sel, keep[i], (unsigned)r, &mine);
            if (bad) {
#pragma omp critical
                if (!failed) {
                    failed = 1;
                    *err = mine;
                }
            }
        }
        cet_sel_free(&sel);
    }
    if (failed)
        goto done;
    for (size_t i = 0; i < n; i++)
        if (docs[i]) {
            rd[m] = docs[i];
            rkeep[m] = keep[i];
            rmarks[m] = marks[i];
            entry[m++] = s + i;
        }
    if (cet_template_marks(rd, m, e->v[s].package, o, (const uint8_t *const *)rkeep, nref,
                           rmarks, err))
        goto done;
    struct cet_buf text = {0};
    for (size_t j = 0; j < m; j++) {
        struct cet_entry *x = &e->v[entry[j]];
        if (!x->gold_missing)
            continue; /* gold files and labels win */
        if (cet_template_text(rd[j], rmarks[j], &text) ||
            unscored(x, rmarks[j], rd[j]->ntexts)) {
            cet_buf_free(&text);
            cet_fail(err, "out of memory");
            goto done;
        }
        free(x->gold_inline);
        x->gold_inline = text.p; /* NUL-terminated, the entry's from now on */
        text = (struct cet_buf){0};
        x->gold_missing = 0;
        x->gold_pseudo = 1;
    }
    rc = 0;
done:
    for (size_t i = 0; docs && i < n; i++) {
        cet_doc_free(docs[i]);
        free(keep[i]);
        free(marks[i]);
    }
    free(docs);
    free(keep);
    free(marks);
    free(rd);
    free(rkeep);
    free(rmarks);
    free(entry);
    return rc;
}

/* The configuration of a description's defaults into *c (its params owned). */
static int described_defaults(struct cet_config *c, const struct cet_params_desc *d)
{
    double *g = malloc((d->ngenes + 1) * sizeof *g);
    memset(c, 0, sizeof *c);
    c->ex = d->ex;
    c->docs = -1;
    if (!g || !(c->params = malloc((d->ex->nparams + 1) * sizeof *c->params))) {
        free(g);
        return -1;
    }
    cet_params_default_genome(d, g);
    cet_params_expand(d, g, c->params);
    free(g);
    return 0;
}

int cet_template_scan(struct cet_entries *e, const char *const *dirs, size_t ndirs,
                      const char *const *ref_paths, size_t npaths,
                      const struct cet_params_desc *defaults, int threads, struct cet_error *err)
{
    struct cet_config refs[CET_TEMPLATE_MAX_REFS];
    struct cet_template_opts o;
    size_t nref = 0;
    int rc = -1;
    cet_template_default(&o);
    if (npaths + (defaults != NULL) > CET_TEMPLATE_MAX_REFS)
        return cet_fail(err, "a pseudo-gold takes at most %d references", CET_TEMPLATE_MAX_REFS);
    if (cet_corpus_scan(e, dirs, ndirs, err))
        return -1;
    /* The description's defaults come first: they decide what the others
     * disagree on (cet_template_opts.unsure off). */
    if (defaults && described_defaults(&refs[nref++], defaults)) {
        cet_fail(err, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < npaths; i++, nref++)
        if (cet_config_load(&refs[nref], ref_paths[i], err))
            goto done;
    rc = cet_template_entries(e, &o, refs, nref, threads, err);
done:
    for (size_t r = 0; r < nref; r++)
        cet_config_free(&refs[r]);
    if (rc)
        cet_entries_free(e);
    return rc;
}

int cet_template_entries(struct cet_entries *e, const struct cet_template_opts *o,
                         const struct cet_config *refs, size_t nref, int threads,
                         struct cet_error *err)
{
    /* Entries are sorted by package: one family at a time. */
    for (size_t s = 0, t; s < e->n; s = t) {
        int missing = 0;
        for (t = s; t < e->n && !strcmp(e->v[t].package, e->v[s].package); t++)
            missing |= e->v[t].gold_missing;
        if (missing && family(e, s, t, o, refs, nref, threads, err))
            return -1;
    }
    return 0;
}
