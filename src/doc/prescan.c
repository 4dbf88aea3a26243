/* What libxml2 2.9 reads otherwise than a browser (prescan.h).  It ends a
 * script at the first "</script" whatever follows, so the rest of such a
 * script (JavaScript, and the markup its strings hold) became text of the
 * page: "'); //-->" and advertisement code in old news pages.  The HTML
 * standard's script data, escaped and double-escaped states find where a
 * browser ends it.  And it decodes a named character reference only with
 * its ";", where a browser also decodes the legacy ones without it: menus
 * separated by "&nbsp&nbsp" showed "nbsp" as words. */
#include "prescan.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* What may follow a tag name: white space, "/" or ">". */
static int ends_name(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>';
}

/* Whether s[i..len) is "<NAME" (slash 0) or "</NAME" (slash 1) with a
 * character that ends the name after it (case-insensitive). */
static int tag_at(const char *s, size_t len, size_t i, const char *name, int slash)
{
    size_t n = strlen(name), at = i + 1 + (size_t)slash;
    return at + n < len && s[i] == '<' && (!slash || s[i + 1] == '/') &&
           strncasecmp(s + at, name, n) == 0 && ends_name(s[at + n]);
}

static int starts(const char *s, size_t len, size_t i, const char *lit)
{
    size_t n = strlen(lit);
    return i + n <= len && memcmp(s + i, lit, n) == 0;
}

/* Past the ">" of the tag that starts at s[i] ("<" and a letter): attribute
 * values quoted after "=" may hold ">".  len when the tag never ends. */
static size_t past_tag(const char *s, size_t len, size_t i)
{
    for (i++; i < len && s[i] != '>'; i++) {
        if (s[i] != '=')
            continue;
        size_t v = i + 1;
        while (v < len && isspace((unsigned char)s[v]))
            v++;
        if (v < len && (s[v] == '"' || s[v] == '\'')) {
            const char *q = memchr(s + v + 1, s[v], len - v - 1);
            if (!q)
                return len;
            i = (size_t)(q - s);
        } else {
            i = v - 1;
        }
    }
    return i < len ? i + 1 : len;
}

/* From s[i], just after a <script> start tag, to the "</script" that ends
 * it (len when none does), masking the ones that do not on the way. */
static size_t script_end(char *s, size_t len, size_t i, size_t *rewritten)
{
    enum { DATA, ESCAPED, DOUBLE } st = DATA;
    for (; i < len; i++) {
        if (s[i] == '-' && st != DATA && starts(s, len, i, "-->")) {
            st = DATA;
            i += 2;
        } else if (s[i] != '<') {
            continue;
        } else if (st == DATA && starts(s, len, i, "<!--")) {
            st = ESCAPED;
            i += 1; /* "<!-->" closes at once: its "-->" is looked at */
        } else if (st == ESCAPED && tag_at(s, len, i, "script", 0)) {
            st = DOUBLE;
            i += 6;
        } else if (i + 8 <= len && s[i + 1] == '/' && strncasecmp(s + i + 2, "script", 6) == 0) {
            int whole = i + 8 < len && ends_name(s[i + 8]);
            if (whole && st != DOUBLE)
                return i;
            if (whole)
                st = ESCAPED;
            s[i + 1] = ' ';
            (*rewritten)++;
            i += 7;
        }
    }
    return len;
}

size_t cet_prescan(char *s, size_t len)
{
    size_t rewritten = 0, i = 0;
    while (i < len) {
        while (i < len && s[i] != '<' && s[i] != '&')
            i++;
        if (i >= len)
            break;
        if (s[i] == '&') { /* text: a bare "&nbsp" (not "&nbsp;") */
            if (starts(s, len, i, "&nbsp") && (i + 5 == len || s[i + 5] != ';')) {
                memcpy(s + i, "\xc2\xa0   ", 5);
                rewritten++;
                i += 5;
            } else {
                i++;
            }
        } else if (starts(s, len, i, "<!--")) {
            for (i += 4; i < len && !starts(s, len, i, "-->"); i++)
                ;
            i = i < len ? i + 3 : len;
        } else if (i + 1 < len && isalpha((unsigned char)s[i + 1])) {
            int script = tag_at(s, len, i, "script", 0), style = tag_at(s, len, i, "style", 0);
            i = past_tag(s, len, i);
            if (script) {
                i = script_end(s, len, i, &rewritten);
            } else if (style) { /* its text is not markup either */
                while (i < len && !tag_at(s, len, i, "style", 1))
                    i++;
            }
        } else {
            i++;
        }
    }
    return rewritten;
}
