/* Sample files: parsing and matching against a small fixed corpus listing. */
#include <stdlib.h>
#include <string.h>

#include "cetune/corpus.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char **names;
    size_t n;
    struct cet_error err;
    if (cet_sample_parse(&names, &n, text, size, "fuzz.txt", &err) == 0) {
        struct cet_entry v[3] = {{.package = "a", .name = "x"},
                                 {.package = "a", .name = "y"},
                                 {.package = "b", .name = "x"}};
        struct cet_entries e = {v, 3, 3};
        uint8_t want[3];
        cet_sample_select(want, &e, names, n, "fuzz.txt", &err);
        cet_sample_free(names, n);
    }
    free(text);
    return 0;
}
