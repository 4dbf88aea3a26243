/* The pages of cetune label (label_pages.c) for its HTTP handler (label.c):
 * what is shown of a page, and writing its gold.  Functions return 0, or
 * the HTTP status of the failure (400, 403, 404, 500) with the reason in err. */
#ifndef CETUNE_SERVE_LABEL_PAGES_H
#define CETUNE_SERVE_LABEL_PAGES_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cetune/buf.h"
#include "cetune/corpus.h"
#include "cetune/label.h"

struct cet_label {
    struct cet_entries e;
    enum cet_layout layout;
    char *corpus, *corpus_real; /* as given, and resolved (realpath) */
    char *out, *out_real;       /* the output corpus, or NULL: gold beside the pages */
    const struct cet_config *cfg;
    char *assets;
    uint8_t *labelled;          /* per entry: its gold exists where label writes it */
    size_t nlabelled;
    pthread_mutex_t lock;       /* one save at a time; guards labelled */
};

/* The entry called "PACKAGE/NAME", or -1. */
long label_find(const struct cet_label *l, const char *id);

/* What is shown first of page i: the text nodes kept, in document order,
 * into *keep (malloc'd, *n of them), from its gold where label writes it
 * (*source "gold", or "gold-approx" when the gold is not a selection of
 * the page's text nodes and the nodes mostly in it are shown), else from
 * the configuration ("config"). */
int label_selection(struct cet_label *l, size_t i, uint32_t **keep, size_t *n,
                    const char **source, struct cet_error *err);

/* The marked page i (src/doc/mark.h) into out. */
int label_marked(const struct cet_label *l, size_t i, struct cet_buf *out, struct cet_error *err);

/* The gold file of page i, where label writes it, into path[size]. */
int label_gold_path(const struct cet_label *l, size_t i, char *path, size_t size,
                    struct cet_error *err);

/* What a save did. */
struct label_saved {
    char path[PATH_MAX];   /* the gold file */
    char backup[PATH_MAX]; /* where the gold it replaced was kept, or "" */
    uint32_t words;        /* words of the selection */
    size_t bytes;          /* bytes of the gold file */
    int unchanged;         /* the gold file was left as it was */
};

/* Writes the gold of page i: the text of the text nodes keep[0..n) as
 * `extract` prints it.  A gold file already there is left byte for byte
 * when keep is what label_selection shows from it, or when the text is the
 * same; otherwise it is kept as PATH.~N~ before it is replaced. */
int label_save(struct cet_label *l, size_t i, const uint32_t *keep, size_t n,
               struct label_saved *out, struct cet_error *err);

#endif
