/* The feature-weighted block scorer (src/extract/score.c): each feature moves
 * the decision the way its weight says.  Every case starts from all weights
 * 0, sets one or two of them and the threshold, and checks which blocks of a
 * small page are kept. */
#include "cetune/buf.h"
#include "cetune/eval.h"
#include "cetune/page.h"
#include "cetune/extractor.h"
#include "test.h"

static const char page[] =
    "<html><body>"
    "<ul class=\"nav\"><li><a href=\"/\">Home</a></li><li><a href=\"/news\">News</a></li></ul>"
    "<div class=\"story\"><h1>Storm closes the harbour</h1>"
    "<p>The harbour was closed on Monday morning after a heavy storm damaged the old wooden "
    "pier and two of the fishing boats moored beside it, and divers will inspect the pier "
    "before any ship is allowed to enter again.</p>"
    "<p>Fishermen asked the <a href=\"/council\">town council</a> for help.</p></div>"
    "<div class=\"footer\">Copyright 2024</div>"
    "</body></html>";

/* The text score keeps of html with every weight 0 except those in `set`
 * ("name=value" strings, NULL-terminated); the result is static. */
static const char *keep_in(const char *html, const char *const *set)
{
    static struct cet_buf out;
    const struct cet_extractor *ex = cet_extractor_find("score");
    CHECK(ex != NULL);
    if (!ex)
        return "";
    double p[64] = {0};
    CHECK(ex->nparams <= 64);
    for (; *set; set++) {
        char name[64];
        const char *eq = strchr(*set, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - *set), *set);
        int i = cet_param_index(ex, name);
        CHECK(i >= 0);
        if (i >= 0)
            p[i] = atof(eq + 1);
    }
    struct cet_doc *doc = NULL;
    struct cet_error err;
    CHECK(cet_doc_parse(&doc, html, strlen(html), NULL, 0, &err) == 0);
    void *prep = ex->prepare(doc, &err);
    CHECK(prep != NULL);
    struct cet_sel sel = {0};
    out.len = 0;
    cet_buf_puts(&out, "");
    if (prep && cet_sel_reset(&sel, doc) == 0 && ex->run(doc, prep, p, &sel) == 0) {
        /* Kept text keeps its ancestors, so the HTML output keeps its structure. */
        for (uint32_t i = 0; i < doc->nnodes; i++)
            if (sel.keep[i] && doc->nodes[i].parent != CET_NONE)
                CHECK(sel.keep[doc->nodes[i].parent]);
        CHECK(cet_extract_text(doc, &sel, &out) == 0);
        while (out.len && out.p[out.len - 1] == '\n')
            out.p[--out.len] = 0;
        /* What is kept, one block a line: the layout is test_layout's. */
        size_t o = 0;
        for (size_t k = 0; k < out.len; k++)
            if (!(out.p[k] == '\n' && o && out.p[o - 1] == '\n'))
                out.p[o++] = out.p[k];
        out.p[out.len = o] = 0;
    }
    cet_sel_free(&sel);
    ex->release(prep);
    cet_doc_free(doc);
    return out.p;
}

static const char *keep(const char *const *set)
{
    return keep_in(page, set);
}

#define KEEP(...) keep((const char *const[]){__VA_ARGS__, NULL})
#define KEEP_IN(html, ...) keep_in(html, (const char *const[]){__VA_ARGS__, NULL})

/* A page with every kind of region the page itself names (score.c's
 * region_flags), each box holding less than half of the page's words. */
static const char regions[] =
    "<html><body class=\"single-post comments-open\"><div class=\"site\">"
    "<h1>Storm closes the harbour</h1>"
    "<p class=\"byline\">By Ann Lee</p>"
    "<div itemprop=\"articleBody\"><p>The harbour was closed on Monday morning after a "
    "heavy storm damaged the old wooden pier and two of the fishing boats moored beside it, "
    "and divers will inspect the pier before any ship is allowed to enter again, the "
    "harbour master said.</p>"
    "<figure><img src=\"pier.jpg\"><figcaption>The pier after the storm</figcaption></figure>"
    "<p>Fishermen asked the town council for help on Tuesday.</p></div>"
    "<div id=\"comments\"><p>What a terrible storm this was.</p></div>"
    "<ul class=\"related-links\"><li>Floods in the valley</li></ul>"
    "<div class=\"share-tools\">Share this story</div>"
    "<div class=\"newsletter-signup\">Get our daily newsletter</div>"
    "<div style=\"display: none\">A hidden copy</div>"
    "<p aria-hidden=\"true\">Screen only</p>"
    "<aside>Most read today</aside>"
    "<p>Storm closes the harbour</p>"
    "</div></body></html>";

static const char body[] =
    "The harbour was closed on Monday morning after a heavy storm damaged the old wooden pier "
    "and two of the fishing boats moored beside it, and divers will inspect the pier before any "
    "ship is allowed to enter again, the harbour master said.\nThe pier after the storm\n"
    "Fishermen asked the town council for help on Tuesday.";

static const char all[] = "Home\nNews\nStorm closes the harbour\nThe harbour was closed on "
                          "Monday morning after a heavy storm damaged the old wooden pier and "
                          "two of the fishing boats moored beside it, and divers will inspect "
                          "the pier before any ship is allowed to enter again.\nFishermen asked "
                          "the town council for help.\nCopyright 2024";

static void test_score__threshold_alone(void)
{
    CHECK_STR(KEEP("t=0"), all);
    CHECK_STR(KEEP("t=0.01"), "");
}

/* A positive weight on link density keeps the menu; a negative one drops it. */
static void test_score__link_density(void)
{
    CHECK_STR(KEEP("w_links=1", "t=0.9"), "Home\nNews");
    CHECK_STR(KEEP("w_links=-1", "t=0"),
              "Storm closes the harbour\nThe harbour was closed on Monday morning after a "
              "heavy storm damaged the old wooden pier and two of the fishing boats moored "
              "beside it, and divers will inspect the pier before any ship is allowed to "
              "enter again.\nCopyright 2024");
}

/* Words: only the long paragraph has 30 or more (log(1+30)/log(101) = 0.744). */
static void test_score__words(void)
{
    CHECK_STR(KEEP("w_words=1", "t=0.74"),
              "The harbour was closed on Monday morning after a heavy storm damaged the old "
              "wooden pier and two of the fishing boats moored beside it, and divers will "
              "inspect the pier before any ship is allowed to enter again.");
    /* Its neighbours see it through the context features. */
    CHECK_STR(KEEP("w_prev_words=1", "t=0.74"), "Fishermen asked the town council for help.");
    CHECK_STR(KEEP("w_next_words=1", "t=0.74"), "Storm closes the harbour");
}

static void test_score__kinds(void)
{
    CHECK_STR(KEEP("w_h=1", "t=1"), "Storm closes the harbour");
    CHECK_STR(KEEP("w_a=1", "t=1"), "Home\nNews");
    CHECK_STR(KEEP("w_other=1", "t=1"), "Copyright 2024");
    /* The paragraph with a link is still a p: only all-link blocks are "a". */
    CHECK_STR(KEEP("w_p=1", "w_links=-1", "t=0.9"),
              "The harbour was closed on Monday morning after a heavy storm damaged the old "
              "wooden pier and two of the fishing boats moored beside it, and divers will "
              "inspect the pier before any ship is allowed to enter again.");
}

static void test_score__class_names(void)
{
    CHECK_STR(KEEP("w_class_neg=-1", "t=0"),
              "Storm closes the harbour\nThe harbour was closed on Monday morning after a "
              "heavy storm damaged the old wooden pier and two of the fishing boats moored "
              "beside it, and divers will inspect the pier before any ship is allowed to "
              "enter again.\nFishermen asked the town council for help.");
    CHECK_STR(KEEP("w_class_pos=1", "t=1"),
              "Storm closes the harbour\nThe harbour was closed on Monday morning after a "
              "heavy storm damaged the old wooden pier and two of the fishing boats moored "
              "beside it, and divers will inspect the pier before any ship is allowed to "
              "enter again.\nFishermen asked the town council for help.");
}

/* The main subtree is the story's div: its paragraphs give it the most points. */
static void test_score__main_subtree(void)
{
    CHECK_STR(KEEP("w_main=1", "t=1"),
              "Storm closes the harbour\nThe harbour was closed on Monday morning after a "
              "heavy storm damaged the old wooden pier and two of the fishing boats moored "
              "beside it, and divers will inspect the pier before any ship is allowed to "
              "enter again.\nFishermen asked the town council for help.");
}

/* The story's blocks get all the credit of the best candidate, the footer
 * (a child of the body, which gets half of the points) less. */
static void test_score__main_share(void)
{
    CHECK_STR(KEEP("w_main_share=1", "t=0.99"),
              "Storm closes the harbour\nThe harbour was closed on Monday morning after a "
              "heavy storm damaged the old wooden pier and two of the fishing boats moored "
              "beside it, and divers will inspect the pier before any ship is allowed to "
              "enter again.\nFishermen asked the town council for help.");
}

/* "footer" is one of Readability's unlikely names; "nav" is not. */
static void test_score__unlikely(void)
{
    CHECK_STR(KEEP("w_unlikely=1", "t=1"), "Copyright 2024");
}

/* Position grows down the page: the footer is last, the menu first. */
static void test_score__position(void)
{
    CHECK_STR(KEEP("w_position=1", "t=0.95"), "Copyright 2024");
    CHECK_STR(KEEP("w_position=-1", "t=-0.01"), "Home");
}

/* The defaults keep the story's long paragraph and drop menu and footer. */
static void test_score__defaults(void)
{
    const struct cet_extractor *ex = cet_extractor_find("score");
    CHECK(ex != NULL);
    if (!ex)
        return;
    const char *set[64 + 1];
    static char buf[64][64];
    size_t n = 0;
    for (size_t i = 0; i < ex->nparams && i < 64; i++) {
        char v[32];
        cet_param_format(ex, i, ex->params[i].def, 0, v, sizeof v);
        snprintf(buf[n], sizeof buf[n], "%s=%s", ex->params[i].name, v);
        set[n] = buf[n];
        n++;
    }
    set[n] = NULL;
    const char *text = keep(set);
    CHECK(strstr(text, "The harbour was closed on Monday") != NULL);
    CHECK(strstr(text, "Home") == NULL);
    CHECK(strstr(text, "Copyright") == NULL);
}

/* Each region's weight alone picks out that region; <body>'s class names
 * (comments-open) set nothing. */
static void test_score__regions(void)
{
    CHECK_STR(KEEP_IN(regions, "w_body_mark=1", "t=1"), body);
    CHECK_STR(KEEP_IN(regions, "w_meta=1", "t=1"), "By Ann Lee");
    CHECK_STR(KEEP_IN(regions, "w_comments=1", "t=1"), "What a terrible storm this was.");
    CHECK_STR(KEEP_IN(regions, "w_related=1", "t=1"), "Floods in the valley");
    CHECK_STR(KEEP_IN(regions, "w_share=1", "t=1"), "Share this story");
    CHECK_STR(KEEP_IN(regions, "w_notice=1", "t=1"), "Get our daily newsletter");
    CHECK_STR(KEEP_IN(regions, "w_hidden=1", "t=1"), "A hidden copy\nScreen only");
    CHECK_STR(KEEP_IN(regions, "w_caption=1", "t=1"), "The pier after the storm");
    CHECK_STR(KEEP_IN(regions, "w_landmark=1", "t=1"), "Most read today");
    /* The h1 is the headline; its copy further down is a repeat. */
    CHECK_STR(KEEP_IN(regions, "w_headline=1", "t=1"), "Storm closes the harbour");
    CHECK_STR(KEEP_IN(regions, "w_repeat=1", "t=1"), "Storm closes the harbour");
    CHECK_STR(KEEP_IN(regions, "w_headline=1", "w_repeat=1", "t=2"), "");
}

/* A name against a region that holds most of the page's words is a
 * wrapper's, not a box's: it sets nothing. */
static void test_score__region_guard(void)
{
    static const char wrapped[] =
        "<html><body><article class=\"post status-published paywall\">"
        "<p>The harbour was closed on Monday morning after a heavy storm.</p></article>"
        "<div class=\"newsletter\">Get our newsletter</div></body></html>";
    CHECK_STR(KEEP_IN(wrapped, "w_meta=-1", "w_notice=-1", "t=0"),
              "The harbour was closed on Monday morning after a heavy storm.");
}

/* The same for a region that holds the marked article body (50 words or
 * more), however few of the page's words it has: nypost's article sits in
 * "box article modal-enabled".  A hidden region keeps its flag: a hidden
 * copy of the article stays hidden. */
#define TEN "Divers will inspect the old pier before ships may enter. "
#define BODY "<div class=\"entry-content\"><p>" TEN TEN TEN TEN TEN TEN "</p></div>"
#define TEASE "Floods in the valley close three roads to the coast. "
#define OTHER "Rain is expected again on Tuesday along the whole coast. "
#define TEASERS "<div class=\"teasers\"><p>" TEASE TEASE TEASE "</p></div>" \
    "<div><p>" OTHER OTHER OTHER OTHER "</p></div>"
static void test_score__region_guard_body(void)
{
    static const char modal[] =
        "<html><body><div class=\"box article modal-enabled\">" BODY "</div>" TEASERS
        "</body></html>";
    const char *text = KEEP_IN(modal, "w_notice=-1", "w_related=-1", "t=0");
    CHECK(strncmp(text, TEN, strlen(TEN) - 1) == 0);
    CHECK(strstr(text, "Floods") == NULL); /* the teasers are still a box */
    CHECK(strstr(text, "Rain") != NULL);
    static const char hidden[] =
        "<html><body><div class=\"hidden\">" BODY "</div>" TEASERS "</body></html>";
    CHECK(strstr(KEEP_IN(hidden, "w_hidden=-1", "t=0"), "Divers") == NULL);
}

/* drop_headline removes the headline whatever its score. */
static void test_score__drop_headline(void)
{
    const char *text = KEEP_IN(regions, "t=0", "drop_headline=1");
    CHECK(strncmp(text, "By Ann Lee\n", 11) == 0);
    CHECK(strstr(text, "Storm closes the harbour") != NULL); /* the copy is no h1 */
}

/* When fewer words than fallback_words are kept, Readability's main subtree
 * replaces them if it has more; otherwise the extraction stays. */
static void test_score__fallback(void)
{
    CHECK_STR(KEEP_IN(regions, "t=1", "fallback_words=0"), "");
    const char *text = KEEP_IN(regions, "t=1", "fallback_words=10");
    CHECK(strstr(text, "The harbour was closed on Monday") != NULL);
    CHECK(strstr(text, "A hidden copy") == NULL);
    /* Enough kept: the fallback does not apply. */
    CHECK_STR(KEEP_IN(regions, "w_share=1", "t=1", "fallback_words=3"), "Share this story");
}

/* Blocks for the context rule and the relative fallback: with w_words 1
 * alone, the 12-word paragraphs score 0.556, the 2-word ones 0.238 and the
 * 1-word one 0.150. */
static const char context[] =
    "<html><body>"
    "<p>The harbour was closed on Monday morning after a heavy storm hit.</p>"
    "<p>Divers waited.</p>"
    "<p>Fishermen asked the town council for help with their damaged boats.</p>"
    "<p>Read more</p>"
    "<p>Menu</p>"
    "</body></html>";

#define LONG1 "The harbour was closed on Monday morning after a heavy storm hit."
#define LONG2 "Fishermen asked the town council for help with their damaged boats."

/* near: a block scoring in [t - near, t) follows the nearest blocks with
 * words around it (jusText's context): both must be kept with near_sides 2,
 * one with near_sides 1; a block below the band stays out. */
static void test_score__near(void)
{
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=0.5", "near=0", "near_sides=2"),
              LONG1 "\n" LONG2);
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=0.5", "near=0.3", "near_sides=2"),
              LONG1 "\nDivers waited.\n" LONG2);
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=0.5", "near=0.3", "near_sides=1"),
              LONG1 "\nDivers waited.\n" LONG2 "\nRead more");
    /* A wider band takes in the last block too, which then has no kept
     * neighbour after it: with both sides required the whole run of three
     * band blocks after the second paragraph is dropped. */
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=0.5", "near=0.4", "near_sides=2"),
              LONG1 "\nDivers waited.\n" LONG2);
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=0.5", "near=0.4", "near_sides=1"),
              LONG1 "\nDivers waited.\n" LONG2 "\nRead more\nMenu");
}

/* fallback_margin: when too little is kept, the second candidate is the
 * page's best blocks, the threshold lowered to the best score minus the
 * margin (the context rule applies to it too). */
static void test_score__fallback_margin(void)
{
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_words=0", "fallback_margin=0.1"), "");
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_words=10", "fallback_margin=0.1"),
              LONG1 "\n" LONG2);
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_words=10", "fallback_margin=0.1",
                      "near=0.4", "near_sides=2"),
              LONG1 "\nDivers waited.\n" LONG2);
    /* Enough kept: the margin does not apply. */
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=0.5", "fallback_words=10", "fallback_margin=1"),
              LONG1 "\n" LONG2);
}

/* The fallback chain (fallback.c): fallback_share runs it when fewer than
 * that share of the page's 29 words are kept; its last step, the best
 * contiguous region, keeps the run of blocks with the largest sum of words x
 * (score - (best - fallback_region)), bridging a short block between two
 * paragraphs (2 x 0.03 above the floor at 0.206) but not a block below the
 * floor. */
static void test_score__fallback_chain(void)
{
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_share=0", "fallback_margin=0.1"), "");
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_share=0.2", "fallback_margin=0.1"),
              LONG1 "\n" LONG2);
    /* 24 of 29 words kept: enough for a share of 0.5, so no region. */
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_share=0.5", "fallback_margin=0.1",
                      "fallback_region=0.35"),
              LONG1 "\n" LONG2);
    /* Too little for 0.9: the region replaces the second candidate. */
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_share=0.9", "fallback_margin=0.1",
                      "fallback_region=0.35"),
              LONG1 "\nDivers waited.\n" LONG2 "\nRead more");
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_share=0.9", "fallback_margin=0.1",
                      "fallback_region=0.3"),
              LONG1 "\nDivers waited.\n" LONG2);
    /* fallback_words counts the same way: 24 words are fewer than 25. */
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=5", "fallback_words=25", "fallback_margin=0.1",
                      "fallback_region=0.3"),
              LONG1 "\nDivers waited.\n" LONG2);
    /* Never a smaller extraction: enough kept, the chain does not run. */
    CHECK_STR(KEEP_IN(context, "w_words=1", "t=0.5", "fallback_words=1", "fallback_region=5"),
              LONG1 "\n" LONG2);
}

/* outside_body: on a page that marks its article body with at least 50
 * words, every block outside it has the feature; a smaller mark sets
 * nothing. */
static void test_score__outside_body(void)
{
    static const char marked[] =
        "<html><body><div class=\"teasers\"><p>Floods in the valley</p></div>"
        "<div itemprop=\"articleBody\"><p>The harbour was closed on Monday morning after a heavy "
        "storm damaged the old wooden pier and two of the fishing boats moored beside it.</p>"
        "<p>Divers will inspect the pier before any ship is allowed to enter the harbour "
        "again, and the council has promised to pay for the repairs of the damaged boats "
        "and for a new pier before the summer season starts.</p></div>"
        "<footer>Copyright 2024</footer></body></html>";
    CHECK_STR(KEEP_IN(marked, "w_outside_body=1", "t=1"), "Floods in the valley\nCopyright 2024");
    static const char small[] =
        "<html><body><div class=\"teasers\"><p>Floods in the valley</p></div>"
        "<div itemprop=\"articleBody\"><p>The harbour was closed.</p></div></body></html>";
    CHECK_STR(KEEP_IN(small, "w_outside_body=1", "t=1"), "");
    /* The story goes on after a box in a sibling with the marked body's tag
     * and class: that sibling is the body too (continue_body), a cousin with
     * the same class or a sibling with another class or tag is not. */
    static const char cut[] =
        "<html><body><div id=\"main\"><div id=\"article_body\" class=\"storybody\">"
        "<p>The harbour was closed on Monday morning after a heavy storm damaged the old "
        "wooden pier and two of the fishing boats moored beside it, and divers will inspect "
        "the pier before any ship is allowed to enter the harbour again, the harbour master "
        "said on the radio late on Monday evening.</p></div>"
        "<div class=\"box\"><p>Floods in the valley</p></div>"
        "<div class=\"storybody\"><p>The council promised to pay for the repairs.</p></div>"
        "<div class=\"storybody wide\"><p>Other boats left</p></div>"
        "<p class=\"storybody\">Ferries wait</p></div>"
        "<div><div class=\"storybody\">Weather tomorrow</div></div></body></html>";
    CHECK_STR(KEEP_IN(cut, "w_outside_body=1", "t=1"),
              "Floods in the valley\nOther boats left\nFerries wait\nWeather tomorrow");
}

/* The container rules (score.c's rescue()), with w_words 1 alone and t
 * 0.5: the two 12-word paragraphs are kept (0.556), a 1-word block scores
 * 0.150, 2 words 0.238, 3 words 0.300, 4 words 0.349.  Each rule keeps
 * blocks in its band [t - band, t) only where its container says so. */

/* gap: a run between two kept blocks of one container; the same short
 * paragraph between paragraphs of two containers stays out (near, which
 * sees scores only, would keep it). */
static void test_score__gap(void)
{
    static const char page[] = "<html><body><div><p>" LONG1 "</p><p>Divers waited.</p><p>" LONG2
                               "</p></div><div><p>" LONG1 "</p></div><p>Menu</p><div><p>" LONG2
                               "</p></div></body></html>";
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5"), LONG1 "\n" LONG2 "\n" LONG1 "\n" LONG2);
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5", "gap=0.4"),
              LONG1 "\nDivers waited.\n" LONG2 "\n" LONG1 "\n" LONG2);
    /* Below the band: 0.238 < 0.5 - 0.2. */
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5", "gap=0.2"), LONG1 "\n" LONG2 "\n" LONG1 "\n" LONG2);
}

/* tail: the paragraphs after an inline box (a container inside the
 * article's) in the article's container; the box itself and what follows
 * the container stay out. */
static void test_score__tail(void)
{
    static const char page[] =
        "<html><body><div><p>" LONG1 "</p><div class=\"box\"><p>Buy our boats</p></div>"
        "<p>Divers waited.</p><p>The pier stays shut.</p></div><p>Copyright 2024</p></body></html>";
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5"), LONG1);
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5", "tail=0.3"),
              LONG1 "\nDivers waited.\nThe pier stays shut.");
    /* The first block of the container below the band ends it. */
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5", "tail=0.2"), LONG1);
    /* No inline box came between: gap's and near's case, not tail's. */
    static const char plain[] =
        "<html><body><div><p>" LONG1 "</p><p>Divers waited.</p></div></body></html>";
    CHECK_STR(KEEP_IN(plain, "w_words=1", "t=0.5", "tail=0.3"), LONG1);
}

/* lists: list items and table cells whose list's container (past nested
 * tables) has kept text; a list elsewhere, and a link in the list, stay
 * out. */
static void test_score__lists(void)
{
    static const char page[] =
        "<html><body><div><p>" LONG1 "</p><ul><li>Flour</li><li>Two eggs</li>"
        "<li><a href=\"/more\">Related story</a></li></ul>"
        "<table><table><tr><td>Score</td><td>3</td></tr></table></table>"
        "<p>" LONG2 "</p></div><ul><li>Home</li><li>About us</li></ul></body></html>";
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5"), LONG1 "\n" LONG2);
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5", "lists=0.4"),
              LONG1 "\nFlour\nTwo eggs\nScore\t3\n" LONG2);
}

/* siblings: a block whose container's parent holds kept text (the
 * article continued in a sibling <div>); a <div> elsewhere stays out. */
static void test_score__siblings(void)
{
    static const char page[] =
        "<html><body><div><div><p>" LONG1 "</p></div><div><p>Divers waited.</p></div></div>"
        "<div><div><p>Share this</p></div></div></body></html>";
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5"), LONG1);
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5", "siblings=0.3"), LONG1 "\nDivers waited.");
}

/* subheads: an h2-h6 between kept text of its container; not one before
 * dropped text, nor a section label above the article, nor the headline. */
static void test_score__subheads(void)
{
    static const char page[] =
        "<html><body><div><h1>Storm</h1><h2>Coast news</h2><p>" LONG1 "</p><h2>The repairs</h2>"
        "<p>" LONG2 "</p><h3>More news</h3><p>Menu</p></div></body></html>";
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5"), LONG1 "\n" LONG2);
    CHECK_STR(KEEP_IN(page, "w_words=1", "t=0.5", "subheads=0.4"),
              LONG1 "\nThe repairs\n" LONG2);
}

/* A comment thread in the story's own markup, named by nothing but its
 * signatures (signatures.c): its blocks from the first signature to the
 * last get a comment region's flags. */
#define STORY "<h1>Storm closes the harbour</h1><p class=\"story\">The harbour was closed.</p>"
#define COMMENT(text, who) \
    "<p class=\"story\">" text "</p><p class=\"posted\">Posted by: " who \
    " | January 14, 2008 06:24 PM</p>"
#define THREAD COMMENT("First!", "ann") COMMENT("Terrible storm.", "bob") \
    COMMENT("Fix the pier.", "cy")
static const char thread_kept[] = "Posted by: ann | January 14, 2008 06:24 PM\nTerrible storm.\n"
                                  "Posted by: bob | January 14, 2008 06:24 PM\nFix the pier.\n"
                                  "Posted by: cy | January 14, 2008 06:24 PM";

static void test_score__signed_threads(void)
{
    const char *thread = "<html><body>" STORY THREAD "</body></html>";
    /* The comment before the first signature is left to the other features. */
    CHECK_STR(KEEP_IN(thread, "w_comments=1", "t=1"), thread_kept);
    CHECK_STR(KEEP_IN(thread, "w_class_neg=1", "t=1"), thread_kept);
    CHECK_STR(KEEP_IN(thread, "w_unlikely=1", "t=1"), thread_kept);
    /* One signer under every post: a blog's front page, no thread. */
    CHECK_STR(KEEP_IN("<html><body>" COMMENT("One.", "ann") COMMENT("Two.", "ann")
                      COMMENT("Three.", "ann") "</body></html>", "w_comments=1", "t=1"), "");
    /* A heading between two signatures ends a thread: two of one are none. */
    CHECK_STR(KEEP_IN("<html><body>" COMMENT("One.", "ann") "<h2>Older posts</h2>"
                      COMMENT("Two.", "bob") COMMENT("Three.", "cy") "</body></html>",
                      "w_comments=1", "t=1"), "");
    /* No date, no signature. */
    CHECK_STR(KEEP_IN("<html><body><p>Posted by: ann</p><p>Posted by: bob</p>"
                      "<p>Posted by: cy</p></body></html>", "w_comments=1", "t=1"), "");
    /* The post's own byline in other markup is not the thread's. */
    CHECK_STR(KEEP_IN("<html><body><p class=\"byline\">Posted by Eric on January 14, 2008</p>"
                      STORY THREAD "</body></html>", "w_comments=1", "t=1"), thread_kept);
    /* In the same markup above a story longer than any comment after it, it
     * opens the thread without the story. */
    struct cet_buf html = {0};
    cet_buf_puts(&html, "<html><body><p class=\"posted\">Posted by: eric | January 14, 2008"
                        "</p><p class=\"story\">");
    for (int k = 0; k < 80; k++)
        cet_buf_puts(&html, "The harbour was closed today. ");
    cet_buf_puts(&html, "</p>" THREAD "</body></html>");
    CHECK_STR(KEEP_IN(html.p, "w_comments=1", "t=1"), thread_kept);
    /* The byline left out, its author is no signer of the thread: two
     * readers signing four comments are none, but the author answering one
     * of them is a third signer. */
    size_t story_end = html.len - strlen(THREAD "</body></html>");
    html.len = story_end;
    cet_buf_puts(&html, COMMENT("One.", "ann") COMMENT("Two.", "bob") COMMENT("Three.", "ann")
                        COMMENT("Four.", "bob") "</body></html>");
    CHECK_STR(KEEP_IN(html.p, "w_comments=1", "t=1"), "");
    html.len = story_end;
    cet_buf_puts(&html, COMMENT("One.", "ann") COMMENT("Two.", "bob") COMMENT("Three.", "eric")
                        COMMENT("Four.", "ann") "</body></html>");
    CHECK_STR(KEEP_IN(html.p, "w_comments=1", "t=1"),
              "Posted by: ann | January 14, 2008 06:24 PM\nTwo.\n"
              "Posted by: bob | January 14, 2008 06:24 PM\nThree.\n"
              "Posted by: eric | January 14, 2008 06:24 PM\nFour.\n"
              "Posted by: ann | January 14, 2008 06:24 PM");
    cet_buf_free(&html);
    /* Its text goes, also from blocks kept for their words, when the flags
     * it gets count against it (as a teaser list's); while they weigh
     * nothing against it, it stays. */
    CHECK_STR(KEEP_IN(thread, "w_words=1", "t=0.1", "w_comments=-0.01"),
              "Storm closes the harbour\nThe harbour was closed.\nFirst!");
    CHECK(strstr(KEEP_IN(thread, "w_words=1", "t=0.1", "w_comments=0.01"), "Fix the pier.") != NULL);
    /* The words of a signed thread are no candidate for the article: the
     * fallback does not call the story tiny against them. */
    struct cet_buf big = {0};
    cet_buf_puts(&big, "<html><body>" STORY);
    for (int k = 0; k < 20; k++)
        cet_buf_puts(&big, COMMENT("The storm was the worst one this harbour has seen in "
                                   "years, and the council knew it was coming.", "ann")
                               COMMENT("It was not.", "bob") COMMENT("It was.", "cy"));
    cet_buf_puts(&big, "</body></html>");
    CHECK_STR(KEEP_IN(big.p, "w_h=2", "w_p=2", "w_comments=-5", "t=1", "fallback_share=0.5",
                      "fallback_margin=10"),
              "Storm closes the harbour\nThe harbour was closed.\nThe storm was the worst one "
              "this harbour has seen in years, and the council knew it was coming.");
    cet_buf_free(&big);
}

/* A list of teasers for other stories (teasers.c): a linked headline, a
 * byline, a sentence of the story, three times in one template.  Its text
 * goes when a list's flags count against it, in its own blocks or in the
 * article's; lists that only look alike stay. */
#define TEASER(head, dek)                                                              \
    "<a href=\"/story\">" head "</a><br><span class=\"by\">By Ann Lee</span><br>"      \
    "<span class=\"dek\">" dek "</span><br>"
#define TEASER1 TEASER("Harbour reopens after the storm", \
                       "Crews cleared the wreckage from the piers on Tuesday morning.")
#define TEASER2 TEASER("Council votes on the new sea wall", \
                       "The town will borrow four million pounds to build the wall.")
#define TEASER3 TEASER("Fishermen count the cost", \
                       "Half of the boats in the harbour will not sail again this year.")
#define TEASER_LIST TEASER1 TEASER2 TEASER3
static void test_score__teasers(void)
{
    static const char own[] = "<html><body><p>" LONG1 "</p><p>" LONG2 "</p>"
                              "<div><b>More stories</b><br>" TEASER_LIST "</div></body></html>";
    const char *all = KEEP_IN(own, "w_words=1", "t=0.5");
    CHECK(strstr(all, "Half of the boats") != NULL);
    /* Its block goes with it: the label is a tenth of its words. */
    CHECK_STR(KEEP_IN(own, "w_words=1", "t=0.5", "w_related=-1"), LONG1 "\n" LONG2);
    /* The flags a list's block gets weigh nothing against it: it stays. */
    CHECK(strstr(KEEP_IN(own, "w_words=1", "t=0.5", "w_related=-1", "w_unlikely=1"),
                 "Half of the boats") != NULL);
    /* In the article's own cell, below it. */
    static const char cell[] = "<html><body><table><tr><td>" LONG1 "<br><br>" LONG2
                               "<br><br>" TEASER_LIST "</td></tr></table></body></html>";
    CHECK_STR(KEEP_IN(cell, "w_words=1", "t=0.5", "w_related=-1"), LONG1 "\n" LONG2);
    /* The fallback judges what is left once the list's text is gone: here
     * the list alone scores above t, and the article comes back (with the
     * region the fallback keeps: the list's label, not the list). */
    CHECK_STR(KEEP_IN(own, "w_words=1", "t=0.8", "w_related=-0.01", "fallback_words=5",
                      "fallback_region=1"),
              LONG1 "\n" LONG2 "\nMore stories");
    /* Two teasers are no list. */
    static const char two[] = "<html><body><p>" LONG1 "</p><div>" TEASER1 TEASER2
                              "</div></body></html>";
    CHECK(strstr(KEEP_IN(two, "w_words=1", "t=0.5", "w_related=-1"), "four million") != NULL);
    /* One headline over every entry ("View this ad"): classified ads. */
    static const char ads[] =
        "<html><body><p>" LONG1 "</p><div>"
        TEASER("View this ad", "Crews cleared the wreckage from the piers on Tuesday morning.")
        TEASER("View this ad", "The town will borrow four million pounds to build the wall.")
        TEASER("View this ad", "Half of the boats in the harbour will not sail again this year.")
        "</div></body></html>";
    CHECK(strstr(KEEP_IN(ads, "w_words=1", "t=0.5", "w_related=-1"), "four million") != NULL);
    /* Links between an article's paragraphs, in the paragraphs' markup. */
    static const char inline_links[] =
        "<html><body><p>" LONG1 "</p>"
        "<h3><a href=\"/a\">Harbour reopens after the storm</a></h3>"
        "<p>Crews cleared the wreckage from the piers on Tuesday morning.</p>"
        "<h3><a href=\"/b\">Council votes on the new sea wall</a></h3>"
        "<p>The town will borrow four million pounds to build the wall.</p>"
        "<h3><a href=\"/c\">Fishermen count the cost</a></h3>"
        "<p>Half of the boats in the harbour will not sail again this year.</p>"
        "</body></html>";
    CHECK(strstr(KEEP_IN(inline_links, "w_words=1", "t=0.5", "w_related=-1"), "four million") !=
          NULL);
    /* A menu: a few words under each heading, no sentence. */
    static const char menu[] =
        "<html><body><p>" LONG1 "</p><div>"
        TEASER("Family and carers", "Tips for carers") TEASER("Our children", "Talking with children")
        TEASER("Other therapies", "Camps and workshops") "</div></body></html>";
    CHECK(strstr(KEEP_IN(menu, "w_words=1", "t=0.5", "w_related=-1"), "Camps and workshops") !=
          NULL);
}

int main(void)
{
    RUN(test_score__threshold_alone);
    RUN(test_score__link_density);
    RUN(test_score__words);
    RUN(test_score__kinds);
    RUN(test_score__class_names);
    RUN(test_score__main_subtree);
    RUN(test_score__main_share);
    RUN(test_score__unlikely);
    RUN(test_score__position);
    RUN(test_score__defaults);
    RUN(test_score__regions);
    RUN(test_score__region_guard);
    RUN(test_score__region_guard_body);
    RUN(test_score__drop_headline);
    RUN(test_score__fallback);
    RUN(test_score__near);
    RUN(test_score__fallback_margin);
    RUN(test_score__fallback_chain);
    RUN(test_score__outside_body);
    RUN(test_score__gap);
    RUN(test_score__tail);
    RUN(test_score__lists);
    RUN(test_score__siblings);
    RUN(test_score__subheads);
    RUN(test_score__signed_threads);
    RUN(test_score__teasers);
    TEST_END();
}
