/* data/adhosts.txt, compiled in by cmake/embed.cmake (adhosts_data.c in
 * the build tree, which includes this header): the built-in ad-host list
 * of adhosts.c. */
#ifndef CETUNE_ADHOSTS_BUILTIN_H
#define CETUNE_ADHOSTS_BUILTIN_H

#include <stddef.h>

extern const char cet_adhosts_builtin[];     /* NUL-terminated */
extern const size_t cet_adhosts_builtin_len; /* without the NUL */

#endif
