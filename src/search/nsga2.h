/* NSGA-II's building blocks (src/search/nsga2.c), on members given as indices
 * idx[0..n) into an objective table obj (row i: nobj values, maximised) and
 * a violation table viol (0: feasible). */
#ifndef CETUNE_GA_NSGA2_H
#define CETUNE_GA_NSGA2_H

#include <stddef.h>

/* 1 when a constrained-dominates b (feasible before infeasible, smaller
 * violation first, else Pareto dominance). */
int cet_dominates(const double *a, const double *b, size_t nobj, double viol_a, double viol_b);
/* Fast non-dominated sort: front[i] (0 = non-dominated) of member i; -1
 * when out of memory. */
int cet_nsga2_fronts(size_t *front, const double *obj, size_t nobj, const double *viol,
                     const size_t *idx, size_t n);
/* Crowding distances of the members[0..m) of one front (positions into
 * idx) into dist[member]; -1 when out of memory. */
int cet_nsga2_crowding(double *dist, const double *obj, size_t nobj, const size_t *idx,
                       const size_t *members, size_t m);
/* Reorders idx[0..n) so that its first `keep` entries are NSGA-II's
 * survivors in crowded-comparison order; -1 when out of memory. */
int cet_nsga2_survive(size_t *idx, size_t n, size_t keep, const double *obj, size_t nobj,
                      const double *viol);

#endif
