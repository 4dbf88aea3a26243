/* The word metric on two texts (cet_score_text, eval.h): what `evaluate`
 * computes for a document, for callers that hold an extract and a gold as
 * strings (the Python module's cetune.f1). */
#include <stdint.h>
#include <stdlib.h>

#include "cetune/eval.h"
#include "cetune/lcs.h"
#include "cetune/text.h"

struct ids {
    struct cet_intern *voc;
    uint32_t *v;
    size_t n, cap;
};

static int add_word(const char *w, size_t len, void *ctx)
{
    struct ids *s = ctx;
    uint32_t id = cet_intern(s->voc, w, len);
    if (id == UINT32_MAX)
        return -1;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        uint32_t *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = id;
    return 0;
}

int cet_score_text(struct cet_score *out, const char *extract, size_t n, const char *gold,
                   size_t m, struct cet_error *err)
{
    struct cet_intern voc;
    cet_intern_init(&voc);
    struct ids a = {.voc = &voc}, b = {.voc = &voc};
    struct cet_peq t = {0};
    uint64_t *v = NULL;
    int rc = -1;
    if (cet_words(extract, n, add_word, &a) || cet_words(gold, m, add_word, &b))
        goto done;
    if (a.n > UINT32_MAX || b.n > UINT32_MAX) {
        rc = cet_fail(err, "a text of more than %u words", UINT32_MAX);
        goto too_long;
    }
    uint32_t overlap = 0;
    if (a.n && b.n) {
        if (cet_peq_build(&t, b.v, (uint32_t)b.n, voc.n) ||
            !(v = malloc((size_t)t.blocks * sizeof *v)))
            goto done;
        overlap = cet_lcs_bits(&t, a.v, a.n, v);
    }
    cet_score_set(out, (uint32_t)a.n, (uint32_t)b.n, overlap);
    rc = 0;
done:
    if (rc)
        cet_fail(err, "out of memory");
too_long:
    free(v);
    cet_peq_free(&t);
    free(a.v);
    free(b.v);
    cet_intern_free(&voc);
    return rc;
}
