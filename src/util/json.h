/* JSON files with positions: cJSON parses, and a second light scan records
 * where each value starts, so every error can say file:line:col. */
#ifndef CETUNE_UTIL_JSON_H
#define CETUNE_UTIL_JSON_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cetune/error.h"

struct cet_json_pos {
    const cJSON *node;
    size_t off;     /* where the value starts */
    size_t key_off; /* where its member name starts (object members), else off */
};

struct cet_json {
    cJSON *root;
    char *text;
    size_t len;
    char *path;
    struct cet_json_pos *pos;
    size_t npos;
};

/* Reads and parses path; a syntax error gives "path:line:col: ...". */
int cet_json_load(struct cet_json *j, const char *path, struct cet_error *err);
/* Same for text already in memory (copied); path names it in messages. */
int cet_json_parse(struct cet_json *j, const char *text, size_t len, const char *path,
                   struct cet_error *err);
void cet_json_free(struct cet_json *j);
/* Fails with "path:line:col: message" at node (its member name when key is 1). */
int cet_json_fail(const struct cet_json *j, const cJSON *node, int key, struct cet_error *err,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Writes v with 15, 16 or 17 significant digits, the first that reads back
 * to the same bits ("null" when not finite, which readers refuse). */
void cet_json_format_exact(double v, char *buf, size_t size);
/* v as a raw cJSON number that reads back exactly (checkpoints), or NULL
 * when out of memory. */
cJSON *cet_json_exact(double v);

#endif
