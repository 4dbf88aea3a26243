/* The versions of cetune and of the libraries it was built with, for
 * `cetune --version` and run.json. */
#ifndef CETUNE_VERSION_H
#define CETUNE_VERSION_H

#include <stddef.h>

#include "cetune/common.h"

CET_BEGIN_DECL

struct cet_version {
    const char *key;     /* as in run.json's "versions": "cetune", "libxml2", "gsl", ... */
    const char *name;    /* for people: "cetune", "libxml2", "GSL", ... */
    const char *version; /* "2.9.14"; OpenMP's as "4.5 (201511)" */
};

/* Sets *out to the table (static, never freed) and returns its length:
 * cetune first, then libxml2, GSL, cJSON, utf8proc, zlib and OpenMP. */
size_t cet_versions(const struct cet_version **out);

CET_END_DECL

#endif
