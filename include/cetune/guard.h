/* Corpora are never written (docs/formats.md, "Corpora"): a guard collects
 * what an output must not touch (the files and directories of the loaded
 * corpora, the pages given to extract and their gold files) and refuses,
 * before anything is written, an output path that would replace one of them
 * or lie inside a corpus directory.  Files are compared by device and
 * inode, so another name for the same file (a symbolic or hard link, "..")
 * is caught too. */
#ifndef CETUNE_GUARD_H
#define CETUNE_GUARD_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

struct cet_guard;

/* An empty guard; NULL when out of memory. */
struct cet_guard *cet_guard_new(void);
void cet_guard_free(struct cet_guard *g);

/* Protects each corpus directory (nothing may be written inside it) and
 * every file in it and in its subdirectories, down to PACKAGE/NAME.  Fails
 * only when out of memory or a directory cannot be read. */
int cet_guard_corpora(struct cet_guard *g, const char *const *dirs, size_t ndirs,
                      struct cet_error *err);
/* Protects one input page and its gold files wherever a corpus layout would
 * put them: STEM.txt beside it, ../GoldStandard/STEM.txt for a page in
 * input/.  A page that does not exist (standard input) adds nothing.
 * Fails only when out of memory. */
int cet_guard_page(struct cet_guard *g, const char *page, struct cet_error *err);

/* 0 when writing the file path replaces nothing protected and lies outside
 * every protected directory; otherwise -1 with the reason in err.  A
 * NAME.txt beside a page NAME.html (.htm, .gz) is refused too, whether or
 * not its folder was given as a corpus. */
int cet_guard_file(struct cet_guard *g, const char *path, struct cet_error *err);
/* The same for a directory that will be created or filled: it, and what is
 * already in it (four levels down, links followed), touches nothing
 * protected. */
int cet_guard_dir(struct cet_guard *g, const char *dir, struct cet_error *err);

CET_END_DECL

#endif
