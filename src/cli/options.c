/* Option tables (cli.h): parsing, --help, the usage line and the man page,
 * all from the rows of each command's table, so they cannot disagree. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/search.h"
#include "msgs.h"
#include "options.h"
#include "util/array.h"

/* The option as people write it: -n when it has a letter, else --name. */
static const char *opt_shown(const struct cli_opt *o, char *buf, size_t size)
{
    if (o->letter)
        snprintf(buf, size, "-%c", o->letter);
    else
        snprintf(buf, size, "--%s", o->name);
    return buf;
}

/* The argument's name: arg, or an enum's values joined by '|'. */
static void arg_name(const struct cli_opt *o, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    if (o->arg || o->type != CLI_ENUM) {
        snprintf(buf, size, "%s", o->arg ? o->arg : "");
        return;
    }
    for (size_t k = 0; o->values[k] && n < size; k++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", k ? "|" : "", o->values[k]);
}

/* The command's rows: its table, or the one it builds at first use. */
static const struct cli_opt *opts_of(const struct cli_command *cmd)
{
    return cmd->table ? cmd->table() : cmd->opts;
}

static const struct cli_command *find_command(const char *name)
{
    for (size_t i = 0; cli_commands[i]; i++)
        if (!strcmp(cli_commands[i]->name, name))
            return cli_commands[i];
    return NULL;
}

/* One option in the usage line: "-p PARAMS.json", "--pop N", "-d CORPUS...". */
static void usage_item(const struct cli_opt *o, char *buf, size_t size)
{
    char a[256], name[64];
    arg_name(o, a, sizeof a);
    snprintf(buf, size, "%s%s%s%s", opt_shown(o, name, sizeof name), *a ? " " : "", a,
             o->flags & CLI_MANY ? "..." : "");
}

/* Appends word to the text being printed, wrapping at width columns with
 * indent spaces. */
static void put_word(FILE *f, const char *w, size_t *col, size_t indent, size_t width)
{
    size_t n = strlen(w);
    if (*col > indent && *col + 1 + n > width) {
        fprintf(f, "\n%*s", (int)indent, "");
        *col = indent;
    } else if (*col != indent) {
        fputc(' ', f);
        (*col)++;
    }
    fputs(w, f);
    *col += n;
}

/* The usage forms of cmd, each line starting with prefix ("usage: ") or
 * as many spaces, wrapped at width columns.  The required options of a
 * second form come first. */
static void print_usage(const struct cli_command *cmd, FILE *f, const char *prefix, size_t width)
{
    unsigned forms = 1;
    for (const struct cli_opt *o = opts_of(cmd); o && o->name; o++)
        forms |= o->forms;
    for (unsigned form = 1; form <= forms; form <<= 1) {
        if (!(forms & form))
            continue;
        char head[128];
        snprintf(head, sizeof head, "%*s%scetune %s", form == 1 ? 0 : (int)strlen(prefix), "",
                 form == 1 ? prefix : "", cmd->name);
        fputs(head, f);
        size_t col = strlen(head), indent = col + 1;
        for (int pass = form == 1; pass < 2; pass++)
        for (const struct cli_opt *o = opts_of(cmd); o && o->name; o++) {
            if (!((o->forms ? o->forms : 1) & form) || (!pass && !(o->flags & CLI_REQ)) ||
                (pass && form != 1 && o->flags & CLI_REQ))
                continue;
            char item[512], w[1200];
            usage_item(o, item, sizeof item);
            if (o->flags & CLI_ONE_OF) {
                /* (A | B | C) from the consecutive rows of the group. */
                size_t n = (size_t)snprintf(w, sizeof w, "(%s", item);
                while (o[1].name && (o[1].flags & CLI_ONE_OF) && n < sizeof w) {
                    o++;
                    usage_item(o, item, sizeof item);
                    n += (size_t)snprintf(w + n, sizeof w - n, " | %s", item);
                }
                if (n < sizeof w)
                    snprintf(w + n, sizeof w - n, ")");
            } else if (o->flags & CLI_REQ) {
                snprintf(w, sizeof w, "%s", item);
            } else {
                snprintf(w, sizeof w, "[%s]", item);
            }
            put_word(f, w, &col, indent, width);
        }
        if (form == 1 && cmd->operands)
            put_word(f, cmd->operands, &col, indent, width);
        fputc('\n', f);
    }
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage("", fmt, ap);
    va_end(ap);
    /* One line of what is wrong and where to look; the synopsis would bury it. */
    if (find_command(cmd))
        fprintf(stderr, "cetune: see 'cetune %s --help'\n", cmd);
    return CLI_USAGE;
}

/* The default of o as shown: o->def, else its field's value after init
 * (nothing for flags, lists and unset strings). */
static void default_text(const struct cli_opt *o, const void *defaults, char *buf, size_t size)
{
    const char *field = (const char *)defaults + o->off;
    buf[0] = 0;
    if (o->def || o->flags & CLI_REQ) {
        snprintf(buf, size, "%s", o->def ? o->def : "");
        return;
    }
    static const size_t sizes[] = {[CLI_STR] = sizeof(const char *), [CLI_LONG] = sizeof(long),
                                   [CLI_SIZE] = sizeof(size_t), [CLI_DOUBLE] = sizeof(double),
                                   [CLI_SEED] = sizeof(uint64_t), [CLI_ENUM] = sizeof(int)};
    union {
        const char *s;
        long l;
        size_t z;
        double d;
        uint64_t u;
        int i;
    } v;
    if (o->type >= sizeof sizes / sizeof *sizes || !sizes[o->type])
        return; /* flags, lists and CLI_FUNC say their default in o->def */
    memcpy(&v, field, sizes[o->type]);
    if (o->type == CLI_STR && v.s)
        snprintf(buf, size, "%s", v.s);
    else if (o->type == CLI_LONG)
        snprintf(buf, size, "%ld", v.l);
    else if (o->type == CLI_SIZE)
        snprintf(buf, size, "%zu", v.z);
    else if (o->type == CLI_DOUBLE)
        snprintf(buf, size, "%g", v.d);
    else if (o->type == CLI_SEED)
        snprintf(buf, size, "%llu", (unsigned long long)v.u);
    else if (o->type == CLI_ENUM)
        snprintf(buf, size, "%s", o->values[v.i]);
}

/* A command's defaults: a zeroed argument struct after its init; the
 * caller frees it.  NULL when out of memory. */
static void *defaults_of(const struct cli_command *cmd)
{
    void *d = calloc(1, cmd->size ? cmd->size : 1);
    if (d && cmd->init)
        cmd->init(d);
    return d;
}

/* "-p, --params PARAMS.json" or "    --pop N". */
static void option_head(const struct cli_opt *o, char *buf, size_t size)
{
    char a[256];
    arg_name(o, a, sizeof a);
    snprintf(buf, size, "%c%c%s--%s%s%s", o->letter ? '-' : ' ', o->letter ? o->letter : ' ',
             o->letter ? ", " : "  ", o->name, *a ? " " : "", a);
}

/* A command's about text as one paragraph wrapped at width columns: its
 * own line breaks are spaces (they were placed by hand, and drifted as the
 * text changed), and two spaces after a sentence stay two. */
static void print_paragraph(FILE *f, const char *s, size_t width)
{
    size_t col = 0;
    while (*s) {
        size_t gap = 0;
        for (; *s == ' ' || *s == '\n'; s++)
            gap += *s == ' ' && s[1] == ' ' ? 2 : 0;
        size_t n = strcspn(s, " \n");
        if (!n)
            break;
        if (col && col + (gap ? 2 : 1) + n > width) {
            fputc('\n', f);
            col = 0;
        } else if (col) {
            fputs(gap ? "  " : " ", f);
            col += gap ? 2 : 1;
        }
        fwrite(s, 1, n, f);
        col += n;
        s += n;
    }
    fputc('\n', f);
}

void cli_print_help(const struct cli_command *cmd, FILE *f)
{
    void *defaults = defaults_of(cmd);
    print_usage(cmd, f, "usage: ", 100);
    fprintf(f, "\n%c%s.\n", toupper((unsigned char)cmd->summary[0]), cmd->summary + 1);
    if (cmd->about) {
        fputc('\n', f);
        print_paragraph(f, cmd->about, 100);
    }
    fprintf(f, "\noptions:\n");
    for (const struct cli_opt *o = opts_of(cmd); o && o->name; o++) {
        char head[300], def[256] = "", help[1024];
        option_head(o, head, sizeof head);
        if (defaults)
            default_text(o, defaults, def, sizeof def);
        snprintf(help, sizeof help, "%s%s%s%s", o->help, *def ? " (default: " : "", def,
                 *def ? ")" : "");
        if (strlen(head) > 28)
            fprintf(f, "  %s\n%32s", head, "");
        else
            fprintf(f, "  %-28s  ", head);
        size_t col = 32; /* the help wrapped at 100 columns, under itself */
        for (char *w = strtok(help, " "); w; w = strtok(NULL, " "))
            put_word(f, w, &col, 32, 100);
        fputc('\n', f);
    }
    fprintf(f, "  -h, --help                    print this help and exit\n");
    free(defaults);
}

/* Text for roff: backslashes and minus signs escaped, no line starting
 * with a control character. */
static void roff(FILE *f, const char *s)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        bol = *s == '\n';
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

void cli_print_man(FILE *f)
{
    fprintf(f, ".\\\" Generated by 'cetune --man' from the option tables of src/cli/cmd_*.c.\n"
               ".TH CETUNE 1 \"\" \"cetune %s\" \"User Commands\"\n"
               ".SH NAME\ncetune \\- tune web content\\-extraction algorithms with a genetic "
               "algorithm\n.SH SYNOPSIS\n.B cetune\n.I COMMAND\n[\\fIOPTIONS\\fR]\n.br\n"
               ".B cetune \\-\\-version\n.SH DESCRIPTION\n"
               "cetune evolves the parameters of main\\-content extraction algorithms on pages "
               "with a gold standard of their main text, scores configurations per package with "
               "the word\\-sequence F1, and extracts the main text of pages with a tuned "
               "configuration.\n"
               "Output for people goes to standard output, diagnostics to standard error.\n",
            CETUNE_VERSION);
    fprintf(f, ".SH COMMANDS\n");
    for (size_t i = 0; cli_commands[i]; i++) {
        const struct cli_command *cmd = cli_commands[i];
        void *defaults = defaults_of(cmd);
        fprintf(f, ".SS cetune %s\n%c", cmd->name, toupper((unsigned char)cmd->summary[0]));
        roff(f, cmd->summary + 1);
        fprintf(f, ".\n.PP\n.nf\n");
        /* The usage line through a memory stream, so that it can be escaped. */
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (m) {
            print_usage(cmd, m, "", 72);
            fclose(m);
            roff(f, text);
            free(text);
        }
        fprintf(f, ".fi\n");
        if (cmd->about) {
            fprintf(f, ".PP\n");
            roff(f, cmd->about);
            fputc('\n', f);
        }
        for (const struct cli_opt *o = opts_of(cmd); o && o->name; o++) {
            char a[256], def[256] = "";
            arg_name(o, a, sizeof a);
            fprintf(f, ".TP\n");
            if (o->letter)
                fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
            fprintf(f, "\\fB");
            roff(f, "--");
            roff(f, o->name);
            fprintf(f, "\\fR");
            if (*a) {
                fprintf(f, " \\fI");
                roff(f, a);
                fprintf(f, "\\fR");
            }
            fputc('\n', f);
            if (defaults)
                default_text(o, defaults, def, sizeof def);
            roff(f, o->help);
            if (*def) {
                fprintf(f, " (default: ");
                roff(f, def);
                fputc(')', f);
            }
            fputc('\n', f);
        }
        free(defaults);
    }
    fprintf(f, ".SH EXIT STATUS\n0 success, 1 runtime error, 2 usage error.\n"
               "An interrupted \\fBevolve\\fR exits 130 (SIGINT) or 143 (SIGTERM) after keeping "
               "its last complete generation.\n"
               ".SH ENVIRONMENT\n.TP\n.B CETUNE_ADHOSTS\n"
               "a file of ad\\-server hosts that replaces crunch's built\\-in list "
               "(\\fBextract \\-\\-adhosts\\fR wins over it)\n"
               ".SH SEE ALSO\nREADME.md and docs/ in the cetune sources.\n");
}

/* Whole numbers, checked against the row's range. */
static int parse_whole(const char *cmd, const struct cli_opt *o, const char *s, long *out)
{
    char *end, name[64];
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < (long)o->min || v > (long)o->max)
        return cli_usage(cmd, "%s expects a whole number from %ld to %ld, got '%s'",
                         opt_shown(o, name, sizeof name), (long)o->min, (long)o->max, s);
    *out = v;
    return 0;
}

/* Stores the argument of o into its field of args. */
static int store(const char *cmd, const struct cli_opt *o, void *args, const char *arg)
{
    char *field = (char *)args + o->off, *end, name[64];
    int rc;
    long v;
    switch (o->type) {
    case CLI_FLAG: {
        int one = 1;
        memcpy(field, &one, sizeof one);
        return 0;
    }
    case CLI_STR:
        memcpy(field, &arg, sizeof arg);
        return 0;
    case CLI_LIST:
        if (cli_list_add((struct cli_list *)(void *)field, arg)) {
            cli_error("out of memory");
            return CLI_RUNTIME;
        }
        return 0;
    case CLI_LONG:
        if ((rc = parse_whole(cmd, o, arg, &v)))
            return rc;
        memcpy(field, &v, sizeof v);
        return 0;
    case CLI_SIZE: {
        if ((rc = parse_whole(cmd, o, arg, &v)))
            return rc;
        size_t z = (size_t)v;
        memcpy(field, &z, sizeof z);
        return 0;
    }
    case CLI_DOUBLE: {
        errno = 0;
        double d = strtod(arg, &end);
        if (!*arg || *end || errno || !isfinite(d) || d < o->min || d > o->max)
            return cli_usage(cmd, "%s expects a number from %g to %g, got '%s'",
                             opt_shown(o, name, sizeof name), o->min, o->max, arg);
        memcpy(field, &d, sizeof d);
        return 0;
    }
    case CLI_SEED: {
        errno = 0;
        unsigned long long u = strtoull(arg, &end, 10);
        if (!*arg || *end || errno || *arg == '-')
            return cli_usage(cmd, "%s expects a whole number from 0 to 18446744073709551615, "
                                  "got '%s'", opt_shown(o, name, sizeof name), arg);
        uint64_t s = u;
        memcpy(field, &s, sizeof s);
        return 0;
    }
    case CLI_ENUM: {
        char values[256];
        for (int k = 0; o->values[k]; k++)
            if (!strcmp(o->values[k], arg)) {
                memcpy(field, &k, sizeof k);
                return 0;
            }
        arg_name(o, values, sizeof values);
        return cli_usage(cmd, "%s must be one of %s, not '%s'", opt_shown(o, name, sizeof name),
                         values, arg);
    }
    case CLI_FUNC:
        return o->parse(cmd, o, field, arg);
    }
    return 0;
}

int cli_parse(const struct cli_command *cmd, void *args, int argc, char **argv)
{
    size_t n = 0;
    const struct cli_opt *opts = opts_of(cmd);
    while (opts && opts[n].name)
        n++;
    struct option *longopts = calloc(n + 2, sizeof *longopts);
    unsigned char *given = calloc(n + 1, 1);
    char *shortopts = malloc(3 * n + 4);
    int rc = 0, opt;
    if (cmd->size)
        memset(args, 0, cmd->size);
    if (cmd->init)
        cmd->init(args);
    if (!longopts || !given || !shortopts) {
        cli_error("out of memory");
        rc = CLI_RUNTIME;
        goto done;
    }
    /* Long-only options return 256 + their row. */
    size_t k = 0;
    shortopts[k++] = ':';
    for (size_t i = 0; i < n; i++) {
        const struct cli_opt *o = &opts[i];
        int has_arg = o->type != CLI_FLAG;
        longopts[i] = (struct option){o->name, has_arg ? required_argument : no_argument, NULL,
                                      o->letter ? o->letter : 256 + (int)i};
        if (o->letter) {
            shortopts[k++] = (char)o->letter;
            if (has_arg)
                shortopts[k++] = ':';
        }
    }
    longopts[n] = (struct option){"help", no_argument, NULL, 'h'};
    shortopts[k++] = 'h';
    shortopts[k] = 0;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (opt == 'h') {
            cli_print_help(cmd, stdout);
            rc = CLI_DONE;
            goto done;
        }
        if (opt == ':') {
            rc = cli_usage(cmd->name, "option %s needs a value", argv[optind - 1]);
            goto done;
        }
        size_t i = opt >= 256 ? (size_t)opt - 256 : n;
        for (size_t r = 0; opt < 256 && r < n; r++)
            if (opts[r].letter == opt)
                i = r;
        if (opt == '?' || i >= n) {
            rc = cli_usage(cmd->name, "unknown option '%s'", argv[optind - 1]);
            goto done;
        }
        given[i] = 1;
        if ((rc = store(cmd->name, &opts[i], args, optarg)))
            goto done;
    }
    /* An option only of the second form (evolve --resume) admits only
     * second-form options beside it. */
    for (size_t i = 0; i < n; i++) {
        const struct cli_opt *o = &opts[i];
        if (!given[i] || o->forms != 2)
            continue;
        for (size_t j = 0; j < n; j++)
            if (given[j] && !(opts[j].forms & 2)) {
                char allowed[512] = "";
                size_t len = 0;
                for (size_t m = 0; m < n; m++)
                    if ((opts[m].forms & 2) && m != i && len < sizeof allowed)
                        len += (size_t)snprintf(allowed + len, sizeof allowed - len, "%s--%s",
                                                len ? ", " : "", opts[m].name);
                rc = cli_usage(cmd->name, "--%s continues with its own settings: only %s may "
                                          "be given with it, not --%s", o->name, allowed,
                               opts[j].name);
                goto done;
            }
    }
    if (!cmd->operands && optind < argc)
        rc = cli_usage(cmd->name, "unexpected argument '%s'", argv[optind]);
done:
    free(longopts);
    free(given);
    free(shortopts);
    return rc;
}

int cli_parse_seconds(const char *cmd, const struct cli_opt *o, void *field, const char *arg)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60
                : !strcmp(end, "h") ? 3600 : -1;
    if (end == arg || errno || unit < 0 || !isfinite(v) || v < 0)
        return cli_usage(cmd, "--%s expects seconds, or a number with s, m or h, got '%s'",
                         o->name, arg);
    v *= unit;
    memcpy(field, &v, sizeof v);
    return 0;
}

int cli_list_add(struct cli_list *l, const char *s)
{
    if (CET_GROW(l->v, l->cap, l->n + 1, 8))
        return -1;
    l->v[l->n++] = s;
    return 0;
}

void cli_list_free(struct cli_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* ---- the search options of the library's table (cetune/search.h) ---- */

/* Parses a search option's argument with its row (cet_option_parse). */
static int parse_search(const char *cmd, const struct cli_opt *o, void *field, const char *arg)
{
    const struct cet_option *row = cet_search_option_find(o->name);
    struct cet_error err;
    if (cet_option_parse(row, (struct cet_search_options *)(void *)((char *)field - row->off), arg,
                         &err))
        return cli_usage(cmd, "%s", err.msg);
    return 0;
}

/* A copy of s that lives as long as the program (the rows are built once). */
static const char *keep(const char *s)
{
    char *c = strdup(s);
    return c ? c : "";
}

size_t cli_search_rows(struct cli_opt *out, size_t room, size_t off)
{
    size_t n = 0;
    for (const struct cet_option *r = cet_search_options; r->name && n < room; r++, n++) {
        char flag[64], text[1024];
        cet_option_flag(r, flag, sizeof flag);
        struct cli_opt *o = &out[n];
        *o = (struct cli_opt){.name = keep(flag + 2), .arg = r->arg, .off = off + r->off,
                              .type = r->type == CET_OPT_FLAG ? CLI_FLAG : CLI_FUNC,
                              .parse = parse_search, .def = r->def_text,
                              .flags = r->type == CET_OPT_CONSTRAINT ? CLI_MANY : 0u};
        if (r->type == CET_OPT_ENUM) {
            size_t len = 0;
            for (size_t k = 0; r->values[k] && len < sizeof text; k++)
                len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", k ? "|" : "",
                                        r->values[k]);
            o->arg = keep(text);
            if (!o->def)
                o->def = r->values[(int)r->def];
        } else if (!o->def && r->type != CET_OPT_FLAG) {
            snprintf(text, sizeof text, "%g", r->def);
            o->def = keep(text);
        }
        /* Which strategies read it, when not all. */
        const char *only = NULL;
        for (int k = 0; k < CET_STRATEGY_COUNT; k++)
            if (r->strategies == 1u << k)
                only = cet_strategy_names[k];
        snprintf(text, sizeof text, "%s%s%s%s", r->help, only ? " (" : "", only ? only : "",
                 only ? " only)" : "");
        o->help = keep(text);
    }
    return n;
}
