/* cetune list [EXTRACTOR]: the registry, for people. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Column widths: the longest parameter name and default of every extractor,
 * so that all rows line up. */
static void widths(int *name_w, int *def_w)
{
    *name_w = 4;
    *def_w = 4;
    for (size_t e = 0; e < cet_extractor_count(); e++) {
        const struct cet_extractor *ex = cet_extractor_at(e);
        for (size_t i = 0; i < ex->nparams; i++) {
            char def[64];
            cet_param_format(ex, i, ex->params[i].def, 0, def, sizeof def);
            if ((int)strlen(ex->params[i].name) > *name_w)
                *name_w = (int)strlen(ex->params[i].name);
            if ((int)strlen(def) > *def_w)
                *def_w = (int)strlen(def);
        }
    }
}

static void show(const struct cet_extractor *ex, int verbose)
{
    int name_w, def_w;
    widths(&name_w, &def_w);
    printf("%-11s %s\n", ex->name, ex->summary);
    for (size_t i = 0; i < ex->nparams; i++) {
        const struct cet_param *p = &ex->params[i];
        char def[64], lo[64], hi[64];
        cet_param_format(ex, i, p->def, 0, def, sizeof def);
        int more = p->type != CET_P_BOOL; /* a range or values follow */
        printf("    %-*s %-5s default %-*s", name_w, p->name, cet_param_type_name(p->type), more ? def_w : 0,
               def);
        if (p->type == CET_P_INT || p->type == CET_P_FLOAT) {
            cet_param_format(ex, i, p->min, 0, lo, sizeof lo);
            cet_param_format(ex, i, p->max, 0, hi, sizeof hi);
            printf(" range [%s, %s]", lo, hi);
        } else if (p->type == CET_P_ENUM) {
            printf(" values");
            for (size_t k = 0; p->values[k]; k++)
                printf("%s%s", k ? "|" : " ", p->values[k]);
        }
        if (verbose && p->help)
            printf("\n        %s", p->help);
        putchar('\n');
    }
}

static int cmd_list(int argc, char **argv);
const struct cli_command cli_list = {
    .name = "list", .run = cmd_list, .operands = "[EXTRACTOR]",
    .summary = "show the extractors and their parameters",
    .about = "Every extractor with its parameters, types, defaults and ranges; with EXTRACTOR, "
             "one extractor\nwith a line of help per parameter."};

static int cmd_list(int argc, char **argv)
{
    int rc = cli_parse(&cli_list, NULL, argc, argv);
    if (rc)
        return rc;
    argc -= optind - 1;
    argv += optind - 1;
    if (argc > 2)
        return cli_usage("list", "too many arguments");
    if (argc == 2) {
        const struct cet_extractor *ex = cet_extractor_find(argv[1]);
        if (!ex)
            return cli_usage("list", "unknown extractor '%s'", argv[1]);
        show(ex, 1);
        return CLI_OK;
    }
    for (size_t i = 0; i < cet_extractor_count(); i++)
        show(cet_extractor_at(i), 0);
    return CLI_OK;
}
