/* The command-line front end: the only code that prints. */
#ifndef CETUNE_CLI_H
#define CETUNE_CLI_H

#include <stddef.h>

#include "cetune/config.h"
#include "cetune/corpus.h"

/* Exit codes (DESIGN.md). */
enum { CLI_OK = 0, CLI_RUNTIME = 1, CLI_USAGE = 2 };

struct cli_cmd {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
    const char *summary;
};

extern const struct cli_cmd cli_cmds[];

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "cetune: message" and the command's usage line; returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints cmd's usage line on stdout (for --help). */
void cli_help(const char *cmd);
/* The usage error for what getopt_long returned: ':' (an option without its
 * value) or an unknown option.  Returns CLI_USAGE. */
int cli_bad_option(const char *cmd, int opt, char **argv);

/* Parses a whole non-negative number or fails with a usage message. */
int cli_uint(const char *cmd, const char *opt, const char *s, long max, long *out);

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
    size_t n, cap;
};
/* Handles -c, -x and -P; returns 0, or an exit code after printing. */
int cli_configs_add(struct cli_configs *c, const char *cmd, int opt, const char *arg);
void cli_configs_free(struct cli_configs *c);

/* Scans and loads corpora (only the sample's documents when sample is not
 * NULL), printing one line per skipped document and a summary to stderr.
 * Returns 0, or an exit code after printing. */
int cli_load_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                    size_t ndirs, const char *sample, int threads);
/* The loading half of cli_load_corpus: loads the entries with want[i] set
 * (all when want is NULL) and reports skips the same way. */
int cli_load_want(struct cet_corpus *c, const struct cet_entries *e, const uint8_t *want,
                  int threads);
/* Scans the corpora, draws a seeded sample of n documents (cet_sample_draw;
 * documents without gold are never drawn, and one that fails to load is
 * replaced by the next of its package) and loads it.  Returns 0, or an exit
 * code after printing (cmd_sample.c). */
int cli_sample_corpus(struct cet_corpus *c, struct cet_entries *e, const char *const *dirs,
                      size_t ndirs, size_t n, uint64_t seed, int by_package, int threads);
/* Parses a --seed value: a whole number from 0 to 2^64-1, or fails with a usage message. */
int cli_seed(const char *cmd, const char *s, uint64_t *out);
/* Creates a directory and its missing parents; 0 or -1 with errno set. */
int cli_mkdirs(const char *path);

/* 1 when stderr is a terminal (progress output is only for people). */
int cli_is_tty(void);

#endif
