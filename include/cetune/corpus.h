/* Corpora in the three layouts of docs/formats.md ("Corpora"), loaded into parsed documents. */
#ifndef CETUNE_CORPUS_H
#define CETUNE_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include "cetune/common.h"
#include "cetune/doc.h"
#include "cetune/error.h"

CET_BEGIN_DECL

enum cet_layout { CET_LAYOUT_CANONICAL, CET_LAYOUT_CLEANEVAL, CET_LAYOUT_ARTICLE_JSON };

/* One document found on disk, before it is read. */
struct cet_entry {
    char *package, *name;
    char *html_path;
    char *gold_path;   /* NULL when the gold is inline or missing */
    char *gold_inline; /* article JSON: the articleBody; NULL otherwise */
    int gold_missing;  /* no gold file or no entry */
    int cleaneval;     /* gold needs CleanEval clean-up */
    int gold_pseudo;   /* gold_inline is a pseudo-gold (template.h), used as it is */
    uint32_t *unscored; /* pseudo-gold: the text nodes it is unsure of, which the word
                           metric leaves out: ranges [unscored[2j], unscored[2j+1]) of
                           indices into the page's texts, ascending; NULL: none */
    size_t nunscored;   /* ranges in unscored */
    size_t max_bytes;  /* a larger page is skipped with its reason (0: CET_MAX_PAGE_BYTES;
                          evaluate --max-body) */
};

/* The reason a document without gold is skipped (cet_corpus.skips). */
#define CET_NO_GOLD "no gold standard"

struct cet_entries {
    struct cet_entry *v;
    size_t n, cap;
};

/* Lists the documents of each directory (layout auto-detected), sorted by
 * package then name.  Fails if a directory is unreadable or has no pages. */
int cet_corpus_scan(struct cet_entries *out, const char *const *dirs, size_t ndirs,
                    struct cet_error *err);
void cet_entries_free(struct cet_entries *e);
/* Detected layout of one directory. */
int cet_corpus_layout(const char *dir, enum cet_layout *out, struct cet_error *err);

struct cet_package {
    char *name;
    uint32_t first, count; /* docs[first .. first+count) */
};

struct cet_skip {
    char *path;
    char *reason;
};

struct cet_corpus {
    struct cet_doc **docs; /* grouped by package, in scan order */
    size_t ndocs;
    struct cet_package *pkgs;
    size_t npkgs;
    struct cet_skip *skips; /* unusable documents, in scan order */
    size_t nskips;
    size_t bytes;           /* HTML bytes of the loaded documents */
};


/* Reads and parses the entries (only those with want[i] != 0 when want is
 * not NULL) with up to `threads` threads (0 = OpenMP default), keeping what
 * flags (CET_LOAD_*, doc.h) ask for.  Unusable documents are recorded in skips,
 * never fatal; it fails only when out of memory. */
int cet_corpus_load(struct cet_corpus *c, const struct cet_entries *e, const uint8_t *want,
                    unsigned flags, int threads, struct cet_error *err);
void cet_corpus_free(struct cet_corpus *c);
/* The second half of cet_corpus_load: builds *c from the per-entry results
 * docs[i] (a loaded document) or reasons[i] (why entry i was skipped), both
 * NULL for entries not wanted.  Takes every docs[i] and reasons[i] (the
 * arrays stay the caller's); oom != 0 fails as out of memory. */
int cet_corpus_assemble(struct cet_corpus *c, const struct cet_entries *e, struct cet_doc **docs,
                        char **reasons, int oom, struct cet_error *err);

/* Marks labelled[i] for each document c->docs[i] whose gold is its own,
 * not a pseudo-gold (cet_template_scan), e being the entries c was loaded
 * from, and sets *n to how many are marked.  0, or -1 out of memory. */
int cet_corpus_labelled(const struct cet_corpus *c, const struct cet_entries *e,
                        uint8_t *labelled, size_t *n, struct cet_error *err);

/* The page of an entry as loading reads it (gunzipped, a CleanEval
 * <text> wrapper line removed) into *html.  Returns 0, or -1 with
 * "cannot read page: PATH: reason" in err. */
struct cet_buf;
int cet_entry_read_page(struct cet_buf *html, const struct cet_entry *e, struct cet_error *err);
/* Loads one entry (the unit of cet_corpus_load). */
int cet_entry_load(struct cet_doc **out, const struct cet_entry *e, unsigned flags,
                   struct cet_error *err);

/* Sample files: one PACKAGE/NAME per line; '#' comments and blank lines
 * ignored.  A name that would not read back as it is (one starting with
 * '#' or '"', with white space at either end, a control character or a
 * backslash) is written quoted: "PACKAGE/NAME" with \\ \" \n \r \t and \xHH
 * escapes (docs/formats.md, "Sample files"). */
/* Appends the line of document PACKAGE/NAME; -1 when out of memory. */
int cet_sample_line(struct cet_buf *out, const char *package, const char *name);
int cet_sample_read(char ***names, size_t *n, const char *path, struct cet_error *err);
/* The same for text in memory: text[0..len) plus one writable byte after it,
 * modified in place; name stands for the file in messages. */
int cet_sample_parse(char ***names, size_t *n, char *text, size_t len, const char *name,
                     struct cet_error *err);
void cet_sample_free(char **names, size_t n);
/* Sets want[i] for entries named in the sample; fails naming the first
 * sample line that matches no entry. */
int cet_sample_select(uint8_t *want, const struct cet_entries *e, char *const *names, size_t n,
                      const char *path, struct cet_error *err);

CET_END_DECL

#endif
