/* Mantratzis, Orgun and Cassidy (2005; docs/papers.md): link lists found by DOM-structure
 * block analysis.  Inline elements are flattened into the structurally
 * important elements ("sections") around them; each section counts its
 * anchors with text among its tags with text, and its link text length
 * against all its text length; the counts are propagated bottom-up to the
 * enclosing sections, weakened with distance; a section scores a point for
 * an anchor-count ratio above t_count and one for a link-length ratio above
 * t_length, and with min_points points it is removed with its content.
 *
 * Choices where the paper leaves room:
 * - Sections are the elements flagged CET_TAGF_STRUCTURAL in tags.h that can
 *   have content (table, tr, td, ul, li, div, p, headings, body, ...; not br
 *   or hr).  Everything else (a, span, b, font, unknown elements, form
 *   controls) is flattened into the nearest enclosing section.
 * - "Tags with at least one character of content": each <a href> with text
 *   counts as one anchor tag, and each text node outside anchors as one
 *   non-anchor tag, so a paragraph with a single link among its text does
 *   not look like a list (counting only element tags would make it 1 of 1).
 *   Text directly in a section counts like text in an inline tag.  Anchors
 *   without text are ignored, as the paper says.
 * - Lengths are code points of the collapsed text.
 * - "Each number is decreased by a percentage analogous to the distance": a
 *   section's totals are its own counts plus (1 - decay) times the totals of
 *   each child section, so a section d levels down contributes (1 - decay)^d.
 *   decay = 0 sums whole subtrees, decay = 1 judges each section on its own
 *   content only (no propagation at all).  The paper gives no value; 0.25
 *   was the best of a coarse scan (0 to 0.9 by 0.1, and 0.25) on the dev
 *   corpora.  High values are poor: a wrapper without text of its own is
 *   then judged by its nearest child sections, often menus.
 * - The paper looks for "roots of a sub-structure within the document":
 *   <html> and <body> are the document, never removed (they still count).
 * - Sections are removed top-down: a removed section's descendants are not
 *   judged again.  A section with no text scores no points.
 * - propagate_lists (default on, as in the paper, where all propagation
 *   precedes the final sweep): off, a section that is itself judged a link
 *   list does not count towards the sections around it, so a page-wide
 *   wrapper is judged on what remains once its menus are gone. */
#include <stdlib.h>

#include "cetune/extractor.h"

struct section {
    uint32_t node;
    uint32_t candidate;    /* may be removed: a sub-structure, not the document */
    uint32_t parent;       /* index of the enclosing section, or CET_NONE */
    uint32_t anchors, tags; /* own (flattened) anchors with text, tags with text */
    uint32_t link_len, len; /* own anchor text length, all text length */
};

struct mantratzis_prep {
    struct section *secs; /* document order */
    uint32_t nsecs;
};

static int is_section(const struct cet_node *nd)
{
    unsigned f = cet_tag_flags(nd->tag);
    return nd->kind == CET_ELEMENT && (f & CET_TAGF_STRUCTURAL) && !(f & CET_TAGF_VOID);
}

static void mantratzis_release(void *prep)
{
    struct mantratzis_prep *mp = prep;
    if (mp)
        free(mp->secs);
    free(mp);
}

static void *mantratzis_prepare(const struct cet_doc *doc, struct cet_error *err)
{
    uint32_t n = doc->nnodes;
    struct mantratzis_prep *mp = calloc(1, sizeof *mp);
    uint32_t *sec_of = malloc((n ? n : 1) * sizeof *sec_of); /* node -> enclosing section */
    uint32_t nsecs = 0;
    for (uint32_t i = 0; i < n; i++)
        nsecs += is_section(&doc->nodes[i]);
    if (mp)
        mp->secs = calloc(nsecs ? nsecs : 1, sizeof *mp->secs);
    if (!mp || !sec_of || !mp->secs) {
        free(sec_of);
        mantratzis_release(mp);
        cet_fail(err, "out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        const struct cet_node *nd = &doc->nodes[i];
        uint32_t up = nd->parent == CET_NONE ? CET_NONE : sec_of[nd->parent];
        if (is_section(nd)) {
            struct section *s = &mp->secs[mp->nsecs];
            s->node = i;
            s->parent = up;
            s->candidate = nd->tag != CET_TAG_HTML && nd->tag != CET_TAG_BODY;
            sec_of[i] = mp->nsecs++;
            continue;
        }
        sec_of[i] = up;
        if (up == CET_NONE)
            continue;
        struct section *s = &mp->secs[up];
        if (nd->kind == CET_TEXT) {
            s->len += nd->nchars;
            if (nd->flags & CET_NF_ANCHOR)
                s->link_len += nd->nchars;
            else
                s->tags++;
        } else if (nd->flags & CET_NF_HREF) {
            int text = 0;
            for (uint32_t j = i + 1; j < nd->end && !text; j++)
                text = doc->nodes[j].kind == CET_TEXT;
            s->anchors += text;
            s->tags += text;
        }
    }
    free(sec_of);
    return mp;
}

static int mantratzis_run(const struct cet_doc *doc, const void *prep, const double *p,
                          struct cet_sel *sel)
{
    const struct mantratzis_prep *mp = prep;
    double t_count = p[0], t_length = p[1], keep_share = 1.0 - p[2];
    int min_points = (int)p[3], propagate_lists = p[4] != 0;
    uint32_t m = mp->nsecs;
    /* anchors, tags, link length, length per section, with the sections below */
    double *tot = cet_sel_buf(sel, 0, (size_t)(m ? m : 1) * 4 * sizeof *tot);
    uint8_t *list = cet_sel_buf(sel, 1, m ? m : 1);
    if (!tot || !list)
        return -1;
    for (uint32_t k = 0; k < m; k++) {
        const struct section *s = &mp->secs[k];
        double *t = tot + (size_t)k * 4;
        t[0] = s->anchors;
        t[1] = s->tags;
        t[2] = s->link_len;
        t[3] = s->len;
    }
    /* Children follow their parent in document order, so walking backwards
     * completes every section's totals before it is judged and added to its
     * parent. */
    for (uint32_t k = m; k-- > 0;) {
        const struct section *s = &mp->secs[k];
        const double *t = tot + (size_t)k * 4;
        int points = (t[1] > 0 && t[0] > t_count * t[1]) + (t[3] > 0 && t[2] > t_length * t[3]);
        list[k] = s->candidate && points >= min_points;
        if (s->parent == CET_NONE || (list[k] && !propagate_lists))
            continue;
        double *u = tot + (size_t)s->parent * 4;
        for (int x = 0; x < 4; x++)
            u[x] += keep_share * t[x];
    }
    cet_sel_keep_all(doc, sel);
    uint32_t removed_end = 0;
    for (uint32_t k = 0; k < m; k++) {
        const struct section *s = &mp->secs[k];
        if (list[k] && s->node >= removed_end) {
            cet_sel_set_subtree(doc, sel, s->node, 0);
            removed_end = doc->nodes[s->node].end;
        }
    }
    return 0;
}

static const struct cet_param mantratzis_params[] = {
    {"t_count", CET_P_FLOAT, 0.5, 0.0, 1.0, NULL,
     "a point when anchors with text are more than this share of the tags with text"},
    {"t_length", CET_P_FLOAT, 0.4, 0.0, 1.0, NULL,
     "a point when link text is more than this share of all text"},
    {"decay", CET_P_FLOAT, 0.25, 0.0, 1.0, NULL,
     "share by which counts weaken per level as they propagate to enclosing sections"},
    {"min_points", CET_P_INT, 2, 1, 2, NULL,
     "points (of 2) that make a section a link list to remove"},
    {"propagate_lists", CET_P_BOOL, 1, 0, 1, NULL,
     "sections judged link lists still count towards the sections around them"},
};

const struct cet_extractor cet_extractor_mantratzis = {
    .name = "mantratzis",
    .summary = "Link lists by DOM-structure block analysis (Mantratzis et al. 2005)",
    .params = mantratzis_params,
    .nparams = sizeof mantratzis_params / sizeof mantratzis_params[0],
    .prepare = mantratzis_prepare,
    .release = mantratzis_release,
    .run = mantratzis_run,
};
