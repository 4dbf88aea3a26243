/* Parameter descriptions (params/NAME.json, DESIGN.md): the blueprint of
 * every individual the GA breeds.  A description names an extractor and the
 * subset of its parameters to evolve, each with a type, a range and an
 * optional log scale; it may add seed individuals and correlated groups.
 * Extractor parameters it does not describe keep their C defaults.
 *
 *   {"extractor": "accb", "description": "...",
 *    "parameters": [{"name": "r", "type": "int", "min": 1, "max": 100, "default": 40},
 *                   {"name": "t", "type": "float", "min": 0.0, "max": 1.0, "default": 0.75}],
 *    "seeds": [{"r": 40, "t": 0.75}],
 *    "correlated": [["r", "t"]]}
 *
 * Per parameter: "name", "type" (int, float, bool or enum; it must be the
 * extractor's type), "min" and "max" (int and float; default: the
 * extractor's own range, which they may not exceed), "default" (default:
 * the extractor's default, clamped into the range), "scale" ("linear" or
 * "log"; log needs min > 0), "values" (enum: the subset of the extractor's
 * names to try; default: all).  A genome holds one double per described
 * parameter, in description order, with the extractor's encoding (integers,
 * 0/1, enum indices into the extractor's table). */
#ifndef CETUNE_PARAMS_H
#define CETUNE_PARAMS_H

#include <stddef.h>

#include "cetune/error.h"
#include "cetune/extractor.h"

struct cet_gene {
    const char *name;   /* the extractor's parameter name */
    size_t index;       /* in the extractor's parameter table */
    enum cet_ptype type;
    double min, max;    /* int and float; bool 0..1; enum: first and last allowed index */
    double def;
    int log;            /* sampled, mutated and blended on a log scale */
    double *values;     /* enum: the allowed extractor indices, ascending */
    size_t nvalues;
    int group;          /* correlated group, or -1 */
};

struct cet_params_desc {
    const struct cet_extractor *ex;
    char *path;         /* where the description came from (for messages) */
    char *text;         /* its full text, kept so a checkpoint can rebuild it */
    char *description;  /* "description", or NULL */
    struct cet_gene *genes;
    size_t ngenes;
    size_t ngroups;
    double *base;       /* ex->nparams values: C defaults, described defaults */
    double *seeds;      /* nseeds x ngenes */
    size_t nseeds;
};

/* How extractor names resolve; NULL in the calls below means the registry
 * (cet_extractor_find).  Tests pass their own to describe test extractors. */
typedef const struct cet_extractor *(*cet_extractor_finder)(const char *name);

/* Reads and validates a description.  Every mistake is reported as
 * "path:line:col: what is wrong": malformed JSON, unknown extractor or
 * parameter or member, wrong JSON or parameter type, min above max, a range
 * outside the extractor's, a default or seed value out of range, duplicate
 * names, seeds or correlated groups naming undescribed parameters.  On
 * success the caller owns *d (cet_params_free). */
int cet_params_load(struct cet_params_desc *d, const char *path, cet_extractor_finder find,
                    struct cet_error *err);
/* The same for text in memory (copied); path names it in messages. */
int cet_params_parse(struct cet_params_desc *d, const char *text, size_t len, const char *path,
                     cet_extractor_finder find, struct cet_error *err);
void cet_params_free(struct cet_params_desc *d);

/* The extractor's full parameter vector for a genome: base, with the genes
 * put in place. */
void cet_params_expand(const struct cet_params_desc *d, const double *genome, double *full);
/* The genome of a full parameter vector (a configuration).  Fails naming the
 * first value outside the description's range or enum values. */
int cet_params_genome(const struct cet_params_desc *d, const double *full, double *genome,
                      struct cet_error *err);
/* The genome of the described defaults. */
void cet_params_default_genome(const struct cet_params_desc *d, double *genome);

#endif
