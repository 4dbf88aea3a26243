/* Internal to src/extract: the pipeline extractor's parameter table is built
 * from the stage extractors' tables; the registry builds it before it hands
 * out any extractor. */
#ifndef CETUNE_EXTRACT_PIPELINE_H
#define CETUNE_EXTRACT_PIPELINE_H

#include "cetune/extractor.h"

extern struct cet_extractor cet_extractor_pipeline;
/* Builds the table once; safe to call from any thread, any number of times. */
void cet_pipeline_init(void);

#endif
