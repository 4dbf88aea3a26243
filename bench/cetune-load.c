/* cetune-load: a load generator for `cetune serve`, beside the throughput of
 * the same extraction in process (cet_page_extract, what `cetune extract`
 * does per page) on the same pages with as many threads as the server has.
 *
 * It starts `cetune serve -c CONFIG --listen 127.0.0.1:0 --threads T`, sends
 * a bounded number of POST /extract requests over keep-alive loopback
 * connections at each concurrency (default 1, 4 and 16 connections), and
 * reports pages/s, MB/s (page bytes) and the p50/p99 latency of a request.
 * --memory N then sends N more requests at 4 connections and samples the
 * server's resident memory (VmRSS) every N/20 requests.
 *
 *   cetune-load [-d CORPUS...] [-c CONFIG.json] [-n REQUESTS] [--threads T]
 *               [--connections 1,4,16] [--repeat R] [--memory N] [--json]
 *
 * Every figure is the median of R runs (default 3), the baseline and the
 * server runs interleaved.  Beside wall-clock throughput it reports CPU time
 * per page: the server process's (from /proc) and the in-process
 * extraction's, which the other loads of a shared machine disturb less.
 *
 * Pages are read once into memory (every page of the corpora, default the
 * four dev corpora in ../shared/corpora), sent in corpus order, round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cetune/buf.h"
#include "cetune/clock.h"
#include "cetune/corpus.h"
#include "cetune/page.h"
#include "dev_corpora.h"
#include "util/sort.h"

struct page {
    struct cet_buf html;
};

static struct page *pages;
static size_t npages, page_bytes_total;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "cetune-load: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(1);
}

/* ---- one run: n requests over c connections ---- */

struct run {
    unsigned port;
    size_t n;
    atomic_size_t next;   /* the next request to send */
    atomic_size_t done;
    atomic_size_t errors; /* answers other than 200, or broken connections */
    double *lat;          /* seconds, per request */
    size_t bytes_in;      /* page bytes sent, summed at the end */
};

static int connect_to(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static int send_all(int fd, struct iovec *iov, int n)
{
    while (n > 0) {
        ssize_t w = writev(fd, iov, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        while (n > 0 && (size_t)w >= iov->iov_len) {
            w -= (ssize_t)iov->iov_len;
            iov++, n--;
        }
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + w;
            iov->iov_len -= (size_t)w;
        }
    }
    return 0;
}

/* Reads one response into b; returns its status, or -1 when the connection broke. */
static int read_response(int fd, struct cet_buf *b)
{
    b->len = 0;
    size_t head = 0, want = 0;
    int status = -1;
    for (;;) {
        if (cet_buf_reserve(b, 65536))
            return -1;
        ssize_t r = read(fd, b->p + b->len, b->cap - b->len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        b->len += (size_t)r;
        b->p[b->len] = 0;
        if (!head) {
            char *end = strstr(b->p, "\r\n\r\n");
            if (!end)
                continue;
            head = (size_t)(end - b->p) + 4;
            if (sscanf(b->p, "HTTP/1.%*d %d", &status) != 1)
                return -1;
            char *cl = strcasestr(b->p, "\r\nContent-Length:");
            if (!cl || cl > end)
                return -1;
            want = head + strtoull(cl + 17, NULL, 10);
        }
        if (b->len >= want)
            return b->len == want ? status : -1;
    }
}

static void *connection(void *arg)
{
    struct run *r = arg;
    struct cet_buf resp = {0};
    int fd = -1;
    for (size_t i; (i = atomic_fetch_add(&r->next, 1)) < r->n;) {
        const struct page *p = &pages[i % npages];
        char head[256];
        int hn = snprintf(head, sizeof head,
                          "POST /extract HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Url: http://load.test/\r\n"
                          "Content-Type: text/html\r\nContent-Length: %zu\r\n\r\n", p->html.len);
        double t0 = cet_now();
        int status = -1;
        for (int attempt = 0; attempt < 2 && status < 0; attempt++) {
            if (fd < 0 && (fd = connect_to(r->port)) < 0)
                break;
            struct iovec iov[2] = {{head, (size_t)hn}, {p->html.p, p->html.len}};
            status = send_all(fd, iov, 2) ? -1 : read_response(fd, &resp);
            if (status < 0) { /* the server closed a keep-alive connection: once more */
                close(fd);
                fd = -1;
            }
        }
        r->lat[i] = cet_now() - t0;
        if (status != 200)
            atomic_fetch_add(&r->errors, 1);
        atomic_fetch_add(&r->done, 1);
    }
    if (fd >= 0)
        close(fd);
    cet_buf_free(&resp);
    return NULL;
}

struct result {
    unsigned conns;
    double pages_s, mb_s, p50_ms, p99_ms;
    double cpu_ms; /* CPU time per page: the server's, or the in-process extraction's */
    size_t errors;
};

/* CPU seconds (user + system) the process has used so far. */
static double process_cpu(pid_t pid)
{
    if (!pid) {
        struct timespec ts;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return (double)ts.tv_sec + ts.tv_nsec / 1e9;
    }
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* fields after the command name: utime is the 12th */
    unsigned long ut = 0, st = 0;
    if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
        return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
    return 0;
}

/* n requests over c connections; rss, if not NULL, gets samples of the
 * server's VmRSS (kB) every n/20 requests. */
static struct result load(unsigned port, size_t n, unsigned c, pid_t server, long *rss)
{
    struct run r = {.port = port, .n = n, .lat = calloc(n, sizeof(double))};
    pthread_t *t = calloc(c, sizeof *t);
    double t0 = cet_now(), cpu0 = process_cpu(server);
    for (unsigned k = 0; k < c; k++)
        pthread_create(&t[k], NULL, connection, &r);
    if (rss) {
        char path[64], line[256];
        snprintf(path, sizeof path, "/proc/%d/status", (int)server);
        for (int s = 0; s < 20; s++) {
            while (atomic_load(&r.done) < n * (size_t)(s + 1) / 20)
                nanosleep(&(struct timespec){0, 1000000}, NULL);
            FILE *f = fopen(path, "r");
            rss[s] = -1;
            while (f && fgets(line, sizeof line, f))
                if (!strncmp(line, "VmRSS:", 6))
                    rss[s] = strtol(line + 6, NULL, 10);
            if (f)
                fclose(f);
        }
    }
    for (unsigned k = 0; k < c; k++)
        pthread_join(t[k], NULL);
    double wall = cet_now() - t0, cpu = process_cpu(server) - cpu0;
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += pages[i % npages].html.len;
    qsort(r.lat, n, sizeof *r.lat, cet_cmp_double);
    struct result res = {.conns = c, .pages_s = (double)n / wall, .mb_s = (double)bytes / 1e6 / wall,
                         .cpu_ms = cpu * 1e3 / (double)n,
                         .p50_ms = r.lat[n / 2] * 1e3, .p99_ms = r.lat[(size_t)(n * 0.99)] * 1e3,
                         .errors = atomic_load(&r.errors)};
    free(r.lat);
    free(t);
    return res;
}

/* The median of each figure of column col over the repeat rows (errors: the sum). */
static struct result median_of(const struct result *all, int repeat, size_t stride, size_t col)
{
    double v[5][64];
    struct result m = all[col];
    m.errors = 0;
    for (int k = 0; k < repeat; k++) {
        const struct result *r = &all[(size_t)k * stride + col];
        v[0][k] = r->pages_s, v[1][k] = r->mb_s, v[2][k] = r->p50_ms, v[3][k] = r->p99_ms,
        v[4][k] = r->cpu_ms;
        m.errors += r->errors;
    }
    double *out[5] = {&m.pages_s, &m.mb_s, &m.p50_ms, &m.p99_ms, &m.cpu_ms};
    for (int f = 0; f < 5; f++) {
        qsort(v[f], (size_t)repeat, sizeof(double), cet_cmp_double);
        *out[f] = repeat % 2 ? v[f][repeat / 2] : (v[f][repeat / 2 - 1] + v[f][repeat / 2]) / 2;
    }
    return m;
}

/* ---- the in-process baseline: cet_page_extract on T threads ---- */

struct local {
    const struct cet_config *cfg;
    size_t n;
    atomic_size_t next;
};

static void *local_worker(void *arg)
{
    struct local *l = arg;
    struct cet_page *pg;
    struct cet_buf out = {0};
    struct cet_error err;
    if (cet_page_new(&pg, &err))
        return NULL;
    for (size_t i; (i = atomic_fetch_add(&l->next, 1)) < l->n;)
        cet_page_extract(pg, l->cfg, pages[i % npages].html.p, pages[i % npages].html.len, NULL,
                         &out, NULL, &err);
    cet_buf_free(&out);
    cet_page_free(pg);
    return NULL;
}

static struct result extract_local(const struct cet_config *cfg, size_t n, unsigned threads)
{
    struct local l = {.cfg = cfg, .n = n};
    pthread_t *t = calloc(threads, sizeof *t);
    double t0 = cet_now(), cpu0 = process_cpu(0);
    for (unsigned k = 0; k < threads; k++)
        pthread_create(&t[k], NULL, local_worker, &l);
    for (unsigned k = 0; k < threads; k++)
        pthread_join(t[k], NULL);
    double wall = cet_now() - t0, cpu = process_cpu(0) - cpu0;
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += pages[i % npages].html.len;
    free(t);
    return (struct result){.conns = threads, .pages_s = (double)n / wall,
                           .mb_s = (double)bytes / 1e6 / wall, .cpu_ms = cpu * 1e3 / (double)n};
}

/* ---- the server ---- */

static pid_t start_server(const char *cetune, const char *config, unsigned threads, unsigned *port)
{
    char logpath[] = "/tmp/cetune-load.XXXXXX";
    int log = mkstemp(logpath);
    if (log < 0)
        die("cannot create a temporary file: %s", strerror(errno));
    char th[16];
    snprintf(th, sizeof th, "%u", threads);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(log, 2);
        execl(cetune, cetune, "serve", "-c", config, "--listen", "127.0.0.1:0", "--threads", th,
              "--timeout", "60", (char *)NULL);
        _exit(127);
    }
    /* The access log is not needed: the file is unlinked, the server keeps writing into it. */
    for (int i = 0; i < 200 && !*port; i++) {
        nanosleep(&(struct timespec){0, 50000000}, NULL);
        char buf[4096];
        ssize_t n = pread(log, buf, sizeof buf - 1, 0);
        buf[n > 0 ? n : 0] = 0;
        char *at = strstr(buf, " on http://127.0.0.1:");
        if (at)
            *port = (unsigned)strtoul(at + 21, NULL, 10);
        if (waitpid(pid, NULL, WNOHANG) == pid)
            die("%s", buf);
    }
    unlink(logpath);
    close(log);
    if (!*port)
        die("the server did not start (%s)", cetune);
    return pid;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"corpus", required_argument, NULL, 'd'},   {"config", required_argument, NULL, 'c'},
        {"requests", required_argument, NULL, 'n'}, {"threads", required_argument, NULL, 't'},
        {"connections", required_argument, NULL, 'C'}, {"memory", required_argument, NULL, 'm'},
        {"cetune", required_argument, NULL, 'b'},   {"json", no_argument, NULL, 'j'},
        {"repeat", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0}};
    const char *dirs[16], *config = NULL, *cetune = CETUNE_BINARY, *conns_arg = "1,4,16";
    size_t ndirs = 0, n = 2000, memory = 0;
    unsigned threads = 0;
    int json = 0, repeat = 3, opt;
    while ((opt = getopt_long(argc, argv, "d:c:n:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'd': if (ndirs < 16) dirs[ndirs++] = optarg; break;
        case 'c': config = optarg; break;
        case 'n': n = strtoul(optarg, NULL, 10); break;
        case 't': threads = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'C': conns_arg = optarg; break;
        case 'm': memory = strtoul(optarg, NULL, 10); break;
        case 'b': cetune = optarg; break;
        case 'j': json = 1; break;
        case 'r': repeat = atoi(optarg); break;
        default:
            printf("usage: cetune-load [-d CORPUS...] [-c CONFIG.json] [-n REQUESTS] [--threads T]\n"
                   "                   [--connections 1,4,16] [--repeat R] [--memory N] [--cetune PATH] [--json]\n");
            return opt == 'h' ? 0 : 2;
        }
    }
    if (n < 1)
        n = 1;
    if (repeat < 1 || repeat > 64)
        repeat = repeat < 1 ? 1 : 64;
    if (!threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (unsigned)cores : 1;
    }
    bench_dev_corpora(dirs, &ndirs);
    struct cet_error err;
    struct cet_entries entries;
    if (cet_corpus_scan(&entries, dirs, ndirs, &err))
        die("%s", err.msg);
    pages = calloc(entries.n, sizeof *pages);
    for (size_t i = 0; i < entries.n; i++)
        if (cet_read_file(&pages[npages].html, entries.v[i].html_path, CET_MAX_PAGE_BYTES, &err) == 0 &&
            pages[npages].html.len > 0)
            page_bytes_total += pages[npages++].html.len;
    cet_entries_free(&entries);
    if (!npages)
        die("%s", "no pages");

    char cfgpath[] = "/tmp/cetune-load-config.XXXXXX";
    if (!config) { /* lqf at its defaults, as cetune-bench's extraction figure */
        int fd = mkstemp(cfgpath);
        const char *text = "{\"extractor\": \"lqf\"}\n";
        if (fd < 0 || write(fd, text, strlen(text)) < 0)
            die("cannot write %s", cfgpath);
        close(fd);
        config = cfgpath;
    }
    struct cet_config cfg;
    if (cet_config_load(&cfg, config, &err))
        die("%s", err.msg);

    unsigned port = 0;
    pid_t server = start_server(cetune, config, threads, &port);
    /* Warm up both: the server's per-thread contexts, the page cache. */
    load(port, npages < 500 ? npages : 500, 4, server, NULL);
    extract_local(&cfg, npages < 500 ? npages : 500, threads);

    /* Repeats interleave the in-process baseline and the server runs, so
     * that both see the same machine; each figure is the median. */
    unsigned conns[16];
    size_t nconns = 0;
    for (const char *p = conns_arg; *p && nconns < 16;) {
        unsigned c = (unsigned)strtoul(p, (char **)&p, 10);
        if (c)
            conns[nconns++] = c;
        p += *p == ',';
    }
    struct result *all = calloc((size_t)repeat * (nconns + 1), sizeof *all);
    for (int k = 0; k < repeat; k++) {
        all[k * (nconns + 1)] = extract_local(&cfg, n, threads);
        for (size_t i = 0; i < nconns; i++)
            all[k * (nconns + 1) + 1 + i] = load(port, n, conns[i], server, NULL);
    }
    struct result base = median_of(all, repeat, nconns + 1, 0), res[16];
    size_t nres = nconns;
    for (size_t i = 0; i < nconns; i++)
        res[i] = median_of(all, repeat, nconns + 1, i + 1);
    free(all);
    long rss[20] = {0};
    struct result mem = {0};
    if (memory)
        mem = load(port, memory, 4, server, rss);
    kill(server, SIGTERM);
    int status = 0;
    waitpid(server, &status, 0);

    if (json) {
        printf("{\"pages\": %zu, \"page_bytes\": %zu, \"requests\": %zu, \"threads\": %u, "
               "\"repeat\": %d, \"extract_pages_s\": %.1f, \"extract_mb_s\": %.2f, \"extract_cpu_ms\": %.3f, "
               "\"serve\": [",
               npages, page_bytes_total, n, threads, repeat, base.pages_s, base.mb_s, base.cpu_ms);
        for (size_t i = 0; i < nres; i++)
            printf("%s{\"connections\": %u, \"pages_s\": %.1f, \"mb_s\": %.2f, \"p50_ms\": %.3f, "
                   "\"p99_ms\": %.3f, \"cpu_ms\": %.3f, \"errors\": %zu, \"of_extract\": %.3f}",
                   i ? ", " : "", res[i].conns, res[i].pages_s, res[i].mb_s, res[i].p50_ms,
                   res[i].p99_ms, res[i].cpu_ms, res[i].errors, res[i].pages_s / base.pages_s);
        printf("]");
        if (memory) {
            printf(", \"memory\": {\"requests\": %zu, \"errors\": %zu, \"rss_kb\": [", memory, mem.errors);
            for (int s = 0; s < 20; s++)
                printf("%s%ld", s ? ", " : "", rss[s]);
            printf("]}");
        }
        printf(", \"server_exit\": %d}\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else {
        printf("cetune-load: %zu pages (%.1f MB), %zu requests per run, server and extract on %u "
               "threads, %s, median of %d runs\n\n", npages, page_bytes_total / 1e6, n, threads,
               config == cfgpath ? "lqf at its defaults" : config, repeat);
        printf("%-26s %10s %9s %9s %9s %9s %7s %11s\n", "", "pages/s", "MB/s", "p50 ms", "p99 ms",
               "CPU ms/pg", "errors", "of extract");
        printf("%-26s %10.1f %9.2f %9s %9s %9.3f %7s %11s\n", "extract (cet_page_extract)",
               base.pages_s, base.mb_s, "", "", base.cpu_ms, "", "");
        for (size_t i = 0; i < nres; i++) {
            char label[32];
            snprintf(label, sizeof label, "serve, %u connection%s", res[i].conns, res[i].conns == 1 ? "" : "s");
            printf("%-26s %10.1f %9.2f %9.3f %9.3f %9.3f %7zu %10.0f%%\n", label, res[i].pages_s,
                   res[i].mb_s, res[i].p50_ms, res[i].p99_ms, res[i].cpu_ms, res[i].errors,
                   100 * res[i].pages_s / base.pages_s);
        }
        if (memory) {
            printf("\nserver RSS over %zu more requests at 4 connections (%zu errors), every %zu:\n",
                   memory, mem.errors, memory / 20);
            for (int s = 0; s < 20; s++)
                printf("%s%.1f", s ? " " : "  ", rss[s] / 1024.0);
            printf(" MB\n");
        }
        printf("\nserver exit status after SIGTERM: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    if (config == cfgpath)
        unlink(cfgpath);
    cet_config_free(&cfg);
    for (size_t i = 0; i < npages; i++)
        cet_buf_free(&pages[i].html);
    free(pages);
    return 0;
}
