/* Loading a corpus where it is evaluated (struct cet_backend, eval.h): in
 * this process by default, or by a backend (the MPI build's spreads the
 * documents over the ranks). */
#include <stdlib.h>
#include <string.h>

#include "cetune/eval.h"

int cet_backend_load(const struct cet_backend *be, struct cet_corpus *c,
                     const struct cet_entries *e, const uint8_t *want, unsigned flags, int threads,
                     struct cet_error *err)
{
    return be ? be->load(be->ctx, c, e, want, flags, threads, err)
              : cet_corpus_load(c, e, want, flags, threads, err);
}

int cet_corpus_load_dirs(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                         size_t ndirs, const char *sample, unsigned flags, int threads,
                         const struct cet_backend *be, struct cet_error *err)
{
    memset(c, 0, sizeof *c);
    if (!(flags & CET_LOAD_SCANNED) && cet_corpus_scan(e, dirs, ndirs, err))
        return -1;
    uint8_t *want = NULL;
    if (sample) {
        char **names;
        size_t n;
        if (!(want = malloc(e->n ? e->n : 1)))
            return cet_fail(err, "out of memory");
        if (cet_sample_read(&names, &n, sample, err)) {
            free(want);
            return -1;
        }
        int rc = cet_sample_select(want, e, names, n, sample, err);
        cet_sample_free(names, n);
        if (rc) {
            free(want);
            return -1;
        }
    }
    int rc = cet_backend_load(be, c, e, want, flags, threads, err);
    free(want);
    return rc;
}
