/* The template pseudo-gold (src/doc/template.c) on a family of pages written
 * here: seven articles that share a navigation, a share box and a footer,
 * each with its own headline, dateline and paragraphs, and one section index
 * among them. */
#include "test.h"

#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/template.h"
#include "cetune/text.h"

#define NPAGES 8
#define INDEX 7 /* the section index */

static const char *const topics[] = {"harbour", "orchard", "glacier", "lantern",
                                      "meadow",  "canyon",  "volcano"};

/* Article i; paragraphs whose words name its topic, so each is particular. */
static void article(struct cet_buf *b, int i)
{
    const char *t = topics[i];
    cet_buf_printf(b,
                   "<html><body><ul id=\"nav\"><li><a href=\"/\">Home</a></li>"
                   "<li><a href=\"/world\">World news</a></li><li><a href=\"/sport\">Sport "
                   "pages</a></li></ul>"
                   "<div class=\"story story-%d\"><h1 class=\"headline\">The %s story</h1>"
                   "<p class=\"dateline\">12 May 2013 10:%02d</p>",
                   100 + i, t, 10 + i);
    for (int k = 0; k < 3; k++)
        cet_buf_printf(b,
                       "<p>Paragraph %c of the %s report, in which the %s shows its %s side "
                       "once more.</p>",
                       'a' + k, t, t, k ? "quiet" : "loud");
    cet_buf_printf(b, "</div><div id=\"share\">Share this page with friends</div>"
                      "<div id=\"footer\">Copyright the example press, all rights "
                      "reserved</div></body></html>");
}

/* The index: the shared template around a short list of teasers. */
static void section_index(struct cet_buf *b)
{
    cet_buf_printf(b, "<html><body><ul id=\"nav\"><li><a href=\"/\">Home</a></li>"
                      "<li><a href=\"/world\">World news</a></li><li><a href=\"/sport\">Sport "
                      "pages</a></li></ul><div id=\"teasers\">"
                      "<div class=\"teaser\"><p>Ministers meet again</p></div>"
                      "<div class=\"teaser\"><p>Rain expected later</p></div></div>"
                      "<div id=\"share\">Share this page with friends</div>"
                      "<div id=\"footer\">Copyright the example press, all rights "
                      "reserved</div></body></html>");
}

struct family {
    struct cet_doc *docs[NPAGES];
    uint8_t *ref[NPAGES], *marks[NPAGES];
};

/* Text nodes whose text contains s. */
static int has(const struct cet_doc *d, uint32_t k, const char *s)
{
    return strstr(cet_node_str(d, d->texts[k]), s) != NULL;
}

/* A reference that keeps the paragraphs (not the headline), and also the
 * footer on page 0, as a real extractor errs on one page. */
static void load_family(struct family *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct cet_buf b = {0};
        struct cet_error err;
        if (i == INDEX)
            section_index(&b);
        else
            article(&b, (int)i);
        CHECK(cet_doc_parse(&f->docs[i], b.p, b.len, NULL, 0, &err) == 0);
        cet_buf_free(&b);
        struct cet_doc *d = f->docs[i];
        f->ref[i] = calloc(d->ntexts + 1, 1);
        f->marks[i] = calloc(d->ntexts + 1, 1);
        for (uint32_t k = 0; k < d->ntexts; k++)
            f->ref[i][k] = has(d, k, "Paragraph") || (i == 0 && has(d, k, "Copyright")) ||
                           has(d, k, "Ministers") || has(d, k, "Rain");
    }
}

static void free_family(struct family *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cet_doc_free(f->docs[i]);
        free(f->ref[i]);
        free(f->marks[i]);
    }
}

/* The expected mark of text node k of page i with the reference of
 * load_family: the paragraphs are content; the headline stands at a content
 * place the reference drops, so it is unsure, or content when a content
 * place overrules the references; all else is template, a dateline, or on
 * the section index. */
static int expected(const struct cet_doc *d, size_t i, uint32_t k, int overrule)
{
    if (i == INDEX)
        return CET_TEMPLATE_OUT;
    if (has(d, k, "Paragraph"))
        return CET_TEMPLATE_CONTENT;
    if (has(d, k, " story"))
        return overrule ? CET_TEMPLATE_CONTENT : CET_TEMPLATE_UNSURE;
    return CET_TEMPLATE_OUT;
}

static void check_marks(const struct family *f, int overrule)
{
    for (size_t i = 0; i < NPAGES; i++) {
        const struct cet_doc *d = f->docs[i];
        for (uint32_t k = 0; k < d->ntexts; k++) {
            int want = expected(d, i, k, overrule);
            if (f->marks[i][k] != want)
                fprintf(stderr, "page %zu: \"%s\" marked %d\n", i, cet_node_str(d, d->texts[k]),
                        f->marks[i][k]);
            CHECK_EQ_INT(f->marks[i][k], want);
        }
    }
}

static void test_template__family(void)
{
    struct family f = {0};
    struct cet_template_opts o;
    struct cet_error err;
    cet_template_default(&o);
    load_family(&f, NPAGES);
    CHECK(cet_template_marks(f.docs, NPAGES, "news", &o, (const uint8_t *const *)f.ref, 1,
                             f.marks, &err) == 0);
    check_marks(&f, 0);
    /* The text the metric reads: the content's words, a block a line. */
    struct cet_buf text = {0};
    CHECK(cet_template_text(f.docs[2], f.marks[2], &text) == 0);
    CHECK_STR(text.p, "paragraph a of the glacier report in which the glacier shows its loud "
                      "side once more\n"
                      "paragraph b of the glacier report in which the glacier shows its quiet "
                      "side once more\n"
                      "paragraph c of the glacier report in which the glacier shows its quiet "
                      "side once more\n");
    CHECK(cet_template_text(f.docs[INDEX], f.marks[INDEX], &text) == 0);
    CHECK_STR(text.p, "");
    /* A content place overruling the reference adds the headline. */
    o.place_overrules = 1;
    CHECK(cet_template_marks(f.docs, NPAGES, "news", &o, (const uint8_t *const *)f.ref, 1,
                             f.marks, &err) == 0);
    check_marks(&f, 1);
    CHECK(cet_template_text(f.docs[2], f.marks[2], &text) == 0);
    CHECK(strncmp(text.p, "the glacier story\nparagraph a of the glacier", 44) == 0);
    cet_buf_free(&text);
    free_family(&f, NPAGES);
}

/* Too few pages to see repetition: refused, naming the family. */
static void test_template__too_few_pages(void)
{
    struct family f = {0};
    struct cet_template_opts o;
    struct cet_error err;
    cet_template_default(&o);
    load_family(&f, 5);
    CHECK(cet_template_marks(f.docs, 5, "tiny", &o, (const uint8_t *const *)f.ref, 1, f.marks,
                             &err) == -1);
    CHECK(strstr(err.msg, "package tiny has 5 usable pages") != NULL);
    CHECK(strstr(err.msg, "at least 6") != NULL);
    free_family(&f, 5);
}

/* Two references (bits 0 and 1 of ref): the second also keeps the footer on
 * every page, drops paragraph c of page 1 and keeps the dateline of page 3.
 * The family decides the footer (template) and paragraph c (at a content
 * place one reference keeps); the first reference decides the dateline, or
 * with unsure on it is left out of the pseudo-gold's text. */
static void test_template__two_references(void)
{
    struct family f = {0};
    struct cet_template_opts o;
    struct cet_error err;
    cet_template_default(&o);
    load_family(&f, NPAGES);
    for (size_t i = 0; i < NPAGES; i++) {
        const struct cet_doc *d = f.docs[i];
        for (uint32_t k = 0; k < d->ntexts; k++) {
            int second = (has(d, k, "Paragraph") && !(i == 1 && has(d, k, "Paragraph c"))) ||
                         has(d, k, "Copyright") || (i == 3 && has(d, k, "12 May")) ||
                         has(d, k, "Ministers") || has(d, k, "Rain");
            f.ref[i][k] |= (uint8_t)(second << 1);
        }
    }
    CHECK(cet_template_marks(f.docs, NPAGES, "news", &o, (const uint8_t *const *)f.ref, 2,
                             f.marks, &err) == 0);
    check_marks(&f, 0);
    o.unsure = 1;
    CHECK(cet_template_marks(f.docs, NPAGES, "news", &o, (const uint8_t *const *)f.ref, 2,
                             f.marks, &err) == 0);
    for (size_t i = 0; i < NPAGES; i++) {
        const struct cet_doc *d = f.docs[i];
        for (uint32_t k = 0; k < d->ntexts; k++) {
            int want = i == 3 && has(d, k, "12 May") ? CET_TEMPLATE_UNSURE : expected(d, i, k, 0);
            CHECK_EQ_INT(f.marks[i][k], want);
        }
    }
    struct cet_buf text = {0};
    CHECK(cet_template_text(f.docs[3], f.marks[3], &text) == 0);
    CHECK(strstr(text.p, "paragraph c of the lantern") != NULL);
    CHECK(strstr(text.p, "12") == NULL);
    cet_buf_free(&text);
    /* References beyond the bits of a byte are refused. */
    CHECK(cet_template_marks(f.docs, NPAGES, "news", &o, (const uint8_t *const *)f.ref,
                             CET_TEMPLATE_MAX_REFS + 1, f.marks, &err) == -1);
    free_family(&f, NPAGES);
}

int main(void)
{
    RUN(test_template__family);
    RUN(test_template__two_references);
    RUN(test_template__too_few_pages);
    TEST_END();
}
