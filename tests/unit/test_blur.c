/* Content code blurring: the Gaussian blur itself against a naive reference,
 * its symmetry and convergence, and the extractors' per-node decisions
 * against a naive character/token-level computation of the documented
 * rules. */
#include <gsl/gsl_rng.h>

#include "../../src/extract/ccb.h"
#include "cetune/extractor.h"
#include "test.h"

/* Straight from the definition: Gaussian-weighted mean of the neighbours
 * inside the vector, in double precision. */
static void naive_step(double *out, const double *v, size_t n, int radius, double sigma)
{
    for (size_t i = 0; i < n; i++) {
        double num = 0, den = 0;
        for (long j = -radius; j <= radius; j++) {
            long k = (long)i + j;
            if (k < 0 || k >= (long)n)
                continue;
            double w = exp(-(double)(j * j) / (2 * sigma * sigma));
            num += w * v[k];
            den += w;
        }
        out[i] = num / den;
    }
}

/* Blurs like cet_ccb_blur, naively; returns the steps taken. */
static int naive_blur(double *v, size_t n, int radius, double sigma, double eps, int max_steps)
{
    double *t = malloc((n ? n : 1) * sizeof *t);
    int steps = 0;
    for (;;) {
        naive_step(t, v, n, radius, sigma);
        double change = 0;
        for (size_t i = 0; i < n; i++) {
            change = fmax(change, fabs(t[i] - v[i]));
            v[i] = t[i];
        }
        steps++;
        if (change < eps || steps >= max_steps)
            break;
    }
    free(t);
    return steps;
}

static void test_blur__weights_sum_to_one(void)
{
    float w[CET_CCB_MAX_RADIUS + 1];
    cet_ccb_weights(w, 10, 4.0);
    double sum = w[0];
    for (int j = 1; j <= 10; j++)
        sum += 2.0 * w[j];
    CHECK_NEAR(sum, 1.0, 1e-6);
    CHECK_NEAR(w[1] / w[0], exp(-1.0 / 32.0), 1e-6);
    CHECK_NEAR(w[10] / w[0], exp(-100.0 / 32.0), 1e-6);
    for (int j = 1; j <= 10; j++)
        CHECK(w[j] < w[j - 1]);
}

/* A hand-checked case: [0 0 1 0 0], radius 1, sigma 1 (a = e^-1/2). */
static void test_blur__known_small_vector(void)
{
    float v[5] = {0, 0, 1, 0, 0}, out[5], w[2];
    cet_ccb_weights(w, 1, 1.0);
    float change = cet_ccb_blur_step(out, v, 5, w, 1);
    double a = exp(-0.5);
    CHECK_NEAR(out[0], 0.0, 1e-7);              /* ends: only two weights, renormalised */
    CHECK_NEAR(out[1], a / (1 + 2 * a), 1e-6);
    CHECK_NEAR(out[2], 1 / (1 + 2 * a), 1e-6);
    CHECK_NEAR(out[3], a / (1 + 2 * a), 1e-6);
    CHECK_NEAR(out[4], 0.0, 1e-7);
    CHECK_NEAR(change, 1 - 1 / (1 + 2 * a), 1e-6);

    float e[3] = {1, 0, 0}, eo[3];
    cet_ccb_blur_step(eo, e, 3, w, 1);
    CHECK_NEAR(eo[0], 1 / (1 + a), 1e-6); /* the left end sees itself and one neighbour */
    CHECK_NEAR(eo[1], a / (1 + 2 * a), 1e-6);
    CHECK_NEAR(eo[2], 0.0, 1e-7);
}

static void test_blur__step_matches_naive(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20240611);
    static const size_t sizes[] = {1, 2, 3, 7, 40, 333};
    static const int radii[] = {0, 1, 3, 8, 25};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t ri = 0; ri < sizeof radii / sizeof *radii; ri++) {
            size_t n = sizes[si];
            int radius = radii[ri];
            double sigma = 0.5 * (radius ? radius : 1);
            float *v = malloc(n * sizeof *v), *out = malloc(n * sizeof *out);
            double *dv = malloc(n * sizeof *dv), *dout = malloc(n * sizeof *dout);
            for (size_t i = 0; i < n; i++)
                dv[i] = v[i] = gsl_rng_uniform(rng) < 0.4 ? 1.0f : 0.0f;
            float w[CET_CCB_MAX_RADIUS + 1];
            cet_ccb_weights(w, radius, sigma);
            cet_ccb_blur_step(out, v, n, w, radius);
            naive_step(dout, dv, n, radius, sigma);
            double worst = 0;
            for (size_t i = 0; i < n; i++)
                worst = fmax(worst, fabs(out[i] - dout[i]));
            CHECK_NEAR(worst, 0.0, 1e-5);
            free(v);
            free(out);
            free(dv);
            free(dout);
        }
    gsl_rng_free(rng);
}

static void test_blur__constant_and_bounds(void)
{
    float v[50], t[50];
    for (int i = 0; i < 50; i++)
        v[i] = 0.3f;
    cet_ccb_blur(v, t, 50, 12, 6.0, 1e-6, 20);
    for (int i = 0; i < 50; i++)
        CHECK_NEAR(v[i], 0.3, 1e-6);
    /* Means of 0/1 values stay in [0, 1]. */
    for (int i = 0; i < 50; i++)
        v[i] = (float)((i / 7) % 2);
    cet_ccb_blur(v, t, 50, 5, 2.5, 0, 30);
    for (int i = 0; i < 50; i++)
        CHECK(v[i] >= 0 && v[i] <= 1);
}

/* Mirroring the input mirrors the output: the weights and the edge rule are symmetric. */
static void test_blur__symmetry(void)
{
    enum { N = 101 };
    float a[N], b[N], t[N];
    for (int i = 0; i < N; i++) {
        a[i] = (i % 13) < 5 || (i > 60 && i < 80) ? 1.0f : 0.0f;
        b[N - 1 - i] = a[i];
    }
    int sa = cet_ccb_blur(a, t, N, 6, 3.0, 0.01, 50);
    int sb = cet_ccb_blur(b, t, N, 6, 3.0, 0.01, 50);
    CHECK_EQ_INT(sa, sb);
    double worst = 0;
    for (int i = 0; i < N; i++)
        worst = fmax(worst, fabs(a[i] - b[N - 1 - i]));
    CHECK_NEAR(worst, 0.0, 1e-5);
    /* A symmetric input stays symmetric. */
    float s[N];
    for (int i = 0; i < N; i++)
        s[i] = (i > 30 && i < 70) ? 1.0f : 0.0f;
    cet_ccb_blur(s, t, N, 6, 3.0, 0.01, 50);
    worst = 0;
    for (int i = 0; i < N; i++)
        worst = fmax(worst, fabs(s[i] - s[N - 1 - i]));
    CHECK_NEAR(worst, 0.0, 1e-6);
}

/* The steps stop once a step changes nothing by eps; smaller eps takes more
 * steps, and the blurred vector is what the naive loop gives. */
static void test_blur__convergence(void)
{
    enum { N = 240 };
    float v[N], t[N], once[N];
    double d[N];
    for (int i = 0; i < N; i++)
        d[i] = v[i] = (i >= 100 && i < 160) || i % 17 == 0 ? 1.0f : 0.0f;
    int steps = cet_ccb_blur(v, t, N, 10, 5.0, 0.01, 1000);
    int nsteps = naive_blur(d, N, 10, 5.0, 0.01, 1000);
    CHECK_EQ_INT(steps, nsteps);
    CHECK(steps > 1 && steps < 1000);
    double worst = 0;
    for (int i = 0; i < N; i++)
        worst = fmax(worst, fabs(v[i] - d[i]));
    CHECK_NEAR(worst, 0.0, 1e-4);
    /* One more step changes every value by less than eps: the values are stable. */
    float w[11];
    cet_ccb_weights(w, 10, 5.0);
    CHECK(cet_ccb_blur_step(once, v, N, w, 10) < 0.01f);

    for (int i = 0; i < N; i++)
        v[i] = (i >= 100 && i < 160) || i % 17 == 0 ? 1.0f : 0.0f;
    int more = cet_ccb_blur(v, t, N, 10, 5.0, 0.001, 1000);
    CHECK(more > steps);
    /* max_steps caps the count. */
    for (int i = 0; i < N; i++)
        v[i] = (float)(i % 2);
    CHECK_EQ_INT(cet_ccb_blur(v, t, N, 10, 5.0, 0, 7), 7);
    /* Blurring long enough flattens any vector towards a constant. */
    for (int i = 0; i < N; i++)
        v[i] = i < N / 2 ? 1.0f : 0.0f;
    cet_ccb_blur(v, t, N, 20, 10.0, 1e-9, 5000);
    CHECK_NEAR(v[0] - v[N - 1], 0.0, 1e-3);
}

/* ---- the extractors against a naive per-entry computation ---- */

static const char page[] =
    "<html><head><title>T</title><script>var x = 1; function f() { return x; }</script>"
    "</head><body>"
    "<ul class=\"menu\"><li><a href=\"/a\">Home</a></li><li><a href=\"/b\">News</a></li>"
    "<li><a href=\"/c\">Sport</a></li><li><a href=\"/d\">Weather</a></li></ul>"
    "<div id=\"main\"><h1>A headline for the story</h1>"
    "<p>The first paragraph is long enough to be content, with a <a href=\"/x\">link</a> "
    "in the middle of the running text and <b>some bold words</b> as well, and it goes on "
    "for quite a while so that its characters outweigh the tags around it.</p>"
    "<p>A second paragraph follows.<br>It has a line break and an image <img src=\"i.png\"> "
    "inside, and then ends after a few more words of plain prose.</p></div>"
    "<div class=\"footer\"><span>Copyright</span> <a href=\"/imprint\">Imprint</a> | "
    "<a href=\"/privacy\">Privacy</a></div></body></html>";

/* The content code vector per the rules documented in ccb.c, one double per entry;
 * pos[k], end[k] are the entries of the k-th text node. */
static size_t naive_vector(const struct cet_doc *d, int variant, double *v, uint32_t *pos,
                           uint32_t *end)
{
    size_t n = 0, nt = 0, depth = 0;
    uint32_t stack[256];
    for (uint32_t i = 0; i <= d->nnodes; i++) {
        while (depth && (i == d->nnodes || d->nodes[stack[depth - 1]].end <= i)) {
            const struct cet_node *e = &d->nodes[stack[--depth]];
            int is_void = (cet_tag_flags(e->tag) & CET_TAGF_VOID) != 0;
            size_t len = variant == 2 ? !is_void : is_void ? 0 : e->len + 3;
            if (variant == 1 && e->tag == CET_TAG_A)
                len = 0;
            for (size_t k = 0; k < len; k++)
                v[n++] = 0;
        }
        if (i == d->nnodes)
            break;
        const struct cet_node *nd = &d->nodes[i];
        if (nd->kind == CET_TEXT) {
            size_t len = variant == 2 ? nd->w1 - nd->w0 : nd->nchars;
            pos[nt] = (uint32_t)n;
            for (size_t k = 0; k < len; k++)
                v[n++] = 1;
            end[nt++] = (uint32_t)n;
        } else {
            int is_void = (cet_tag_flags(nd->tag) & CET_TAGF_VOID) != 0;
            size_t len = variant == 2 ? 1 : nd->nchars - (is_void ? 0 : nd->len + 3);
            if (variant == 1 && nd->tag == CET_TAG_A)
                len = 0;
            for (size_t k = 0; k < len; k++)
                v[n++] = 0;
            stack[depth++] = i;
        }
    }
    return n;
}

static void check_variant(const char *name, int variant, int r, double margin)
{
    struct cet_error err;
    struct cet_doc *d = NULL;
    CHECK(cet_doc_parse(&d, page, sizeof page - 1, NULL, 0, &err) == 0);
    if (!d)
        return;
    const struct cet_extractor *ex = cet_extractor_find(name);
    CHECK(ex != NULL);
    if (!ex) {
        cet_doc_free(d);
        return;
    }
    static double v[8192];
    uint32_t pos[256], end[256];
    size_t n = naive_vector(d, variant, v, pos, end);
    CHECK(n < 8192);
    naive_blur(v, n, r, 0.5 * r, 0.01, 50);

    void *prep = ex->prepare(d, &err);
    CHECK(prep != NULL);
    struct cet_sel sel = {0};
    double p[8];
    cet_params_default(ex, p);
    p[cet_param_index(ex, "r")] = r;
    int ti = cet_param_index(ex, "t");
    int agree = 0, total = 0, kept = 0, dropped = 0;
    for (double t = 0.1; t < 1.0; t += 0.1) {
        p[ti] = t;
        CHECK(cet_sel_reset(&sel, d) == 0);
        CHECK(ex->run(d, prep, p, &sel) == 0);
        uint32_t k = 0;
        for (uint32_t i = 0; i < d->nnodes; i++) {
            if (d->nodes[i].kind != CET_TEXT)
                continue;
            double sum = 0;
            for (uint32_t e = pos[k]; e < end[k]; e++)
                sum += v[e];
            k++;
            if (pos[k - 1] == end[k - 1])
                continue; /* a token-less node: valued at its position, checked by the cases */
            double mean = sum / (end[k - 1] - pos[k - 1]);
            if (fabs(mean - t) < margin)
                continue; /* rounding (or cells) may go either way this close to t */
            total++;
            agree += (mean >= t) == (sel.keep[i] != 0);
            kept += mean >= t;
            dropped += mean < t;
        }
    }
    if (agree != total)
        fprintf(stderr, "%s r=%d: %d of %d decisions agree\n", name, r, agree, total);
    CHECK_EQ_INT(agree, total);
    CHECK(kept > 0 && dropped > 0);
    cet_sel_free(&sel);
    ex->release(prep);
    cet_doc_free(d);
}

/* r < 16 blurs every entry exactly, so the decisions agree everywhere; above,
 * cells of r/8 entries approximate it closely. */
static void test_blur__extractors_match_naive(void)
{
    check_variant("ccb", 0, 10, 2e-3);
    check_variant("accb", 1, 10, 2e-3);
    check_variant("tccb", 2, 5, 2e-3);
    check_variant("tccb", 2, 15, 2e-3);
    check_variant("accb", 1, 3, 2e-3);
    check_variant("ccb", 0, 40, 0.005);
    check_variant("accb", 1, 40, 0.005);
    check_variant("tccb", 2, 25, 0.005);
}

/* The cached path (defaults) and the uncached path give the same selection. */
static void test_blur__cache_matches_uncached(void)
{
    struct cet_error err;
    struct cet_doc *d = NULL;
    CHECK(cet_doc_parse(&d, page, sizeof page - 1, NULL, 0, &err) == 0);
    const struct cet_extractor *ex = cet_extractor_find("accb");
    if (!d || !ex) {
        CHECK(0);
        cet_doc_free(d);
        return;
    }
    void *prep = ex->prepare(d, &err);
    struct cet_sel a = {0}, b = {0};
    double p[8];
    cet_params_default(ex, p);
    for (int round = 0; round < 2; round++) { /* computes, then reads the cache */
        CHECK(cet_sel_reset(&a, d) == 0);
        CHECK(ex->run(d, prep, p, &a) == 0);
    }
    double q[8];
    memcpy(q, p, sizeof q);
    q[cet_param_index(ex, "max_steps")] = 51; /* not cached, same steps in practice */
    CHECK(cet_sel_reset(&b, d) == 0);
    CHECK(ex->run(d, prep, q, &b) == 0);
    CHECK(memcmp(a.keep, b.keep, d->nnodes) == 0);
    cet_sel_free(&a);
    cet_sel_free(&b);
    ex->release(prep);
    cet_doc_free(d);
}

int main(void)
{
    RUN(test_blur__weights_sum_to_one);
    RUN(test_blur__known_small_vector);
    RUN(test_blur__step_matches_naive);
    RUN(test_blur__constant_and_bounds);
    RUN(test_blur__symmetry);
    RUN(test_blur__convergence);
    RUN(test_blur__extractors_match_naive);
    RUN(test_blur__cache_matches_uncached);
    TEST_END();
}
