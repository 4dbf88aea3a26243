/* Prints the main text of one page with a tuned configuration, as
 * `cetune extract -c best.json PAGE` does (docs/api.md).
 *   cc extract_page.c $(pkg-config --cflags --libs cetune) -o extract_page
 *   ./extract_page runs/NAME/best.json page.html */
#include <stdio.h>

#include <cetune/buf.h>
#include <cetune/config.h>
#include <cetune/error.h>
#include <cetune/page.h>

int main(int argc, char **argv)
{
    struct cet_error err;
    struct cet_config cfg;
    struct cet_buf page = {0}, text = {0};
    struct cet_page *pg = NULL;
    if (argc != 3) {
        fprintf(stderr, "usage: extract_page CONFIG.json PAGE.html\n");
        return 2;
    }
    if (cet_config_load(&cfg, argv[1], &err))
        goto fail;
    int rc = cet_read_file(&page, argv[2], (size_t)64 << 20, &err) || cet_page_new(&pg, &err) ||
             cet_page_extract(pg, &cfg, page.p, page.len, NULL, &text, NULL, &err);
    if (!rc && text.len && (fwrite(text.p, 1, text.len, stdout) != text.len ||
                            (text.p[text.len - 1] != '\n' && putchar('\n') == EOF)))
        return 1;
    cet_page_free(pg);
    cet_buf_free(&page);
    cet_buf_free(&text);
    cet_config_free(&cfg);
    if (!rc)
        return 0;
fail:
    fprintf(stderr, "extract_page: %s\n", err.msg);
    return 1;
}
