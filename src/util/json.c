#include "json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "util/array.h"

/* The text and a place in it.  It is scanned twice: first by the strict
 * syntax check (c_*), then by the walker that records where each value
 * stands (the rest). */
struct scan {
    const char *s;
    size_t len, i;
    const char *msg;     /* check: the first error */
    int depth;           /* check: nesting depth */
    struct cet_json *j;  /* walk: the positions recorded */
    size_t cap;          /* walk: room in j->pos */
};

/* JSON white space (RFC 8259): space, tab, line feed, carriage return. */
static void skip_ws(struct scan *w)
{
    while (w->i < w->len &&
           (w->s[w->i] == ' ' || w->s[w->i] == '\t' || w->s[w->i] == '\n' || w->s[w->i] == '\r'))
        w->i++;
}

/* Walks text and tree together in document order: cJSON keeps members and
 * elements in source order, so the n-th value scanned is the n-th node. */
static void skip_string(struct scan *w)
{
    w->i++; /* opening quote */
    while (w->i < w->len && w->s[w->i] != '"') {
        if (w->s[w->i] == '\\')
            w->i++;
        w->i++;
    }
    w->i++;
}

static int record(struct scan *w, const cJSON *node, size_t off, size_t key_off)
{
    struct cet_json *j = w->j;
    if (CET_GROW(j->pos, w->cap, j->npos + 1, 64))
        return -1;
    j->pos[j->npos++] = (struct cet_json_pos){node, off, key_off};
    return 0;
}

static int walk(struct scan *w, const cJSON *node, size_t key_off)
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

/* A strict syntax check that pins the first error to its exact position
 * (cJSON only says roughly where it gave up). */
static int c_err(struct scan *c, const char *msg)
{
    c->msg = c->i >= c->len ? "unexpected end of file" : msg;
    return -1;
}

static int c_string(struct scan *c)
{
    c->i++;
    while (c->i < c->len) {
        unsigned char ch = (unsigned char)c->s[c->i];
        if (ch == '"') {
            c->i++;
            return 0;
        }
        if (ch < 0x20)
            return c_err(c, "control character in string (unterminated string?)");
        if (ch == '\\') {
            c->i++;
            if (c->i >= c->len)
                break;
            char e = c->s[c->i];
            if (e == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (c->i + (size_t)k >= c->len || !strchr("0123456789abcdefABCDEF", c->s[c->i + (size_t)k]) ||
                        !c->s[c->i + (size_t)k]) {
                        c->i += (size_t)k;
                        return c_err(c, "invalid \\u escape");
                    }
                c->i += 4;
            } else if (!strchr("\"\\/bfnrt", e) || !e) {
                return c_err(c, "invalid escape in string");
            }
        }
        c->i++;
    }
    return c_err(c, "unterminated string");
}

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static int c_number(struct scan *c)
{
    const char *s = c->s;
    if (s[c->i] == '-')
        c->i++;
    if (c->i < c->len && s[c->i] == '0')
        c->i++;
    else if (c->i < c->len && is_digit(s[c->i]))
        while (c->i < c->len && is_digit(s[c->i]))
            c->i++;
    else
        return c_err(c, "invalid number");
    if (c->i < c->len && s[c->i] == '.') {
        c->i++;
        if (c->i >= c->len || !is_digit(s[c->i]))
            return c_err(c, "invalid number: digits expected after '.'");
        while (c->i < c->len && is_digit(s[c->i]))
            c->i++;
    }
    if (c->i < c->len && (s[c->i] == 'e' || s[c->i] == 'E')) {
        c->i++;
        if (c->i < c->len && (s[c->i] == '+' || s[c->i] == '-'))
            c->i++;
        if (c->i >= c->len || !is_digit(s[c->i]))
            return c_err(c, "invalid number: digits expected in exponent");
        while (c->i < c->len && is_digit(s[c->i]))
            c->i++;
    }
    return 0;
}

static int c_value(struct scan *c)
{
    skip_ws(c);
    if (c->i >= c->len)
        return c_err(c, "");
    char ch = c->s[c->i];
    if (ch == '{' || ch == '[') {
        char close = ch == '{' ? '}' : ']';
        if (++c->depth > 512)
            return c_err(c, "nested too deeply");
        c->i++;
        skip_ws(c);
        if (c->i < c->len && c->s[c->i] == close) {
            c->i++;
            c->depth--;
            return 0;
        }
        for (;;) {
            if (ch == '{') {
                skip_ws(c);
                if (c->i >= c->len || c->s[c->i] != '"')
                    return c_err(c, "expected a member name in double quotes");
                if (c_string(c))
                    return -1;
                skip_ws(c);
                if (c->i >= c->len || c->s[c->i] != ':')
                    return c_err(c, "expected ':' after the member name");
                c->i++;
            }
            if (c_value(c))
                return -1;
            skip_ws(c);
            if (c->i < c->len && c->s[c->i] == ',') {
                c->i++;
                continue;
            }
            if (c->i < c->len && c->s[c->i] == close) {
                c->i++;
                c->depth--;
                return 0;
            }
            return c_err(c, ch == '{' ? "expected ',' or '}' after an object member"
                                      : "expected ',' or ']' after an array element");
        }
    }
    if (ch == '"')
        return c_string(c);
    if (ch == '-' || is_digit(ch))
        return c_number(c);
    static const char *const lits[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(lits[k]);
        if (c->len - c->i >= n && !strncmp(c->s + c->i, lits[k], n)) {
            c->i += n;
            return 0;
        }
    }
    return c_err(c, "expected a value (object, array, string, number, true, false or null)");
}

/* Returns 0 when text is one valid JSON value, else -1 with *off and *msg. */
static int check_syntax(const char *text, size_t len, size_t *off, const char **msg)
{
    struct scan c = {.s = text, .len = len};
    int rc = c_value(&c);
    if (rc == 0) {
        skip_ws(&c);
        if (c.i < len) {
            c.msg = "unexpected text after the value";
            rc = -1;
        }
    }
    *off = c.i;
    *msg = c.msg;
    return rc;
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
    /* A UTF-8 byte-order mark (editors on Windows add one) is accepted: as
     * white space, so that every line:col stays where an editor shows it. */
    if (len >= 3 && !memcmp(j->text, "\xEF\xBB\xBF", 3))
        memset(j->text, ' ', 3);
    if (memchr(text, 0, len)) {
        int line, col;
        cet_line_col(j->text, strlen(j->text), &line, &col);
        cet_json_free(j);
        return cet_fail(err, "%s:%d:%d: NUL byte: this is not a JSON text file", path, line, col);
    }
    size_t off;
    const char *what;
    if (check_syntax(j->text, len, &off, &what)) {
        int line, col;
        cet_line_col(j->text, off, &line, &col);
        int rc = cet_fail(err, "%s:%d:%d: malformed JSON: %s", path, line, col, what);
        cet_json_free(j);
        return rc;
    }
    j->root = cJSON_ParseWithLength(j->text, len);
    if (!j->root) {
        cet_json_free(j);
        return cet_fail(err, "%s: out of memory", path);
    }
    struct scan w = {.s = j->text, .len = len, .j = j};
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

/* cJSON prints a double with 15 digits when that reads back only
 * approximately; a resumed run needs the exact bits, so doubles go out with
 * 15, 16 or 17 digits, the first that strtod (cJSON's parser) reads back
 * exactly (%g drops trailing zeros, so short values stay short). */
void cet_json_format_exact(double v, char *buf, size_t size)
{
    if (!isfinite(v)) { /* no JSON number: null, which the reader refuses */
        snprintf(buf, size, "null");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
}

cJSON *cet_json_exact(double v)
{
    char buf[64];
    cet_json_format_exact(v, buf, sizeof buf);
    return cJSON_CreateRaw(buf);
}
