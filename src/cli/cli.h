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

/* Exit codes (README "Commands"): CLI_DONE is not one, it tells a command
 * that cli_parse printed --help and nothing is left to do. */
enum { CLI_OK = 0, CLI_RUNTIME = 1, CLI_USAGE = 2, CLI_DONE = -1 };

/* Option tables.
 *
 * Every command describes its options in one table of struct cli_opt rows
 * (at the top of its cmd_NAME.c).  cli_parse builds getopt_long's arguments
 * from the rows and stores each value, checked, into the command's argument
 * struct; the same rows print --help, the usage line of usage errors and the
 * man page (cetune --man, run by the build into build/cetune.1).
 *
 * Adding an option to a command is one row, plus the field it fills:
 *     {.name = "pop", .arg = "N", .type = CLI_SIZE, .off = ARG(opt.pop), .min = 2, .max = 1e6,
 *      .help = "individuals per generation"},
 * The default shown is the field's value after the command's init, unless
 * .def says it in words. */
enum cli_type {
    CLI_FLAG,   /* no argument: sets an int to 1 */
    CLI_STR,    /* const char *: the argument itself */
    CLI_LIST,   /* struct cli_list: repeatable */
    CLI_LONG,   /* long: a whole number from min to max */
    CLI_SIZE,   /* size_t: a whole number from min to max */
    CLI_DOUBLE, /* double: a number from min to max */
    CLI_SEED,   /* uint64_t: a whole number from 0 to 2^64-1 */
    CLI_ENUM,   /* int: the index of the argument in values */
    CLI_FUNC,   /* parse(cmd, opt, field, arg) does it */
};
enum {
    CLI_REQ = 1,    /* shown bare in the usage line (the command checks it) */
    CLI_MANY = 2,   /* shown with "..." in the usage line */
    CLI_ONE_OF = 4, /* consecutive rows shown as (A | B) in the usage line */
};
struct cli_opt {
    const char *name;          /* long name, without "--" */
    int letter;                /* short option, or 0 */
    const char *arg;           /* the argument's name in help ("N", "FILE"); NULL for a flag
                                * (enums show their values) */
    enum cli_type type;
    size_t off;                /* offsetof of its field in the command's argument struct */
    const char *help;          /* one line */
    const char *def;           /* the default in words, when the field's initial value is not it */
    double min, max;           /* CLI_LONG, CLI_SIZE, CLI_DOUBLE */
    const char *const *values; /* CLI_ENUM: the names, NULL-terminated */
    /* CLI_FUNC: 0, or an exit code after printing. */
    int (*parse)(const char *cmd, const struct cli_opt *o, void *field, const char *arg);
    unsigned flags;            /* CLI_REQ, CLI_MANY, CLI_ONE_OF */
    unsigned forms;            /* the usage forms it belongs to: bit 0 the first (also when 0),
                                * bit 1 a second form; an option of the second form alone (like
                                * evolve --resume) admits only second-form options beside it */
};

/* A CLI_FUNC parser of a duration into a double field: seconds, or a
 * number with s, m or h (evolve --time). */
int cli_parse_seconds(const char *cmd, const struct cli_opt *o, void *field, const char *arg);

struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;       /* one line, for `cetune --help` */
    const char *operands;      /* after the options in the usage line; NULL: none allowed */
    const char *about;         /* paragraphs for --help and the man page, or NULL */
    const struct cli_opt *opts;/* ends with a row without name */
    size_t size;               /* sizeof the argument struct */
    void (*init)(void *args);  /* its defaults beyond zero, or NULL */
};

/* The commands, each defined with its options in cmd_NAME.c. */
extern const struct cli_command cli_evolve, cli_evaluate, cli_extract, cli_serve, cli_sample,
    cli_report, cli_list;
/* Every command, NULL-terminated (main.c). */
extern const struct cli_command *const cli_commands[];

/* Fills args (zeroed, then cmd->init) from argv by cmd's table.  Returns 0
 * with optind at the first operand, CLI_DONE after printing --help, or
 * CLI_USAGE after printing why.  Lists filled before an error stay for the
 * caller to free. */
int cli_parse(const struct cli_command *cmd, void *args, int argc, char **argv);
/* Prints --help of cmd on f. */
void cli_print_help(const struct cli_command *cmd, FILE *f);
/* Prints the man page of every command (cetune --man). */
void cli_print_man(FILE *f);

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "cetune: message" and the command's usage line; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The command line as a shell would need it ("cetune evolve ..."), allocated. */
char *cli_command_line(int argc, char **argv);

/* A growable list of strings (borrowed pointers into argv). */
struct cli_list {
    const char **v;
    size_t n, cap;
};
int cli_list_add(struct cli_list *l, const char *s);
void cli_list_free(struct cli_list *l);

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

/* Where evolve loads and evaluates its training sample (main.c): NULL,
 * this process, except in the MPI build, where the ranks share it
 * (cluster.h, docs/distributed.md). */
const struct cet_backend *cli_backend(void);

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

/* SIGINT and SIGTERM set cli_signal (the second one kills: the default
 * action); long commands poll it to stop cleanly. */
extern volatile sig_atomic_t cli_signal;
void cli_catch_signals(void);
/* Non-zero once a signal was caught (a cancel callback, ctx unused). */
int cli_cancelled(void *ctx);
/* "SIGINT" or "SIGTERM", the signal caught. */
const char *cli_signal_name(void);

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
/* The progress line of a run on a terminal (run_print.c): generation, best
 * and mean fitness, evaluations per second since cli_progress_start and
 * the time left at most. */
struct cli_progress {
    long evals0; /* the GA's evaluations at the start */
    double t0;   /* when it started (monotonic seconds) */
};
void cli_progress_start(struct cli_progress *p, const struct cet_ga *ga);
void cli_progress_print(const struct cli_progress *p, const struct cet_ga *ga);

#endif
