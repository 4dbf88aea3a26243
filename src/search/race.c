/* Racing (evolve --race): most individuals a GA breeds are plainly worse
 * than the best one, and that shows after a few pages.  Following F-race
 * (Birattari et al.; irace), a generation's new individuals are scored on
 * the training documents in blocks, all of them together in one parallel
 * call per block, following one seeded order fixed for the run.  After
 * each block every one still racing is compared with the incumbent (the
 * best fully evaluated individual, whose per-document F1 is kept) on the
 * same documents by a one-sided paired test; one significantly worse stops
 * there, keeps its partial mean and is marked raced out (evolve.c ranks it
 * below every fully evaluated individual, so it is never elite, top or
 * best).  One that survives every block has been scored on every document,
 * and its fitness is summed in corpus order by cet_score_means, exactly as
 * without racing.
 *
 * Before the blocks, every new individual is scored on the incumbent's
 * weak pages, those where its F1 is below race_weak: on the pipeline, the
 * children that beat the incumbent did so mostly by rescuing one such
 * page (+0.7 to +1.0 on it, a few thousandths on the mean) while losing a
 * little on many others, so a test on the first blocks alone raced out
 * most real improvements (docs/racing.md).  Their gain on the weak pages,
 * A, is then known exactly, and the test asks whether the other pages'
 * differences are significantly below -A / (their number): whether the
 * individual's total over all pages is below the incumbent's.
 *
 * The test is a sign-flip (Fisher-Pitman) randomization test of that
 * mean, not a paired t-test or Wilcoxon's signed-rank test: the
 * differences are sparse (most pages tie), skewed and heavy-tailed, so a
 * t-test's standard deviation from the two or three pages that differ
 * after the first block claimed far more evidence than they hold, and
 * the signed-rank test asks about the median, not the mean the GA ranks
 * by.  The sign-flip test is exact whatever the distribution (symmetric
 * under the null), ignores ties by construction, and needs at least three
 * pages all going the same way before it can say p < 0.2.  Each test is
 * at alpha, without correction for the repeated looks, as in F-race: the
 * rate of dropping an individual as good as the incumbent is then above
 * alpha, which the defaults were tuned for (docs/racing.md). */
#include <stdlib.h>
#include <string.h>

#include "cetune/search.h"
#include "eval/signflip.h"
#include "search_internal.h"
#include "race.h"

/* ---- racing a generation ---- */

int cet_search_race_setup(struct cet_search *engine, cet_search_score_fn score, const uint32_t *order,
                      struct cet_error *err)
{
    size_t nd = engine->ndocs;
    if (!engine->opt.race)
        return cet_fail(err, "racing is not enabled");
    /* The test compares mean F1 per document; other objectives, constraints
     * and Pareto fronts would need their own paired statistic. */
    if (!cet_goal_is_default(&engine->opt.goal) || engine->measure)
        return cet_fail(err, "racing works with the default objective (mean F1) only, not with "
                             "another objective, constraints or a Pareto search");
    if (!nd)
        return cet_fail(err, "racing needs the number of training documents");
    struct cet_race *R = engine->race;
    if (!R && !(R = engine->race = calloc(1, sizeof *R)))
        return cet_fail(err, "out of memory");
    if (R->order && R->ndocs != nd)
        return cet_fail(err, "the stored racing order has %zu documents, the sample %zu",
                        R->ndocs, nd);
    if (!R->order) {
        if (!(R->order = malloc(nd * sizeof *R->order)))
            return cet_fail(err, "out of memory");
        memcpy(R->order, order, nd * sizeof *R->order);
        R->ndocs = nd;
        R->has_incumbent = 0;
    }
    size_t P = engine->opt.pop;
    if (!R->pos)
        R->pos = calloc(nd, sizeof *R->pos);
    if (!R->seq)
        R->seq = calloc(nd, sizeof *R->seq);
    if (!R->inc_f1)
        R->inc_f1 = calloc(nd, sizeof *R->inc_f1);
    if (!R->members)
        R->members = calloc(P, sizeof *R->members);
    if (!R->scores)
        R->scores = calloc(P * nd, sizeof *R->scores);
    if (!R->pos || !R->seq || !R->inc_f1 || !R->members || !R->scores)
        return cet_fail(err, "out of memory");
    uint8_t *seen = calloc(nd, 1);
    if (!seen)
        return cet_fail(err, "out of memory");
    int bad = 0;
    for (size_t i = 0; i < nd && !bad; i++) {
        bad = R->order[i] >= nd || seen[R->order[i]];
        if (!bad)
            seen[R->order[i]] = 1;
    }
    free(seen);
    if (bad)
        return cet_fail(err, "the racing order is not a permutation of the documents");
    /* The generation's sequence is set when it starts (cet_search_race_begin)
     * or, for one restored in progress, by the checkpoint reader. */
    R->score = score;
    return 0;
}

void cet_race_sequence(struct cet_race *R, double weak)
{
    size_t nd = R->ndocs, k = 0;
    int any = R->has_incumbent && weak > 0;
    for (size_t i = 0; any && i < nd; i++)
        if (R->inc_f1[R->order[i]] < weak)
            R->seq[k++] = R->order[i];
    R->nweak = k;
    for (size_t i = 0; i < nd; i++)
        if (!(any && R->inc_f1[R->order[i]] < weak))
            R->seq[k++] = R->order[i];
    for (size_t i = 0; i < nd; i++)
        R->pos[R->seq[i]] = (uint32_t)i;
}

void cet_race_free(struct cet_race *R)
{
    if (!R)
        return;
    free(R->order);
    free(R->seq);
    free(R->pos);
    free(R->inc_f1);
    free(R->members);
    free(R->scores);
    free(R);
}

/* Internal for evolve.c: the generation's members (archive indices) and
 * its new individuals, archive first .. first+n, start racing. */
void cet_search_race_begin(struct cet_search *engine, const size_t *members, size_t nmembers, size_t first,
                        size_t n)
{
    struct cet_race *R = engine->race;
    memcpy(R->members, members, nmembers * sizeof *members);
    R->nmembers = nmembers;
    R->first = first;
    R->n = n;
    R->done = 0;
    R->pending = 1;
    cet_race_sequence(R, engine->opt.race_weak);
    for (size_t j = 0; j < n; j++) {
        engine->ndone[first + j] = 0;
        engine->raced[first + j] = 0;
    }
}

/* Internal for this file and its tests: 1 when live individual j
 * (archive first + j) is significantly worse than the incumbent on the
 * first `done` documents of the sequence: its known gain A on the weak
 * pages (all scored: they come first) shifts the other pages' differences
 * by A / (their number), so the test asks whether its total over all
 * pages is below the incumbent's.  d is scratch of ndocs. */
int cet_search_race_worse(const struct cet_race *R, size_t j, double alpha, double *d)
{
    const struct cet_score *row = R->scores + j * R->ndocs;
    double gain = 0;
    for (size_t i = 0; i < R->nweak; i++)
        gain += row[R->seq[i]].f1 - R->inc_f1[R->seq[i]];
    double shift = R->ndocs > R->nweak ? gain / (double)(R->ndocs - R->nweak) : 0;
    size_t m = 0;
    for (size_t i = R->nweak; i < R->done; i++)
        d[m++] = row[R->seq[i]].f1 - R->inc_f1[R->seq[i]] + shift;
    return cet_signflip_pvalue(d, m) < alpha;
}

/* Means of individual j over the documents it was scored on, in corpus
 * order (all of them: the sum of a full evaluation). */
static void race_means(struct cet_search *engine, size_t j, struct cet_score *tmp)
{
    struct cet_race *R = engine->race;
    size_t i = R->first + j, nd = R->ndocs, m = 0;
    const struct cet_score *row = R->scores + j * nd;
    if (engine->ndone[i] < nd) {
        for (size_t d = 0; d < nd; d++)
            if (R->pos[d] < engine->ndone[i])
                tmp[m++] = row[d];
        row = tmp;
    } else {
        m = nd;
    }
    cet_score_means(row, 1, m, &engine->fit[i], &engine->prec[i], &engine->rec[i]);
    engine->f1[i] = engine->fit[i];
}

/* Internal for evolve.c: scores the pending generation's new individuals
 * block by block from where it stands; 0 when every one is fully evaluated
 * or raced out (fit, prec, rec set), 1 when cancel asked to stop (still
 * pending), -1 on error (still pending, at the last complete block). */
int cet_search_race_run(struct cet_search *engine, struct cet_error *err)
{
    struct cet_race *R = engine->race;
    size_t nd = R->ndocs, F = engine->nfull, n = R->n;
    /* The first block is the weak pages and race_first more. */
    size_t first = R->nweak + engine->opt.race_first;
    size_t maxb = first > engine->opt.race_block ? first : engine->opt.race_block;
    if (maxb > nd)
        maxb = nd;
    double *params = malloc((n ? n : 1) * (F ? F : 1) * sizeof *params);
    size_t *live = malloc((n ? n : 1) * sizeof *live);
    struct cet_score *block = malloc((n ? n : 1) * (maxb ? maxb : 1) * sizeof *block);
    struct cet_score *tmp = malloc(nd * sizeof *tmp);
    double *d = malloc(nd * sizeof *d);
    int rc = -1;
    if (!params || !live || !block || !tmp || !d) {
        cet_fail(err, "out of memory");
        goto done;
    }
    while (R->done < nd) {
        size_t nlive = 0;
        for (size_t j = 0; j < n; j++)
            if (!engine->raced[R->first + j] && engine->ndone[R->first + j] < nd)
                live[nlive++] = j;
        if (!nlive)
            break;
        if (engine->cancel && engine->cancel(engine->ctx)) {
            rc = 1;
            goto done;
        }
        size_t end = R->done ? R->done + engine->opt.race_block : first;
        if (end > nd)
            end = nd;
        size_t nb = end - R->done;
        for (size_t t = 0; t < nlive; t++)
            cet_params_expand(engine->desc, engine->genes + (R->first + live[t]) * engine->ngenes,
                              params + t * F);
        if (R->score(engine->ctx, params, nlive, R->seq + R->done, nb, block, err))
            goto done;
        for (size_t t = 0; t < nlive; t++) {
            for (size_t q = 0; q < nb; q++)
                R->scores[live[t] * nd + R->seq[R->done + q]] = block[t * nb + q];
            engine->ndone[R->first + live[t]] = (uint32_t)end;
        }
        engine->doc_evals += (long)(nlive * nb);
        R->done = end;
        /* The first generation has no incumbent yet: it is evaluated fully
         * (its best becomes the incumbent).  Racing it against the defaults
         * instead dropped good random individuals on the 490 dev documents
         * (docs/racing.md). */
        if (end == nd || !R->has_incumbent)
            continue;
        for (size_t t = 0; t < nlive; t++)
            if (cet_search_race_worse(R, live[t], engine->opt.race_alpha, d))
                engine->raced[R->first + live[t]] = 1;
    }
    for (size_t j = 0; j < n; j++)
        race_means(engine, j, tmp);
    rc = 0;
done:
    free(params);
    free(live);
    free(block);
    free(tmp);
    free(d);
    return rc;
}

/* Internal for evolve.c: the generation is complete; a new best (necessarily
 * one of its fully evaluated individuals) becomes the incumbent. */
void cet_search_race_end(struct cet_search *engine)
{
    struct cet_race *R = engine->race;
    size_t best;
    R->pending = 0;
    if (cet_search_best(engine, &best) || (R->has_incumbent && best == R->incumbent) ||
        best < R->first || best >= R->first + R->n)
        return;
    const struct cet_score *row = R->scores + (best - R->first) * R->ndocs;
    for (size_t d = 0; d < R->ndocs; d++)
        R->inc_f1[d] = row[d].f1;
    R->incumbent = best;
    R->has_incumbent = 1;
}
