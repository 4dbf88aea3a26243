/* Runs a fuzz target over files and directories of inputs (seed corpora and
 * kept crash inputs), so every regression input is a plain CTest test. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/buf.h"
#include "cetune/error.h"
#include "fuzz.h"

static int run_file(const char *path)
{
    struct cet_buf b = {0};
    struct cet_error err;
    if (cet_read_file(&b, path, (size_t)1 << 30, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)(b.p ? b.p : ""), b.len);
    cet_buf_free(&b);
    return 0;
}

int main(int argc, char **argv)
{
    size_t files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue; /* an empty regressions folder may not exist in a checkout */
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]))
                return 1;
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *de;
        while (d && (de = readdir(d))) {
            if (de->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
            if (run_file(path))
                return 1;
            files++;
        }
        if (d)
            closedir(d);
    }
    printf("%zu inputs replayed\n", files);
    return files ? 0 : 1;
}
