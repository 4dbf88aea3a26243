/* Routes files (include/cetune/routes.h): host patterns to configurations. */
#include "cetune/routes.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cetune/buf.h"
#include "util/json.h"

struct route {
    char *pattern; /* normalised: lowercase, without "*." */
    size_t config; /* index into cfgs */
};

struct cet_routes {
    struct route *v;
    size_t n;
    struct cet_config *cfgs;
    char **paths; /* the file of each configuration, as resolved */
    size_t ncfgs;
    long def;     /* index of the default configuration, or -1 */
};

/* Host names: letters, digits, '-', '_' and non-ASCII bytes (IDN in UTF-8),
 * in dot-separated non-empty labels. */
static int host_char(unsigned char c)
{
    return isalnum(c) || c == '-' || c == '_' || c >= 0x80;
}

/* Lowercases s[0..n) into host and checks it is a host name; a final dot
 * (the DNS root) is dropped.  Returns NULL, or what is wrong. */
static const char *normalise_host(const char *s, size_t n, char *host, size_t size)
{
    if (n && s[n - 1] == '.')
        n--;
    if (n == 0)
        return "has an empty host";
    if (n >= size || n > 253)
        return "has a host name longer than 253 characters";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.') {
            if (i == 0 || s[i - 1] == '.')
                return "has an empty label in its host name";
        } else if (!host_char(c)) {
            return "has a character that cannot be in a host name";
        }
        host[i] = (char)tolower(c);
    }
    host[n] = 0;
    return NULL;
}

int cet_url_host(const char *url, char *host, size_t size, struct cet_error *err)
{
    const char *p = url;
    if (p[0] == '/' && p[1] == '/') {
        p += 2;
    } else {
        const char *colon = strstr(p, "://");
        int ok = colon && colon > p && isalpha((unsigned char)*p);
        for (const char *q = p; ok && q < colon; q++)
            ok = isalnum((unsigned char)*q) || *q == '+' || *q == '-' || *q == '.';
        if (!ok)
            return cet_fail(err, "malformed URL '%.200s': expected scheme://host/...", url);
        p = colon + 3;
    }
    size_t alen = strcspn(p, "/?#");
    const char *at = memchr(p, '@', alen);
    while (at) { /* user information ends at the last '@' */
        alen -= (size_t)(at + 1 - p);
        p = at + 1;
        at = memchr(p, '@', alen);
    }
    size_t hlen;
    const char *port;
    if (*p == '[') { /* an IPv6 literal */
        const char *close = memchr(p, ']', alen);
        if (!close)
            return cet_fail(err, "malformed URL '%.200s': unclosed '[' in the host", url);
        for (const char *q = p + 1; q < close; q++)
            if (!isxdigit((unsigned char)*q) && *q != ':' && *q != '.')
                return cet_fail(err, "malformed URL '%.200s': bad IPv6 address", url);
        if (close == p + 1 || (size_t)(close - p) >= size)
            return cet_fail(err, "malformed URL '%.200s': bad IPv6 address", url);
        hlen = (size_t)(close - p - 1);
        for (size_t i = 0; i < hlen; i++)
            host[i] = (char)tolower((unsigned char)p[1 + i]);
        host[hlen] = 0;
        port = close + 1;
    } else {
        const char *colon = memchr(p, ':', alen);
        hlen = colon ? (size_t)(colon - p) : alen;
        const char *why = normalise_host(p, hlen, host, size);
        if (why)
            return cet_fail(err, "malformed URL '%.200s': it %s", url, why);
        port = p + hlen;
    }
    const char *end = p + alen;
    if (port < end) {
        int ok = *port == ':' && end - port <= 6;
        for (const char *q = port + 1; ok && q < end; q++)
            ok = isdigit((unsigned char)*q);
        if (!ok)
            return cet_fail(err, "malformed URL '%.200s': bad port", url);
    }
    return 0;
}

void cet_routes_free(struct cet_routes *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].pattern);
    for (size_t i = 0; i < r->ncfgs; i++) {
        cet_config_free(&r->cfgs[i]);
        free(r->paths[i]);
    }
    free(r->v);
    free(r->cfgs);
    free(r->paths);
    free(r);
}

/* The index of the configuration in file (resolved against the routes
 * file's directory), loading it the first time it is named. */
static long add_config(struct cet_routes *r, const struct cet_json *j, const cJSON *node,
                       struct cet_error *err)
{
    if (!cJSON_IsString(node) || !*node->valuestring)
        return cet_json_fail(j, node, 0, err, "\"config\" must be the path of a configuration file");
    const char *file = node->valuestring;
    struct cet_buf path = {0};
    const char *slash = strrchr(j->path, '/');
    int rc = file[0] == '/' || !slash
                 ? cet_buf_puts(&path, file)
                 : cet_buf_printf(&path, "%.*s/%s", (int)(slash - j->path), j->path, file);
    if (rc)
        return cet_fail(err, "out of memory");
    for (size_t i = 0; i < r->ncfgs; i++)
        if (!strcmp(r->paths[i], path.p)) {
            cet_buf_free(&path);
            return (long)i;
        }
    struct cet_config *cfgs = realloc(r->cfgs, (r->ncfgs + 1) * sizeof *cfgs);
    if (cfgs)
        r->cfgs = cfgs;
    char **paths = realloc(r->paths, (r->ncfgs + 1) * sizeof *paths);
    if (paths)
        r->paths = paths;
    if (!cfgs || !paths) {
        cet_buf_free(&path);
        return cet_fail(err, "out of memory");
    }
    struct cet_error why;
    if (cet_config_load(&r->cfgs[r->ncfgs], path.p, &why)) {
        cet_buf_free(&path);
        return cet_json_fail(j, node, 0, err, "%s", why.msg);
    }
    r->paths[r->ncfgs] = path.p;
    return (long)r->ncfgs++;
}

static int add_route(struct cet_routes *r, const struct cet_json *j, const cJSON *e,
                     struct cet_error *err)
{
    struct cet_json_reader rd = {.j = j, .err = err};
    if (!cet_jr_is(&rd, e, cJSON_Object, "a route must be an object {\"host\": ..., \"config\": ...}"))
        return -1;
    for (const cJSON *m = e->child; m; m = m->next)
        if (strcmp(m->string, "host") && strcmp(m->string, "config"))
            return cet_json_fail(j, m, 1, err, "unknown member \"%s\" in a route", m->string);
    const cJSON *h = cet_jr_get(&rd, e, "host", cJSON_String,
                                  "a host pattern such as \"*.example.com\"");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "config");
    if (!h)
        return -1;
    if (!c)
        return cet_json_fail(j, e, 0, err, "a route needs \"config\"");
    const char *s = h->valuestring;
    if (!strncmp(s, "*.", 2))
        s += 2;
    char host[256];
    const char *why = normalise_host(s, strlen(s), host, sizeof host);
    if (why)
        return cet_json_fail(j, h, 0, err, "host pattern \"%s\" %s (write \"example.com\" or \"*.example.com\")",
                             h->valuestring, why);
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->v[i].pattern, host))
            return cet_json_fail(j, h, 0, err, "host pattern \"%s\" is routed twice", h->valuestring);
    long ci = add_config(r, j, c, err);
    if (ci < 0)
        return -1;
    struct route *v = realloc(r->v, (r->n + 1) * sizeof *v);
    if (!v)
        return cet_fail(err, "out of memory");
    r->v = v;
    if (!(v[r->n].pattern = strdup(host)))
        return cet_fail(err, "out of memory");
    v[r->n++].config = (size_t)ci;
    return 0;
}

static int from_json(struct cet_routes *r, const struct cet_json *j, struct cet_error *err)
{
    const cJSON *root = j->root;
    struct cet_json_reader rd = {.j = j, .err = err};
    if (!cet_jr_is(&rd, root, cJSON_Object,
                     "a routes file must be a JSON object {\"routes\": [...], \"default\": ...}"))
        return -1;
    for (const cJSON *m = root->child; m; m = m->next)
        if (strcmp(m->string, "routes") && strcmp(m->string, "default"))
            return cet_json_fail(j, m, 1, err, "unknown member \"%s\"", m->string);
    const cJSON *routes = cet_jr_opt(&rd, root, "routes", cJSON_Array, "an array of routes");
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(root, "default");
    if (rd.failed)
        return -1;
    if (!def && !cJSON_GetArraySize(routes))
        return cet_json_fail(j, root, 0, err, "no routes and no \"default\": nothing to serve");
    for (const cJSON *e = routes ? routes->child : NULL; e; e = e->next)
        if (add_route(r, j, e, err))
            return -1;
    if (def && (r->def = add_config(r, j, def, err)) < 0)
        return -1;
    return 0;
}

int cet_routes_load(struct cet_routes **out, const char *path, struct cet_error *err)
{
    *out = NULL;
    struct cet_json j;
    if (cet_json_load(&j, path, err))
        return -1;
    struct cet_routes *r = calloc(1, sizeof *r);
    int rc = r ? 0 : cet_fail(err, "out of memory");
    if (r) {
        r->def = -1;
        rc = from_json(r, &j, err);
    }
    cet_json_free(&j);
    if (rc) {
        cet_routes_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

int cet_routes_single(struct cet_routes **out, struct cet_config *cfg, const char *path,
                      struct cet_error *err)
{
    *out = NULL;
    struct cet_routes *r = calloc(1, sizeof *r);
    if (!r || !(r->cfgs = malloc(sizeof *r->cfgs)) || !(r->paths = malloc(sizeof *r->paths)) ||
        !(r->paths[0] = strdup(path))) {
        cet_routes_free(r);
        return cet_fail(err, "out of memory");
    }
    r->cfgs[0] = *cfg;
    memset(cfg, 0, sizeof *cfg);
    r->ncfgs = 1;
    r->def = 0;
    *out = r;
    return 0;
}

const struct cet_config *cet_routes_pick(const struct cet_routes *r, const char *url,
                                         const char **pattern, struct cet_error *err)
{
    char host[256];
    long best = -1;
    if (url) {
        if (cet_url_host(url, host, sizeof host, err))
            return NULL;
        size_t hlen = strlen(host), blen = 0;
        for (size_t i = 0; i < r->n; i++) {
            const char *p = r->v[i].pattern;
            size_t plen = strlen(p);
            /* the host itself, or a subdomain: ".pattern" ends the host */
            if (plen > blen && plen <= hlen && !strcmp(host + hlen - plen, p) &&
                (plen == hlen || host[hlen - plen - 1] == '.')) {
                best = (long)i;
                blen = plen;
            }
        }
    }
    if (best >= 0) {
        if (pattern)
            *pattern = r->v[best].pattern;
        return &r->cfgs[r->v[best].config];
    }
    if (r->def < 0) {
        if (!url)
            cet_fail(err, "no URL given, and the routes have no default");
        else
            cet_fail(err, "no route for host '%s', and the routes have no default", host);
        return NULL;
    }
    if (pattern)
        *pattern = "default";
    return &r->cfgs[r->def];
}

size_t cet_routes_nconfigs(const struct cet_routes *r)
{
    return r->ncfgs;
}

const struct cet_config *cet_routes_config(const struct cet_routes *r, size_t i, const char **path)
{
    if (path)
        *path = r->paths[i];
    return &r->cfgs[i];
}

size_t cet_routes_count(const struct cet_routes *r)
{
    return r->n;
}

const char *cet_routes_route(const struct cet_routes *r, size_t i, size_t *config)
{
    if (config)
        *config = r->v[i].config;
    return r->v[i].pattern;
}

long cet_routes_default(const struct cet_routes *r)
{
    return r->def;
}
