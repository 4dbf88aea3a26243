/* Configurations: an extractor with one value per parameter, read from and
 * written to the JSON of docs/formats.md ("Configurations"):
 *   {"extractor": "accb", "params": {"r": 42, "t": 0.75}, "fitness": 0.861, "docs": 120} */
#ifndef CETUNE_CONFIG_H
#define CETUNE_CONFIG_H

#include "cetune/common.h"
#include "cetune/buf.h"
#include "cetune/error.h"
#include "cetune/site.h"
#include "cetune/extractor.h"

CET_BEGIN_DECL

struct cet_config {
    const struct cet_extractor *ex;
    double *params;  /* ex->nparams values */
    char *label;     /* how tables name it: the file, or NAME k=v ... */
    double fitness;  /* from the file, when has_fitness */
    int has_fitness;
    long docs;       /* from the file, or -1 */
    char adhosts[17]; /* the digest of the ad-host list it was tuned with
                       * (cet_adhosts_digest; a crunch run's best.json), or "" */
    struct cet_site *site; /* the site rules applied after the extractor
                            * (cetune/site.h; "site" in the file), or NULL */
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

/* The shipped general configuration (configs/article.json in the source
 * tree, installed as share/cetune/configs/article.json): the one used when
 * no configuration is given. */
#define CET_CONFIG_SHIPPED "configs/article.json"
/* Where it is: override when not NULL or empty (it must be readable; the
 * cetune command passes $CETUNE_CONFIG, the library itself reads no
 * environment), else the first readable of DIR/share/cetune/configs/article.json
 * and DIR/../share/cetune/configs/article.json, DIR being the running
 * program's directory (a build tree, an installed bin/), and the
 * installation prefix libcetune was built for.  Returns 0 with the path in
 * out, or -1 with every place tried in err. */
int cet_config_shipped_path(char *out, size_t size, const char *override,
                            struct cet_error *err);
/* Loads the shipped configuration into cfg (labelled with its path):
 * cet_config_shipped_path without override, then cet_config_load. */
int cet_config_load_default(struct cet_config *cfg, struct cet_error *err);

CET_END_DECL

#endif
