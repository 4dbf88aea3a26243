/* The document model: every page is parsed once, with libxml2's recovering
 * HTML parser, into this compact read-only form that all extractors share.
 *
 * Nodes are stored in document (pre-)order, so the subtree of node i is the
 * index range [i, nodes[i].end).  Text nodes hold the visible text with white
 * space collapsed (kept in <pre>) and what separates each from the text before
 * it (cet_node_sep); script, style, noscript, title and comments are not text
 * (their size still counts as markup for content code blurring; the text of
 * noscript and template, and JSON-LD article bodies, are kept apart as
 * alternates, struct cet_alt).  The head is
 * not hidden as a whole: where libxml2 leaves body content in it (an unknown
 * element or an unclosed <title> in the head), a browser shows that content.  Words are
 * interned per document: gold and page words share one vocabulary, so the
 * metric compares integers. */
#ifndef CETUNE_DOC_H
#define CETUNE_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/error.h"
#include "cetune/tags.h"

CET_BEGIN_DECL

#define CET_NONE UINT32_MAX

enum cet_node_kind { CET_ELEMENT = 0, CET_TEXT = 1 };

enum {
    CET_NF_ANCHOR = 1 << 0, /* text or element inside <a href=...> */
    CET_NF_BLOCK = 1 << 1,  /* element is block-level (CET_TAGF_BLOCK) */
    CET_NF_HREF = 1 << 2,   /* element is itself an <a href=...> */
    /* text: bits 3-5 hold what the page's layout puts between this text
     * node and the one before it (enum cet_sep, cet_node_sep) */
    CET_NF_SEP_SHIFT = 3,
    CET_NF_SEP_MASK = 7 << 3,
    /* text: the word metric leaves it out of the extract, as its gold
     * leaves it out (a pseudo-gold unsure of it: cet_entry.unscored) */
    CET_NF_UNSCORED = 1 << 6,
};

/* What separates a text node from the text before it when the page is laid
 * out as a browser would (docs/formats.md, "Text"), weakest first: nothing
 * (the two texts touch, e.g. either side of </b>), a space (white space in
 * the page), a tab (between table cells), a line break (a block boundary,
 * <br>), a blank line (around a paragraph, heading, list, table or <pre>,
 * or two <br>).  A word never spans two text nodes: where the page's text
 * continues a word across an inline element, the model moves the rest of
 * that word into the text node where it begins (cet_doc_parse). */
enum cet_sep { CET_SEP_NONE, CET_SEP_SPACE, CET_SEP_CELL, CET_SEP_LINE, CET_SEP_PARA };

/* 40 bytes: a page has about one node per 120 bytes of HTML, and what is
 * cheap to derive is not stored (cet_node_depth, cet_node_nattr). */
struct cet_node {
    uint32_t parent; /* CET_NONE for top-level nodes */
    uint32_t end;    /* one past the last node of this subtree */
    uint32_t block;  /* nearest block-level element at or above this node, or CET_NONE */
    uint32_t str;    /* element: tag name (offset into doc->pool); text: its text, white
                        space collapsed and trimmed outside <pre> (offset into doc->text);
                        NUL-terminated, read with cet_node_str */
    uint32_t len;    /* bytes at str */
    uint32_t w0, w1; /* words doc->words[w0..w1) of this node (of the whole subtree for elements) */
    uint32_t nchars; /* text: code points of the text; element: characters of its markup
                        (start and end tag with attributes, plus invisible content) */
    uint32_t attr0;  /* element: attributes doc->attrs[attr0 .. attr0 + cet_node_nattr) */
    uint16_t tag;    /* enum cet_tag; CET_TAG_UNKNOWN for text */
    uint8_t kind;    /* enum cet_node_kind */
    uint8_t flags;   /* CET_NF_* */
};

struct cet_attr {
    uint32_t name, value; /* offsets into doc->pool, NUL-terminated, name lowercase */
};

/* Text the page carries but does not show, where pages built by scripts
 * keep their article: a schema.org JSON-LD articleBody (an object of an
 * article type: Article, NewsArticle, BlogPosting, Report...), or the text
 * of a <noscript> or <template> element (the outermost one). */
enum cet_alt_kind { CET_ALT_JSONLD, CET_ALT_NOSCRIPT, CET_ALT_TEMPLATE };

struct cet_alt {
    uint32_t node0, node1; /* its text nodes nodes[node0 .. node1), one per paragraph */
    uint32_t body0;        /* its body's first node: before it, the JSON-LD headline */
    uint32_t words;        /* words of its body */
    uint32_t kind;         /* enum cet_alt_kind */
};

struct cet_doc {
    char *package, *name; /* package and document name, as in a sample file PACKAGE/NAME */
    char *path;           /* the HTML file it came from */
    char charset[32];     /* the charset the page was decoded from */
    size_t bytes;         /* size of the HTML before decoding */

    struct cet_node *nodes;
    uint32_t nnodes;
    struct cet_attr *attrs;
    uint32_t nattrs;
    uint32_t *texts; /* indices of the text nodes, in document order */
    uint32_t ntexts;
    char *pool; /* strings of tag and attribute names and attribute values */
    size_t pool_len;
    /* The text of the text nodes; NULL when a loaded corpus was not asked
     * for it (CET_LOAD_TEXT): then cet_node_str of a text node
     * must not be called, its sizes (len, nchars, words) stay. */
    char *text;
    size_t text_len;

    uint32_t *words; /* page words as vocabulary ids, document order */
    uint32_t nwords;
    /* The gold words as rows of the gold's LCS match table: the distinct
     * gold words are numbered 0 .. nrows-1 in order of first occurrence,
     * gold_rows[j] is the number of gold word j, and row_word[r] the
     * vocabulary id of row r (cet_gold_word).  The table itself is built
     * when a document is scored (cet_peq_load), not kept. */
    uint32_t *gold_rows;
    uint32_t ngold;
    uint32_t *row_word;
    uint32_t nrows;
    int has_gold;
    char *gold_text; /* the decoded gold, for the character metrics; a loaded corpus
                        keeps it only when asked (CET_LOAD_GOLD_TEXT), else NULL */
    size_t gold_text_len;

    /* Vocabulary: word id -> NFKC-casefolded string at vocab_pool + vocab_off[id]. */
    uint32_t nvocab;
    uint32_t *vocab_off;
    char *vocab_pool;
    size_t vocab_pool_len;

    /* The page's words mapped to their gold rows, words absent from the
     * gold left out (they cannot match): text node texts[k] owns
     * mrows[mrow_off[k] .. mrow_off[k+1]).  The LCS reads these directly. */
    uint32_t *mrows;
    uint32_t *mrow_off;

    /* The page's alternates (struct cet_alt), in document order.  Their text
     * nodes follow the page's: nodes[nnodes .. nnodes + nalt_nodes), listed
     * at texts[ntexts ..], their words at words[nwords ..] and their gold
     * rows in mrows (mrow_off covers them).  No count above includes them,
     * so an extractor sees them only when it asks for them; an extraction
     * returns one by listing its text nodes as extras (cet_sel_add_extra),
     * which every output and the metric read. */
    struct cet_alt *alts;
    uint32_t nalts;
    uint32_t nalt_nodes;
};

/* What a loaded document keeps beyond what most extractors and the word
 * metric need (flags of cet_corpus_load and cet_entry_load, corpus.h).  An evaluator
 * refuses a corpus without what its metric or extractor needs. */
enum {
    /* The decoded gold text (cet_doc.gold_text), which only the character
     * metrics read: without it a document's gold is its words alone. */
    CET_LOAD_GOLD_TEXT = 1,
    /* The text of the page's text nodes (cet_doc.text): the character
     * metrics, written extracts and some extractors read it
     * (cet_extractor.load); without it their sizes and words stay. */
    CET_LOAD_TEXT = 2,
    /* The page alone: its gold is neither read nor required (has_gold 0). */
    CET_LOAD_PAGE_ONLY = 4,
    /* cet_corpus_load_dirs and cet_sample_load: the entries are already
     * scanned (and may carry pseudo-gold, cet_template_entries); don't scan
     * again. */
    CET_LOAD_SCANNED = 8,
};

/* Limits of what is loaded; larger pages are skipped with a reason, never truncated. */
#define CET_MAX_PAGE_BYTES (64u << 20)
#define CET_MAX_DEPTH 1000000u

/* Parses an HTML page (raw bytes, any charset) into *out, the model for
 * evaluation: of the attributes it keeps only those extractors read (class,
 * id, role, itemprop, hidden, aria-hidden, style when it hides the element,
 * and of src and href the scheme and authority, all that ad-host matching
 * reads); the others count in the markup sizes only.  gold,
 * if not NULL, is decoded UTF-8 gold text to tokenize into the same
 * vocabulary.  Returns 0, or -1 with a reason in err (the page is unusable). */
int cet_doc_parse(struct cet_doc **out, const char *html, size_t len,
                  const char *gold, size_t gold_len, struct cet_error *err);
/* The model of a page to extract from: every attribute is kept (the cleaned
 * HTML, cet_extract_html, writes them).  charset is the one the transport
 * declared (the charset parameter of an HTTP Content-Type), or NULL (see
 * cet_decode_page); deadline (CLOCK_MONOTONIC seconds, 0 for none) is checked
 * after decoding and after each megabyte parsed: past it, the parse stops
 * and returns CET_ETIMEOUT. */
int cet_doc_parse_as(struct cet_doc **out, const char *html, size_t len, const char *charset,
                     double deadline, const char *gold, size_t gold_len, struct cet_error *err);
void cet_doc_free(struct cet_doc *doc);

/* Bytes a document model holds, by component: its arrays at their
 * allocated sizes (a parsed model keeps them at their final sizes).  The
 * allocator's own overhead per block is not counted. */
struct cet_doc_mem {
    size_t nodes, attrs, texts; /* the node tree, attributes, text node index */
    size_t pool;                /* tag and attribute names, attribute values */
    size_t text;                /* the text nodes' text */
    size_t words;               /* page words as ids */
    size_t gold;                /* gold words as rows, and the rows' ids */
    size_t gold_text;           /* the decoded gold, for the character metrics */
    size_t vocab;               /* the word strings and their offsets */
    size_t mrows;               /* the page words' gold rows (mrows, mrow_off) */
    size_t other;               /* the struct, its names and path */
    size_t total;
};
/* Adds the bytes d holds to *m (zeroed by the caller: a corpus sums its
 * documents). */
void cet_doc_mem(const struct cet_doc *d, struct cet_doc_mem *m);

static inline const char *cet_node_str(const struct cet_doc *d, uint32_t i)
{
    return (d->nodes[i].kind == CET_TEXT ? d->text : d->pool) + d->nodes[i].str;
}
static inline enum cet_sep cet_node_sep(const struct cet_doc *d, uint32_t i)
{
    return (enum cet_sep)((d->nodes[i].flags & CET_NF_SEP_MASK) >> CET_NF_SEP_SHIFT);
}
static inline const char *cet_word_str(const struct cet_doc *d, uint32_t id)
{
    return d->vocab_pool + d->vocab_off[id];
}
/* Vocabulary id of gold word j. */
static inline uint32_t cet_gold_word(const struct cet_doc *d, uint32_t j)
{
    return d->row_word[d->gold_rows[j]];
}
/* Attributes of node i: they follow each other in node order, so its
 * attributes end where those of the next node begin. */
static inline uint32_t cet_node_nattr(const struct cet_doc *d, uint32_t i)
{
    return (i + 1 < d->nnodes ? d->nodes[i + 1].attr0 : d->nattrs) - d->nodes[i].attr0;
}
/* Text nodes and words with the alternates' (struct cet_alt). */
static inline uint32_t cet_doc_all_texts(const struct cet_doc *d)
{
    return d->ntexts + d->nalt_nodes;
}
static inline uint32_t cet_doc_all_words(const struct cet_doc *d)
{
    return d->nalt_nodes ? d->nodes[d->nnodes + d->nalt_nodes - 1].w1 : d->nwords;
}
/* Depth of node i, 0 for top-level nodes: walks up its parents, so for
 * many nodes use cet_doc_depths. */
uint32_t cet_node_depth(const struct cet_doc *d, uint32_t i);
/* Depths of all nodes into depth[0..nnodes), in one pass. */
void cet_doc_depths(const struct cet_doc *d, uint32_t *depth);
/* Value of attribute name on element i, or NULL. */
const char *cet_node_attr(const struct cet_doc *d, uint32_t i, const char *name);
/* Whether nodes a and b have parents of the same markup (tag and class),
 * as one template prints them; two top-level nodes count as the same. */
int cet_same_parent_markup(const struct cet_doc *d, uint32_t a, uint32_t b);
/* Whether a style attribute's value hides its element (display:none or
 * visibility:hidden, any spacing and case).  The model keeps style only then. */
int cet_style_hides(const char *style);
/* The authority of a URL ("user@host:port" after "scheme://" or "//", up
 * to the path, query or fragment) at the returned pointer, *n bytes; NULL
 * for a URL without one (relative, mailto:, javascript:).  All that ad-host
 * matching reads of a URL (cet_adhosts_match_url). */
const char *cet_url_authority(const char *url, size_t *n);

/* Charset handling (docs/formats.md, "Corpora"): BOM, then the declared charset (from the
 * transport, e.g. HTTP; NULL for none), then <meta charset>/http-equiv, else
 * UTF-8 when valid, else windows-1252.  Returns malloc'd UTF-8 in *out and
 * the charset used in charset.  A declared charset that is unknown is an
 * error (an unknown <meta> label is ignored, as browsers do). */
int cet_decode_page(char **out, size_t *out_len, const char *bytes, size_t len,
                    const char *declared, char charset[32], struct cet_error *err);
/* 1 when label names a charset cet_decode_page can decode. */
int cet_charset_known(const char *label);
/* 1 when more than 2% of the first 64 KB of s are control characters other
 * than white space: random binary data has about 11%, any real page or
 * text next to none. */
int cet_looks_binary(const char *s, size_t len);
/* Gold text: UTF-8 when valid, else windows-1252.  Binary data
 * (cet_looks_binary) is refused: "binary data, not text". */
int cet_decode_text(char **out, size_t *out_len, const char *bytes, size_t len,
                    struct cet_error *err);
/* CleanEval gold clean-up, in place: drops a leading "URL:" line, paragraph
 * markers <p> <h> <l> at line starts and <!-- comments -->, decodes entities. */
size_t cet_gold_cleanup(char *text, size_t len);

CET_END_DECL

#endif
