/* Library versions: what the program was compiled against (libxml2, whose
 * run-time version is a number) or runs with (GSL, cJSON, utf8proc, zlib).
 * OpenMP's is the _OPENMP date of the specification, with its name. */
#include "cetune/version.h"

#include <stdio.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_version.h>
#include <libxml/xmlversion.h>
#include <utf8proc.h>
#include <zlib.h>

static const char *openmp_version(void)
{
    static const struct { long date; const char *name; } specs[] = {
        {200505, "2.5"}, {200805, "3.0"}, {201107, "3.1"}, {201307, "4.0"},
        {201511, "4.5"}, {201811, "5.0"}, {202011, "5.1"}, {202111, "5.2"}, {202411, "6.0"}};
    static char buf[32];
    const char *name = "?";
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        if (specs[i].date == _OPENMP)
            name = specs[i].name;
    snprintf(buf, sizeof buf, "%s (%ld)", name, (long)_OPENMP);
    return buf;
}

size_t cet_versions(const struct cet_version **out)
{
    static struct cet_version v[7];
    v[0] = (struct cet_version){"cetune", "cetune", CETUNE_VERSION};
    v[1] = (struct cet_version){"libxml2", "libxml2", LIBXML_DOTTED_VERSION};
    v[2] = (struct cet_version){"gsl", "GSL", gsl_version};
    v[3] = (struct cet_version){"cjson", "cJSON", cJSON_Version()};
    v[4] = (struct cet_version){"utf8proc", "utf8proc", utf8proc_version()};
    v[5] = (struct cet_version){"zlib", "zlib", zlibVersion()};
    v[6] = (struct cet_version){"openmp", "OpenMP", openmp_version()};
    *out = v;
    return sizeof v / sizeof *v;
}
