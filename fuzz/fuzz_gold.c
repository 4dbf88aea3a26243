/* Gold-text decoding: charset fallback, CleanEval clean-up, words. */
#include <stdlib.h>
#include <string.h>

#include "cetune/doc.h"
#include "cetune/text.h"
#include "fuzz.h"

static int check_word(const char *w, size_t n, void *ctx)
{
    (void)ctx;
    if (n == 0 || !cet_utf8_valid(w, n))
        abort(); /* words are never empty and always UTF-8 */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;
    size_t len;
    struct cet_error err;
    if (cet_decode_text(&text, &len, (const char *)data, size, &err))
        return 0;
    if (!cet_utf8_valid(text, len))
        abort();
    size_t n = cet_gold_cleanup(text, len);
    if (n > len || text[n] != 0)
        abort();
    cet_words(text, n, check_word, NULL);
    free(text);
    return 0;
}
