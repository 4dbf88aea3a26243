/* The WARC reader (cet_warc_open_mem, cet_warc_next, cet_warc_seek) on any
 * bytes: it ends, each call moves on, a page's body is NUL-terminated at
 * its length, and seeking to a record's offset and skip reads that record
 * again. */
#include <stdlib.h>
#include <string.h>

#include "cetune/warc.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cet_warc *w, *again;
    struct cet_error err;
    if (cet_warc_open_mem(&w, data, size, "fuzz.warc", 1 << 20, &err))
        return 0;
    if (cet_warc_open_mem(&again, data, size, "fuzz.warc", 1 << 20, &err)) {
        cet_warc_close(w);
        return 0;
    }
    struct cet_warc_record r, s;
    size_t calls = 0;
    int rc;
    while ((rc = cet_warc_next(w, &r, &err)) != 0) {
        if (++calls > size + 2)
            abort(); /* a call that does not move on */
        if (rc < 0) {
            if (!strstr(err.msg, "fuzz.warc"))
                abort(); /* every message names the file */
            continue;
        }
        if ((unsigned)r.kind >= CET_WARC_NKINDS || !r.type || !r.target_uri || !r.record_id)
            abort();
        if (r.kind == CET_WARC_PAGE && (!r.body || r.body[r.len] != 0 || r.len > 1 << 20))
            abort();
        if (r.kind != CET_WARC_PAGE && r.body)
            abort();
        if (cet_warc_seek(again, r.offset, r.skip, &err) == 0 &&
            cet_warc_next(again, &s, &err) == 1 && strcmp(s.record_id, r.record_id))
            abort(); /* the offset names another record */
    }
    cet_warc_close(again);
    cet_warc_close(w);
    return 0;
}
