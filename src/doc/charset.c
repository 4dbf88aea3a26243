/* Page and gold decoding to UTF-8 (docs/formats.md, "Corpora"): a BOM wins, then a <meta>
 * declaration, else UTF-8 when the bytes are valid UTF-8, else windows-1252.
 * A charset declared by the transport (HTTP Content-Type) ranks after a BOM
 * and before <meta>.  ISO-8859-1 and US-ASCII labels mean windows-1252, as browsers treat them
 * (WHATWG Encoding).  Invalid sequences in a declared charset become U+FFFD
 * rather than dropping the page. */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/HTMLparser.h>

#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/text.h"
#include "alt.h"

/* windows-1252 bytes 0x80..0x9F; the five undefined bytes map to C1 controls. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static int decode_cp1252(char **out, size_t *out_len, const unsigned char *s, size_t len)
{
    char *o = malloc(len * 3 + 1);
    if (!o)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned c = s[i];
        uint32_t cp = c >= 0x80 && c < 0xA0 ? cp1252_high[c - 0x80] : c;
        n += put_utf8(o + n, cp);
    }
    o[n] = 0;
    *out = o;
    *out_len = n;
    return 0;
}

/* UTF-8 with each invalid byte replaced by U+FFFD. */
static int decode_utf8_lossy(char **out, size_t *out_len, const unsigned char *s, size_t len)
{
    char *o = malloc(len * 3 + 1);
    if (!o)
        return -1;
    size_t n = 0, i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && s[i] < 0x80)
            i++;
        memcpy(o + n, s + start, i - start);
        n += i - start;
        if (i == len)
            break;
        /* Find the longest valid multi-byte sequence at i. */
        unsigned c = s[i];
        size_t need = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
        if (need && i + need <= len && cet_utf8_valid((const char *)s + i, need)) {
            memcpy(o + n, s + i, need);
            n += need;
            i += need;
        } else {
            n += put_utf8(o + n, 0xFFFD);
            i++;
        }
    }
    o[n] = 0;
    *out = o;
    *out_len = n;
    return 0;
}

/* Makes room for at least `need` more bytes after *op in *o. */
static int grow_out(char **o, char **op, size_t *cap, size_t *outleft, size_t need)
{
    if (*outleft >= need)
        return 0;
    size_t used = (size_t)(*op - *o);
    size_t c = *cap * 2 + need;
    char *no = realloc(*o, c);
    if (!no)
        return -1;
    *o = no;
    *op = no + used;
    *cap = c;
    *outleft = c - used - 1;
    return 0;
}

static int decode_iconv(char **out, size_t *out_len, const char *s, size_t len, const char *cs)
{
    iconv_t cd = iconv_open("UTF-8", cs);
    if (cd == (iconv_t)-1)
        return 1; /* unknown charset */
    size_t cap = len * 4 + 16;
    char *o = malloc(cap);
    if (!o) {
        iconv_close(cd);
        return -1;
    }
    char *in = (char *)s, *op = o;
    size_t inleft = len, outleft = cap - 1;
    while (inleft > 0) {
        size_t r = iconv(cd, &in, &inleft, &op, &outleft);
        if (r != (size_t)-1)
            break;
        /* E2BIG: grow; EILSEQ or EINVAL: replace one byte with U+FFFD and go on. */
        int full = errno == E2BIG;
        if (grow_out(&o, &op, &cap, &outleft, full ? outleft + len + 16 : 4)) {
            free(o);
            iconv_close(cd);
            return -1;
        }
        if (full)
            continue;
        size_t k = put_utf8(op, 0xFFFD);
        op += k;
        outleft -= k;
        in++;
        inleft--;
    }
    iconv_close(cd);
    *op = 0;
    *out = o;
    *out_len = (size_t)(op - o);
    return 0;
}

static int ci_prefix(const char *s, const char *end, const char *p)
{
    for (; *p; p++, s++)
        if (s >= end || tolower((unsigned char)*s) != *p)
            return 0;
    return 1;
}

/* The charset named by the first <meta> declaring one in the first 64 KB
 * (pages put it late more often than the HTML spec's 1024 bytes allow). */
static int find_meta_charset(const char *s, size_t len, char cs[32])
{
    const char *end = s + (len < 65536 ? len : 65536);
    for (const char *p = s; p + 5 < end; p++) {
        if (*p != '<' || !ci_prefix(p + 1, end, "meta"))
            continue;
        const char *close = memchr(p, '>', (size_t)(end - p));
        if (!close)
            return 0;
        for (const char *q = p; q + 8 < close; q++) {
            if (!ci_prefix(q, close, "charset"))
                continue;
            q += 7;
            while (q < close && isspace((unsigned char)*q))
                q++;
            if (q >= close || *q != '=')
                continue;
            q++;
            while (q < close && (isspace((unsigned char)*q) || *q == '"' || *q == '\''))
                q++;
            size_t n = 0;
            while (q < close && n < 31 && (isalnum((unsigned char)*q) || strchr("-_.:", *q)))
                cs[n++] = (char)tolower((unsigned char)*q++);
            cs[n] = 0;
            if (n)
                return 1;
        }
        p = close;
    }
    return 0;
}

static int is_label(const char *cs, const char *const *labels)
{
    for (; *labels; labels++)
        if (strcmp(cs, *labels) == 0)
            return 1;
    return 0;
}

static const char *const utf8_labels[] = {"utf-8", "utf8", "unicode-1-1-utf-8", NULL};
static const char *const cp1252_labels[] = {
    "windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1",
    "l1", "iso-ir-100", "ibm819", "cp819", "us-ascii", "ascii", "ansi_x3.4-1968", "iso88591",
    "csisolatin1", NULL};

/* Decodes with the charset called label (lowercase); 1 when the label is not
 * usable, -1 when out of memory.  A UTF-16 label is usable only when the
 * transport declared it: found in a <meta>, it sits in ASCII-compatible
 * bytes, so it is a lie. */
static int decode_as(char **out, size_t *out_len, const char *bytes, size_t len, const char *cs,
                     int utf16_ok, char charset[32])
{
    const unsigned char *s = (const unsigned char *)bytes;
    if (is_label(cs, utf8_labels)) {
        strcpy(charset, "utf-8");
        return decode_utf8_lossy(out, out_len, s, len);
    }
    if (is_label(cs, cp1252_labels)) {
        strcpy(charset, "windows-1252");
        return decode_cp1252(out, out_len, s, len);
    }
    if (!utf16_ok && strncmp(cs, "utf-16", 6) == 0)
        return 1;
    int rc = decode_iconv(out, out_len, bytes, len, cs);
    if (rc == 0)
        snprintf(charset, 32, "%s", cs);
    return rc;
}

/* The declared label, lowercase, without surrounding quotes and blanks, into
 * cs; 0 when it is empty or too long to be a charset name. */
static int normalise_label(const char *declared, char cs[32])
{
    while (isspace((unsigned char)*declared) || *declared == '"' || *declared == '\'')
        declared++;
    size_t n = 0;
    for (; *declared && !isspace((unsigned char)*declared) && *declared != '"' &&
           *declared != '\'' && *declared != ';';
         declared++) {
        if (n == 31)
            return 0;
        cs[n++] = (char)tolower((unsigned char)*declared);
    }
    cs[n] = 0;
    return n > 0;
}

int cet_charset_known(const char *label)
{
    char cs[32];
    if (!normalise_label(label, cs))
        return 0;
    if (is_label(cs, utf8_labels) || is_label(cs, cp1252_labels))
        return 1;
    iconv_t cd = iconv_open("UTF-8", cs);
    if (cd == (iconv_t)-1)
        return 0;
    iconv_close(cd);
    return 1;
}

int cet_decode_page(char **out, size_t *out_len, const char *bytes, size_t len,
                    const char *declared, char charset[32], struct cet_error *err)
{
    const unsigned char *s = (const unsigned char *)bytes;
    char cs[32];
    int rc = 1;
    if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        strcpy(charset, "utf-8 (bom)");
        rc = decode_utf8_lossy(out, out_len, s + 3, len - 3);
    } else if (len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF))) {
        strcpy(charset, s[0] == 0xFF ? "utf-16le (bom)" : "utf-16be (bom)");
        rc = decode_iconv(out, out_len, bytes + 2, len - 2, s[0] == 0xFF ? "UTF-16LE" : "UTF-16BE");
    } else if (declared) { /* the transport's word ranks after a BOM, before <meta> */
        if (!normalise_label(declared, cs) ||
            (rc = decode_as(out, out_len, bytes, len, cs, 1, charset)) == 1)
            return cet_fail(err, "unknown charset '%.40s'", declared);
    } else {
        if (find_meta_charset(bytes, len, cs))
            rc = decode_as(out, out_len, bytes, len, cs, 0, charset);
        if (rc == 1) { /* no usable declaration */
            if (cet_utf8_valid(bytes, len)) {
                strcpy(charset, "utf-8");
                rc = decode_utf8_lossy(out, out_len, s, len);
            } else {
                strcpy(charset, "windows-1252");
                rc = decode_cp1252(out, out_len, s, len);
            }
        }
    }
    return rc ? cet_fail(err, "out of memory while decoding") : 0;
}

int cet_looks_binary(const char *s, size_t len)
{
    size_t n = len < 65536 ? len : 65536, ctl = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7F)
            ctl++;
    }
    return n && ctl * 100 > n * 2;
}

int cet_decode_text(char **out, size_t *out_len, const char *bytes, size_t len,
                    struct cet_error *err)
{
    const unsigned char *s = (const unsigned char *)bytes;
    *out = NULL;
    *out_len = 0;
    /* Scored as text, random bytes would match a word here and there (F1
     * 0.017 on 5 KB of them), and UTF-16 is not a gold encoding. */
    if (cet_looks_binary(bytes, len))
        return cet_fail(err, "binary data, not text");
    if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        s += 3;
        len -= 3;
    }
    int rc = cet_utf8_valid((const char *)s, len) ? decode_utf8_lossy(out, out_len, s, len)
                                                  : decode_cp1252(out, out_len, s, len);
    return rc ? cet_fail(err, "out of memory while decoding") : 0;
}

/* Decodes the entity at s (just after '&'); returns its length including the
 * ';' and writes UTF-8 to o, or 0 when it is not an entity. */
size_t cet_entity_decode(const char *s, const char *end, char *o, size_t *olen)
{
    const char *semi = memchr(s, ';', (size_t)(end - s) < 34 ? (size_t)(end - s) : 34);
    if (!semi || semi == s)
        return 0;
    uint32_t cp = 0;
    if (*s == '#') {
        const char *p = s + 1;
        int hex = p < semi && (*p == 'x' || *p == 'X');
        if (hex)
            p++;
        if (p == semi)
            return 0;
        for (; p < semi; p++) {
            int d = isdigit((unsigned char)*p) ? *p - '0'
                    : hex && isxdigit((unsigned char)*p) ? tolower((unsigned char)*p) - 'a' + 10
                                                         : -1;
            if (d < 0)
                return 0;
            cp = cp * (hex ? 16 : 10) + (uint32_t)d;
            if (cp > 0x10FFFF)
                return 0;
        }
        /* Numeric references in 0x80..0x9F mean windows-1252, as in browsers. */
        if (cp >= 0x80 && cp < 0xA0)
            cp = cp1252_high[cp - 0x80];
        if (cp == 0 || (cp >= 0xD800 && cp < 0xE000))
            cp = 0xFFFD;
    } else {
        char name[34];
        size_t n = (size_t)(semi - s);
        memcpy(name, s, n);
        name[n] = 0;
        const htmlEntityDesc *e = htmlEntityLookup((const xmlChar *)name);
        if (!e)
            return 0;
        cp = e->value;
    }
    *olen = put_utf8(o, cp);
    return (size_t)(semi - s) + 1;
}

size_t cet_gold_cleanup(char *text, size_t len)
{
    char *end = text + len, *r = text, *w = text;
    if (len >= 4 && strncmp(text, "URL:", 4) == 0) {
        char *nl = memchr(text, '\n', len);
        r = nl ? nl + 1 : end;
    }
    int line_start = 1;
    while (r < end) {
        if (line_start) {
            char *q = r;
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            if (end - q >= 3 && q[0] == '<' && strchr("phl", q[1]) && q[1] && q[2] == '>') {
                *w++ = '\n';
                r = q + 3;
            }
            line_start = 0;
            continue;
        }
        if (*r == '<' && end - r >= 4 && strncmp(r, "<!--", 4) == 0) {
            char *c = r + 4;
            while (c + 3 <= end && strncmp(c, "-->", 3) != 0)
                c++;
            r = c + 3 <= end ? c + 3 : end;
            *w++ = ' ';
            continue;
        }
        if (*r == '&') {
            char tmp[8];
            size_t olen = 0, used = cet_entity_decode(r + 1, end, tmp, &olen);
            /* The UTF-8 of an entity is never longer than the entity text. */
            if (used && olen <= used + 1) {
                memcpy(w, tmp, olen);
                w += olen;
                r += used + 1;
                continue;
            }
        }
        if (*r == '\n')
            line_start = 1;
        *w++ = *r++;
    }
    *w = 0;
    return (size_t)(w - text);
}
