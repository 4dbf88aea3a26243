/* The command-line front end: the only code that prints. */
#ifndef CETUNE_CLI_H
#define CETUNE_CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cetune/config.h"
#include "cetune/corpus.h"
#include "cetune/run.h"

#include "msgs.h"
#include "options.h"

/* "s" unless n is 1: "%zu package%s" (item counts in messages). */
static inline const char *cli_s(size_t n)
{
    return n == 1 ? "" : "s";
}

/* The command line as a shell would need it ("cetune evolve ..."), allocated. */
char *cli_command_line(int argc, char **argv);

/* Configurations from -c FILE / -x NAME / -P k=v, in command-line order. */
struct cli_configs {
    struct cet_config *v;
    const char **files; /* the -c FILE of each, NULL for -x */
    size_t n, cap;
};
/* The CLI_FUNC of -c, -x and -P (by their letter) into a struct cli_configs
 * field; returns 0, or an exit code after printing. */
int cli_configs_opt(const char *cmd, const struct cli_opt *o, void *field, const char *arg);
void cli_configs_free(struct cli_configs *c);

/* The path of the shipped configuration (cet_config_shipped_path with
 * $CETUNE_CONFIG as the override) into out: for extract and serve when no
 * configuration is given.  Returns 0, or CLI_USAGE after printing why. */
int cli_shipped_config(char *out, size_t size);
/* --fitness template: scans the corpora into e, the pages without gold
 * getting their family's pseudo-gold (cet_template_scan) from, when not
 * NULL, the defaults of the description (first: they decide what the
 * references disagree on), then the reference configurations in refs (the
 * shipped one when empty: its path is then put in buf[size] and added to
 * refs); adds CET_LOAD_SCANNED to *flags for the load that follows.
 * Returns 0, or an exit code after printing. */
struct cet_params_desc;
int cli_template_scan(struct cet_entries *e, const char *const *dirs, size_t ndirs,
                      struct cli_list *refs, const struct cet_params_desc *defaults, char *buf,
                      size_t size, int threads, unsigned *flags);

/* Where evolve loads and evaluates its training sample (cluster_cli.c): NULL,
 * this process, except in the MPI build, where the ranks share it
 * (cluster.h, docs/distributed.md). */
const struct cet_backend *cli_backend(void);
#ifdef CETUNE_MPI
struct cet_cluster;
/* The MPI build's cluster (cluster_cli.c): main.c sets it, the commands that
 * spread work over the ranks read it. */
void cli_cluster_set(struct cet_cluster *cl);
struct cet_cluster *cli_cluster_get(void);
#endif

/* One line per skipped document of c, on stderr. */
void cli_print_skips(const struct cet_corpus *c);
/* Scans and loads corpora (only the sample's documents when sample is not
 * NULL, keeping what flags ask for: CET_LOAD_*), printing one line per
 * skipped document and a summary to stderr.  Returns 0, or an exit code
 * after printing. */
int cli_load_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                    size_t ndirs, const char *sample, unsigned flags, int threads,
                    const struct cet_backend *be);
/* Scans the corpora and loads a seeded sample of n documents
 * (cet_sample_load), reporting like cli_load_corpus.  Returns 0, or an exit
 * code after printing. */
int cli_sample_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                      size_t ndirs, size_t n, uint64_t seed, int by_package, unsigned flags,
                      int threads, const struct cet_backend *be);
/* Exit statuses for files (README "Exit status"): a file or directory that
 * is missing or unreadable is a runtime error (1), whichever option names
 * it; a configuration or parameter description whose content is refused is
 * a usage error (2).  Returns 0 when path is a readable file, else
 * CLI_RUNTIME after printing why. */
int cli_readable(const char *path);

/* Outputs never write into a corpus (cetune/guard.h).  cli_guard_new
 * protects the corpora dirs (none: an empty guard to add pages to);
 * cli_guard_check refuses the output path of option opt (a file, or with
 * is_dir a directory).  Both return 0, or CLI_RUNTIME after printing why. */
struct cet_guard;
int cli_guard_new(struct cet_guard **g, const char *const *dirs, size_t ndirs);
int cli_guard_check(struct cet_guard *g, const char *opt, const char *path, int is_dir);
/* Refuses (CLI_RUNTIME, printed) to replace an existing regular file
 * without force: cetune never overwrites a file it may not have written. */
int cli_refuse_existing(const char *opt, const char *path, int force);
/* Both at once: refuses path when it would write into the corpora dirs. */
int cli_guard_output(const char *const *dirs, size_t ndirs, const char *opt, const char *path,
                     int is_dir);

/* SIGINT, SIGTERM and SIGPIPE set cli_signal (the second one kills: the
 * default action); long commands poll it to stop cleanly. */
extern volatile sig_atomic_t cli_signal;
void cli_catch_signals(void);
/* Non-zero once a signal was caught (a cancel callback, ctx unused). */
int cli_cancelled(void *ctx);
/* "SIGINT", "SIGTERM" or "SIGPIPE", the signal caught. */
const char *cli_signal_name(void);

/* For a command that runs a server in the foreground (serve, label):
 * blocks SIGHUP, SIGTERM and SIGINT, put in *sigs for sigwait (the
 * server's threads inherit the mask), and ignores SIGPIPE. */
void cli_server_signals(sigset_t *sigs);
/* --listen (a CLI_FUNC into a const char * field): a malformed address is
 * a usage error, found before anything starts. */
int cli_parse_listen(const char *cmd, const struct cli_opt *o, void *field, const char *arg);

/* The best distinct individuals of a finished run against the defaults
 * (table 2 of Gottron 2008), on stdout (run_print.c). */
struct cet_run;
void cli_print_run(struct cet_run *run);
/* Loads the run's validation corpora, scores the run on them
 * (cet_run_validate) and prints the gaps.  Returns 0 or an exit code. */
int cli_validate_run(struct cet_run *run, int threads);

/* Makes the file of --adhosts (opt), else of $CETUNE_ADHOSTS, Crunch's
 * ad-host list (cet_adhosts_use_file); nothing when neither is given.
 * Returns 0, or an exit code after printing. */
int cli_adhosts(const char *opt);

/* 1 when stderr is a terminal (progress output is only for people). */
int cli_is_tty(void);
/* The progress of a run (run_print.c): generation, best and mean fitness,
 * evaluations per second since cli_progress_start and the time left at
 * most.  On a terminal one line rewritten after every generation; otherwise
 * (nohup, cron, a batch system's log) a plain line after the first
 * generation, then at most every cli_progress_every seconds, and after the
 * last.  label ("fold 2") starts the line, or is NULL; nothing is printed
 * with cli_quiet. */
struct cli_progress {
    long evals0;       /* the GA's evaluations at the start */
    double t0;         /* when it started (monotonic seconds) */
    double last;       /* when the last plain line was printed; < 0: none yet */
    int tty;
    const char *label;
};
extern int cli_quiet;
extern double cli_progress_every;
void cli_progress_start(struct cli_progress *p, const struct cet_search *engine, const char *label);
void cli_progress_print(struct cli_progress *p, const struct cet_search *engine);
/* Ends the terminal's progress line, if one was printed (engine NULL: the
 * caller knows that one was).  cli_progress_start takes engine NULL for a run
 * that has not begun. */
void cli_progress_end(const struct cli_progress *p, const struct cet_search *engine);

#endif
