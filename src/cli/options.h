/* Option tables: how a command declares its options, and what parses and
 * prints them (options.c). */
#ifndef CETUNE_CLI_OPTIONS_H
#define CETUNE_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
    /* Instead of opts: builds the rows at first use (evolve's come from the
     * library's table of search options, cli_search_rows). */
    const struct cli_opt *(*table)(void);
    size_t size;               /* sizeof the argument struct */
    void (*init)(void *args);  /* its defaults beyond zero, or NULL */
};

/* The commands, each defined with its options in cmd_NAME.c. */
extern const struct cli_command cli_evolve, cli_evaluate, cli_extract, cli_serve, cli_label,
    cli_sample, cli_report, cli_list, cli_routes;
/* Every command, NULL-terminated (main.c). */
extern const struct cli_command *const cli_commands[];

/* Rows for the library's search options (cet_search_options, cetune/search.h),
 * their struct cet_search_options at off in the command's argument struct: at
 * most room of them into out; returns how many.  Each parses with its row
 * (cet_option_parse) and shows its default and the strategies that read it. */
size_t cli_search_rows(struct cli_opt *out, size_t room, size_t off);

/* Fills args (zeroed, then cmd->init) from argv by cmd's table.  Returns 0
 * with optind at the first operand, CLI_DONE after printing --help, or
 * CLI_USAGE after printing why.  Lists filled before an error stay for the
 * caller to free. */
int cli_parse(const struct cli_command *cmd, void *args, int argc, char **argv);
/* Prints --help of cmd on f. */
void cli_print_help(const struct cli_command *cmd, FILE *f);
/* Prints the man page of every command (cetune --man). */
void cli_print_man(FILE *f);

/* Prints "cetune: message" and where the options are described (one line
 * each: the synopsis would bury the message); returns CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable list of strings (borrowed pointers into argv). */
struct cli_list {
    const char **v;
    size_t n, cap;
};
int cli_list_add(struct cli_list *l, const char *s);
void cli_list_free(struct cli_list *l);

#endif
