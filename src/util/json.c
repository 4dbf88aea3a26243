#include "cetune/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"

/* Walks text and tree together in document order: cJSON keeps members and
 * elements in source order, so the n-th value scanned is the n-th node. */
struct walker {
    const char *s;
    size_t len, i;
    struct cet_json *j;
    size_t cap;
};

static void skip_ws(struct walker *w)
{
    while (w->i < w->len && strchr(" \t\r\n", w->s[w->i]) && w->s[w->i])
        w->i++;
}

static void skip_string(struct walker *w)
{
    w->i++; /* opening quote */
    while (w->i < w->len && w->s[w->i] != '"') {
        if (w->s[w->i] == '\\')
            w->i++;
        w->i++;
    }
    w->i++;
}

static int record(struct walker *w, const cJSON *node, size_t off, size_t key_off)
{
    struct cet_json *j = w->j;
    if (j->npos == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 64;
        struct cet_json_pos *p = realloc(j->pos, cap * sizeof *p);
        if (!p)
            return -1;
        j->pos = p;
        w->cap = cap;
    }
    j->pos[j->npos++] = (struct cet_json_pos){node, off, key_off};
    return 0;
}

static int walk(struct walker *w, const cJSON *node, size_t key_off)
{
    skip_ws(w);
    size_t off = w->i;
    if (record(w, node, off, key_off ? key_off : off))
        return -1;
    if (cJSON_IsObject(node) || cJSON_IsArray(node)) {
        int obj = cJSON_IsObject(node);
        w->i++; /* { or [ */
        for (const cJSON *c = node->child; c; c = c->next) {
            skip_ws(w);
            size_t k = 0;
            if (obj) {
                k = w->i;
                skip_string(w);
                skip_ws(w);
                w->i++; /* : */
            }
            if (walk(w, c, k))
                return -1;
            skip_ws(w);
            if (w->i < w->len && w->s[w->i] == ',')
                w->i++;
        }
        skip_ws(w);
        w->i++; /* } or ] */
    } else if (cJSON_IsString(node)) {
        skip_string(w);
    } else {
        while (w->i < w->len && !strchr(",]} \t\r\n", w->s[w->i]))
            w->i++;
    }
    return 0;
}

int cet_json_parse(struct cet_json *j, const char *text, size_t len, const char *path,
                   struct cet_error *err)
{
    memset(j, 0, sizeof *j);
    j->text = malloc(len + 1);
    j->path = strdup(path);
    if (!j->text || !j->path) {
        cet_json_free(j);
        return cet_fail(err, "%s: out of memory", path);
    }
    memcpy(j->text, text, len);
    j->text[len] = 0;
    j->len = len;
    if (memchr(text, 0, len)) {
        int line, col;
        cet_line_col(j->text, strlen(j->text), &line, &col);
        cet_json_free(j);
        return cet_fail(err, "%s:%d:%d: NUL byte: this is not a JSON text file", path, line, col);
    }
    const char *end = NULL;
    j->root = cJSON_ParseWithLengthOpts(j->text, len, &end, 0);
    if (!j->root) {
        size_t off = end && end >= j->text && end <= j->text + len ? (size_t)(end - j->text) : 0;
        int line, col;
        cet_line_col(j->text, off, &line, &col);
        const char *what = off >= len ? "unexpected end of file" : "syntax error";
        int rc = cet_fail(err, "%s:%d:%d: malformed JSON: %s", path, line, col, what);
        cet_json_free(j);
        return rc;
    }
    /* Trailing content after the value is an error too. */
    size_t tail = end ? (size_t)(end - j->text) : len;
    while (tail < len && strchr(" \t\r\n", j->text[tail]))
        tail++;
    if (tail < len) {
        int line, col;
        cet_line_col(j->text, tail, &line, &col);
        cet_json_free(j);
        return cet_fail(err, "%s:%d:%d: malformed JSON: unexpected text after the value", path,
                        line, col);
    }
    struct walker w = {j->text, len, 0, j, 0};
    if (walk(&w, j->root, 0)) {
        cet_json_free(j);
        return cet_fail(err, "%s: out of memory", path);
    }
    return 0;
}

int cet_json_load(struct cet_json *j, const char *path, struct cet_error *err)
{
    struct cet_buf b = {0};
    memset(j, 0, sizeof *j);
    if (cet_read_file(&b, path, (size_t)64 << 20, err))
        return -1;
    int rc = cet_json_parse(j, b.p, b.len, path, err);
    cet_buf_free(&b);
    return rc;
}

void cet_json_free(struct cet_json *j)
{
    cJSON_Delete(j->root);
    free(j->text);
    free(j->path);
    free(j->pos);
    memset(j, 0, sizeof *j);
}

int cet_json_fail(const struct cet_json *j, const cJSON *node, int key, struct cet_error *err,
                  const char *fmt, ...)
{
    size_t off = 0;
    for (size_t i = 0; i < j->npos; i++)
        if (j->pos[i].node == node) {
            off = key ? j->pos[i].key_off : j->pos[i].off;
            break;
        }
    int line, col;
    cet_line_col(j->text, off, &line, &col);
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cet_fail(err, "%s:%d:%d: %s", j->path, line, col, msg);
}
