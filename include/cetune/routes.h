/* Routes: which configuration serves which site family.  A routes file maps
 * host patterns to configuration files:
 *
 *   {"routes": [{"host": "*.bbc.co.uk", "config": "runs/bbc/best.json"},
 *               {"host": "news.example.com", "config": "news.json"}],
 *    "default": "runs/all/best.json"}
 *
 * A pattern ("bbc.co.uk" or "*.bbc.co.uk", the same thing) matches that host
 * and every subdomain of it; the most specific matching pattern (the one
 * with the most labels) wins, and a host no pattern matches gets "default"
 * (optional).  Configuration paths are relative to the routes file.  Every
 * error names the file with line and column. */
#ifndef CETUNE_ROUTES_H
#define CETUNE_ROUTES_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/config.h"
#include "cetune/error.h"

CET_BEGIN_DECL

struct cet_routes;

/* Reads the routes file at path and loads every configuration it names. */
int cet_routes_load(struct cet_routes **out, const char *path, struct cet_error *err);
/* Routes that send every host to cfg (moved into the routes; cfg is emptied);
 * path names it in listings. */
int cet_routes_single(struct cet_routes **out, struct cet_config *cfg, const char *path,
                      struct cet_error *err);
void cet_routes_free(struct cet_routes *r);

/* The host of url ("scheme://[user@]host[:port]/...", "//host...", lowercase,
 * without a final dot) into host[size]; -1 with the reason when url is not
 * an absolute URL with a valid host name. */
int cet_url_host(const char *url, char *host, size_t size, struct cet_error *err);

/* The configuration for url, and in *pattern (may be NULL) the pattern that
 * matched ("default" for the default).  NULL with the reason in err when the
 * URL is malformed or no route matches and there is no default. */
const struct cet_config *cet_routes_pick(const struct cet_routes *r, const char *url,
                                         const char **pattern, struct cet_error *err);

/* The distinct configurations, for listings: count, and the i-th with the
 * file it came from. */
size_t cet_routes_nconfigs(const struct cet_routes *r);
const struct cet_config *cet_routes_config(const struct cet_routes *r, size_t i, const char **path);
/* The routes in file order (the default not included): pattern and index of
 * its configuration. */
size_t cet_routes_count(const struct cet_routes *r);
const char *cet_routes_route(const struct cet_routes *r, size_t i, size_t *config);
/* Index of the default configuration, or -1 when there is none. */
long cet_routes_default(const struct cet_routes *r);

CET_END_DECL

#endif
