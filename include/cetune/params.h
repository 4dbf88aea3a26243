/* Parameter descriptions (params/NAME.json, docs/formats.md): the blueprint of
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
 * 0/1, enum indices into the extractor's table).
 *
 * Conditions and forbidden combinations (as in irace and ConfigSpace):
 *
 *   {"name": "b", "type": "enum", "values": ["none", "lqf"], "default": "none"},
 *   {"name": "b.t", "type": "float", "min": 0, "max": 1, "when": {"b": ["lqf"]}},
 *   ...
 *   "forbidden": [{"a": "tccb", "b": "tccb"}]
 *
 * "when" maps enum or bool parameters of the same description to the
 * values (names, true/false) for which this parameter is active; with
 * several members all must hold, and a parameter is active only while
 * every parameter it names is active too.  An inactive gene holds its
 * default (so genomes differing only there are one individual) and is
 * never mutated, recombined, counted or shown.  "forbidden" lists partial
 * assignments of enum, bool and int parameters; a genome that has all the
 * entries of one, with those parameters active, is never evaluated.  The
 * whole logic at run time is cet_params_active and cet_params_forbidden
 * (src/space/conditions.c). */
#ifndef CETUNE_PARAMS_H
#define CETUNE_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/error.h"
#include "cetune/extractor.h"

CET_BEGIN_DECL

/* One member of "when": gene `parent` is active and holds one of values. */
struct cet_cond {
    size_t parent;      /* gene index */
    double *values;     /* extractor encoding: enum index or 0/1, ascending */
    size_t nvalues;
};

/* One "forbidden" entry: the genome is forbidden when every genes[k] is
 * active and equals values[k]. */
struct cet_forbid {
    size_t *genes;
    double *values;
    size_t n;
};

/* At most this many described parameters (conditions keep per-gene flags
 * on the stack). */
#define CET_MAX_GENES 1024

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
    struct cet_cond *when; /* all must hold for the gene to be active */
    size_t nwhen;
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
    size_t *order;      /* the genes, every gene after the genes its "when" names */
    struct cet_forbid *forbidden;
    size_t nforbidden;
    int conditional;    /* some gene has "when" */
};

/* How extractor names resolve; NULL in the calls below means the registry
 * (cet_extractor_find).  Tests pass their own to describe test extractors. */
typedef const struct cet_extractor *(*cet_extractor_finder)(const char *name);

/* Reads and validates a description.  Every mistake is reported as
 * "path:line:col: what is wrong": malformed JSON, unknown extractor or
 * parameter or member, wrong JSON or parameter type, min above max, a range
 * outside the extractor's, a default or seed value out of range, duplicate
 * names, seeds or correlated groups naming undescribed parameters; a
 * "when" naming an unknown, non-enum/bool parameter or a value it cannot
 * take, or forming a cycle; a "forbidden" entry naming an unknown parameter
 * or value; a seed setting an inactive parameter or matching a forbidden
 * entry.  On success the caller owns *d (cet_params_free). */
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
 * first active value outside the description's range or enum values;
 * inactive genes take their default. */
int cet_params_genome(const struct cet_params_desc *d, const double *full, double *genome,
                      struct cet_error *err);
/* The genome of the described defaults. */
void cet_params_default_genome(const struct cet_params_desc *d, double *genome);

/* ---- conditions (src/space/conditions.c) ---- */

/* Sets active[g] (d->ngenes flags) to 1 when gene g is active in genome,
 * else 0; returns how many are active. */
size_t cet_params_active(const struct cet_params_desc *d, const double *genome, uint8_t *active);
/* The k-th gene in dependency order (parents before the genes they
 * condition), for k < d->ngenes. */
size_t cet_params_gene_at(const struct cet_params_desc *d, size_t k);
/* Whether gene i is active in genome, given the flags of the genes its
 * conditions name (already settled when going in cet_params_gene_at order). */
int cet_params_gene_active(const struct cet_params_desc *d, size_t i, const double *genome,
                           const uint8_t *active);
/* 1 + the index of the first "forbidden" entry genome matches, or 0 when
 * it is allowed. */
size_t cet_params_forbidden(const struct cet_params_desc *d, const double *genome);
/* Flags over the extractor's parameters (d->ex->nparams): 0 for the
 * parameters of inactive genes, 1 for all others, so configurations can
 * leave inactive parameters out. */
void cet_params_full_active(const struct cet_params_desc *d, const double *genome,
                            uint8_t *full_active);

/* ---- genomes (src/space/genome.c) ----
 *
 * Every genome is normalised before it is used: put back into its bounds,
 * integers rounded, booleans 0/1, floats rounded to a grid of `resolution`
 * times the range (a power of ten, so values print short; on a log scale
 * to that many significant digits), inactive genes ("when") set to their
 * default.  The search's archive keys on the normalised genome, so no
 * genome is ever evaluated twice, and genomes differing only in inactive
 * genes are one.  The search operators visit only active genes, and a
 * child matching a "forbidden" combination is repaired or redrawn, never
 * evaluated. */

/* Puts every gene inside its bounds and onto its grid. */
void cet_genome_normalise(const struct cet_params_desc *d, double resolution, double *g);
/* Mean over genes of the standard deviation of the unit positions of n
 * genomes; a gene counts over the genomes where it is active, and not at
 * all when it is active in none. */
double cet_genome_diversity(const struct cet_params_desc *d, const double *genomes, size_t n);

CET_END_DECL

#endif
