/* Extractors: each algorithm is a struct of typed function pointers with a
 * static parameter table, registered by name in src/extract/registry.c.
 *
 * A configuration is a vector of doubles, one per parameter in table order
 * (int, bool and enum values are stored as exact small integers; an enum is
 * the index into its values).  An extraction marks nodes to keep in a
 * selection; the extracted text is the kept text nodes in document order,
 * followed by the text nodes listed in `extra` (e.g. Crunch's retained links). */
#ifndef CETUNE_EXTRACTOR_H
#define CETUNE_EXTRACTOR_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/doc.h"
#include "cetune/error.h"

CET_BEGIN_DECL

enum cet_ptype { CET_P_INT, CET_P_FLOAT, CET_P_BOOL, CET_P_ENUM };
/* "int", "float", "bool" or "enum", as parameter descriptions write them. */
const char *cet_param_type_name(enum cet_ptype t);

struct cet_param {
    const char *name;
    enum cet_ptype type;
    double def;                 /* the paper's default */
    double min, max;            /* the widest range that makes sense */
    const char *const *values;  /* enum: NULL-terminated names */
    const char *help;
};

/* Per-thread scratch of one extraction, reused across documents so that the
 * evaluation loop allocates nothing once warm. */
struct cet_sel {
    uint8_t *keep;      /* per node: 1 = kept */
    uint32_t *extra;    /* text nodes appended after the document-order text */
    uint32_t nextra;
    size_t keep_cap, extra_cap;
    void *buf[4];       /* extractor scratch, see cet_sel_buf */
    size_t buf_cap[4];
    struct cet_sel *sub; /* selections of a composite extractor's stages, see cet_sel_sub */
    size_t nsub;
};

struct cet_extractor {
    const char *name;
    const char *summary;
    const struct cet_param *params;
    size_t nparams;
    /* Optional: everything about doc that does not depend on the parameters.
     * Called once per document; returns NULL and fills err on failure. */
    void *(*prepare)(const struct cet_doc *doc, struct cet_error *err);
    void (*release)(void *prep);
    /* Marks in sel what to keep for parameters p.  sel->keep is sized for
     * doc->nnodes and zeroed, sel->nextra is 0.  Returns 0, or -1 (out of memory). */
    int (*run)(const struct cet_doc *doc, const void *prep, const double *p,
               struct cet_sel *sel);
    /* Optional: whether parameter i matters for the configuration p (the
     * pipeline's stage parameters matter only for the extractor the stage
     * chose).  NULL: every parameter matters.  Configurations are written
     * with the parameters that matter only. */
    int (*active)(const double *p, size_t i);
    /* 1 when it reads the ad-host list in use (adhosts.h), an input besides
     * the page that runs record (best.json, run.json, the checkpoint). */
    int adhosts;
    /* What it reads of a loaded corpus beyond the lean model: CET_LOAD_*
     * flags (corpus.h), e.g. CET_LOAD_TEXT when it reads the text nodes' text. */
    unsigned load;
};

/* Whether parameter i of ex matters for configuration p. */
int cet_param_active(const struct cet_extractor *ex, const double *p, size_t i);

/* Registry. */
const struct cet_extractor *cet_extractor_find(const char *name);
size_t cet_extractor_count(void);
const struct cet_extractor *cet_extractor_at(size_t i);
/* Index of parameter name in ex, or -1. */
int cet_param_index(const struct cet_extractor *ex, const char *name);
/* Fills p with the defaults of ex. */
void cet_params_default(const struct cet_extractor *ex, double *p);
/* Parses "value" for parameter i (numbers, true/false, enum names) into *v,
 * checked against the parameter's type and range. */
int cet_param_parse(const struct cet_extractor *ex, size_t i, const char *value,
                    double *v, struct cet_error *err);
/* Formats value v of parameter i for people and JSON ("0.25", "40", "true", "\"name\""
 * without the quotes when json is 0). */
void cet_param_format(const struct cet_extractor *ex, size_t i, double v, int json,
                      char *buf, size_t size);
struct cet_buf;
/* Appends p as a configuration's "params" object, {"name": value, ...}:
 * the parameters the others leave active, and of those the ones shown[i]
 * marks (shown NULL: all).  0, or -1 when out of memory. */
int cet_params_json(struct cet_buf *out, const struct cet_extractor *ex, const double *p,
                    const uint8_t *shown);
/* The names of enum parameter i joined by ", " (for messages). */
void cet_param_values(const struct cet_extractor *ex, size_t i, char *buf, size_t size);

/* Selection helpers. */
int cet_sel_reset(struct cet_sel *sel, const struct cet_doc *doc);
void cet_sel_free(struct cet_sel *sel);
/* A scratch buffer of at least bytes, slot 0..3, kept across calls (contents undefined). */
void *cet_sel_buf(struct cet_sel *sel, int slot, size_t bytes);
int cet_sel_add_extra(struct cet_sel *sel, uint32_t text_node);
/* Child selection k of sel, for a composite extractor (the pipeline) to run
 * its stages into; kept across calls and freed with sel.  NULL when out of
 * memory. */
struct cet_sel *cet_sel_sub(struct cet_sel *sel, size_t k);
/* Keeps every node (the alltext baseline). */
void cet_sel_keep_all(const struct cet_doc *doc, struct cet_sel *sel);
/* Keeps or drops the subtree of node i. */
void cet_sel_set_subtree(const struct cet_doc *doc, struct cet_sel *sel, uint32_t i, uint8_t keep);

/* Runs ex with parameters p on doc into sel (reset first): prepare, run,
 * release.  Returns 0, or -1 with the reason in err. */
int cet_sel_run(struct cet_sel *sel, const struct cet_doc *doc, const struct cet_extractor *ex,
                const double *p, struct cet_error *err);

/* Runs ex on doc and writes the kept word ids (in extract order) into *words
 * (resized as needed); used where the words themselves are needed. */
int cet_sel_words(const struct cet_doc *doc, const struct cet_sel *sel,
                  uint32_t **words, size_t *cap, uint32_t *n);

CET_END_DECL

#endif
