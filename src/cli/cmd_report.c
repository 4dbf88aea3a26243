/* cetune report runs/NAME: the plots and report.md of a run directory
 * (report.h).  The plots are drawn by gnuplot (Debian gnuplot-nox), run on
 * the report.gp written into the run directory; cetune itself never writes
 * an image.  Without gnuplot on PATH it says so in one line on stderr,
 * still writes report.md (saying why it has no plots) and exits 0; when
 * gnuplot fails, report.md says so too and the exit status is 1. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cetune/report.h"
#include "cetune/rundir.h"
#include "cli.h"

/* The first executable NAME on PATH, allocated; NULL when there is none
 * (or out of memory). */
static char *find_on_path(const char *name)
{
    const char *path = getenv("PATH");
    struct cet_buf out = {0};
    if (!path)
        path = "/usr/bin:/bin"; /* what execvp would search */
    while (*path) {
        size_t n = strcspn(path, ":");
        struct stat st;
        out.len = 0;
        /* An empty PATH entry is the current directory. */
        if (cet_buf_printf(&out, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", name))
            break;
        if (stat(out.p, &st) == 0 && S_ISREG(st.st_mode) && access(out.p, X_OK) == 0)
            return out.p;
        path += n + (path[n] == ':');
    }
    cet_buf_free(&out);
    return NULL;
}

/* Runs gnuplot report.gp inside dir (the script names its files relative to
 * it), its output on stderr.  0, or -1 with why filled. */
static int run_gnuplot(const char *gnuplot, const char *dir, struct cet_buf *why)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        cet_buf_printf(why, "gnuplot could not be started (%s)", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (chdir(dir) || null < 0 || dup2(null, STDIN_FILENO) < 0 ||
            dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
            _exit(126);
        execl(gnuplot, "gnuplot", "report.gp", (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            cet_buf_printf(why, "gnuplot could not be waited for (%s)", strerror(errno));
            return -1;
        }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status))
        cet_buf_printf(why, "gnuplot (%s) failed with exit status %d", gnuplot,
                       WEXITSTATUS(status));
    else
        cet_buf_printf(why, "gnuplot (%s) was killed by signal %d", gnuplot, WTERMSIG(status));
    return -1;
}

/* Whether gnuplot drew every plot of r in dir; why says which it did not. */
static int all_drawn(const char *const *plots, size_t nplots, const char *dir,
                     struct cet_buf *why)
{
    for (size_t i = 0; i < nplots; i++) {
        struct stat st;
        char *path = cet_run_path(dir, plots[i]);
        int bad = !path || stat(path, &st) || st.st_size == 0;
        free(path);
        if (bad) {
            cet_buf_printf(why, "gnuplot did not draw %s", plots[i]);
            return 0;
        }
    }
    return 1;
}

/* The report's files never land in the run's corpora (cetune/guard.h). */
static int guard_run(const char *dir)
{
    char **dirs;
    size_t n;
    struct cet_error err;
    if (cet_run_corpora(&dirs, &n, dir, &err)) {
        cli_error("%s", err.msg);
        return CLI_RUNTIME;
    }
    int rc = cli_guard_output((const char *const *)dirs, n, "report", dir, 1);
    for (size_t i = 0; i < n; i++)
        free(dirs[i]);
    free(dirs);
    return rc;
}

static int cmd_report(int argc, char **argv);
const struct cli_command cli_report = {
    .name = "report", .run = cmd_report, .operands = "runs/NAME",
    .summary = "plot a run with gnuplot and write its report.md",
    .about = "Draws convergence.png, explored*.png and distribution.png with gnuplot and writes "
             "report.md\n(without plots when gnuplot is missing) into the run directory."};

static int cmd_report(int argc, char **argv)
{
    int rc = cli_parse(&cli_report, NULL, argc, argv);
    if (rc)
        return rc;
    if (optind >= argc)
        return cli_usage("report", "give the run directory, e.g. cetune report runs/NAME");
    if (optind + 1 < argc)
        return cli_usage("report", "unexpected argument '%s'", argv[optind + 1]);

    struct cet_report *r = NULL;
    const char *const *plots;
    size_t nplots = 0;
    struct cet_error err;
    struct cet_buf why = {0};
    struct stat st;
    char *dir = strdup(argv[optind]), *ckpt = NULL, *gnuplot = NULL;
    rc = CLI_RUNTIME;
    if (!dir)
        goto oom;
    for (size_t dl = strlen(dir); dl > 1 && dir[dl - 1] == '/';)
        dir[--dl] = 0;
    if (stat(dir, &st)) {
        cli_error("%s: %s", dir, strerror(errno));
        goto done;
    }
    if (!(ckpt = cet_run_path(dir, CET_RUN_CHECKPOINT)))
        goto oom;
    if (!S_ISDIR(st.st_mode) || access(ckpt, F_OK)) {
        cli_error("%s: not a run directory of cetune evolve (no checkpoint.json)", dir);
        goto done;
    }
    if ((rc = guard_run(dir)))
        goto done;
    rc = CLI_RUNTIME;
    if (cet_report_load(&r, dir, &err) || cet_report_write_plots(r, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    nplots = cet_report_plots(r, &plots);
    int drawn = 0, missing = 0;
    if (!nplots) {
        /* Nothing to draw; report.md says so. */
    } else if (!(gnuplot = find_on_path("gnuplot"))) {
        fprintf(stderr, "cetune: gnuplot not found on PATH: writing %s/report.md without plots "
                        "(install gnuplot-nox)\n", dir);
        cet_buf_puts(&why, "gnuplot was not found on PATH");
        missing = 1;
    } else if (run_gnuplot(gnuplot, dir, &why) == 0) {
        if (!(drawn = all_drawn(plots, nplots, dir, &why)))
            cli_error("%s", why.p ? why.p : "out of memory");
    } else {
        cli_error("%s; see its messages above", why.p ? why.p : "gnuplot failed");
    }
    if (cet_report_write_md(r, nplots && !drawn ? (why.p ? why.p : "") : NULL, &err)) {
        cli_error("%s", err.msg);
        goto done;
    }
    printf("%s/report.md\n", dir);
    for (size_t i = 0; drawn && i < nplots; i++)
        printf("%s/%s\n", dir, plots[i]);
    /* A missing gnuplot is expected on some machines; a failing one is an error. */
    rc = nplots && !drawn && !missing ? CLI_RUNTIME : CLI_OK;
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        rc = CLI_RUNTIME;
    }
    goto done;
oom:
    cli_error("out of memory");
done:
    cet_report_free(r);
    cet_buf_free(&why);
    free(dir);
    free(ckpt);
    free(gnuplot);
    return rc;
}
