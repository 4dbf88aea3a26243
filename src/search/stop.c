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
 * (Adaptive mutation, which reads the generations without improvement, is
 * the GA's: src/ga/mutate.c.) */
#include <math.h>
#include <stdlib.h>

#include "cetune/search.h"
#include "search_internal.h"

/* 1 when an individual born in generation gen is on the Pareto front. */
static int front_joined(const struct cet_search *engine, long gen)
{
    size_t *front, n;
    if (cet_search_front(engine, &front, &n))
        return 1; /* out of memory: never stop for stagnation on a guess */
    int joined = 0;
    for (size_t k = 0; k < n && !joined; k++)
        joined = engine->born[front[k]] == gen;
    free(front);
    return joined;
}

void cet_search_check_stop(struct cet_search *engine)
{
    const struct cet_search_options *o = &engine->opt;
    size_t best;
    double f = cet_search_best(engine, &best) ? 0 : engine->fit[best];
    int improved = o->goal.npareto ? front_joined(engine, engine->gen) : f > engine->best_ref + o->epsilon;
    if (engine->gen == 0 || improved) {
        engine->best_ref = f;
        engine->last_improve = engine->gen;
        engine->evals_improve = engine->evals;
    }
    int stagnant = o->patience > 0 && engine->gen - engine->last_improve >= o->patience &&
                   (o->patience_evals <= 0 || engine->evals - engine->evals_improve >= o->patience_evals);
    engine->stop = CET_STOP_NONE;
    if (o->generations > 0 && engine->gen + 1 >= o->generations)
        engine->stop = CET_STOP_GENERATIONS;
    else if (stagnant)
        engine->stop = CET_STOP_PATIENCE;
    else if (o->max_evals > 0 && engine->evals >= o->max_evals)
        engine->stop = CET_STOP_EVALS;
    else if (o->time > 0 && engine->elapsed >= o->time)
        engine->stop = CET_STOP_TIME;
}

const char *cet_search_stop_name(enum cet_stop s)
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
