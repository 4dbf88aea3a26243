/* Data-driven extractor tests: every tests/data/extract/NAME.expect names a page,
 * an extractor and parameters, and holds the exact text the extractor must
 * produce, through cet_page_extract (as `cetune extract` writes it):
 *
 *   page: lqf-basic.html
 *   extractor: lqf
 *   param: t=0.25          (any number of lines; defaults otherwise)
 *   format: text           (or html, markdown; text is the default)
 *   ---
 *   expected text...
 */

#include "cetune/buf.h"
#include "cetune/config.h"
#include "cetune/page.h"
#include "test.h"

static void run_case(const char *dir, const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    struct cet_buf spec = {0}, page = {0}, out = {0};
    struct cet_error err;
    if (cet_read_file(&spec, path, 1 << 24, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(0);
        return;
    }
    char *sep = strstr(spec.p, "\n---\n");
    CHECK(sep != NULL);
    if (!sep) {
        cet_buf_free(&spec);
        return;
    }
    *sep = 0;
    const char *expected = sep + 5;
    struct cet_config cfg = {0};
    int have_cfg = 0, format = CET_PAGE_TEXT;
    char pagefile[1024] = "";
    for (char *line = strtok(spec.p, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "page: ", 6)) {
            snprintf(pagefile, sizeof pagefile, "%s", line + 6);
        } else if (!strncmp(line, "extractor: ", 11)) {
            have_cfg = cet_config_default(&cfg, line + 11, &err) == 0;
            if (!have_cfg)
                fprintf(stderr, "%s: %s\n", path, err.msg);
            CHECK(have_cfg);
        } else if (!strncmp(line, "param: ", 7)) {
            int ok = have_cfg && cet_config_set(&cfg, line + 7, &err) == 0;
            if (!ok)
                fprintf(stderr, "%s: %s\n", path, err.msg);
            CHECK(ok);
        } else if (!strncmp(line, "format: ", 8)) {
            format = cet_page_format_find(line + 8);
            CHECK(format >= 0);
        }
    }
    CHECK(have_cfg);
    snprintf(path, sizeof path, "%s/%s", dir, pagefile);
    if (!have_cfg || cet_read_file(&page, path, 1 << 26, &err)) {
        CHECK(0);
        goto done;
    }
    struct cet_page *pg = NULL;
    CHECK(cet_page_new(&pg, &err) == 0);
    struct cet_page_opts opts = {.format = format < 0 ? CET_PAGE_TEXT : (enum cet_page_format)format};
    int rc = pg ? cet_page_extract(pg, &cfg, page.p, page.len, &opts, &out, NULL, &err) : -1;
    if (rc)
        fprintf(stderr, "%s: %s\n", file, err.msg);
    CHECK(rc == 0);
    int same = rc == 0 && !strcmp(out.p, expected);
    if (rc == 0 && !same)
        fprintf(stderr, "%s: %s produced:\n%s---- expected:\n%s----\n", file, cfg.ex->name, out.p,
                expected);
    CHECK(same);
    cet_page_free(pg);
done:
    cet_config_free(&cfg);
    cet_buf_free(&spec);
    cet_buf_free(&page);
    cet_buf_free(&out);
}

int main(void)
{
    const char *dir = CETUNE_TEST_DATA "/extract";
    char **names;
    int n = test_files(dir, ".expect", &names);
    for (int i = 0; i < n; i++) {
        int before = test_failures;
        run_case(dir, names[i]);
        fprintf(stderr, "%-60s %s\n", names[i], test_failures == before ? "ok" : "FAILED");
    }
    test_files_free(names, n);
    CHECK(n > 0);
    TEST_END();
}
