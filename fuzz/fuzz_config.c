/* Configuration JSON (and, through it, the JSON layer with positions). */
#include <string.h>

#include "cetune/config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cet_config cfg;
    struct cet_error err;
    if (cet_config_parse(&cfg, (const char *)data, size, "fuzz.json", &err) == 0) {
        struct cet_buf b = {0};
        cet_config_json(&b, cfg.ex, cfg.params, NULL, 0.5, 1);
        struct cet_config again;
        /* What we write must read back. */
        if (cet_config_parse(&again, b.p, b.len, "again.json", &err) != 0)
            __builtin_trap();
        cet_config_free(&again);
        cet_buf_free(&b);
        cet_config_free(&cfg);
    } else if (strncmp(err.msg, "fuzz.json", 9) != 0) {
        __builtin_trap(); /* every error names the file */
    }
    return 0;
}
