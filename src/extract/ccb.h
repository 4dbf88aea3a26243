/* The blurring at the heart of content code blurring (src/extract/ccb.c),
 * exposed so that tests/unit/test_blur.c can check it and the block scorer
 * (score.c) can use the blurred ratios; not a public API. */
#ifndef CETUNE_EXTRACT_CCB_H
#define CETUNE_EXTRACT_CCB_H

#include <stddef.h>

#include "cetune/doc.h"
#include "cetune/error.h"

/* Largest radius the blurring accepts; larger ones are clamped. */
#define CET_CCB_MAX_RADIUS 1024

/* Fills w[0..radius] with the Gaussian weights exp(-j^2 / (2 sigma^2)) of
 * offsets j = 0..radius, scaled so that the whole window -radius..radius
 * sums to 1. */
void cet_ccb_weights(float *w, int radius, double sigma);

/* One blurring step: out[i] = the w-weighted mean of v[i-radius .. i+radius]
 * (w from cet_ccb_weights).  Near the ends of the vector the weights that
 * fall outside are dropped and the rest renormalised, so a constant vector
 * stays constant.  Returns the largest |out[i] - v[i]|. */
float cet_ccb_blur_step(float *out, const float *v, size_t n, const float *w, int radius);

/* Blurs v[0..n) in place, step after step, until a step changes no value by
 * eps or more, or after max_steps steps (at least one).  tmp is scratch for
 * n floats.  Returns the number of steps taken. */
int cet_ccb_blur(float *v, float *tmp, size_t n, int radius, double sigma, double eps,
                 int max_steps);

/* The content code vectors: one entry per character (ccb), the same without
 * anchor tags (accb), one entry per tag or word (tccb). */
enum cet_ccb_variant { CET_CCB_CHARS, CET_CCB_ADAPTED, CET_CCB_TOKENS };

/* The mean blurred content code ratio of every text node, in the order of
 * doc->texts, into ratio[0 .. doc->ntexts), for variant v at radius r (clamped
 * to the extractors' range) with the default sigma, eps and max_steps: what
 * ccb, accb and tccb compare with t.  Returns 0, or -1 with err filled. */
int cet_ccb_text_ratios(const struct cet_doc *doc, enum cet_ccb_variant v, int r, float *ratio,
                        struct cet_error *err);

#endif
