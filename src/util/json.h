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

/* Building a file with cJSON (the checkpoint, run.json): every call either
 * succeeds or sets *bad (an int * in scope), so that a file is written
 * whole or not at all: out of memory must not leave a checkpoint that
 * cannot resume. */
#define JSON_OK(call) (void)((call) || (*bad = 1))

/* ---- typed members of untrusted files (json_read.c) ---- */

/* The first failure fills err with "file:line:col: WHAT: ..." and marks the
 * reader failed; every later call then does nothing and returns a harmless
 * value, so a reader checks `failed` once after a group of members.
 * Numbers are checked before any cast (checkpoints are edited by hand or
 * cut by a crash). */
struct cet_json_reader {
    const struct cet_json *j;
    struct cet_error *err;
    const char *what; /* the kind of file, first in every message ("checkpoint") */
    int failed;
};

/* Fails at node with "WHAT: " and the message; returns -1. */
int cet_jr_fail(struct cet_json_reader *r, const cJSON *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Member name of obj, which must have the type (cJSON_Number, cJSON_String,
 * cJSON_Array, cJSON_Object, or cJSON_True for a boolean); NULL when
 * missing, mistyped or already failed. */
const cJSON *cet_jr_member(struct cet_json_reader *r, const cJSON *obj, const char *name,
                           int type);
/* The same with the message of a file written by people ("\"name\" must be
 * DESC", at obj when the member is absent; desc NULL: the type's name, "a
 * number", "an object"...), without the WHAT prefix when r->what is NULL. */
const cJSON *cet_jr_get(struct cet_json_reader *r, const cJSON *obj, const char *name, int type,
                        const char *desc);
/* The same for an optional member: NULL, without failing, when absent. */
const cJSON *cet_jr_opt(struct cet_json_reader *r, const cJSON *obj, const char *name, int type,
                        const char *desc);
/* 1 when v has the type; else fails at v (v NULL: at the root) with the
 * message and returns 0. */
int cet_jr_is(struct cet_json_reader *r, const cJSON *v, int type, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
double cet_jr_num(struct cet_json_reader *r, const cJSON *obj, const char *name);
/* An optional number: def when absent (files of older versions). */
double cet_jr_opt_num(struct cet_json_reader *r, const cJSON *obj, const char *name, double def);
/* A whole number from lo to hi (lo after a failure). */
double cet_jr_whole(struct cet_json_reader *r, const cJSON *obj, const char *name, double lo,
                    double hi);
/* A finite number from lo to hi (lo after a failure). */
double cet_jr_within(struct cet_json_reader *r, const cJSON *obj, const char *name, double lo,
                     double hi);
/* An optional number from lo to hi: def when absent (files of older versions). */
double cet_jr_opt_within(struct cet_json_reader *r, const cJSON *obj, const char *name, double lo,
                         double hi, double def);
/* A string member ("" after a failure). */
const char *cet_jr_str(struct cet_json_reader *r, const cJSON *obj, const char *name);
/* Fills v[0..n) from a JSON array of exactly n numbers; 0 or -1. */
int cet_jr_numbers(struct cet_json_reader *r, const cJSON *a, double *v, size_t n);
/* Copies member name of obj, an array of strings (items says what they are,
 * for the messages: "\"dirs\" holds directories"; an optional member
 * that is absent gives none), into *out, *n of them, NULL-terminated.  The
 * caller frees each and *out, also after a failure (what was copied stays
 * there).  0 or -1. */
int cet_jr_strings(struct cet_json_reader *r, const cJSON *obj, const char *name,
                   const char *items, int required, char ***out, size_t *n);

#endif
