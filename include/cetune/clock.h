/* The clock of time limits and timings: deadlines (cet_doc_parse_as,
 * struct cet_page_opts) are in these seconds. */
#ifndef CETUNE_CLOCK_H
#define CETUNE_CLOCK_H

#include "cetune/common.h"

CET_BEGIN_DECL

/* Seconds of CLOCK_MONOTONIC: only differences mean anything. */
double cet_now(void);

CET_END_DECL

#endif
