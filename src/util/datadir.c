/* Finding the installed data (include/cetune/datadir.h): beside the running
 * program first, so that a build tree and a relocated installation each
 * read their own copy, then the prefix the library was configured for
 * (programs linking libcetune). */
#include "cetune/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef CETUNE_DATADIR
#define CETUNE_DATADIR "/usr/local/share/cetune"
#endif

int cet_data_path(char *out, size_t size, const char *rel, struct cet_error *err)
{
    char exe[PATH_MAX], tried[3][PATH_MAX + 64];
    size_t ntried = 0;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        /* build/cetune reads build/share/...; PREFIX/bin/cetune reads PREFIX/share/... */
        snprintf(tried[ntried++], sizeof tried[0], "%s/share/cetune/%s", exe, rel);
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(tried[ntried++], sizeof tried[0], "%s/share/cetune/%s", exe, rel);
        }
    }
    snprintf(tried[ntried++], sizeof tried[0], "%s/%s", CETUNE_DATADIR, rel);
    for (size_t i = 0; i < ntried; i++)
        if (access(tried[i], R_OK) == 0)
            return snprintf(out, size, "%s", tried[i]) < (int)size
                       ? 0 : cet_fail(err, "the path %s is too long", tried[i]);
    return cet_fail(err, "%s was not found (looked for %s%s%s%s%s)", rel, tried[0],
                    ntried > 1 ? ", " : "", ntried > 1 ? tried[1] : "", ntried > 2 ? ", " : "",
                    ntried > 2 ? tried[2] : "");
}
