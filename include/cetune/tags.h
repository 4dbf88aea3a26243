/* The HTML elements cetune knows by name, with the properties extractors use.
 * Unknown elements get CET_TAG_UNKNOWN and keep their name in the document. */
#ifndef CETUNE_TAGS_H
#define CETUNE_TAGS_H

#include <stdint.h>

#include "cetune/common.h"

CET_BEGIN_DECL

enum {
    CET_TAGF_BLOCK = 1 << 0,      /* block-level: starts a block for LQF and SW */
    CET_TAGF_STRUCTURAL = 1 << 1, /* splits text into strings for text density */
    CET_TAGF_VOID = 1 << 2,       /* never has content (br, img, ...) */
    CET_TAGF_INVISIBLE = 1 << 3,  /* its content is never text (script, style, ...) */
    CET_TAGF_BREAK = 1 << 4,      /* separates words when serialising text (br, hr, td) */
    /* The text layout (docs/formats.md, "Text"): a paragraph (CSS margins by
     * default) is set off by a blank line, a table cell by a tab; any other
     * block-level element ends a line. */
    CET_TAGF_PARA = 1 << 5,
    CET_TAGF_CELL = 1 << 6,
};

#define CET_TAG_LIST(X) \
    X(UNKNOWN, "", 0) \
    X(A, "a", 0) \
    X(ABBR, "abbr", 0) \
    X(ADDRESS, "address", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(AREA, "area", CET_TAGF_VOID) \
    X(ARTICLE, "article", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(ASIDE, "aside", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(AUDIO, "audio", 0) \
    X(B, "b", 0) \
    X(BASE, "base", CET_TAGF_VOID) \
    X(BIG, "big", 0) \
    X(BLOCKQUOTE, "blockquote", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(BODY, "body", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(BR, "br", CET_TAGF_VOID | CET_TAGF_STRUCTURAL | CET_TAGF_BREAK) \
    X(BUTTON, "button", 0) \
    X(CANVAS, "canvas", 0) \
    X(CAPTION, "caption", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(CENTER, "center", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(CITE, "cite", 0) \
    X(CODE, "code", 0) \
    X(COL, "col", CET_TAGF_VOID) \
    X(DD, "dd", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(DEL, "del", 0) \
    X(DETAILS, "details", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(DFN, "dfn", 0) \
    X(DIALOG, "dialog", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(DIR, "dir", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(DIV, "div", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(DL, "dl", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(DT, "dt", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(EM, "em", 0) \
    X(EMBED, "embed", CET_TAGF_VOID) \
    X(FIELDSET, "fieldset", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(FIGCAPTION, "figcaption", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(FIGURE, "figure", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(FONT, "font", 0) \
    X(FOOTER, "footer", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(FORM, "form", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(FRAME, "frame", CET_TAGF_VOID) \
    X(FRAMESET, "frameset", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(H1, "h1", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(H2, "h2", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(H3, "h3", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(H4, "h4", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(H5, "h5", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(H6, "h6", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(HEAD, "head", 0) \
    X(HEADER, "header", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(HGROUP, "hgroup", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(HR, "hr", CET_TAGF_VOID | CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_BREAK | CET_TAGF_PARA) \
    X(HTML, "html", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(I, "i", 0) \
    X(IFRAME, "iframe", CET_TAGF_INVISIBLE) \
    X(IMG, "img", CET_TAGF_VOID) \
    X(INPUT, "input", CET_TAGF_VOID) \
    X(INS, "ins", 0) \
    X(KBD, "kbd", 0) \
    X(LABEL, "label", 0) \
    X(LEGEND, "legend", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(LI, "li", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(LINK, "link", CET_TAGF_VOID) \
    X(MAIN, "main", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(MAP, "map", 0) \
    X(MARK, "mark", 0) \
    X(MENU, "menu", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(META, "meta", CET_TAGF_VOID) \
    X(NAV, "nav", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(NOBR, "nobr", 0) \
    X(NOFRAMES, "noframes", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(NOSCRIPT, "noscript", CET_TAGF_INVISIBLE) \
    X(OBJECT, "object", 0) \
    X(OL, "ol", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(OPTGROUP, "optgroup", CET_TAGF_BLOCK) \
    X(OPTION, "option", CET_TAGF_BLOCK | CET_TAGF_BREAK) \
    X(P, "p", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(PARAM, "param", CET_TAGF_VOID) \
    X(PICTURE, "picture", 0) \
    X(PRE, "pre", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(Q, "q", 0) \
    X(S, "s", 0) \
    X(SAMP, "samp", 0) \
    X(SCRIPT, "script", CET_TAGF_INVISIBLE) \
    X(SECTION, "section", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(SELECT, "select", CET_TAGF_BLOCK) \
    X(SMALL, "small", 0) \
    X(SOURCE, "source", CET_TAGF_VOID) \
    X(SPAN, "span", 0) \
    X(STRIKE, "strike", 0) \
    X(STRONG, "strong", 0) \
    X(STYLE, "style", CET_TAGF_INVISIBLE) \
    X(SUB, "sub", 0) \
    X(SUMMARY, "summary", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(SUP, "sup", 0) \
    X(SVG, "svg", CET_TAGF_INVISIBLE) \
    X(TABLE, "table", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(TBODY, "tbody", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(TD, "td", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_BREAK | CET_TAGF_CELL) \
    X(TEMPLATE, "template", CET_TAGF_INVISIBLE) \
    X(TEXTAREA, "textarea", CET_TAGF_BLOCK) \
    X(TFOOT, "tfoot", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(TH, "th", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_BREAK | CET_TAGF_CELL) \
    X(THEAD, "thead", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(TIME, "time", 0) \
    X(TITLE, "title", CET_TAGF_INVISIBLE) \
    X(TR, "tr", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL) \
    X(TT, "tt", 0) \
    X(U, "u", 0) \
    X(UL, "ul", CET_TAGF_BLOCK | CET_TAGF_STRUCTURAL | CET_TAGF_PARA) \
    X(VAR, "var", 0) \
    X(VIDEO, "video", 0) \
    X(WBR, "wbr", CET_TAGF_VOID)

enum cet_tag {
#define CET_TAG_ENUM(id, name, flags) CET_TAG_##id,
    CET_TAG_LIST(CET_TAG_ENUM)
#undef CET_TAG_ENUM
    CET_TAG_COUNT
};

/* Element id of a lowercase tag name; CET_TAG_UNKNOWN if not in the table. */
enum cet_tag cet_tag_lookup(const char *name);
/* CET_TAGF_* bits of a tag. */
unsigned cet_tag_flags(enum cet_tag tag);
/* Whether a tag is h1 to h6 (CET_TAG_LIST keeps them in order). */
static inline int cet_tag_heading(enum cet_tag tag)
{
    return tag >= CET_TAG_H1 && tag <= CET_TAG_H6;
}

CET_END_DECL

#endif
