/* cetune-speed: what `cetune extract` costs per page, against the parser's
 * own cost.  Every page of the corpora (default: the five corpora of
 * ../shared/corpora) is read into memory once (gunzipped, as loading reads
 * it), then extracted with cet_page_extract on one thread, PASSES times.
 *
 *   cetune-speed [-c CONFIG | -x EXTRACTOR] [-f FORMAT] [-d CORPUS]... [-n PASSES]
 *       one configuration (default: the shipped one): pages, MB, the CPU
 *       seconds of the extractions, MB/s, and a digest of everything written
 *       (the same digest = byte-identical output).  Two such processes are
 *       what a whole-process timer pairs, e.g. against `-x alltext`.
 *   cetune-speed --compare [-c CONFIG | -x EXTRACTOR] [-f FORMAT] [-n PASSES]
 *       the configuration and alltext in turn, pass by pass (CPU time of
 *       this thread, so that other processes' load counts less), and the
 *       median of the pass-by-pass ratios configuration / alltext.
 *
 * alltext parses the page into the same model and renders all of its text:
 * the ratio is what the extractor (and what its configuration's format
 * needs besides) adds to parsing and rendering. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/parser.h>

#include "cetune/buf.h"
#include "cetune/config.h"
#include "cetune/corpus.h"
#include "cetune/page.h"
#include "util/sort.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* FNV-1a over everything written, page after page. */
static uint64_t digest(uint64_t h, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
    return h;
}

struct pages {
    struct cet_buf *v;
    size_t n, bytes;
};

/* Every readable page of the directories, in scan order. */
static void load_pages(struct pages *pg, const char *const *dirs, size_t ndirs)
{
    struct cet_entries entries;
    struct cet_error err;
    if (cet_corpus_scan(&entries, dirs, ndirs, &err)) {
        fprintf(stderr, "cetune-speed: %s\n", err.msg);
        exit(1);
    }
    pg->v = calloc(entries.n, sizeof *pg->v);
    if (!pg->v) {
        fprintf(stderr, "cetune-speed: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < entries.n; i++) {
        if (cet_entry_read_page(&pg->v[pg->n], &entries.v[i], &err)) {
            fprintf(stderr, "cetune-speed: skipped: %s\n", err.msg);
            continue;
        }
        pg->bytes += pg->v[pg->n++].len;
    }
    cet_entries_free(&entries);
}

/* One pass over the pages; returns its CPU seconds and folds the output
 * into *h. */
static double pass(struct cet_page *ctx, const struct cet_config *cfg, int format,
                   const struct pages *pg, struct cet_buf *out, uint64_t *h, size_t *failed)
{
    struct cet_page_opts opts = {.format = format};
    struct cet_error err;
    double t0 = cpu_now();
    for (size_t i = 0; i < pg->n; i++) {
        if (cet_page_extract(ctx, cfg, pg->v[i].p, pg->v[i].len, &opts, out, NULL, &err))
            ++*failed;
        *h = digest(*h, out->p, out->len);
    }
    return cpu_now() - t0;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cet_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: cetune-speed [--compare] [-c CONFIG | -x EXTRACTOR]\n"
               "                    [-f text|html|markdown|json] [-d CORPUS]... [-n PASSES]\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {{"compare", no_argument, NULL, 'C'},
                                             {"config", required_argument, NULL, 'c'},
                                             {"extractor", required_argument, NULL, 'x'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"passes", required_argument, NULL, 'n'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *dirs[16], *config = NULL, *extractor = NULL;
    size_t ndirs = 0;
    int compare = 0, format = CET_PAGE_TEXT, passes = 0, opt;
    while ((opt = getopt_long(argc, argv, "c:x:f:d:n:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'C': compare = 1; break;
        case 'c': config = optarg; break;
        case 'x': extractor = optarg; break;
        case 'f':
            if ((format = cet_page_format_find(optarg)) < 0) {
                fprintf(stderr, "cetune-speed: unknown format '%s'\n", optarg);
                return 2;
            }
            break;
        case 'd':
            if (ndirs == sizeof dirs / sizeof *dirs) {
                fprintf(stderr, "cetune-speed: at most 16 corpora\n");
                return 2;
            }
            dirs[ndirs++] = optarg;
            break;
        case 'n':
            if ((passes = atoi(optarg)) < 1) {
                fprintf(stderr, "cetune-speed: -n wants a positive number of passes\n");
                return 2;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc || (config && extractor)) {
        usage(stderr);
        return 2;
    }
    if (!passes)
        passes = compare ? 5 : 1;
    if (!ndirs) {
        static char paths[5][4096];
        static const char *const names[] = {"portals", "cleaneval-dev", "scrapinghub", "big5",
                                            "l3s-gn1"};
        for (int i = 0; i < 5; i++) {
            snprintf(paths[i], sizeof paths[i], "%s/../shared/corpora/%s", CETUNE_SOURCE_DIR,
                     names[i]);
            dirs[ndirs++] = paths[i];
        }
    }
    xmlInitParser();
    struct cet_error err;
    struct cet_config cfg, base;
    int rc = config ? cet_config_load(&cfg, config, &err)
             : extractor ? cet_config_default(&cfg, extractor, &err)
                         : cet_config_load_default(&cfg, &err);
    if (rc || cet_config_default(&base, "alltext", &err)) {
        fprintf(stderr, "cetune-speed: %s\n", err.msg);
        return 1;
    }
    struct pages pg = {0};
    load_pages(&pg, dirs, ndirs);
    if (!pg.n) {
        fprintf(stderr, "cetune-speed: no pages\n");
        return 1;
    }
    double mb = (double)pg.bytes / 1e6;
    struct cet_page *ctx;
    if (cet_page_new(&ctx, &err)) {
        fprintf(stderr, "cetune-speed: %s\n", err.msg);
        return 1;
    }
    struct cet_buf out = {0};
    uint64_t h = 0xcbf29ce484222325ULL, hb = h;
    size_t failed = 0, failed_base = 0;
    if (!compare) {
        double s = 0;
        for (int p = 0; p < passes; p++)
            s += pass(ctx, &cfg, format, &pg, &out, &h, &failed);
        printf("cetune-speed: %s, %s: %zu pages (%zu failed), %.1f MB, %d pass%s: %.3f s CPU, "
               "%.1f MB/s, output digest %016llx\n",
               cfg.ex->name, cet_page_format_name(format), pg.n, failed / passes, mb, passes,
               passes > 1 ? "es" : "", s, mb * passes / s, (unsigned long long)h);
    } else {
        /* A warm-up pass of each, then pairs in turn. */
        pass(ctx, &cfg, format, &pg, &out, &h, &failed);
        pass(ctx, &base, format, &pg, &out, &hb, &failed_base);
        double *a = malloc(3 * (size_t)passes * sizeof *a), *b = a + passes, *r = b + passes;
        for (int p = 0; p < passes; p++) {
            a[p] = pass(ctx, &cfg, format, &pg, &out, &h, &failed);
            b[p] = pass(ctx, &base, format, &pg, &out, &hb, &failed_base);
            r[p] = a[p] / b[p];
        }
        double ma = median(a, passes), mbase = median(b, passes), mr = median(r, passes);
        printf("cetune-speed: %zu pages, %.1f MB, %s, one thread, median of %d pass pairs\n",
               pg.n, mb, cet_page_format_name(format), passes);
        printf("  %-10s %8.3f s CPU  %6.1f MB/s\n", cfg.ex->name, ma, mb / ma);
        printf("  %-10s %8.3f s CPU  %6.1f MB/s\n", "alltext", mbase, mb / mbase);
        printf("  ratio %.3f (pass ratios %.3f to %.3f)\n", mr, r[0], r[passes - 1]);
        free(a);
    }
    cet_buf_free(&out);
    cet_page_free(ctx);
    cet_config_free(&cfg);
    cet_config_free(&base);
    for (size_t i = 0; i < pg.n; i++)
        cet_buf_free(&pg.v[i]);
    free(pg.v);
    return 0;
}
