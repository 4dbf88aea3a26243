/* Stopping rules, checked after every complete generation, in this order:
 * - --generations: the run has had that many generations (the first being
 *   the initial population);
 * - --patience: the paper's rule, "we do not find any improvements for
 *   several generations in a row": the best fitness has not risen more than
 *   epsilon above its value at the last improvement for `patience`
 *   generations (small gains below epsilon do not reset the count, but they
 *   add up: the reference moves only when the gain exceeds epsilon), and
 *   as many evaluations as --patience-evals (CMA-ES's own: its stagnation
 *   window; the GA's: none) have been spent since that improvement;
 * - --max-evals: the evaluation budget is spent;
 * - --time: the run has used its time (wall clock, so not reproducible).
 *   A Pareto search (--pareto) has no best fitness: it improves when an
 *   individual of the generation joins the non-dominated front.
 * Adaptive mutation (the paper's "adapt the mutation rate depending on the
 * current developments in the individuals' fitness") multiplies sigma by
 * adapt_factor for every stagnant generation, up to half the range, and
 * falls back to sigma on the next improvement. */
#include <math.h>
#include <stdlib.h>

#include "cetune/ga.h"
#include "ga_internal.h"

/* 1 when an individual born in generation gen is on the Pareto front. */
static int front_joined(const struct cet_ga *ga, long gen)
{
    size_t *front, n;
    if (cet_ga_front(ga, &front, &n))
        return 1; /* out of memory: never stop for stagnation on a guess */
    int joined = 0;
    for (size_t k = 0; k < n && !joined; k++)
        joined = ga->born[front[k]] == gen;
    free(front);
    return joined;
}

void cet_ga_check_stop(struct cet_ga *ga)
{
    const struct cet_ga_options *o = &ga->opt;
    size_t best;
    double f = cet_ga_best(ga, &best) ? 0 : ga->fit[best];
    int improved = o->goal.npareto ? front_joined(ga, ga->gen) : f > ga->best_ref + o->epsilon;
    if (ga->gen == 0 || improved) {
        ga->best_ref = f;
        ga->last_improve = ga->gen;
        ga->evals_improve = ga->evals;
    }
    int stagnant = o->patience > 0 && ga->gen - ga->last_improve >= o->patience &&
                   (o->patience_evals <= 0 || ga->evals - ga->evals_improve >= o->patience_evals);
    ga->stop = CET_STOP_NONE;
    if (o->generations > 0 && ga->gen + 1 >= o->generations)
        ga->stop = CET_STOP_GENERATIONS;
    else if (stagnant)
        ga->stop = CET_STOP_PATIENCE;
    else if (o->max_evals > 0 && ga->evals >= o->max_evals)
        ga->stop = CET_STOP_EVALS;
    else if (o->time > 0 && ga->elapsed >= o->time)
        ga->stop = CET_STOP_TIME;
}

double cet_sigma_adapted(const struct cet_ga_options *o, long stagnant)
{
    double s = o->mutation_sigma;
    if (!o->adaptive)
        return s;
    for (long k = 0; k < stagnant && s < 0.5; k++)
        s *= o->adapt_factor;
    return fmin(s, fmax(0.5, o->mutation_sigma));
}

const char *cet_ga_stop_name(enum cet_stop s)
{
    switch (s) {
    case CET_STOP_NONE: return "none";
    case CET_STOP_GENERATIONS: return "generations";
    case CET_STOP_PATIENCE: return "patience";
    case CET_STOP_EVALS: return "max-evals";
    case CET_STOP_TIME: return "time";
    case CET_STOP_EXHAUSTED: return "exhausted";
    }
    return "?";
}
