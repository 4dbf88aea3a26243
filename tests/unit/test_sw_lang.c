/* The stop-word filter's languages: one per data/stopwords file, and the
 * detection of a page's language.  The detected language is observed through
 * the extractor interface: with its threshold at 0 and every other one above
 * 1, only a page of that language keeps any text. */

#include "cetune/extractor.h"
#include "test.h"

static const struct cet_extractor *sw(void)
{
    const struct cet_extractor *ex = cet_extractor_find("sw");
    CHECK(ex != NULL);
    return ex;
}

/* The code of the language sw detects for html ("t_XX" without "t_"), or "?". */
static const char *detect(const char *html)
{
    static char code[64];
    const struct cet_extractor *ex = sw();
    struct cet_doc *doc = NULL;
    struct cet_error err;
    snprintf(code, sizeof code, "?");
    if (!ex || cet_doc_parse(&doc, html, strlen(html), NULL, 0, &err)) {
        CHECK(0);
        return code;
    }
    void *prep = ex->prepare(doc, &err);
    CHECK(prep != NULL);
    double p[64];
    struct cet_sel sel = {0};
    int found = 0;
    for (size_t l = 0; prep && l < ex->nparams && l < 64; l++) {
        for (size_t k = 0; k < ex->nparams; k++)
            p[k] = k == l ? 0.0 : 2.0;
        CHECK(cet_sel_reset(&sel, doc) == 0);
        CHECK(ex->run(doc, prep, p, &sel) == 0);
        int kept = 0;
        for (uint32_t i = 0; i < doc->nnodes; i++)
            kept |= doc->nodes[i].kind == CET_TEXT && sel.keep[i];
        if (kept) {
            found++;
            snprintf(code, sizeof code, "%s", ex->params[l].name + 2);
        }
    }
    CHECK_EQ_INT(found, 1);
    cet_sel_free(&sel);
    if (prep)
        ex->release(prep);
    cet_doc_free(doc);
    return code;
}

static void test_sw_lang__english(void)
{
    CHECK_STR(detect("<p>The council said that it would not open the bridge before the end of "
                     "the year.</p>"),
              "en");
}

static void test_sw_lang__german(void)
{
    CHECK_STR(detect("<p>Der Stadtrat hat am Montag beschlossen, dass die neue Brücke erst im "
                     "nächsten Jahr eröffnet wird.</p>"),
              "de");
}

static void test_sw_lang__italian(void)
{
    CHECK_STR(detect("<p>Il consiglio comunale ha deciso che il nuovo ponte non sarà aperto "
                     "prima della fine dell'anno.</p>"),
              "it");
}

/* English navigation words do not outvote an Italian article. */
static void test_sw_lang__majority_of_the_page(void)
{
    CHECK_STR(detect("<ul><li>Home</li><li>About the site</li><li>Contact us</li></ul>"
                     "<p>Il governo ha presentato la legge di bilancio, che sarà discussa in "
                     "parlamento nelle prossime settimane con tutte le forze politiche.</p>"),
              "it");
}

/* Page words and list entries are compared after NFKC and case folding:
 * upper-case "DASS" and "Daß"/"MUSS" (ß folds to ss) are German stop words. */
static void test_sw_lang__normalised_words(void)
{
    CHECK_STR(detect("<p>DASS Mieten steigen, muß jeder wissen: Daß.</p>"), "de");
    CHECK_STR(detect("<p>Daß Mieten, muß Preise</p>"), "de");
}

static void test_sw_lang__no_stop_words_is_english(void)
{
    CHECK_STR(detect("<p>Xyzzy plugh 12345 qwerty</p>"), "en");
}

/* "in" and "per" are stop words of English and Italian alike: a tie is English. */
static void test_sw_lang__tie_is_english(void)
{
    CHECK_STR(detect("<p>in per</p>"), "en");
}

/* Every data/stopwords/XX.txt is a language with parameter t_XX. */
static void test_sw_lang__one_parameter_per_list(void)
{
    const struct cet_extractor *ex = sw();
    if (!ex)
        return;
    char **names;
    int lists = test_files(CETUNE_SOURCE_DIR "/data/stopwords", ".txt", &names);
    for (int k = 0; k < lists; k++) {
        char name[300];
        snprintf(name, sizeof name, "t_%.*s", (int)(strlen(names[k]) - 4), names[k]);
        int i = cet_param_index(ex, name);
        if (i < 0)
            fprintf(stderr, "no parameter %s for %s\n", name, names[k]);
        CHECK(i >= 0);
    }
    test_files_free(names, lists);
    CHECK_EQ_INT(ex->nparams, lists);
}

/* The paper's defaults come from the lists' "# threshold:" lines. */
static void test_sw_lang__paper_defaults(void)
{
    const struct cet_extractor *ex = sw();
    if (!ex)
        return;
    static const struct {
        const char *name;
        double def;
    } want[] = {{"t_en", 0.3}, {"t_de", 0.25}, {"t_it", 0.4}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int i = cet_param_index(ex, want[k].name);
        CHECK(i >= 0);
        if (i >= 0) {
            CHECK_NEAR(ex->params[i].def, want[k].def, 1e-12);
            CHECK(ex->params[i].type == CET_P_FLOAT);
            CHECK(ex->params[i].min == 0.0 && ex->params[i].max == 1.0);
        }
    }
}

int main(void)
{
    RUN(test_sw_lang__english);
    RUN(test_sw_lang__german);
    RUN(test_sw_lang__italian);
    RUN(test_sw_lang__majority_of_the_page);
    RUN(test_sw_lang__normalised_words);
    RUN(test_sw_lang__no_stop_words_is_english);
    RUN(test_sw_lang__tie_is_english);
    RUN(test_sw_lang__one_parameter_per_list);
    RUN(test_sw_lang__paper_defaults);
    TEST_END();
}
