/* Diagnostics: every message the front end prints on stderr starts with
 * "cetune: " (curl keeps its equivalents in tool_msgs.c). */
#include <stdarg.h>
#include <stdio.h>

#include "msgs.h"

int cli_silent;

/* "cetune: " and prefix, the message, a newline: every diagnostic on stderr. */
void cli_vmessage_to(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
    fprintf(f, "cetune: %s", prefix);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
}

void cli_vmessage(const char *prefix, const char *fmt, va_list ap)
{
    if (!cli_silent)
        cli_vmessage_to(stderr, prefix, fmt, ap);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage("", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage("warning: ", fmt, ap);
    va_end(ap);
}
