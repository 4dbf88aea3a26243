/* The search options' table beyond the public API (cetune/search.h): its
 * checks and its JSON members, which speak cJSON (options.c). */
#ifndef CETUNE_GA_OPTIONS_H
#define CETUNE_GA_OPTIONS_H

#include <cjson/cJSON.h>

#include "cetune/error.h"
#include "cetune/search.h"
#include "util/json.h"

/* The row's field of o as a number (an enum's index, a flag 0/1), and back. */
double cet_option_number(const struct cet_option *row, const struct cet_search_options *o);
void cet_option_set_number(const struct cet_option *row, struct cet_search_options *o, double v);
/* Every number of o in its row's range, every enum one of its values: 0,
 * or -1 with err naming the flag and the range. */
int cet_search_options_check(const struct cet_search_options *o, struct cet_error *err);
/* Adds a member per row to j, under the row's name: 0, or -1 when out of
 * memory. */
int cet_search_options_json(cJSON *j, const struct cet_search_options *o);
/* Reads what cet_search_options_json wrote (or a checkpoint written before
 * the table: a row's old name, a later row's absent value) from obj into
 * o, each value checked against its row: 0, or -1 with r failed. */
int cet_search_options_read(struct cet_json_reader *r, const cJSON *obj, struct cet_search_options *o);

#endif
