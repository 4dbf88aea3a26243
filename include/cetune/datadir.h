/* The installed data of cetune (share/cetune/: the shipped configuration,
 * the labelling page), found from the running program. */
#ifndef CETUNE_DATADIR_H
#define CETUNE_DATADIR_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

/* Where the data file rel (e.g. "configs/article.json") is: the first
 * readable of DIR/share/cetune/rel and DIR/../share/cetune/rel, DIR being
 * the running program's directory (a build tree, where CMake copies the
 * data, or an installed bin/), then the installation prefix libcetune was
 * built for.  Returns 0 with the path in out, or -1 with
 * "rel was not found (looked for A, B, C)" in err. */
int cet_data_path(char *out, size_t size, const char *rel, struct cet_error *err);

CET_END_DECL

#endif
