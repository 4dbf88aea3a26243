/* Diagnostics: every message the front end prints on stderr starts with
 * "cetune: " (curl keeps its equivalents in tool_msgs.c). */
#include <stdarg.h>
#include <stdio.h>

#include "msgs.h"

/* "cetune: " and prefix, the message, a newline: every diagnostic on stderr. */
void cli_vmessage(const char *prefix, const char *fmt, va_list ap)
{
    fprintf(stderr, "cetune: %s", prefix);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
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
