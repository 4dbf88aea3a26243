/* schema.org JSON-LD (jsonld.h). */
#include "jsonld.h"

#include <ctype.h>
#include <string.h>

#include "util/array.h"

const char *const cet_jsonld_article_types[] = {
    "Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle", "AnalysisNewsArticle",
    "OpinionNewsArticle", "ReviewNewsArticle", "BackgroundNewsArticle", "LiveBlogPosting",
    "TechArticle", "ScholarlyArticle", "SocialMediaPosting", "DiscussionForumPosting",
    "Report", "Review", "Recipe", "HowTo", NULL};

cJSON *cet_jsonld_parse(const char *s, size_t n)
{
    static const char *const open[] = {"<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA["};
    static const char *const close[] = {"-->", "//]]>", "/*]]>*/", "]]>"};
    while (n && isspace((unsigned char)*s))
        s++, n--;
    for (size_t i = 0; i < sizeof open / sizeof *open; i++)
        if (n >= strlen(open[i]) && !strncmp(s, open[i], strlen(open[i]))) {
            s += strlen(open[i]);
            n -= strlen(open[i]);
            break;
        }
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    for (size_t i = 0; i < sizeof close / sizeof *close; i++) {
        size_t k = strlen(close[i]);
        if (n >= k && !strncmp(s + n - k, close[i], k)) {
            n -= k;
            break;
        }
    }
    return cJSON_ParseWithLength(s, n);
}

static int collect(const cJSON *v, const cJSON ***list, size_t *n, size_t *cap, int depth)
{
    if (depth > 8 || !v)
        return 0;
    if (cJSON_IsArray(v)) {
        for (const cJSON *c = v->child; c; c = c->next)
            if (collect(c, list, n, cap, depth + 1))
                return -1;
        return 0;
    }
    if (!cJSON_IsObject(v))
        return 0;
    if (CET_GROW(*list, *cap, *n + 1, 16))
        return -1;
    (*list)[(*n)++] = v;
    return collect(cJSON_GetObjectItemCaseSensitive(v, "@graph"), list, n, cap, depth + 1);
}

int cet_jsonld_objects(const cJSON *v, const cJSON ***list, size_t *n, size_t *cap)
{
    return collect(v, list, n, cap, 0);
}

int cet_jsonld_is_type(const cJSON *o, const char *const *types)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "@type");
    const cJSON *one = cJSON_IsArray(t) ? t->child : t;
    for (; one; one = cJSON_IsArray(t) ? one->next : NULL) {
        if (cJSON_IsString(one)) {
            const char *s = one->valuestring;
            if (!strncmp(s, "http://schema.org/", 18) || !strncmp(s, "https://schema.org/", 19))
                s = strchr(s + 8, '/') + 1;
            for (size_t i = 0; types[i]; i++)
                if (!strcmp(s, types[i]))
                    return 1;
        }
    }
    return 0;
}

const char *cet_jsonld_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}
