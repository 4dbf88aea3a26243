/* Parameter descriptions (params/NAME.json): parse and validate; a
 * description that is accepted must give genomes that expand and read
 * back, and must breed a few generations (random genomes, crossover,
 * mutation, normalisation on the ranges it chose, conditions and forbidden
 * combinations) without fault, evaluating nothing forbidden. */
#include <stdlib.h>
#include <string.h>

#include "cetune/search.h"
#include "fuzz.h"
#include "fuzz_fitness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cet_params_desc d;
    struct cet_error err;
    if (cet_params_parse(&d, (const char *)data, size, "fuzz.json", NULL, &err)) {
        if (strncmp(err.msg, "fuzz.json", 9) != 0)
            __builtin_trap(); /* every error names the file */
        return 0;
    }
    double *g = calloc(d.ngenes + 1, sizeof *g), *back = calloc(d.ngenes + 1, sizeof *back);
    double *full = calloc(d.ex->nparams + 1, sizeof *full);
    if (!g || !back || !full)
        abort();
    /* The defaults and every seed lie inside the description. */
    cet_params_default_genome(&d, g);
    cet_params_expand(&d, g, full);
    if (cet_params_genome(&d, full, back, &err) || memcmp(g, back, d.ngenes * sizeof *g))
        __builtin_trap();
    for (size_t s = 0; s < d.nseeds; s++) {
        cet_params_expand(&d, d.seeds + s * d.ngenes, full);
        if (cet_params_genome(&d, full, back, &err))
            __builtin_trap();
    }
    struct cet_search *engine;
    if (cet_search_new(&engine, &d, &err) == 0) {
        struct cet_search_options o = *cet_search_opts(engine);
        struct cet_search_status st;
        o.pop = 6;
        o.generations = 3;
        o.elite = 1;
        o.seed = size;
        cet_search_set_options(engine, &o);
        if (cet_search_setup(engine, fuzz_fitness, NULL, &d, &err) == 0)
            for (cet_search_status(engine, &st); st.stop == CET_STOP_NONE; cet_search_status(engine, &st))
                if (cet_search_generation(engine, &err))
                    __builtin_trap(); /* the callback never fails or cancels */
        /* Nothing forbidden was evaluated, and every archived genome is
         * normalised (inactive genes at their defaults): normalising again
         * changes nothing. */
        cet_search_status(engine, &st);
        for (size_t i = 0; i < st.narch; i++) {
            struct cet_individual ind;
            cet_search_individual(engine, i, &ind);
            const double *a = ind.genes;
            memcpy(g, a, d.ngenes * sizeof *g);
            cet_genome_normalise(&d, o.resolution, g);
            if (cet_params_forbidden(&d, a) || memcmp(g, a, d.ngenes * sizeof *g))
                __builtin_trap();
        }
        cet_search_free(engine);
    }
    free(g);
    free(back);
    free(full);
    cet_params_free(&d);
    return 0;
}
