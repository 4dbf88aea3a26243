/* Words: NFKC, case folding, letters and numbers only. */
#include "cetune/text.h"
#include "test.h"

struct collect {
    char out[1024];
    size_t len;
};

static int join(const char *w, size_t n, void *ctx)
{
    struct collect *c = ctx;
    if (c->len)
        c->out[c->len++] = '|';
    memcpy(c->out + c->len, w, n);
    c->len += n;
    c->out[c->len] = 0;
    return 0;
}

static const char *words(const char *s)
{
    static struct collect c;
    c.len = 0;
    c.out[0] = 0;
    cet_words(s, strlen(s), join, &c);
    return c.out;
}

static void test_text__ascii(void)
{
    CHECK_STR(words("Hello, World!  It's 2008."), "hello|world|it|s|2008");
    CHECK_STR(words(""), "");
    CHECK_STR(words(" -- ... "), "");
    CHECK_STR(words("foo_bar abc123"), "foo|bar|abc123");
}

static void test_text__unicode(void)
{
    CHECK_STR(words("Straße ÜBER Ärger"), "strasse|über|ärger");
    CHECK_STR(words("\xef\xac\x81le"), "file");                     /* U+FB01 ligature */
    CHECK_STR(words("\xef\xbc\xa1\xef\xbc\xa2\xef\xbc\x91"), "ab1"); /* fullwidth */
    CHECK_STR(words("caf\x65\xcc\x81 perch\xc3\xa9"), "caf\xc3\xa9|perch\xc3\xa9"); /* composed */
    CHECK_STR(words("l\xe2\x80\x99" "amico \xe2\x80\x9cquoted\xe2\x80\x9d"), "l|amico|quoted");
    CHECK_STR(words("a\xc2\xa0" "b"), "a|b"); /* no-break space separates */
    CHECK_STR(words("\xce\x9a\xce\xb1\xce\xbb\xce\xb7\xce\xbc\xce\xad\xcf\x81\xce\xb1"),
              "\xce\xba\xce\xb1\xce\xbb\xce\xb7\xce\xbc\xce\xad\xcf\x81\xce\xb1");
    CHECK_STR(words("\xe2\x85\xa0 \xc2\xbd"), "i|1|2"); /* NFKC: roman one, 1 fraction-slash 2 */
}

static void test_text__invalid_utf8_separates(void)
{
    CHECK_STR(words("ab\xff" "cd \xc3\xa9t\xc3\xa9"), "ab|cd|\xc3\xa9t\xc3\xa9");
    CHECK(!cet_utf8_valid("\xc3", 1));
    CHECK(cet_utf8_valid("\xc3\xa9", 2));
    CHECK(!cet_utf8_valid("\xed\xa0\x80", 3)); /* surrogate */
}

static void test_text__intern(void)
{
    struct cet_intern t;
    cet_intern_init(&t);
    char w[16];
    for (int i = 0; i < 5000; i++) {
        snprintf(w, sizeof w, "w%d", i);
        CHECK_EQ_INT(cet_intern(&t, w, strlen(w)), i);
    }
    CHECK_EQ_INT(cet_intern(&t, "w42", 3), 42);
    CHECK_EQ_INT(cet_intern_find(&t, "w4999", 5), 4999);
    CHECK_EQ_INT(cet_intern_find(&t, "nope", 4), UINT32_MAX);
    cet_intern_free(&t);
}

int main(void)
{
    RUN(test_text__ascii);
    RUN(test_text__unicode);
    RUN(test_text__invalid_utf8_separates);
    RUN(test_text__intern);
    TEST_END();
}
