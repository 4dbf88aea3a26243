/* The shipped configuration (configs/article.json): what `cetune extract`,
 * `cetune serve` and cet_page_extract use when no configuration is given.
 * It is an ordinary configuration file; only where it is found is special:
 * the caller's override (the command's $CETUNE_CONFIG: the library reads
 * no environment), then the installed data (cetune/datadir.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cetune/config.h"
#include "cetune/datadir.h"

int cet_config_shipped_path(char *out, size_t size, const char *override, struct cet_error *err)
{
    if (override && *override) {
        if (access(override, R_OK) != 0)
            return cet_fail(err, "%s: the file cannot be read", override);
        return snprintf(out, size, "%s", override) < (int)size
                   ? 0 : cet_fail(err, "the path %.40s... is too long", override);
    }
    if (cet_data_path(out, size, CET_CONFIG_SHIPPED, err) == 0)
        return 0;
    char why[sizeof err->msg];
    snprintf(why, sizeof why, "%s", err->msg);
    return cet_fail(err, "the shipped configuration %s; give a configuration", why);
}

int cet_config_load_default(struct cet_config *cfg, struct cet_error *err)
{
    char path[PATH_MAX + 64];
    if (cet_config_shipped_path(path, sizeof path, NULL, err))
        return -1;
    return cet_config_load(cfg, path, err);
}
