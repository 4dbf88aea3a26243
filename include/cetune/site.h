/* Site rules (docs/site.md): what a site's labelled pages show about its
 * template, carried in a configuration beside its parameters.
 *
 * The pages of one site family put their article at the same places of one
 * template and their menus, teasers and footers at others.  A general
 * extractor has to guess that page by page; a handful of labelled pages
 * shows it.  Each block of text (the text nodes under one nearest block
 * element) stands at a *slot*: the path of tags, ids and classes from the
 * root to that element, digits dropped ("story-1234" and "story-99" are
 * one class) and class order ignored, written
 *     html/body/div#main/article.post.story/div.story-body/p
 * A slot whose blocks are gold on every labelled page that has it (and on
 * at least min_pages pages) becomes a *keep* rule, one whose blocks never
 * are a *drop* rule.  After the extractor runs, a block at a keep slot is
 * kept and one at a drop slot dropped; every other block is the
 * extractor's.  So the rules fix what the extractor gets wrong at the
 * template's fixed places, and leave what varies from page to page to it.
 * A family whose outer layout varies (the article's box under one wrapper
 * on some pages, another on others) shares no whole paths, so rules are
 * also learned on *suffix* slots, a block's last steps when they name an
 * id or a class, written with a first step "*" (CET_SITE_SUFFIX); a suffix rule
 * applies only to blocks no whole-path rule matches.
 * Some boilerplate stands at the article's own place: an agency's copyright
 * line after every story, a dateline, a "share this article" line.  No slot
 * can drop it without the article, so a rule can also name a block's *text*
 * (its words casefolded, digits dropped: "© 2005 The Associated Press" and
 * "© 2006 ..." are one text): a block whose text the extraction kept on
 * at least min_pages labelled pages and the gold never holds is dropped
 * wherever it stands, whatever the slot rules say.
 * The labelled pages show only some of the template's places, and tuned
 * parameters are judged only there: a list of related stories absent from
 * them may be kept by the tuned parameters on the next page.  So the rules
 * may carry a *guard*, the parameters tuning started from and the slots
 * where the labelled pages showed gold (*trusted* slots): where the start's
 * parameters drop a block outside those slots, the boxes that hold them
 * (their ancestors) and the same named box under another wrapper (their
 * last step, when it names an id or a class), it is dropped, whatever the
 * tuned ones say.  What tuning adds stands where the labelled pages showed
 * it belongs; elsewhere the start's judgement, learned on many sites,
 * holds (docs/site.md, "The guard").  The guard also *holds* the article's
 * own places, the slots whose gold was the article on the labelled pages
 * and whose text the tuned parameters kept there in full: a block the
 * start keeps at such a slot stays kept, so tuned parameters cannot drop
 * paragraphs of a story in a way the labelled pages never showed.
 *
 * `cetune evolve` learns the rules from its training pages (the tuning
 * procedure is the search plus the rules, and the cross-validation of the
 * final choice estimates both); `extract`, `evaluate`, `serve` and the
 * library apply them wherever a configuration carries them. */
#ifndef CETUNE_SITE_H
#define CETUNE_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/buf.h"
#include "cetune/doc.h"
#include "cetune/error.h"

CET_BEGIN_DECL

struct cet_sel;

/* How a suffix slot is written: this, then its steps ("div#story.story/div.posted"). */
#define CET_SITE_SUFFIX "*/"

/* One rule: a slot and what to do there. */
struct cet_site_rule {
    uint64_t slot; /* hash of path (cet_site_hash) */
    char *path;    /* the slot as written in the configuration */
    int keep;      /* 1: keep its blocks, 0: drop them */
    int suffix;    /* 1: the slot is the last steps of a path (CET_SITE_SUFFIX) */
};

struct cet_site {
    struct cet_site_rule *v; /* sorted by slot */
    size_t n;
    long pages; /* how many labelled pages they were learned from, or -1 */
    /* The steps of every suffix rule's slot (0: no suffix rules).  A block's
     * suffix slot counts only where no whole-path rule matches it. */
    size_t depth;
    /* The names (id and class tokens) a slot may contain: those on enough of
     * the labelled pages.  A page's other names (its category, a tag, a
     * post's slug) say nothing about the template and are left out of its
     * slots, as are the names of <html> and <body>. */
    char **names;     /* alphabetical */
    uint64_t *hashes; /* their hashes, sorted */
    size_t nnames;
    /* Texts to drop (cet_site_text): the block texts, alphabetical, and their
     * hashes, sorted. */
    char **drop_texts;
    uint64_t *drop_hashes;
    size_t ndrop_texts;
    /* The guard: the start's parameters (nguard values of the extractor the
     * rules go with; NULL: no guard), the trusted slots (whole paths sorted
     * by slot; keep is 1, suffix 0) and the slots of those, of their
     * ancestors (the boxes that hold them) and of their last step where it
     * names an id or a class (sorted): where the guard leaves the tuned
     * parameters' choice. */
    double *guard;
    size_t nguard;
    struct cet_site_rule *trust;
    size_t ntrust;
    uint64_t *trusted;
    size_t ntrusted;
    /* The held slots (whole paths sorted by slot; keep is 1, suffix 0): the
     * article's own places, where a block the start's parameters keep stays
     * kept whatever the tuned ones say (cet_site_guard). */
    struct cet_site_rule *hold;
    size_t nhold;
};

/* How rules are learned (cet_site_default gives the defaults in brackets). */
struct cet_site_opts {
    size_t min_pages;  /* a slot on fewer labelled pages gives no rule (2) */
    double keep_share; /* a keep slot has at least this share of its words in the gold
                          over all pages (0.9) ... */
    double drop_share; /* ... a drop slot at most this share (0.1); on every single page
                          the slot's share is on the same side of one half */
    size_t min_words;  /* a slot with fewer words over all pages gives no rule (3) */
    double name_share; /* a name is part of slots when on this share of one family's
                          labelled pages, and on min_pages at least (0.5) */
    double slot_share; /* a slot gives a rule only when on this share of one family's
                          labelled pages, and on min_pages at least (0.3): a package of
                          many sites has few places on a third of its pages */
    size_t depth;      /* also learn suffix rules: slots of a block's last depth steps,
                          used where no whole-path rule applies, and only when they name
                          an id or a class (2; 0: whole paths only) */
    int texts;         /* also learn texts to drop (1; 0: slots only) */
    const double *guard; /* the start's parameters, nguard of them: also learn the guard's
                            trusted slots, the whole paths whose blocks hold more gold than
                            not on every labelled page that has them, and its held slots,
                            those of them that would be keep rules without a correction
                            and whose words the extraction to correct (kept) keeps on
                            every labelled page (NULL: no guard) */
    size_t nguard;
};

void cet_site_default(struct cet_site_opts *o);

/* The slot of path as cet_site_slots computes it. */
uint64_t cet_site_hash(const char *path);

/* The slot of each text node's block under the names of s: slots[k] for
 * d->texts[k], 0 for text outside any block element.  slots holds
 * d->ntexts entries. */
int cet_site_slots(const struct cet_site *s, const struct cet_doc *d, uint64_t *slots);

/* Learns rules from the pages of docs that have a gold standard (the others
 * are ignored) into *out (NULL when none, which is not an error).  Each
 * package is a family: names and slots count within it, and a slot whose
 * families disagree gives no rule.  The gold is aligned with the page as
 * the word metric aligns it.  kept, when
 * not NULL, is the extraction the rules will correct (kept[i][k]: the
 * extractor keeps text node docs[i]->texts[k]): then a rule must also
 * gain words on these pages, not merely agree with their gold. */
int cet_site_learn(struct cet_doc *const *docs, size_t n, const uint8_t *const *kept,
                   const struct cet_site_opts *o, struct cet_site **out, struct cet_error *err);

/* The text of d's block b as a text rule names it: the words of its text
 * nodes as the metric reads them (casefolded), digits dropped, one space
 * between; "" when it has none.  NULL when out of memory. */
char *cet_site_text(const struct cet_doc *d, uint32_t b);
/* The hash of each text node's block text (cet_site_text, hashed as
 * cet_site_hash does) into h[0..d->ntexts), 0 for text outside any block
 * or a block without words. */
int cet_site_text_hashes(const struct cet_doc *d, uint64_t *h);

/* Per text node of d: CET_SITE_KEEP, CET_SITE_DROP or CET_SITE_NONE (marks
 * holds d->ntexts bytes).  Computed once per page, applied per extraction.
 * The guard adds CET_SITE_START where the start's parameters keep the text
 * node (the rule is marks[k] & CET_SITE_RULE). */
enum { CET_SITE_NONE = 0, CET_SITE_KEEP = 1, CET_SITE_DROP = 2, CET_SITE_RULE = 3,
       CET_SITE_START = 4 };
/* A guarded extraction has lost the article (cet_site_apply) when the
 * start's parameters keep at least CET_SITE_LOST_WORDS words and it keeps
 * fewer than that and less than a tenth of theirs (docs/site.md, "The
 * guard"). */
#define CET_SITE_LOST_WORDS 100
int cet_site_marks(const struct cet_site *s, const struct cet_doc *d, uint8_t *marks);
struct cet_extractor;
/* The guard of s on a page's marks (nothing when s has none): a text node
 * marked CET_SITE_NONE that the start's parameters drop (ex run on d, with
 * prep its ex->prepare of d or NULL to prepare here) and whose slot is
 * neither trusted, nor a trusted slot's ancestor, nor ends in a trusted
 * slot's named last step becomes CET_SITE_DROP; one that the start's
 * parameters keep at a held slot becomes CET_SITE_KEEP.  Every text node
 * the start's parameters keep also gets CET_SITE_START.  0, or -1 when out
 * of memory. */
int cet_site_guard(const struct cet_site *s, const struct cet_extractor *ex,
                   const struct cet_doc *d, void *prep, uint8_t *marks);
/* Applies a page's marks to an extraction.  When a keep rule brings back
 * words, the text the extractor took from outside the visible page (a
 * fallback's JSON-LD or noscript copy, sel->extra) is dropped: it would
 * repeat the article the rule kept.  Where the guard marked the start's
 * extraction and the result has lost the article (CET_SITE_LOST_WORDS), the
 * result is the start's extraction with the marks applied instead. */
void cet_site_apply(const struct cet_doc *d, const uint8_t *marks, struct cet_sel *sel);
/* cet_site_marks, cet_site_guard (ex and prep as there) then cet_site_apply;
 * 0, or -1 when out of memory. */
int cet_site_run(const struct cet_site *s, const struct cet_extractor *ex,
                 const struct cet_doc *d, void *prep, struct cet_sel *sel);

/* How many of s's rules are keep rules (the others drop). */
size_t cet_site_nkeep(const struct cet_site *s);
/* How many rules s has: slot rules and texts to drop. */
size_t cet_site_nrules(const struct cet_site *s);
/* "N keep, N drop", ", N texts dropped" when s has texts to drop and ", a
 * guard trusting N slots" when it has a guard (" and holding N" when it
 * holds slots), into buf (size bytes). */
void cet_site_counts(const struct cet_site *s, char *buf, size_t size);

/* Builds rules from paths (keep[nkeep], drop[ndrop]) and the names their
 * slots may contain (names[nnames], to which every name the paths use is
 * added); a path in both lists or given twice is refused (err names it). */
int cet_site_from_paths(struct cet_site **out, const char *const *keep, size_t nkeep,
                        const char *const *drop, size_t ndrop, const char *const *names,
                        size_t nnames, long pages, struct cet_error *err);
/* Adds texts to drop to s (texts[n], written as cet_site_text writes them;
 * other white space, upper case and digits are folded the same way); a
 * text given twice or empty is refused (err names it). */
int cet_site_set_texts(struct cet_site *s, const char *const *texts, size_t n,
                       struct cet_error *err);
/* Sets s's guard: the start's parameters (n of them, copied) and its
 * trusted slots (whole paths; the names they use join s's names); a slot
 * given twice or a suffix slot is refused (err names it). */
int cet_site_set_guard(struct cet_site *s, const double *params, size_t n,
                       const char *const *trust, size_t ntrust, struct cet_error *err);
/* Sets the held slots of s's guard (whole paths, after cet_site_set_guard,
 * which clears them; the names they use join s's names); refused without
 * a guard, or for a slot given twice or a suffix slot (err names it). */
int cet_site_set_hold(struct cet_site *s, const char *const *hold, size_t n,
                      struct cet_error *err);
/* Appends {"pages": N, "names": [...], "keep": [...], "drop": [...],
 * "drop_text": [...], "guard": {"params": {...}, "trust": [...], "hold":
 * [...]}} ("pages" only when known, "drop_text" only when s has texts to
 * drop, "guard" only when it has one: its parameters as ex names them;
 * "hold" only when it has held slots), each list in alphabetical order. */
int cet_site_json(struct cet_buf *out, const struct cet_site *s, const struct cet_extractor *ex);
void cet_site_free(struct cet_site *s);

CET_END_DECL

#endif
