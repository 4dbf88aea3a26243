/* Configurations: an extractor with one value per parameter, read from and
 * written to the JSON of docs/formats.md ("Configurations"):
 *   {"extractor": "accb", "params": {"r": 42, "t": 0.75}, "fitness": 0.861, "docs": 120} */
#ifndef CETUNE_CONFIG_H
#define CETUNE_CONFIG_H

#include "cetune/buf.h"
#include "cetune/error.h"
#include "cetune/extractor.h"

struct cet_config {
    const struct cet_extractor *ex;
    double *params;  /* ex->nparams values */
    char *label;     /* how tables name it: the file, or NAME k=v ... */
    double fitness;  /* from the file, when has_fitness */
    int has_fitness;
    long docs;       /* from the file, or -1 */
};

/* The extractor called name at its defaults; unknown names are an error. */
int cet_config_default(struct cet_config *cfg, const char *name, struct cet_error *err);
/* Reads CONFIG.json; unknown extractors or parameters and out-of-range or
 * mistyped values are refused with file:line:col.  Missing parameters keep
 * their defaults. */
int cet_config_load(struct cet_config *cfg, const char *path, struct cet_error *err);
/* The same for JSON text in memory; name stands for the file in messages. */
int cet_config_parse(struct cet_config *cfg, const char *text, size_t len, const char *name,
                     struct cet_error *err);
/* Applies "name=value". */
int cet_config_set(struct cet_config *cfg, const char *assignment, struct cet_error *err);
/* Appends the configuration as one JSON object (fitness and docs only when
 * docs >= 0).  shown (ex->nparams flags, or NULL for all) leaves out the
 * parameters flagged 0: inactive ones (cet_params_full_active). */
int cet_config_json(struct cet_buf *out, const struct cet_extractor *ex, const double *params,
                    const uint8_t *shown, double fitness, long docs);
void cet_config_free(struct cet_config *cfg);

#endif
