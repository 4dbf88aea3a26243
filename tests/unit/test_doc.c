/* The document model: structure, text, words, anchors, blocks, markup sizes. */

#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/eval.h"
#include "cetune/page.h"
#include "cetune/extractor.h"
#include "test.h"

static struct cet_doc *parse(const char *html, const char *gold)
{
    struct cet_doc *d = NULL;
    struct cet_error err;
    if (cet_doc_parse(&d, html, strlen(html), gold, gold ? strlen(gold) : 0, &err))
        fprintf(stderr, "parse failed: %s\n", err.msg);
    return d;
}

/* The model of a page to extract from: every attribute kept. */
static struct cet_doc *parse_page(const char *html)
{
    struct cet_doc *d = NULL;
    struct cet_error err;
    if (cet_doc_parse_as(&d, html, strlen(html), NULL, 0, NULL, 0, &err))
        fprintf(stderr, "parse failed: %s\n", err.msg);
    return d;
}

static uint32_t find_text(const struct cet_doc *d, const char *s)
{
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].kind == CET_TEXT && !strcmp(cet_node_str(d, i), s))
            return i;
    return CET_NONE;
}

static void test_doc__structure(void)
{
    struct cet_doc *d = parse("<html><head><title>T</title><script>var x = 1;</script></head>"
                              "<body><div id=\"m\"><a href=\"/x\">Menu <b>link</b></a> plain</div>"
                              "<p>Para <i>one</i>\n\t  two</p><a name=\"n\">no href</a></body></html>",
                              "para one two");
    CHECK(d != NULL);
    if (!d)
        return;
    /* Text nodes are collapsed; script and title are not text. */
    CHECK(find_text(d, "T") == CET_NONE);
    CHECK(find_text(d, "var x = 1;") == CET_NONE);
    uint32_t menu = find_text(d, "Menu"), link = find_text(d, "link"), plain = find_text(d, "plain");
    uint32_t two = find_text(d, "two"), nohref = find_text(d, "no href");
    CHECK(menu != CET_NONE && link != CET_NONE && plain != CET_NONE && two != CET_NONE);
    CHECK(nohref != CET_NONE);
    if (menu == CET_NONE || link == CET_NONE || plain == CET_NONE || two == CET_NONE ||
        nohref == CET_NONE) {
        cet_doc_free(d);
        return;
    }
    CHECK(d->nodes[menu].flags & CET_NF_ANCHOR);
    CHECK(d->nodes[link].flags & CET_NF_ANCHOR);
    CHECK(!(d->nodes[plain].flags & CET_NF_ANCHOR));
    CHECK(!(d->nodes[nohref].flags & CET_NF_ANCHOR));
    /* Blocks: the div holds menu, link and plain; the paragraph holds its text. */
    uint32_t div = d->nodes[menu].block;
    CHECK(div != CET_NONE && d->nodes[div].tag == CET_TAG_DIV);
    CHECK(d->nodes[link].block == div && d->nodes[plain].block == div);
    CHECK(d->nodes[two].block != div && d->nodes[d->nodes[two].block].tag == CET_TAG_P);
    CHECK_STR(cet_node_attr(d, div, "id"), "m");
    CHECK_EQ_INT(cet_node_nattr(d, div), 1);
    CHECK_EQ_INT(cet_node_nattr(d, menu), 0);
    CHECK_EQ_INT(cet_node_depth(d, div), 2); /* html, body, div */
    CHECK_EQ_INT(cet_node_depth(d, link), 5);
    /* Pre-order subtrees contain their descendants; words are ranges. */
    CHECK(menu > div && menu < d->nodes[div].end && plain < d->nodes[div].end);
    CHECK_EQ_INT(d->nodes[div].w1 - d->nodes[div].w0, 3);
    CHECK_EQ_INT(d->nwords, 8);
    CHECK_EQ_INT(d->ngold, 3);
    CHECK_STR(cet_word_str(d, d->words[d->nodes[two].w0]), "two");
    /* Markup: <div id="m"> + </div> = 12 + 6 characters. */
    CHECK_EQ_INT(d->nodes[div].nchars, 18);
    CHECK_EQ_INT(d->nodes[plain].nchars, 5);
    /* The script body counts as code of its element. */
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].tag == CET_TAG_SCRIPT)
            CHECK_EQ_INT(d->nodes[i].nchars, 17 + 10);
    cet_doc_free(d);
}

static void test_doc__render(void)
{
    struct cet_doc *d = parse_page("<body><div><p>A &amp; B<br>C</p><ul><li>x</li><li>y</li></ul></div>"
                                   "<img src=\"i.png\" alt='q\"'></body>");
    CHECK(d != NULL);
    if (!d)
        return;
    struct cet_sel sel = {0};
    struct cet_buf out = {0};
    CHECK(cet_sel_reset(&sel, d) == 0);
    cet_sel_keep_all(d, &sel);
    CHECK(cet_extract_text(d, &sel, &out) == 0);
    CHECK_STR(out.p, "A & B\nC\n\nx\ny\n");
    out.len = 0;
    CHECK(cet_extract_html(d, &sel, &out) == 0);
    CHECK(strstr(out.p, "<p>A &amp; B<br>C</p>") != NULL);
    CHECK(strstr(out.p, "<img src=\"i.png\" alt=\"q&quot;\">") != NULL);
    /* Dropping the list removes its text; the html unwraps nothing else. */
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].tag == CET_TAG_UL)
            cet_sel_set_subtree(d, &sel, i, 0);
    out.len = 0;
    CHECK(cet_extract_text(d, &sel, &out) == 0);
    CHECK_STR(out.p, "A & B\nC\n");
    out.len = 0;
    CHECK(cet_extract_html(d, &sel, &out) == 0);
    CHECK(strstr(out.p, "<ul>") == NULL && strstr(out.p, "<div><p>") != NULL);
    cet_buf_free(&out);
    cet_sel_free(&sel);
    cet_doc_free(d);
}

static void test_doc__void_elements_hold_nothing(void)
{
    /* libxml2 2.9 does not know <source> is void and nests what follows in it. */
    struct cet_doc *d = parse("<body><p>one <video><source src=a.mp4><source src=b.ogg>"
                              "two</video> three</p></body>", NULL);
    CHECK(d != NULL);
    if (!d)
        return;
    uint32_t two = find_text(d, "two");
    CHECK(two != CET_NONE && d->nodes[d->nodes[two].parent].tag == CET_TAG_VIDEO);
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].tag == CET_TAG_SOURCE)
            CHECK_EQ_INT(d->nodes[i].end, i + 1);
    uint32_t three = find_text(d, "three");
    CHECK(three != CET_NONE && d->nodes[d->nodes[three].parent].tag == CET_TAG_P);
    cet_doc_free(d);
}

static void test_doc__declared_charsets(void)
{
    /* A charset iconv knows; invalid bytes become U+FFFD, not a lost page. */
    const char *koi = "<html><head><meta charset=\"koi8-r\"></head><body><p>\xf0\xd2\xc9\xd7\xc5\xd4 "
                      "\xcd\xc9\xd2</p></body></html>";
    struct cet_doc *d = parse(koi, NULL);
    CHECK(d && !strcmp(d->charset, "koi8-r"));
    CHECK(d && d->nwords == 2 && !strcmp(cet_word_str(d, d->words[0]),
                                         "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82"));
    cet_doc_free(d);
    const char *sjis = "<meta charset=\"shift_jis\"><p>\x93\xfa\x96\x7b\x8c\xea \xff\xff</p>";
    d = parse(sjis, NULL);
    CHECK(d && !strcmp(d->charset, "shift_jis"));
    CHECK(d && d->nwords == 1 && !strcmp(cet_word_str(d, d->words[0]), "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"));
    cet_doc_free(d);
    /* An unknown label falls back to the undeclared rule. */
    d = parse("<meta charset=\"x-no-such-charset\"><p>caf\xe9</p>", NULL);
    CHECK(d && !strcmp(d->charset, "windows-1252"));
    cet_doc_free(d);
}

static void test_doc__bad_pages(void)
{
    struct cet_doc *d = NULL;
    struct cet_error err;
    CHECK(cet_doc_parse(&d, "", 0, NULL, 0, &err) == -1 && strstr(err.msg, "empty"));
    char junk[512];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)((i * 37 + 11) % 256);
    CHECK(cet_doc_parse(&d, junk, sizeof junk, NULL, 0, &err) == -1 && strstr(err.msg, "binary"));
    /* Broken markup is recovered, not rejected. */
    d = parse("<p>unclosed <b>bold <div>x</p></i> tail", NULL);
    CHECK(d && d->nwords == 4);
    cet_doc_free(d);
    /* Text without any element is still text. */
    d = parse("just text", NULL);
    CHECK(d && d->nwords == 2);
    cet_doc_free(d);
    /* A byte-order mark alone decodes to nothing: an empty page, no error. */
    d = parse("\xef\xbb\xbf", NULL);
    CHECK(d && d->nwords == 0 && d->ntexts == 0);
    cet_doc_free(d);
}

/* The alternates (struct cet_alt): text the page carries but does not show,
 * kept apart from the page's own text nodes and words. */
static const char *alt_text(const struct cet_doc *d, uint32_t a, uint32_t k)
{
    return cet_node_str(d, d->alts[a].node0 + k);
}

static void test_doc__alternates(void)
{
    /* libxml2 2.9 parses the content of <noscript> and <template> as
     * elements, in the head as in the body, and a script's as raw text. */
    struct cet_doc *d = parse(
        "<html><head><noscript><p>Head note</p></noscript>"
        "<script type=\"application/ld+json\">{\"@graph\": [{\"@type\": \"WebSite\", "
        "\"articleBody\": \"not an article\"}, {\"@type\": [\"NewsArticle\"], "
        "\"headline\": \"Ferry &amp; bay\", \"articleBody\": \"One two.\\n\\nThree "
        "<p>four</p>five<br>six\"}]}</script>"
        "<script type=\"application/LD+JSON\">{\"articleBody\": broken</script></head>"
        "<body><p>Shown text</p><noscript><div><p>First <b>para</b>\ngraph.</p><p>Second."
        "</p><script>var x = 1;</script></div></noscript>"
        "<template><article><h2>In a template</h2><p>Its text.</p>"
        "<noscript><p>Nested.</p></noscript></article></template>"
        "<noscript><img src=\"pixel.gif\"></noscript></body></html>",
        "Three four five");
    CHECK(d != NULL);
    if (!d)
        return;
    /* The page's own text and words are those of what it shows. */
    CHECK_EQ_INT(d->ntexts, 1);
    CHECK_EQ_INT(d->nwords, 2);
    CHECK_STR(cet_node_str(d, d->texts[0]), "Shown text");
    /* Four alternates, in document order; the pixel's noscript has no words. */
    CHECK_EQ_INT(d->nalts, 4);
    CHECK_EQ_INT(d->alts[0].kind, CET_ALT_NOSCRIPT);
    CHECK_STR(alt_text(d, 0, 0), "Head note");
    /* JSON-LD: the article's body (not the WebSite's), its headline first;
     * entities decoded, tags read as breaks, the broken block ignored. */
    CHECK_EQ_INT(d->alts[1].kind, CET_ALT_JSONLD);
    CHECK_EQ_INT(d->alts[1].body0, d->alts[1].node0 + 1);
    CHECK_STR(alt_text(d, 1, 0), "Ferry & bay");
    CHECK_STR(alt_text(d, 1, 1), "One two.");
    CHECK_STR(alt_text(d, 1, 2), "Three");
    CHECK_STR(alt_text(d, 1, 3), "four");
    CHECK_STR(alt_text(d, 1, 4), "five");
    CHECK_STR(alt_text(d, 1, 5), "six");
    CHECK_EQ_INT(d->alts[1].node1 - d->alts[1].node0, 6);
    CHECK_EQ_INT(d->alts[1].words, 6);
    CHECK_EQ_INT(cet_node_sep(d, d->alts[1].node0 + 2), CET_SEP_PARA);
    CHECK_EQ_INT(cet_node_sep(d, d->alts[1].node0 + 5), CET_SEP_LINE);
    /* noscript: paragraphs from its elements, its script left out. */
    CHECK_EQ_INT(d->alts[2].kind, CET_ALT_NOSCRIPT);
    CHECK_STR(alt_text(d, 2, 0), "First para graph.");
    CHECK_STR(alt_text(d, 2, 1), "Second.");
    CHECK_EQ_INT(d->alts[2].node1 - d->alts[2].node0, 2);
    CHECK_EQ_INT(d->alts[3].kind, CET_ALT_TEMPLATE);
    CHECK_STR(alt_text(d, 3, 0), "In a template");
    CHECK_STR(alt_text(d, 3, 1), "Its text.");
    CHECK_STR(alt_text(d, 3, 2), "Nested."); /* a noscript inside counts with it */
    /* Their nodes follow the page's, listed after its text nodes, with
     * their words past the page's and their gold rows. */
    CHECK_EQ_INT(d->alts[0].node0, d->nnodes);
    CHECK_EQ_INT(d->nalt_nodes, 1 + 6 + 2 + 3);
    CHECK_EQ_INT(d->texts[d->ntexts], d->nnodes);
    CHECK_EQ_INT(cet_doc_all_texts(d), d->ntexts + d->nalt_nodes);
    uint32_t three = d->alts[1].node0 + 2;
    CHECK(d->nodes[three].w0 >= d->nwords);
    CHECK_EQ_INT(d->nodes[three].w1 - d->nodes[three].w0, 1);
    uint32_t k = three - d->nnodes + d->ntexts;
    CHECK_EQ_INT(d->mrow_off[k + 1] - d->mrow_off[k], 1); /* "three" is a gold word */
    cet_doc_free(d);
}

static void test_doc__memory_accounting(void)
{
    /* Every component is counted, and the parts add up to the total. */
    struct cet_doc *d = parse("<html><body><div class=\"c\" id=\"m\"><p>One two three</p>"
                              "<a href=\"/x\">four</a></div></body></html>",
                              "one two four five");
    CHECK(d != NULL);
    if (!d)
        return;
    struct cet_doc_mem m = {0};
    cet_doc_mem(d, &m);
    CHECK(m.nodes == d->nnodes * sizeof *d->nodes);
    CHECK(m.attrs > 0 && m.texts > 0 && m.pool > d->pool_len && m.words > 0 && m.gold > 0);
    CHECK(m.gold_text == strlen("one two four five") + 1);
    CHECK(m.gold == 4 * sizeof(uint32_t) + 4 * sizeof(uint32_t)); /* 4 words, 4 distinct */
    CHECK(m.vocab > 0 && m.mrows > 0 && m.other >= sizeof *d);
    CHECK(m.text == strlen("One two three") + 1 + strlen("four") + 1 + 1); /* + the buffer's end */
    CHECK_EQ_INT(m.total, m.nodes + m.attrs + m.texts + m.pool + m.text + m.words + m.gold +
                              m.gold_text + m.vocab + m.mrows + m.other);
    /* It adds up: twice the same document, twice the bytes. */
    cet_doc_mem(d, &m);
    CHECK_EQ_INT(m.total, 2 * (m.nodes / 2 + m.attrs / 2 + m.texts / 2 + m.pool / 2 + m.text / 2 +
                               m.words / 2 + m.gold / 2 + m.gold_text / 2 + m.vocab / 2 +
                               m.mrows / 2 + m.other / 2));
    cet_doc_free(d);
}

static uint32_t find_tag(const struct cet_doc *d, enum cet_tag tag)
{
    for (uint32_t i = 0; i < d->nnodes; i++)
        if (d->nodes[i].kind == CET_ELEMENT && d->nodes[i].tag == tag)
            return i;
    return CET_NONE;
}

static void test_doc__evaluation_model_keeps_read_attributes(void)
{
    const char *html = "<body><div class=\"c\" id=\"m\" role=\"main\" style=\"x:y\" data-k=\"v\">"
                       "<img src=\" http://u@ads.example.com:80/i.png?q\" alt=\"pic\">"
                       "<a href=\"/x\" title=\"t\">x</a><a href=\"//cdn.example.com#f\">y</a></div></body>";
    struct cet_doc *e = parse(html, NULL), *p = parse_page(html);
    CHECK(e && p);
    if (!e || !p) {
        cet_doc_free(e);
        cet_doc_free(p);
        return;
    }
    uint32_t div = find_tag(e, CET_TAG_DIV), img = find_tag(e, CET_TAG_IMG), a = find_tag(e, CET_TAG_A);
    CHECK(div != CET_NONE && img != CET_NONE && a != CET_NONE);
    if (div == CET_NONE || img == CET_NONE || a == CET_NONE)
        return;
    CHECK_STR(cet_node_attr(e, div, "class"), "c");
    CHECK_STR(cet_node_attr(e, div, "id"), "m");
    CHECK_STR(cet_node_attr(e, div, "role"), "main");
    /* Of URLs, what ad-host matching reads: scheme and authority; a
     * relative URL has no host. */
    CHECK_STR(cet_node_attr(e, img, "src"), " http://u@ads.example.com:80");
    CHECK_STR(cet_node_attr(e, a, "href"), "");
    CHECK_STR(cet_node_attr(e, e->nodes[a].end, "href"), "//cdn.example.com");
    CHECK_STR(cet_node_attr(p, img, "src"), " http://u@ads.example.com:80/i.png?q");
    CHECK(cet_node_attr(e, div, "style") == NULL && cet_node_attr(e, img, "alt") == NULL &&
          cet_node_attr(e, a, "title") == NULL);
    CHECK_STR(cet_node_attr(p, div, "style"), "x:y");
    CHECK_STR(cet_node_attr(p, img, "alt"), "pic");
    CHECK_EQ_INT(e->nattrs, 6);
    CHECK_EQ_INT(p->nattrs, 10);
    /* The same tree, markup sizes included. */
    CHECK_EQ_INT(e->nnodes, p->nnodes);
    for (uint32_t i = 0; i < e->nnodes && i < p->nnodes; i++)
        CHECK_EQ_INT(e->nodes[i].nchars, p->nodes[i].nchars);
    cet_doc_free(e);
    cet_doc_free(p);
}

static int same_selection(const struct cet_extractor *ex, const struct cet_doc *e,
                          const struct cet_doc *p)
{
    double *params = malloc((ex->nparams + 1) * sizeof *params);
    struct cet_error err;
    struct cet_sel se = {0}, sp = {0};
    if (!params)
        return 0;
    cet_params_default(ex, params);
    void *pe = ex->prepare ? ex->prepare(e, &err) : NULL, *pp = ex->prepare ? ex->prepare(p, &err) : NULL;
    int same = (!ex->prepare || (pe && pp)) && !cet_sel_reset(&se, e) && !cet_sel_reset(&sp, p) &&
               !ex->run(e, pe, params, &se) && !ex->run(p, pp, params, &sp) &&
               !memcmp(se.keep, sp.keep, e->nnodes) && se.nextra == sp.nextra &&
               (!se.nextra || !memcmp(se.extra, sp.extra, se.nextra * sizeof *se.extra));
    if (ex->release) {
        if (pe)
            ex->release(pe);
        if (pp)
            ex->release(pp);
    }
    cet_sel_free(&se);
    cet_sel_free(&sp);
    free(params);
    return same;
}

/* The attributes the evaluation model drops are truly not read: every
 * extractor at its defaults selects the same nodes on every extractor test
 * page from it as from the model with all attributes. */
static void dropped_attributes_page(const char *path, const struct cet_buf *page, void *ctx)
{
    int *pages = ctx;
    struct cet_error err;
    struct cet_doc *e = NULL, *p = NULL;
    CHECK(cet_doc_parse(&e, page->p, page->len, NULL, 0, &err) == 0);
    CHECK(cet_doc_parse_as(&p, page->p, page->len, NULL, 0, NULL, 0, &err) == 0);
    if (e && p) {
        ++*pages;
        CHECK(e->nattrs <= p->nattrs && e->nnodes == p->nnodes);
        for (size_t x = 0; x < cet_extractor_count() && e->nnodes == p->nnodes; x++)
            if (!same_selection(cet_extractor_at(x), e, p)) {
                fprintf(stderr, "%s: %s selects differently\n", path, cet_extractor_at(x)->name);
                CHECK(0);
            }
    }
    cet_doc_free(e);
    cet_doc_free(p);
}

static void test_doc__dropped_attributes_are_not_read(void)
{
    int pages = 0;
    test_pages(CETUNE_SOURCE_DIR "/tests/data/extract", 0, dropped_attributes_page, &pages);
    CHECK(pages >= 10);
}

/* Pages cut by a crawler: a doctype with an unclosed quote or the tail of a
 * script before the first start tag, body content left in the head.  A
 * browser shows their text; libxml2's push parser alone stops at the stray
 * end tag and hides the head. */
static void test_doc__broken_prolog_and_head_keep_text(void)
{
    static const char *const pages[] = {
        "<!doctype html public \"-//W3C//DTD HTML 4.0//EN\" \"http://www.w3.org/TR/REC-h "
        "type=\"text/javascript\"></script>\n<!-- end library -->\n"
        "<script src=\"a.js\"></script><body><p>Gale closes the port today.</p></body>",
        "<!doctype html public \"-//wsi library v1.27-->\n<script src=\"x.js\"></script>\n"
        "<html><body><p>Gale closes the port today.</p></body></html>",
        "<html><head><title>T</title><mbox><table><tr><td><p>Gale closes the port today.</p>"
        "</td></tr></table></head></html>",
        "<html><head><title>T\n<script>var a = 1;</script><div><p>Gale closes the port today.</p>"
        "</div></body></html>",
    };
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        struct cet_doc *d = parse(pages[k], NULL);
        CHECK(d != NULL);
        if (!d)
            continue;
        CHECK(find_text(d, "Gale closes the port today.") != CET_NONE);
        CHECK(find_text(d, "T") == CET_NONE); /* the title is still not text */
        cet_doc_free(d);
    }
    /* A NUL byte (a browser drops it) does not end the page. */
    static const char nul[] = "<html><body><p>Gale closes\0 the port.</p><p>Ferries wait.</p></body></html>";
    struct cet_doc *d = NULL;
    struct cet_error err;
    CHECK(cet_doc_parse(&d, nul, sizeof nul - 1, NULL, 0, &err) == 0);
    if (d) {
        CHECK(find_text(d, "Gale closes the port.") != CET_NONE);
        CHECK(find_text(d, "Ferries wait.") != CET_NONE);
        cet_doc_free(d);
    }
}

/* Every text node of d joined by spaces, into buf[0..n). */
static const char *all_text(const struct cet_doc *d, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t k = 0; k < d->ntexts; k++)
        at += (size_t)snprintf(buf + at, at < n ? n - at : 0, "%s%s", at ? " " : "",
                               cet_node_str(d, d->texts[k]));
    return buf;
}

/* A script ends where a browser ends it, not at every "</script" libxml2
 * would stop at, and a bare "&nbsp" is a space (src/doc/prescan.c); an
 * <object>'s fallback content is laid out, as a browser without the plugin
 * shows it. */
static void test_doc__script_ends_and_object_fallback(void)
{
    static const struct {
        const char *html, *text;
    } cases[] = {
        {"<body><script>document.write('</SCRIPT\\> x'); var a = 1;</script><p>Gale closes "
         "the port.</p></body>",
         "Gale closes the port."},
        {"<body><script><!--\ndocument.write('<script src=\"a.js\"></script>');\n//-->"
         "</script><p>Gale closes the port.</p></body>",
         "Gale closes the port."},
        {"<body><script><!-- document.write('<SCRIPT src=a.js></SCRIPT>'); --></script>"
         "<p>Gale</p><script>x = '</b>';</script><p>Ferries</p></body>",
         "Gale Ferries"},
        /* Only inside a script: a comment's or an attribute's "<script>" starts none. */
        {"<body><!-- <script> --><p title=\"<script>\">Gale</p><!-- a --><script>y()</script>"
         "<p>Ferries</p><script>z()</script><p>wait.</p></body>",
         "Gale Ferries wait."},
        {"<body><p>Gale</p><object classid=\"clsid:D27CDB6E\"><param name=\"movie\" "
         "value=\"v.swf\"><p>The harbour master explains.</p></object><p>Ferries</p></body>",
         "Gale The harbour master explains. Ferries"},
        /* A bare "&nbsp" is a no-break space, as "&nbsp;" is. */
        {"<body><p>Gale&nbsp&nbspport&nbsp;closed</p></body>",
         "Gale\xc2\xa0 \xc2\xa0 port\xc2\xa0" "closed"},
    };
    char buf[512];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct cet_doc *d = parse(cases[k].html, NULL);
        CHECK(d != NULL);
        if (!d)
            continue;
        CHECK_STR(all_text(d, buf, sizeof buf), cases[k].text);
        cet_doc_free(d);
    }
}

int main(void)
{
    RUN(test_doc__structure);
    RUN(test_doc__render);
    RUN(test_doc__void_elements_hold_nothing);
    RUN(test_doc__declared_charsets);
    RUN(test_doc__bad_pages);
    RUN(test_doc__broken_prolog_and_head_keep_text);
    RUN(test_doc__script_ends_and_object_fallback);
    RUN(test_doc__alternates);
    RUN(test_doc__memory_accounting);
    RUN(test_doc__evaluation_model_keeps_read_attributes);
    RUN(test_doc__dropped_attributes_are_not_read);
    TEST_END();
}
