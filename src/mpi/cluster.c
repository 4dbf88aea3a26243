/* Distributed evaluation with MPI (cluster.h).  Rank 0 drives; the other
 * ranks wait in cet_cluster_serve for a command header broadcast by rank 0,
 * then take part in that command's collectives:
 *
 *   LOAD     scatter every rank's entries, load them, gather per entry
 *            "loaded, bytes" or "skipped, reason"
 *   PREPARE  broadcast the extractor and metric, bind an evaluator to the
 *            shard, gather a status per rank
 *   EVAL     broadcast k configurations (and the documents, for a subset:
 *            racing's blocks; or when the caller wants every score),
 *            gather per rank a status and 3 counts per (configuration,
 *            document): the score is a function of the counts
 *            (cet_score_set), so 12 bytes per document rebuild it exactly
 *   SUMS     broadcast k configurations and the goal; every rank evaluates
 *            its range and adds its scores to the running sums of the
 *            documents before it (cet_goal_sums), passed from rank to rank
 *            in rank order, so they meet the documents in corpus order:
 *            a few hundred bytes per configuration and rank, whatever the
 *            number of documents
 *   STATS    gather every rank's traffic counters
 *   TASK     broadcast the bytes of a task of the program's own
 *            (cet_cluster_task), which then makes its own MPI calls
 *   STOP     leave
 *
 * Shards are contiguous ranges of the corpus order, so rank r's documents
 * follow rank r-1's and the gathered rows are already in corpus order. */
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cetune/buf.h"
#include "cluster.h"

enum { CMD_STOP, CMD_LOAD, CMD_PREPARE, CMD_EVAL, CMD_SUMS, CMD_STATS, CMD_TASK };

#define MSG 512 /* bytes of a rank's error message */

struct cet_cluster {
    int rank, size, threads;
    size_t np; /* parameters of the prepared extractor */
    struct cet_entries shard; /* this rank's entries of the last load */
    struct cet_corpus local;  /* its documents */
    struct cet_evaluator *ev;
    uint64_t *docoff; /* every rank: corpus index of each rank's first document; [size] = total */
    uint32_t *pkg_last; /* per local document: its package's size when it is the last, else 0 */
    size_t npkgs;       /* packages of the whole corpus */
    struct cet_cluster_traffic traffic; /* this rank's, in EVAL */
    cet_cluster_task_fn task;           /* what TASK runs on the other ranks */
};

int cet_cluster_init(struct cet_cluster **out, int *argc, char ***argv, struct cet_error *err)
{
    int provided;
    *out = NULL;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return cet_fail(err, "MPI_Init failed");
    struct cet_cluster *cl = calloc(1, sizeof *cl);
    if (!cl) {
        MPI_Finalize();
        return cet_fail(err, "out of memory");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &cl->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &cl->size);
    cl->docoff = calloc((size_t)cl->size + 1, sizeof *cl->docoff);
    if (!cl->docoff) {
        free(cl);
        MPI_Finalize();
        return cet_fail(err, "out of memory");
    }
    *out = cl;
    return 0;
}

int cet_cluster_rank(const struct cet_cluster *cl)
{
    return cl->rank;
}

int cet_cluster_size(const struct cet_cluster *cl)
{
    return cl->size;
}

static void bcast_cmd(int64_t h[4])
{
    MPI_Bcast(h, 4, MPI_INT64_T, 0, MPI_COMM_WORLD);
}

/* Every rank's counters to rank 0 (STATS). */
static void stats_part(const struct cet_cluster *cl, uint64_t *all)
{
    uint64_t mine[4] = {cl->traffic.sent, cl->traffic.received, cl->traffic.batches,
                        cl->traffic.configs};
    MPI_Gather(mine, 4, MPI_UINT64_T, all, 4, MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

int cet_cluster_traffic(struct cet_cluster *cl, struct cet_cluster_traffic *per_rank,
                        struct cet_error *err)
{
    uint64_t *all = malloc((size_t)cl->size * 4 * sizeof *all);
    if (!all)
        return cet_fail(err, "out of memory");
    int64_t h[4] = {CMD_STATS, 0, 0, 0};
    bcast_cmd(h);
    stats_part(cl, all);
    for (int r = 0; r < cl->size; r++)
        per_rank[r] = (struct cet_cluster_traffic){all[4 * r], all[4 * r + 1], all[4 * r + 2],
                                                   all[4 * r + 3]};
    free(all);
    return 0;
}

static void drop_shard(struct cet_cluster *cl)
{
    cet_evaluator_free(cl->ev);
    cl->ev = NULL;
    cet_corpus_free(&cl->local);
    cet_entries_free(&cl->shard);
    free(cl->pkg_last);
    cl->pkg_last = NULL;
    cl->npkgs = 0;
}

void cet_cluster_end(struct cet_cluster *cl)
{
    if (!cl)
        return;
    if (cl->rank == 0) {
        int64_t h[4] = {CMD_STOP, 0, 0, 0};
        bcast_cmd(h);
    }
    drop_shard(cl);
    free(cl->docoff);
    free(cl);
    MPI_Finalize();
}

void cet_shard_plan(const uint64_t *cost, size_t n, int nranks, size_t *first)
{
    uint64_t total = 0, cum = 0;
    for (size_t i = 0; i < n; i++)
        total += cost[i];
    first[0] = 0;
    size_t i = 0;
    for (int r = 1; r < nranks; r++) {
        /* The first entry whose middle lies at or beyond r/nranks of the total. */
        while (i < n && (long double)(2 * cum + cost[i]) * nranks < 2.0L * r * total) {
            cum += cost[i];
            i++;
        }
        first[r] = i;
    }
    first[nranks] = n;
}

/* ---- entries on the wire: a flags byte, then NUL-terminated strings ---- */

/* E_SEEN: rank 0 found the page (stat) when it planned the shards. */
enum {
    E_GOLD_MISSING = 1,
    E_CLEANEVAL = 2,
    E_GOLD_PATH = 4,
    E_GOLD_INLINE = 8,
    E_SEEN = 16,
    E_GOLD_PSEUDO = 32,
    E_MAX_BYTES = 64, /* then max_bytes, in decimal, after the strings */
    E_UNSCORED = 128  /* then the unscored ranges, in decimal, after max_bytes */
};

/* The unscored ranges as one string: the bounds in decimal, space-separated. */
static int pack_unscored(struct cet_buf *b, const struct cet_entry *e)
{
    for (size_t j = 0; j < 2 * e->nunscored; j++)
        if (cet_buf_printf(b, j ? " %u" : "%u", (unsigned)e->unscored[j]))
            return -1;
    return cet_buf_add(b, "", 1);
}

static int unpack_unscored(struct cet_entry *e, const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += *p == ' ';
    if (!*s || n % 2 == 0 || !(e->unscored = malloc((n + 1) * sizeof *e->unscored)))
        return -1;
    e->nunscored = (n + 1) / 2;
    char *end = (char *)s;
    for (size_t j = 0; j <= n; j++)
        e->unscored[j] = (uint32_t)strtoul(end, &end, 10);
    return 0;
}

static int pack_entry(struct cet_buf *b, const struct cet_entry *e, int seen)
{
    unsigned char flags =
        (unsigned char)((e->gold_missing ? E_GOLD_MISSING : 0) | (e->cleaneval ? E_CLEANEVAL : 0) |
                        (e->gold_path ? E_GOLD_PATH : 0) | (e->gold_inline ? E_GOLD_INLINE : 0) |
                        (e->gold_pseudo ? E_GOLD_PSEUDO : 0) | (e->max_bytes ? E_MAX_BYTES : 0) |
                        (e->nunscored ? E_UNSCORED : 0) | (seen ? E_SEEN : 0));
    char max[24];
    snprintf(max, sizeof max, "%zu", e->max_bytes);
    return cet_buf_add(b, (const char *)&flags, 1) ||
           cet_buf_add(b, e->package, strlen(e->package) + 1) ||
           cet_buf_add(b, e->name, strlen(e->name) + 1) ||
           cet_buf_add(b, e->html_path, strlen(e->html_path) + 1) ||
           (e->gold_path && cet_buf_add(b, e->gold_path, strlen(e->gold_path) + 1)) ||
           (e->gold_inline && cet_buf_add(b, e->gold_inline, strlen(e->gold_inline) + 1)) ||
           (e->max_bytes && cet_buf_add(b, max, strlen(max) + 1)) ||
           (e->nunscored && pack_unscored(b, e));
}

/* The next string of p[*at .. len), copied; NULL when out of memory or bytes. */
static char *take_str(const char *p, size_t len, size_t *at)
{
    const char *s = p + *at, *z = *at < len ? memchr(s, 0, len - *at) : NULL;
    if (!z)
        return NULL;
    *at += (size_t)(z - s) + 1;
    return strdup(s);
}

/* The entries, and in seen[i] whether rank 0 found entry i's page. */
static int unpack_entries(struct cet_entries *out, uint8_t **seen, const char *p, size_t len,
                          size_t n)
{
    memset(out, 0, sizeof *out);
    if (!(out->v = calloc(n ? n : 1, sizeof *out->v)) || !(*seen = calloc(n ? n : 1, 1)))
        return -1;
    out->cap = n;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (at >= len)
            return -1;
        int flags = (unsigned char)p[at++];
        struct cet_entry *e = &out->v[out->n++];
        e->gold_missing = (flags & E_GOLD_MISSING) != 0;
        e->cleaneval = (flags & E_CLEANEVAL) != 0;
        e->gold_pseudo = (flags & E_GOLD_PSEUDO) != 0;
        (*seen)[i] = (flags & E_SEEN) != 0;
        if (!(e->package = take_str(p, len, &at)) || !(e->name = take_str(p, len, &at)) ||
            !(e->html_path = take_str(p, len, &at)) ||
            ((flags & E_GOLD_PATH) && !(e->gold_path = take_str(p, len, &at))) ||
            ((flags & E_GOLD_INLINE) && !(e->gold_inline = take_str(p, len, &at))))
            return -1;
        if (flags & E_MAX_BYTES) {
            char *max = take_str(p, len, &at);
            if (!max)
                return -1;
            e->max_bytes = (size_t)strtoull(max, NULL, 10);
            free(max);
        }
        if (flags & E_UNSCORED) {
            char *u = take_str(p, len, &at);
            int bad = !u || unpack_unscored(e, u);
            free(u);
            if (bad)
                return -1;
        }
    }
    return 0;
}

/* ---- LOAD ---- */

/* Per entry of the shard: 'L' and the HTML bytes (8, native order), or 'S'
 * and the reason, NUL-terminated.  The local corpus lists loaded documents
 * and skips in entry order, so walking both side by side tells which is which. */
static int pack_status(struct cet_buf *b, const struct cet_entries *shard,
                       const struct cet_corpus *c)
{
    size_t kd = 0, ks = 0;
    for (size_t i = 0; i < shard->n; i++) {
        const struct cet_entry *e = &shard->v[i];
        const struct cet_doc *d = kd < c->ndocs ? c->docs[kd] : NULL;
        if (d && !strcmp(d->package, e->package) && !strcmp(d->name, e->name)) {
            uint64_t bytes = d->bytes;
            if (cet_buf_add(b, "L", 1) || cet_buf_add(b, (const char *)&bytes, sizeof bytes))
                return -1;
            kd++;
        } else {
            const char *why = ks < c->nskips ? c->skips[ks++].reason : "not loaded";
            if (cet_buf_add(b, "S", 1) || cet_buf_add(b, why, strlen(why) + 1))
                return -1;
        }
    }
    return 0;
}

/* A page rank 0 found but this rank cannot: the ranks do not see the same
 * files (a file system missing on a node), which would make the result
 * depend on where the ranks run, so the run stops rather than skip it. */
static int check_seen(const struct cet_cluster *cl, const uint8_t *seen, char *msg, size_t size)
{
    for (size_t i = 0; i < cl->shard.n; i++) {
        struct stat sb;
        const char *path = cl->shard.v[i].html_path;
        if (seen[i] && stat(path, &sb) != 0) {
            snprintf(msg, size, "rank %d cannot load its shard: %.300s: %s (rank 0 found it; "
                     "every rank must see the corpora at the same paths)", cl->rank, path,
                     strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* This rank's part of LOAD: receive the shard, load it, send the status:
 * per entry as pack_status, or 'E' and a message naming the rank (and the
 * document when one is to blame) when the shard cannot be loaded. */
static int load_part(struct cet_cluster *cl, const int *sizes, const int *displs, const char *all,
                     unsigned flags, int threads, char **status_all, int **ssizes,
                     struct cet_error *err)
{
    int my = 0;
    int64_t nmine = 0;
    char msg[MSG] = "";
    uint8_t *seen = NULL;
    MPI_Scatter(sizes, 1, MPI_INT, &my, 1, MPI_INT, 0, MPI_COMM_WORLD);
    /* the number of entries rides in the first 8 bytes of each part */
    char *buf = malloc(my ? (size_t)my : 1);
    int ok = buf != NULL;
    MPI_Scatterv(all, sizes, displs, MPI_BYTE, buf, my, MPI_BYTE, 0, MPI_COMM_WORLD);
    drop_shard(cl);
    cl->threads = threads;
    struct cet_buf st = {0};
    if (ok && (size_t)my >= sizeof nmine) {
        memcpy(&nmine, buf, sizeof nmine);
        ok = !unpack_entries(&cl->shard, &seen, buf + sizeof nmine, (size_t)my - sizeof nmine,
                             (size_t)nmine);
    }
    free(buf);
    struct cet_error lerr;
    if (!ok)
        snprintf(msg, sizeof msg, "rank %d: out of memory receiving its shard", cl->rank);
    else if (check_seen(cl, seen, msg, sizeof msg))
        ok = 0;
    else if (cet_corpus_load(&cl->local, &cl->shard, NULL, flags, threads, &lerr) ||
             pack_status(&st, &cl->shard, &cl->local)) {
        ok = 0;
        snprintf(msg, sizeof msg, "rank %d: out of memory loading its shard", cl->rank);
    }
    free(seen);
    if (!ok) {
        st.len = 0;
        if (cet_buf_add(&st, "E", 1) || cet_buf_add(&st, msg, strlen(msg) + 1))
            st.len = 0; /* 0 bytes: out of memory, said by rank 0 */
    }
    int slen = (int)st.len;
    int *rs = NULL, *rd = NULL;
    char *rall = NULL;
    if (cl->rank == 0) {
        rs = calloc((size_t)cl->size, sizeof *rs);
        rd = calloc((size_t)cl->size, sizeof *rd);
    }
    MPI_Gather(&slen, 1, MPI_INT, rs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (cl->rank == 0 && rs && rd) {
        size_t tot = 0;
        for (int r = 0; r < cl->size; r++) {
            rd[r] = (int)tot;
            tot += (size_t)rs[r];
        }
        rall = malloc(tot ? tot : 1);
    }
    MPI_Gatherv(st.p, slen, MPI_BYTE, rall, rs, rd, MPI_BYTE, 0, MPI_COMM_WORLD);
    cet_buf_free(&st);
    free(rd);
    if (cl->rank == 0) {
        *status_all = rall;
        *ssizes = rs;
        if (!rall || !rs)
            return cet_fail(err, "out of memory");
    }
    return ok ? 0 : cet_fail(err, "%s", msg);
}

/* Every rank's entries: a count (8 bytes) then the packed entries, for
 * MPI_Scatterv; the wanted entries' indices into wi and the plan into first. */
static int pack_shards(struct cet_buf *all, int *sizes, int *displs, size_t *wi, size_t *first,
                       const struct cet_entries *e, const uint8_t *want, int N)
{
    size_t nw = 0;
    uint64_t *cost = malloc((e->n ? e->n : 1) * sizeof *cost);
    uint8_t *seen = malloc(e->n ? e->n : 1);
    if (!cost || !seen) {
        free(cost);
        free(seen);
        return -1;
    }
    for (size_t i = 0; i < e->n; i++) {
        if (want && !want[i])
            continue;
        struct stat sb;
        /* Cost: the page's bytes (what parsing, the model and the evaluation grow with). */
        seen[nw] = stat(e->v[i].html_path, &sb) == 0;
        cost[nw] = 1 + (seen[nw] ? (uint64_t)sb.st_size : 0) +
                   (e->v[i].gold_inline ? strlen(e->v[i].gold_inline) : 0);
        wi[nw++] = i;
    }
    cet_shard_plan(cost, nw, N, first);
    free(cost);
    int rc = 0;
    for (int r = 0; r < N && !rc; r++) {
        int64_t n = (int64_t)(first[r + 1] - first[r]);
        size_t at = all->len;
        rc = cet_buf_add(all, (const char *)&n, sizeof n);
        for (size_t q = first[r]; q < first[r + 1] && !rc; q++)
            rc = pack_entry(all, &e->v[wi[q]], seen[q]);
        if (all->len > (size_t)INT_MAX)
            rc = -1;
        displs[r] = (int)at;
        sizes[r] = (int)(all->len - at);
    }
    free(seen);
    return rc ? -1 : 0;
}

/* Rank 0: the catalogue corpus from the gathered statuses, and docoff. */
static int catalogue(struct cet_cluster *cl, struct cet_corpus *c, const struct cet_entries *e,
                     const size_t *wi, const size_t *first, const char *status,
                     const int *ssizes, struct cet_error *err)
{
    int N = cl->size;
    size_t at = 0;
    for (int r = 0; r < N; r++) {
        if (!ssizes[r] && first[r + 1] > first[r])
            return cet_fail(err, "rank %d: out of memory loading its shard", r);
        if (ssizes[r] && status[at] == 'E')
            return cet_fail(err, "%.*s", MSG, status + at + 1);
        at += (size_t)ssizes[r];
    }
    at = 0;
    struct cet_doc **docs = calloc(e->n ? e->n : 1, sizeof *docs);
    char **reasons = calloc(e->n ? e->n : 1, sizeof *reasons);
    int oom = !docs || !reasons;
    size_t ndocs = 0;
    for (int r = 0; r < N && !oom; r++) {
        cl->docoff[r] = ndocs;
        for (size_t q = first[r]; q < first[r + 1]; q++) {
            const struct cet_entry *en = &e->v[wi[q]];
            if (status[at] == 'L') {
                struct cet_doc *d = calloc(1, sizeof *d);
                if (d) {
                    memcpy(&d->bytes, status + at + 1, sizeof(uint64_t));
                    d->package = strdup(en->package);
                    d->name = strdup(en->name);
                    d->path = strdup(en->html_path);
                    d->has_gold = 1;
                }
                oom |= !d || !d->package || !d->name || !d->path;
                docs[wi[q]] = d;
                at += 1 + sizeof(uint64_t);
                ndocs++;
            } else {
                oom |= !(reasons[wi[q]] = strdup(status + at + 1));
                at += strlen(status + at + 1) + 2;
            }
        }
    }
    cl->docoff[N] = ndocs;
    int rc = oom && (!docs || !reasons) ? cet_fail(err, "out of memory")
                                        : cet_corpus_assemble(c, e, docs, reasons, oom, err);
    free(docs);
    free(reasons);
    return rc;
}

/* Every rank learns where the ranks' ranges start (docoff) and, for its
 * own documents, which ones end a package of the whole corpus c (rank 0's;
 * NULL after a failed load): what folding the sums in corpus order needs.
 * -1 when this rank is out of memory (it then folds nothing: EVAL fails). */
static int bcast_layout(struct cet_cluster *cl, const struct cet_corpus *c)
{
    MPI_Bcast(cl->docoff, cl->size + 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    uint64_t np = c ? c->npkgs : 0;
    MPI_Bcast(&np, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    /* first and count of every package */
    uint32_t *t = malloc((2 * np + 1) * sizeof *t);
    static uint32_t scratch[2];
    for (uint64_t k = 0; c && t && k < np; k++) {
        t[2 * k] = c->pkgs[k].first;
        t[2 * k + 1] = c->pkgs[k].count;
    }
    if (t)
        MPI_Bcast(t, (int)(2 * np), MPI_UINT32_T, 0, MPI_COMM_WORLD);
    else /* out of memory: still take part, a package at a time */
        for (uint64_t k = 0; k < np; k++)
            MPI_Bcast(scratch, 2, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    size_t n = cl->local.ndocs, lo = cl->docoff[cl->rank];
    free(cl->pkg_last);
    cl->pkg_last = t ? calloc(n ? n : 1, sizeof *cl->pkg_last) : NULL;
    cl->npkgs = (size_t)np;
    for (uint64_t k = 0; cl->pkg_last && k < np; k++) {
        size_t last = (size_t)t[2 * k] + t[2 * k + 1] - 1;
        if (t[2 * k + 1] && last >= lo && last < lo + n)
            cl->pkg_last[last - lo] = t[2 * k + 1];
    }
    free(t);
    return cl->pkg_last ? 0 : -1;
}

int cet_cluster_load(struct cet_cluster *cl, struct cet_corpus *c, const struct cet_entries *e,
                     const uint8_t *want, unsigned flags, int threads, struct cet_error *err)
{
    memset(c, 0, sizeof *c);
    int N = cl->size, rc = 0;
    size_t *wi = malloc((e->n ? e->n : 1) * sizeof *wi),
           *first = malloc(((size_t)N + 1) * sizeof *first);
    int *sizes = malloc((size_t)N * sizeof *sizes), *displs = malloc((size_t)N * sizeof *displs);
    struct cet_buf all = {0};
    char *status = NULL;
    int *ssizes = NULL;
    if (!wi || !first || !sizes || !displs ||
        pack_shards(&all, sizes, displs, wi, first, e, want, N)) {
        /* Nothing was sent: the other ranks still wait for a command. */
        rc = cet_fail(err, "out of memory");
        goto done;
    }
    int64_t h[4] = {CMD_LOAD, threads, flags, 0};
    bcast_cmd(h);
    struct cet_error lerr;
    if (load_part(cl, sizes, displs, all.p, flags, threads, &status, &ssizes, &lerr))
        rc = cet_fail(err, "%s", lerr.msg);
    else
        rc = catalogue(cl, c, e, wi, first, status, ssizes, err);
    if (rc)
        memset(cl->docoff, 0, ((size_t)N + 1) * sizeof *cl->docoff);
    if (bcast_layout(cl, rc ? NULL : c) && !rc) {
        cet_corpus_free(c);
        rc = cet_fail(err, "out of memory");
    }
done:
    free(status);
    free(ssizes);
    free(wi);
    free(first);
    free(sizes);
    free(displs);
    cet_buf_free(&all);
    return rc;
}

/* ---- PREPARE ---- */

static int prepare_part(struct cet_cluster *cl, const char *exname, int metric, char *msgs,
                        struct cet_error *err)
{
    char msg[MSG] = "";
    cet_evaluator_free(cl->ev);
    cl->ev = NULL;
    const struct cet_extractor *ex = cet_extractor_find(exname);
    struct cet_error e;
    cl->np = ex ? ex->nparams : 0;
    if (!ex)
        snprintf(msg, sizeof msg, "rank %d: no extractor '%s'", cl->rank, exname);
    else if (cet_evaluator_new(&cl->ev, &cl->local, ex, (enum cet_metric)metric, cl->threads, &e))
        snprintf(msg, sizeof msg, "rank %d: %.480s", cl->rank, e.msg);
    MPI_Gather(msg, MSG, MPI_CHAR, msgs, MSG, MPI_CHAR, 0, MPI_COMM_WORLD);
    return *msg ? cet_fail(err, "%s", msg) : 0;
}

int cet_cluster_prepare(struct cet_cluster *cl, const struct cet_extractor *ex,
                        enum cet_metric metric, struct cet_error *err)
{
    int64_t h[4] = {CMD_PREPARE, metric, 0, 0};
    char name[64] = "";
    snprintf(name, sizeof name, "%s", ex->name);
    bcast_cmd(h);
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    char *msgs = malloc((size_t)cl->size * MSG);
    struct cet_error lerr;
    int rc = prepare_part(cl, name, (int)metric, msgs, &lerr);
    if (!msgs)
        return cet_fail(err, "out of memory");
    if (rc)
        cet_fail(err, "%s", lerr.msg);
    for (int r = 1; !rc && r < cl->size; r++)
        if (msgs[(size_t)r * MSG])
            rc = cet_fail(err, "%.*s", MSG, msgs + (size_t)r * MSG);
    free(msgs);
    return rc;
}

/* ---- EVAL ---- */

/* This rank's part of EVAL: evaluates the configurations on the documents
 * of its range (those of docs, or all) and sends a status (0: good)
 * followed by 3 counts per score, row by row; a rank that failed sends the
 * status alone. */
static void eval_part(struct cet_cluster *cl, const double *params, size_t k, const uint32_t *docs,
                      size_t ndocs, int failed, uint32_t *recv, const int *rs, const int *rd)
{
    size_t n = cl->local.ndocs, nsub = n, lo = cl->docoff[cl->rank];
    uint32_t *sub = NULL, *out = NULL, status = 1;
    struct cet_score *sc = NULL;
    int ok = !failed && cl->ev;
    if (ok && docs) {
        /* The subset's documents of this shard, as local indices. */
        ok = (sub = malloc((ndocs ? ndocs : 1) * sizeof *sub)) != NULL;
        nsub = 0;
        for (size_t i = 0; ok && i < ndocs; i++)
            if (docs[i] >= lo && docs[i] < lo + n)
                sub[nsub++] = (uint32_t)(docs[i] - lo);
    }
    size_t m = k * nsub;
    struct cet_error e;
    ok = ok && (sc = malloc((m ? m : 1) * sizeof *sc)) && (out = malloc((1 + 3 * m) * sizeof *out)) &&
         (!m || !cet_evaluate(cl->ev, params, k, docs ? sub : NULL, docs ? nsub : 0, sc, NULL,
                              NULL, NULL, &e));
    if (ok) {
        out[0] = 0;
        for (size_t q = 0; q < m; q++) {
            out[1 + 3 * q] = sc[q].n_extract;
            out[2 + 3 * q] = sc[q].n_gold;
            out[3 + 3 * q] = sc[q].overlap;
        }
    }
    MPI_Gatherv(ok ? out : &status, ok ? (int)(1 + 3 * m) : 1, MPI_UINT32_T, recv, rs, rd,
                MPI_UINT32_T, 0, MPI_COMM_WORLD);
    if (cl->rank > 0)
        cl->traffic.sent += (ok ? 1 + 3 * m : 1) * sizeof(uint32_t);
    free(sc);
    free(out);
    free(sub);
}

/* The other ranks' side of EVAL: the broadcasts, then their part. */
static void eval_follow(struct cet_cluster *cl, const int64_t h[4])
{
    size_t k = (size_t)h[1], np = (size_t)h[3], nd = h[2] >= 0 ? (size_t)h[2] : 0;
    double *params = malloc((k * np + 1) * sizeof *params);
    uint32_t *docs = h[2] >= 0 ? malloc((nd ? nd : 1) * sizeof *docs) : NULL;
    int failed = !params || (h[2] >= 0 && !docs) || np != cl->np;
    /* A rank out of memory still takes part in the broadcasts (into a scratch). */
    static double sp[1];
    static uint32_t sd[1];
    if (failed) {
        for (size_t i = 0; i < k * np; i++)
            MPI_Bcast(sp, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(params, (int)(k * np), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    if (h[2] >= 0) {
        if (failed)
            for (size_t i = 0; i < nd; i++)
                MPI_Bcast(sd, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
        else
            MPI_Bcast(docs, (int)nd, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    }
    eval_part(cl, params, k, docs, nd, failed, NULL, NULL, NULL);
    cl->traffic.received += 4 * sizeof(int64_t) + k * np * sizeof(double) + nd * sizeof(uint32_t);
    cl->traffic.batches++;
    cl->traffic.configs += k;
    free(params);
    free(docs);
}

/* ---- SUMS ---- */

/* This rank's part of SUMS.  A message holds a status (0, or 1 + the first
 * rank that failed) and k running sums; rank 0 starts from zero, every rank
 * adds its documents (when all went well) and passes the message to the
 * next rank, the last one back to rank 0, which gets the sums over the
 * whole corpus in out.  Returns the status. */
static int64_t sums_part(struct cet_cluster *cl, const double *params, size_t k,
                         const struct cet_goal *g, int failed, struct cet_goal_sums *out)
{
    int N = cl->size, r = cl->rank;
    size_t n = cl->local.ndocs, len = sizeof(int64_t) + k * sizeof(struct cet_goal_sums);
    char *msg = calloc(1, len);
    if (!msg) /* a few kilobytes: this process is done for; mpirun names the rank */
        MPI_Abort(MPI_COMM_WORLD, 12);
    struct cet_score *sc = NULL;
    struct cet_error e;
    int ok = !failed && cl->ev && cl->pkg_last && (sc = malloc((k * n + 1) * sizeof *sc)) &&
             (!n || !cet_evaluate(cl->ev, params, k, NULL, 0, sc, NULL, NULL, NULL, &e));
    if (r > 0) {
        MPI_Recv(msg, (int)len, MPI_BYTE, r - 1, CMD_SUMS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        cl->traffic.received += len;
    }
    int64_t status;
    memcpy(&status, msg, sizeof status);
    if (!status && !ok)
        status = 1 + r;
    memcpy(msg, &status, sizeof status);
    for (size_t j = 0; !status && j < k; j++) {
        struct cet_goal_sums a;
        char *at = msg + sizeof(int64_t) + j * sizeof a;
        memcpy(&a, at, sizeof a);
        for (size_t i = 0; i < n; i++)
            cet_goal_sums_add(&a, g, &sc[j * n + i], cl->pkg_last[i], cl->npkgs);
        memcpy(at, &a, sizeof a);
    }
    if (N > 1) {
        MPI_Send(msg, (int)len, MPI_BYTE, (r + 1) % N, CMD_SUMS, MPI_COMM_WORLD);
        cl->traffic.sent += len;
    }
    if (r == 0 && N > 1) {
        MPI_Recv(msg, (int)len, MPI_BYTE, N - 1, CMD_SUMS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        cl->traffic.received += len;
        memcpy(&status, msg, sizeof status);
    }
    if (out)
        memcpy(out, msg + sizeof(int64_t), k * sizeof *out);
    cl->traffic.batches++;
    cl->traffic.configs += k;
    free(msg);
    free(sc);
    return status;
}

/* The other ranks' side of SUMS. */
static void sums_follow(struct cet_cluster *cl, const int64_t h[4])
{
    size_t k = (size_t)h[1], np = (size_t)h[3];
    struct cet_goal g;
    double *params = malloc((k * np + 1) * sizeof *params);
    int failed = !params || np != cl->np;
    static double sp[1];
    if (failed) /* still takes part in the broadcast (into a scratch) */
        for (size_t i = 0; i < k * np; i++)
            MPI_Bcast(sp, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(params, (int)(k * np), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(&g, sizeof g, MPI_BYTE, 0, MPI_COMM_WORLD);
    cl->traffic.received += 4 * sizeof(int64_t) + k * np * sizeof(double) + sizeof g;
    sums_part(cl, params, k, &g, failed, NULL);
    free(params);
}

int cet_cluster_measure(struct cet_cluster *cl, const double *params, size_t k,
                        const struct cet_goal *goal, struct cet_measures *m,
                        struct cet_error *err)
{
    if (!cl->ev)
        return cet_fail(err, "no evaluator prepared");
    struct cet_goal_sums *sums = malloc((k ? k : 1) * sizeof *sums);
    if (!sums) /* nothing was sent: the other ranks still wait for a command */
        return cet_fail(err, "out of memory");
    int64_t h[4] = {CMD_SUMS, (int64_t)k, 0, (int64_t)cl->np};
    struct cet_goal g = *goal;
    bcast_cmd(h);
    MPI_Bcast((void *)params, (int)(k * cl->np), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(&g, sizeof g, MPI_BYTE, 0, MPI_COMM_WORLD);
    cl->traffic.sent += (uint64_t)(cl->size - 1) * (sizeof h + k * cl->np * sizeof(double) + sizeof g);
    int64_t status = sums_part(cl, params, k, &g, 0, sums);
    int rc = 0;
    if (status)
        rc = cet_fail(err, "rank %lld: evaluation failed (out of memory)", (long long)status - 1);
    for (size_t j = 0; j < k && !rc; j++)
        cet_goal_sums_measure(&sums[j], &g, cl->docoff[cl->size], &m[j]);
    free(sums);
    return rc;
}

/* The rank whose range holds corpus document gi. */
static size_t rank_of(const struct cet_cluster *cl, uint32_t gi)
{
    size_t r = 0;
    while (r + 1 < (size_t)cl->size && gi >= cl->docoff[r + 1])
        r++;
    return r;
}

int cet_cluster_evaluate(struct cet_cluster *cl, const double *params, size_t k,
                         const uint32_t *docs, size_t ndocs, struct cet_score *scores,
                         double *mean_f1, double *mean_p, double *mean_r, struct cet_error *err)
{
    int N = cl->size;
    if (!cl->ev)
        return cet_fail(err, "no evaluator prepared");
    if (!docs && !scores) {
        /* Only the means: the sums travel, not the scores (the default goal
         * measures mean F1, precision and recall). */
        struct cet_measures *m = malloc((k ? k : 1) * sizeof *m);
        struct cet_goal g = {0};
        int rc = !m ? cet_fail(err, "out of memory") : cet_cluster_measure(cl, params, k, &g, m, err);
        for (size_t j = 0; j < k && !rc; j++) {
            if (mean_f1)
                mean_f1[j] = m[j].f1;
            if (mean_p)
                mean_p[j] = m[j].p;
            if (mean_r)
                mean_r[j] = m[j].r;
        }
        free(m);
        return rc;
    }
    if (!docs)
        ndocs = cl->docoff[N];
    /* Every rank's share of the documents, hence of the gathered counts. */
    size_t *nsub = calloc((size_t)N, sizeof *nsub), *cur = calloc((size_t)N, sizeof *cur);
    int *rs = calloc((size_t)N, sizeof *rs), *rd = calloc((size_t)N, sizeof *rd);
    struct cet_score *sc = scores ? scores : malloc((k * ndocs + 1) * sizeof *sc);
    uint32_t *recv = NULL;
    int rc = 0;
    if (nsub && cur && rs && rd && sc) {
        for (size_t i = 0; i < ndocs; i++)
            nsub[rank_of(cl, docs ? docs[i] : (uint32_t)i)]++;
        size_t tot = 0;
        for (int r = 0; r < N; r++) {
            rd[r] = (int)tot;
            rs[r] = (int)(1 + 3 * k * nsub[r]);
            tot += (size_t)rs[r];
        }
        recv = malloc(tot * sizeof *recv);
    }
    if (!recv) {
        /* Nothing was sent: the other ranks still wait for a command. */
        rc = cet_fail(err, "out of memory");
        goto done;
    }
    int64_t h[4] = {CMD_EVAL, (int64_t)k, docs ? (int64_t)ndocs : -1, (int64_t)cl->np};
    bcast_cmd(h);
    MPI_Bcast((void *)params, (int)(k * cl->np), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (docs)
        MPI_Bcast((void *)docs, (int)ndocs, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    eval_part(cl, params, k, docs, ndocs, 0, recv, rs, rd);
    cl->traffic.sent += (uint64_t)(N - 1) * (sizeof h + k * cl->np * sizeof(double) +
                                             (docs ? ndocs * sizeof(uint32_t) : 0));
    for (int r = 1; r < N; r++)
        cl->traffic.received += (uint64_t)rs[r] * sizeof(uint32_t);
    cl->traffic.batches++;
    cl->traffic.configs += k;
    for (int r = 0; r < N && !rc; r++)
        if (recv[rd[r]])
            rc = cet_fail(err, "rank %d: evaluation failed (out of memory)", r);
    /* Rank r's rows cover its documents in the order of docs: put each count
     * triple at its place and rebuild the score from it. */
    for (size_t i = 0; !rc && i < ndocs; i++) {
        size_t r = rank_of(cl, docs ? docs[i] : (uint32_t)i), li = cur[r]++;
        for (size_t j = 0; j < k; j++) {
            const uint32_t *t = recv + rd[r] + 1 + 3 * (j * nsub[r] + li);
            cet_score_set(&sc[j * ndocs + i], t[0], t[1], t[2]);
        }
    }
    if (!rc)
        cet_score_means(sc, k, ndocs, mean_f1, mean_p, mean_r);
done:
    free(recv);
    free(nsub);
    free(cur);
    free(rs);
    free(rd);
    if (!scores)
        free(sc);
    return rc;
}

static int be_load(void *ctx, struct cet_corpus *c, const struct cet_entries *e,
                   const uint8_t *want, unsigned flags, int threads, struct cet_error *err)
{
    return cet_cluster_load(ctx, c, e, want, flags, threads, err);
}

static int be_prepare(void *ctx, const struct cet_extractor *ex, enum cet_metric metric,
                      struct cet_error *err)
{
    return cet_cluster_prepare(ctx, ex, metric, err);
}

static int be_evaluate(void *ctx, const double *params, size_t k, const uint32_t *docs,
                       size_t ndocs, struct cet_score *scores, double *mean_f1, double *mean_p,
                       double *mean_r, struct cet_error *err)
{
    return cet_cluster_evaluate(ctx, params, k, docs, ndocs, scores, mean_f1, mean_p, mean_r, err);
}

static int be_measure(void *ctx, const double *params, size_t k, const struct cet_goal *goal,
                      struct cet_measures *m, struct cet_error *err)
{
    return cet_cluster_measure(ctx, params, k, goal, m, err);
}

void cet_cluster_backend(struct cet_cluster *cl, struct cet_backend *be)
{
    *be = (struct cet_backend){cl, be_load, be_prepare, be_evaluate, be_measure};
}

/* ---- TASK ---- */

void cet_cluster_on_task(struct cet_cluster *cl, cet_cluster_task_fn fn)
{
    cl->task = fn;
}

int cet_cluster_task(struct cet_cluster *cl, const char *data, size_t len, struct cet_error *err)
{
    (void)cl;
    if (len > INT_MAX)
        return cet_fail(err, "a task of %zu bytes is too large to broadcast", len);
    int64_t h[4] = {CMD_TASK, (int64_t)len, 0, 0};
    bcast_cmd(h);
    MPI_Bcast((void *)data, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
    return 0;
}

static void task_follow(struct cet_cluster *cl, const int64_t h[4])
{
    size_t len = (size_t)h[1];
    char *data = malloc(len + 1);
    if (!data || !cl->task) /* rank 0 waits for this rank in the task: nothing else to do */
        MPI_Abort(MPI_COMM_WORLD, 12);
    MPI_Bcast(data, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
    data[len] = 0;
    cl->task(cl, data, len);
    free(data);
}

/* ---- the other ranks ---- */

int cet_cluster_serve(struct cet_cluster *cl, struct cet_error *err)
{
    for (;;) {
        int64_t h[4];
        bcast_cmd(h);
        struct cet_error e;
        switch (h[0]) {
        case CMD_STOP:
            return 0;
        case CMD_LOAD:
            /* A failure is reported to rank 0 through the status. */
            load_part(cl, NULL, NULL, NULL, (unsigned)h[2], (int)h[1], NULL, NULL, &e);
            bcast_layout(cl, NULL);
            break;
        case CMD_PREPARE: {
            char name[64];
            MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
            name[sizeof name - 1] = 0;
            prepare_part(cl, name, (int)h[1], NULL, &e);
            break;
        }
        case CMD_EVAL:
            eval_follow(cl, h);
            break;
        case CMD_SUMS:
            sums_follow(cl, h);
            break;
        case CMD_STATS:
            stats_part(cl, NULL);
            break;
        case CMD_TASK:
            task_follow(cl, h);
            break;
        default:
            return cet_fail(err, "rank %d: unknown command %lld from rank 0", cl->rank,
                            (long long)h[0]);
        }
    }
}
