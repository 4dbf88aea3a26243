/* cetune: tunes web content-extraction algorithms with a genetic algorithm.
 * main only dispatches to the table of commands. */
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>

#include "cli.h"

int cmd_evaluate(int argc, char **argv);
int cmd_evolve(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);

const struct cli_cmd cli_cmds[] = {
    {"evolve", cmd_evolve,
     "cetune evolve -p PARAMS.json -d CORPUS... [-s SAMPLE | --sample-size N [--by-package]]\n"
     "              [--pop N] [--generations N] [--patience N] [--epsilon E] [--max-evals N]\n"
     "              [--time T[s|m|h]] [--elite N] [--select tournament|truncation] [--tournament K]\n"
     "              [--truncation F] [--crossover-rate P] [--mutation-rate P] [--mutation-sigma S]\n"
     "              [--adaptive] [--adapt-factor F] [--resolution R] [--seed S] [--seed-config FILE...]\n"
     "              [--threads N] [--top N] [--validate CORPUS...] [-o runs/NAME] [--force]\n"
     "       cetune evolve --resume runs/NAME [--threads N]",
     "tune an extractor's parameters with the genetic algorithm"},
    {"evaluate", cmd_evaluate,
     "cetune evaluate (-c CONFIG.json... | -x EXTRACTOR [-P name=value...]) -d CORPUS... [-s SAMPLE]\n"
     "                [--metric word|chars|lcstring] [--per-doc] [--format table|csv|json] [--extracts DIR] [--show p,r,f1] [--threads N]",
     "score configurations on corpora, per package"},
    {"extract", cmd_extract,
     "cetune extract (-c CONFIG.json | -x EXTRACTOR [-P name=value...]) [--format text|html]\n"
     "               [--out-dir DIR] [--adhosts FILE] [FILE.html... | -]",
     "print the main text of pages with one configuration"},
    {"sample", cmd_sample,
     "cetune sample -d CORPUS... -n N [--seed S] [--by-package] -o samples/NAME.txt [--force]",
     "draw a seeded training sample, in proportion to the packages"},
    {"report", cmd_report, "cetune report runs/NAME",
     "plot a run with gnuplot and write its report.md"},
    {"list", cmd_list, "cetune list [EXTRACTOR]", "show the extractors and their parameters"},
    {NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: cetune COMMAND [OPTIONS]\n\ncommands:\n");
    for (const struct cli_cmd *c = cli_cmds; c->name; c++)
        fprintf(f, "  %-9s %s\n", c->name, c->summary);
    fprintf(f, "\n'cetune COMMAND --help' shows a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_OK;
    }
    xmlInitParser();
    for (const struct cli_cmd *c = cli_cmds; c->name; c++)
        if (!strcmp(argv[1], c->name)) {
            int rc = c->run(argc - 1, argv + 1);
            xmlCleanupParser();
            return rc;
        }
    fprintf(stderr, "cetune: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
