/* Internal to src/extract: every extractor's table, declared once for the
 * registry (registry.c) and for the pipeline's stages (pipeline.c). */
#ifndef CETUNE_EXTRACT_EXTRACTORS_H
#define CETUNE_EXTRACT_EXTRACTORS_H

#include "cetune/extractor.h"

extern const struct cet_extractor cet_extractor_alltext;
extern const struct cet_extractor cet_extractor_lqf;
extern const struct cet_extractor cet_extractor_ccb, cet_extractor_accb, cet_extractor_tccb;
extern const struct cet_extractor cet_extractor_density;
extern const struct cet_extractor cet_extractor_sw;
extern const struct cet_extractor cet_extractor_crunch, cet_extractor_mantratzis;
extern const struct cet_extractor cet_extractor_score;

#endif
