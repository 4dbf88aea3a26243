/* The metadata reader (cet_meta_read) on any bytes: JSON-LD, meta tags,
 * microdata, bylines, relative canonical links.  Every field it gives is
 * clean text: non-empty, no control characters or doubled spaces, a date
 * of the form YYYY-MM-DD.
 *
 * An input starting with a byte below 8 declares a charset (as HTTP would)
 * for the rest of the input; odd ones also give the page a URL, the base
 * of a relative canonical link. */
#include <stdlib.h>
#include <string.h>

#include "cetune/meta.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const declared[8] = {NULL, "utf-8", "windows-1252", "utf-16le",
                                            "koi8-r", "shift_jis", "gb18030", "no-such-charset"};
    const char *charset = NULL, *url = NULL;
    if (size && data[0] < 8) {
        charset = declared[data[0]];
        url = data[0] & 1 ? "https://example.com/a/b?c=d" : NULL;
        data++, size--;
    }
    struct cet_meta m;
    struct cet_error err;
    if (cet_meta_read(&m, (const char *)data, size, charset, url, &err) == 0) {
        for (int f = 0; f < CET_META_N; f++) {
            const unsigned char *v = (const unsigned char *)m.v[f];
            if (!v)
                continue;
            size_t n = strlen((const char *)v);
            if (n == 0 || v[0] == ' ' || v[n - 1] == ' ')
                abort();
            for (size_t i = 0; i < n; i++)
                if (v[i] < 0x20 || (v[i] == ' ' && v[i + 1] == ' '))
                    abort();
            if (f == CET_META_DATE && (n != 10 || v[4] != '-' || v[7] != '-'))
                abort();
        }
    }
    cet_meta_free(&m);
    return 0;
}
