/* CMA-ES over a parameter description (cmaes.c; docs/cmaes.md): the
 * (mu/mu_w, lambda)-CMA-ES of Hansen's tutorial (2016) on the float and
 * int genes, each normalised to [0, 1] (on a log scale where the
 * description says so), with the margin of Hamano et al. (2022) on the int
 * genes, CatCMA's categorical distributions (Hamano et al. 2024) on the
 * enum and bool genes, and IPOP restarts (Auger and Hansen 2005).
 *
 * The search state is private to cmaes.c.  It draws only from the rng it
 * is given; the same draws and the same rankings give bit-identical
 * states, and save -> restore gives back exactly the same state, so a run
 * continues as if never stopped. */
#ifndef CETUNE_CMAES_H
#define CETUNE_CMAES_H

#include <stddef.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_rng.h>

#include "cetune/error.h"
#include "cetune/params.h"

struct cet_cmaes;

struct cet_cmaes_settings {
    size_t lambda;      /* samples per iteration (0: 4 + floor(3 ln genes)) */
    double sigma0;      /* initial step size, in units of a gene's range */
    double resolution;  /* the float grid (search.h): a search narrower than a tenth of
                           it in every float gene has converged and restarts */
    double seed_weight; /* share of a seed's category in the categorical
                           distributions it starts (cet_cmaes_start) */
    int restarts;       /* IPOP: restart with twice the samples when converged */
};

/* The settings cetune uses unless told otherwise (docs/cmaes.md says how
 * they were chosen). */
void cet_cmaes_default_settings(struct cet_cmaes_settings *set);

/* A search over d's genes (d must outlive it), its mean at genome g
 * (normalised; NULL: the middle of every range, uniform categories). */
int cet_cmaes_create(struct cet_cmaes **out, const struct cet_params_desc *d,
                     const struct cet_cmaes_settings *set, const double *g,
                     struct cet_error *err);
void cet_cmaes_free(struct cet_cmaes *s);

/* Samples in the current iteration (cand in cet_cmaes_ask needs room for
 * this many genomes). */
size_t cet_cmaes_lambda(const struct cet_cmaes *s);
/* Iterations of the current restart, and restarts so far. */
long cet_cmaes_iterations(const struct cet_cmaes *s);
long cet_cmaes_restarts(const struct cet_cmaes *s);
/* The current step size and the distribution's mean as a genome (normalised). */
double cet_cmaes_sigma(const struct cet_cmaes *s);
void cet_cmaes_mean(const struct cet_cmaes *s, double *g);

/* Samples cet_cmaes_lambda(s) genomes into cand (normalised, never
 * forbidden: a forbidden sample is drawn again, and dropped after 20
 * tries); returns how many.  Draws only from rng.  The samples themselves
 * go to a scratch buffer inside s that the next cet_cmaes_tell reads; the
 * search state does not change. */
size_t cet_cmaes_ask(const struct cet_cmaes *s, gsl_rng *rng, double *cand);
/* Updates the distribution from the last ask: order[0..n) are indices of
 * its candidates, best first, fit[r] the fitness of order[r] (higher is
 * better; only its spread is read, to detect a flat search).  Candidates
 * not in order (unevaluated) do not count.  When the search has converged
 * (IPOP) it restarts from a mean drawn from rng with twice the samples;
 * stale (no sample of this ask was new: all were evaluated before) counts
 * as converged once the restart has had two iterations, since a
 * distribution that only draws known genomes has nothing left to learn.
 * *restarted (may be NULL) tells whether it restarted.
 * Returns 0, or -1 when out of memory. */
int cet_cmaes_tell(struct cet_cmaes *s, gsl_rng *rng, const size_t *order, const double *fit,
                   size_t n, int stale, int *restarted, struct cet_error *err);
/* Moves the mean to genome g (normalised) and, with the seed weight, the
 * categorical distributions towards g's categories: how the best seed
 * starts the search. */
void cet_cmaes_start(struct cet_cmaes *s, const double *g);

/* The whole state as JSON (exact doubles), or NULL when out of memory. */
cJSON *cet_cmaes_save(const struct cet_cmaes *s);
/* Rebuilds a state saved for d from j, an object of doc (which names the
 * file and positions in messages).  Every member is checked (a checkpoint
 * is untrusted input): a clear error naming it, never a crash. */
struct cet_json;
int cet_cmaes_restore(struct cet_cmaes **out, const struct cet_params_desc *d,
                      const struct cet_json *doc, const cJSON *j, struct cet_error *err);

#endif
