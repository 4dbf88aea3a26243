/* The blurring at the heart of content code blurring (src/extract/ccb.c),
 * exposed so that tests/unit/test_blur.c can check it; not a public API. */
#ifndef CETUNE_EXTRACT_CCB_H
#define CETUNE_EXTRACT_CCB_H

#include <stddef.h>

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

#endif
