/* The shipped configuration (configs/article.json): what `cetune extract`,
 * `cetune serve` and cet_page_extract use when no configuration is given.
 * It is an ordinary configuration file; only where it is found is special:
 * the caller's override (the command's $CETUNE_CONFIG: the library reads
 * no environment), then beside the running program (the build tree, where
 * CMake copies it, or an installed prefix's share/cetune), then the prefix
 * the library was configured for (programs linking libcetune). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cetune/config.h"

#ifndef CETUNE_DATADIR
#define CETUNE_DATADIR "/usr/local/share/cetune"
#endif

static int readable(const char *path)
{
    return access(path, R_OK) == 0;
}

int cet_config_shipped_path(char *out, size_t size, const char *override, struct cet_error *err)
{
    if (override && *override) {
        if (!readable(override))
            return cet_fail(err, "%s: the file cannot be read", override);
        return snprintf(out, size, "%s", override) < (int)size
                   ? 0 : cet_fail(err, "the path %.40s... is too long", override);
    }
    char exe[PATH_MAX], tried[3][PATH_MAX + 64];
    size_t ntried = 0;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        /* build/cetune reads build/share/...; PREFIX/bin/cetune reads PREFIX/share/... */
        snprintf(tried[ntried++], sizeof tried[0], "%s/share/cetune/%s", exe, CET_CONFIG_SHIPPED);
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(tried[ntried++], sizeof tried[0], "%s/share/cetune/%s", exe, CET_CONFIG_SHIPPED);
        }
    }
    snprintf(tried[ntried++], sizeof tried[0], "%s/%s", CETUNE_DATADIR, CET_CONFIG_SHIPPED);
    for (size_t i = 0; i < ntried; i++)
        if (readable(tried[i]))
            return snprintf(out, size, "%s", tried[i]) < (int)size
                       ? 0 : cet_fail(err, "the path %s is too long", tried[i]);
    return cet_fail(err, "the shipped configuration %s was not found (looked for %s%s%s%s%s); "
                         "give a configuration",
                    CET_CONFIG_SHIPPED, tried[0], ntried > 1 ? ", " : "", ntried > 1 ? tried[1] : "",
                    ntried > 2 ? ", " : "", ntried > 2 ? tried[2] : "");
}

int cet_config_load_default(struct cet_config *cfg, struct cet_error *err)
{
    char path[PATH_MAX + 64];
    if (cet_config_shipped_path(path, sizeof path, NULL, err))
        return -1;
    return cet_config_load(cfg, path, err);
}
