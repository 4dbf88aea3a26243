/* Checkpoints (checkpoint.json) are untrusted input: a person may edit
 * one and a crash may cut one.  Reading any bytes either fails with a
 * message naming the file, or gives a GA that breeds a few generations
 * without fault and checkpoints and reads back to the same archive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_fitness.h"
#include "run/run_internal.h"

static char dir[] = "/tmp/cetune-fuzz-checkpoint-XXXXXX";

/* Every input is written to and removed from the same directory, so
 * only the directory itself is left when the fuzzer or replayer ends. */
static void remove_dir(void)
{
    char path[64];
    snprintf(path, sizeof path, "%s/checkpoint.json", dir);
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int made;
    if (!made) {
        if (!mkdtemp(dir))
            abort();
        made = 1;
        atexit(remove_dir);
    }
    char path[64];
    snprintf(path, sizeof path, "%s/checkpoint.json", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    struct cet_search *engine, *back;
    struct cet_params_desc d, d2;
    struct cet_run_info info, info2;
    struct cet_error err;
    if (cet_run_restore(&engine, &d, &info, dir, NULL, &err)) {
        if (!strstr(err.msg, "checkpoint"))
            __builtin_trap(); /* every error names the file */
        return 0;
    }
    struct cet_search_options o = *cet_search_opts(engine);
    struct cet_search_status st, st2 = {0};
    cet_search_status(engine, &st);
    if (o.generations > st.gen + 3)
        o.generations = st.gen + 3; /* a few generations, not a whole run */
    cet_search_set_options(engine, &o);
    if (o.pop <= 64 && st.stop == CET_STOP_NONE &&
        cet_search_setup(engine, fuzz_fitness, NULL, &d, &err) == 0)
        while (cet_search_status(engine, &st), st.stop == CET_STOP_NONE)
            if (cet_search_generation(engine, &err) < 0)
                break;
    cet_search_status(engine, &st);
    if (cet_run_checkpoint(engine, &info, dir, &err) == 0) {
        int same = cet_run_restore(&back, &d2, &info2, dir, NULL, &err) == 0;
        if (same)
            cet_search_status(back, &st2);
        same = same && st2.narch == st.narch;
        for (size_t i = 0; same && i < st.narch; i++)
            same = !memcmp(cet_search_genes(back, i), cet_search_genes(engine, i), d.ngenes * sizeof(double));
        if (!same)
            __builtin_trap(); /* what was written reads back */
        cet_search_free(back);
        cet_params_free(&d2);
        cet_run_info_free(&info2);
    }
    cet_search_free(engine);
    cet_params_free(&d);
    cet_run_info_free(&info);
    unlink(path);
    return 0;
}
