/* The text layout (docs/formats.md, "Text"): what a browser would show.
 * Inline elements never split a word; white space, blocks, <br>, list
 * items, table rows and cells, headings and paragraphs separate text; <pre>
 * keeps its white space; and the words of any rendered selection are
 * exactly the words the metric counts for it. */
#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/eval.h"
#include "cetune/extractor.h"
#include "cetune/layout.h"
#include "cetune/page.h"
#include "cetune/text.h"
#include "test.h"

static struct cet_doc *parse(const char *html)
{
    struct cet_doc *d = NULL;
    struct cet_error err;
    if (cet_doc_parse_as(&d, html, strlen(html), NULL, 0, NULL, 0, &err))
        fprintf(stderr, "parse failed: %s\n", err.msg);
    return d;
}

/* The text of the whole page as `cetune extract -x alltext` prints it
 * (static buffer). */
static const char *render(const char *html)
{
    static struct cet_buf out;
    struct cet_doc *d = parse(html);
    struct cet_sel sel = {0};
    out.len = 0;
    cet_buf_puts(&out, "");
    CHECK(d != NULL);
    if (d && cet_sel_reset(&sel, d) == 0) {
        cet_sel_keep_all(d, &sel);
        CHECK(cet_extract_text(d, &sel, &out) == 0);
    }
    cet_sel_free(&sel);
    cet_doc_free(d);
    return out.p;
}

static void test_layout__inline_elements_never_split_words(void)
{
    CHECK_STR(render("<p>Hel<b>lo</b> wor<i>ld</i></p>"), "Hello world\n");
    CHECK_STR(render("<p>Hel<b>lo</b> wor<i>ld</i>, first.<br>line two</p>"),
              "Hello world, first.\nline two\n");
    /* cleaneval-dev/input/1.html writes a drop cap this way. */
    CHECK_STR(render("<p><b>A</b><font size=2>dvertise</font> here</p>"), "Advertise here\n");
    /* Nested and empty inline elements, links, images and scripts between. */
    CHECK_STR(render("<p>a<span><em>b<a href=x>c</a></em></span>d<img src=i.png>e"
                     "<script>var x;</script>f<span></span>g</p>"),
              "abcdefg\n");
    /* A word ends at a block boundary, even one nested in inline elements. */
    CHECK_STR(render("<div>ab<span>cd<p>ef</p>gh</span>ij</div>"), "abcd\n\nef\n\nghij\n");
    CHECK_STR(render("<div>one<div>two</div>three</div>"), "one\ntwo\nthree\n");
}

static void test_layout__white_space(void)
{
    /* Collapsed to one space across inline elements; none at line edges. */
    CHECK_STR(render("<p>  a <b> b </b>  c\n\t d  </p>"), "a b c d\n");
    CHECK_STR(render("<p>a<b> </b>b</p>"), "a b\n");
    CHECK_STR(render("<p>a</p>  \n  <p>b</p>"), "a\n\nb\n");
    /* Punctuation after an inline element stays where the page puts it. */
    CHECK_STR(render("<p>see <a href=x>this</a>, and <i>that</i>.</p>"), "see this, and that.\n");
}

static void test_layout__breaks(void)
{
    CHECK_STR(render("<p>a<br>b<br><br>c</p>"), "a\nb\n\nc\n");
    CHECK_STR(render("<h1>Title</h1><h2>Sub</h2>text"), "Title\n\nSub\n\ntext\n");
    CHECK_STR(render("<ul><li>one</li><li>t<b>w</b>o</li></ul><ol><li>x<li>y</ol>"),
              "one\ntwo\n\nx\ny\n");
    CHECK_STR(render("<table><tr><th>h1</th><th>h2</th></tr><tr><td>a</td><td>b <i>c</i></td>"
                     "</tr></table>after"),
              "h1\th2\na\tb c\n\nafter\n");
    CHECK_STR(render("<dl><dt>term</dt><dd>definition</dd></dl>"), "term\ndefinition\n");
    CHECK_STR(render("<section>s</section><blockquote>q</blockquote><span>i</span>"),
              "s\n\nq\n\ni\n");
}

static void test_layout__pre_keeps_white_space(void)
{
    /* The newline right after <pre> is not text, nor is one right before </pre>. */
    CHECK_STR(render("<p>a</p><pre>\n  x = 1;\n\ty  =  2;\n</pre><p>b</p>"),
              "a\n\n  x = 1;\n\ty  =  2;\n\nb\n");
    CHECK_STR(render("<pre>a<b>b</b>  c\n\nd</pre>"), "ab  c\n\nd\n");
    CHECK_STR(render("<pre>x\r\ny</pre>"), "x\ny\n");
}

static void test_layout__entities(void)
{
    CHECK_STR(render("<p>caf&eacute;s &amp; cr&#232;me&nbsp;br&ucirc;l&eacute;e</p>"),
              "cafés & crème\xc2\xa0" "brûlée\n");
    /* An entity inside a word is part of it. */
    struct cet_doc *d = parse("<p>caf&eacute;<b>s</b> x&amp;y</p>");
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ_INT(d->nwords, 3);
    CHECK_STR(cet_word_str(d, d->words[0]), "cafés");
    CHECK_STR(cet_word_str(d, d->words[1]), "x");
    cet_doc_free(d);
}

/* Element word ranges cover exactly their text descendants' words, which
 * follow each other: a word moved to the text node it begins in leaves the
 * element it ended in without it. */
static void check_word_ranges(const struct cet_doc *d)
{
    uint32_t next = 0;
    for (uint32_t k = 0; k < d->ntexts; k++) {
        const struct cet_node *t = &d->nodes[d->texts[k]];
        CHECK_EQ_INT(t->w0, next);
        next = t->w1;
    }
    CHECK_EQ_INT(next, d->nwords);
    for (uint32_t i = 0; i < d->nnodes; i++) {
        const struct cet_node *e = &d->nodes[i];
        if (e->kind != CET_ELEMENT)
            continue;
        uint32_t n = 0, w0 = CET_NONE;
        for (uint32_t j = i + 1; j < e->end; j++)
            if (d->nodes[j].kind == CET_TEXT) {
                n += d->nodes[j].w1 - d->nodes[j].w0;
                if (w0 == CET_NONE)
                    w0 = d->nodes[j].w0;
            }
        CHECK_EQ_INT(e->w1 - e->w0, n);
        if (n)
            CHECK_EQ_INT(e->w0, w0);
    }
}

static void test_layout__word_ranges(void)
{
    struct cet_doc *d = parse("<div><p><span>Hel</span><b>lo</b> the<i>re—x</i>y</p>"
                              "<p>a<b>b<i>c</i></b>d e</p></div>");
    CHECK(d != NULL);
    if (!d)
        return;
    check_word_ranges(d);
    CHECK_EQ_INT(d->nwords, 5); /* hello there xy abcd e */
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].tag == CET_TAG_B || d->nodes[i].tag == CET_TAG_I)
            CHECK(d->nodes[i].w1 - d->nodes[i].w0 <= 1);
    cet_doc_free(d);
}

/* A word in many pieces is one word, interned once (not each of its
 * prefixes), and the elements between its pieces hold none of it. */
static void test_layout__word_in_many_pieces(void)
{
    struct cet_buf html = {0};
    cet_buf_puts(&html, "<p>");
    for (int i = 0; i < 20000; i++)
        cet_buf_puts(&html, i % 2 ? "<b>b</b>" : "<i>a</i>");
    cet_buf_puts(&html, "</p>");
    struct cet_doc *d = parse(html.p);
    cet_buf_free(&html);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ_INT(d->ntexts, 1);
    CHECK_EQ_INT(d->nwords, 1);
    CHECK_EQ_INT(d->nvocab, 1);
    CHECK_EQ_INT(d->nodes[d->texts[0]].len, 20000);
    check_word_ranges(d);
    cet_doc_free(d);
}

struct strs {
    char v[64][32];
    size_t n;
};

static int push_str(const char *w, size_t n, void *ctx)
{
    struct strs *s = ctx;
    if (s->n < 64)
        snprintf(s->v[s->n++], sizeof s->v[0], "%.*s", (int)n, w);
    return 0;
}

/* For every subset of the text nodes kept, the words of the rendered text
 * are the words of the kept nodes, in order: `evaluate` scores exactly what
 * `extract` prints. */
static void test_layout__every_selection_renders_its_words(void)
{
    struct cet_doc *d = parse("<p>Hel<b>lo</b> wor<a href=x>ld</a>,<i>x</i>y<br>e\xcc\x81<b>t\xc3\xa9</b>"
                              "<span>. </span>z<pre>p <b>q</b>r\n s</pre>t&nbsp;<u>u</u>"
                              "<table><tr><td>1</td><td>2<b>3</b></td></tr></table>end</p>");
    CHECK(d != NULL);
    if (!d)
        return;
    check_word_ranges(d);
    CHECK(d->ntexts >= 8 && d->ntexts <= 16);
    struct cet_sel sel = {0};
    struct cet_buf out = {0};
    size_t bad = 0;
    for (uint32_t mask = 0; mask < (1u << d->ntexts) && cet_sel_reset(&sel, d) == 0; mask++) {
        struct strs printed = {.n = 0}, counted = {.n = 0};
        for (uint32_t k = 0; k < d->ntexts; k++)
            if (mask >> k & 1) {
                uint32_t t = d->texts[k];
                sel.keep[t] = 1;
                for (uint32_t w = d->nodes[t].w0; w < d->nodes[t].w1; w++)
                    push_str(cet_word_str(d, d->words[w]), strlen(cet_word_str(d, d->words[w])),
                             &counted);
            }
        out.len = 0;
        CHECK(cet_extract_text(d, &sel, &out) == 0);
        cet_words(out.p, out.len, push_str, &printed);
        int same = printed.n == counted.n;
        for (size_t j = 0; same && j < printed.n; j++)
            same = !strcmp(printed.v[j], counted.v[j]);
        if (!same && bad++ < 3)
            fprintf(stderr, "selection %#x prints %zu words, counts %zu: %s\n", mask, printed.n,
                    counted.n, out.p);
    }
    CHECK_EQ_INT(bad, 0);
    cet_buf_free(&out);
    cet_sel_free(&sel);
    cet_doc_free(d);
}

static int count_nodes(void *ctx, uint32_t node, enum cet_sep sep)
{
    (void)node;
    (void)sep;
    ++*(int *)ctx;
    return *(int *)ctx == 2 ? 7 : 0;
}

static void test_layout__walk(void)
{
    struct cet_doc *d = parse("<p>a</p><p>b</p><p>c</p>");
    CHECK(d != NULL);
    if (!d)
        return;
    uint8_t keep[64] = {0};
    CHECK(d->nnodes <= 64);
    for (uint32_t k = 0; k < d->ntexts; k++)
        keep[d->texts[k]] = 1;
    int n = 0;
    /* fn's non-zero value stops the walk and is returned. */
    CHECK_EQ_INT(cet_layout_walk(d, keep, NULL, 0, count_nodes, &n), 7);
    CHECK_EQ_INT(n, 2);
    CHECK_STR(cet_sep_str(CET_SEP_PARA), "\n\n");
    CHECK_STR(cet_sep_str(CET_SEP_CELL), "\t");
    cet_doc_free(d);
}

static void test_layout__html_output(void)
{
    struct cet_doc *d = parse("<p>Hel<b>lo</b> <a href=x>wor</a>ld <i>a</i>.</p>");
    struct cet_sel sel = {0};
    struct cet_buf out = {0};
    CHECK(d != NULL);
    if (!d || cet_sel_reset(&sel, d))
        return;
    cet_sel_keep_all(d, &sel);
    CHECK(cet_extract_html(d, &sel, &out) == 0);
    /* The page's space is written before the text, inside the element it opens. */
    CHECK(strstr(out.p, "<p>Hello<b></b><a href=\"x\"> world</a><i> a</i>.</p>") != NULL);
    cet_buf_free(&out);
    cet_sel_free(&sel);
    cet_doc_free(d);
}

int main(void)
{
    RUN(test_layout__inline_elements_never_split_words);
    RUN(test_layout__white_space);
    RUN(test_layout__breaks);
    RUN(test_layout__pre_keeps_white_space);
    RUN(test_layout__entities);
    RUN(test_layout__word_ranges);
    RUN(test_layout__word_in_many_pieces);
    RUN(test_layout__every_selection_renders_its_words);
    RUN(test_layout__walk);
    RUN(test_layout__html_output);
    TEST_END();
}
