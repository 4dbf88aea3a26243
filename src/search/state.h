/* The engine's whole state as JSON, for checkpoints (src/run/checkpoint.c
 * writes the run record around it; docs/formats.md, "checkpoint.json").
 * Library-internal: it speaks cJSON, which the public API does not. */
#ifndef CETUNE_GA_STATE_H
#define CETUNE_GA_STATE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cetune/error.h"
#include "cetune/search.h"
#include "util/json.h"

/* Adds the engine's members to the object j: "options", "seeds", the counters,
 * "rng"/"rng_state", "archive" (and "measures"), "population", "history",
 * "race" with racing, and "strategy" ({"name": ..., the strategy's state}).
 * engine is not const: the archive's formatted rows are kept, so each
 * checkpoint formats only the rows added since the last.  0 or -1. */
int cet_search_save(struct cet_search *engine, cJSON *j, struct cet_error *err);
/* Rebuilds a search of desc (which must outlive it) from what cet_search_save
 * wrote into root, an object of doc (for file:line:col in errors); ndocs
 * is the run's training documents.  A checkpoint without "strategy"
 * restores as the GA strategy.  cet_search_setup (and cet_search_race_setup with
 * racing) then completes it, keeping its random stream and state. */
int cet_search_restore(struct cet_search **out, const struct cet_params_desc *desc, size_t ndocs,
                   const struct cet_json *doc, const cJSON *root, struct cet_error *err);
/* Every option as JSON (run.json's "settings", the checkpoint's "options"),
 * or NULL when out of memory. */
cJSON *cet_search_options_object(const struct cet_search_options *o);

#endif
