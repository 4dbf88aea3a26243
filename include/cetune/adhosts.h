/* Ad-server host lists for Crunch's advertisement remover (Gupta et al.
 * 2003, section 3): a node whose src or href points at a listed host is removed.
 *
 * A list has one host per line; '#' starts a comment and blank lines are
 * ignored.  Hosts-file lines ("0.0.0.0 ads.example.com") are accepted too, as
 * the paper used such a file.  An entry matches its own host and every
 * subdomain ("doubleclick.net" matches "ad.doubleclick.net", never
 * "notdoubleclick.net"), compared case-insensitively and without the port.
 *
 * The list in use is data/adhosts.txt, compiled into the library, unless the
 * caller gave a file with cet_adhosts_use_file() (the library never reads the
 * environment; the command line reads CETUNE_ADHOSTS and --adhosts).  A run
 * records the identity of the list (cet_adhosts_digest, cet_adhosts_source)
 * so that it is resumed with the same one. */
#ifndef CETUNE_ADHOSTS_H
#define CETUNE_ADHOSTS_H

#include <stddef.h>

#include "cetune/common.h"
#include "cetune/error.h"

CET_BEGIN_DECL

struct cet_adhosts;

/* Parses a list from text; name is used in error messages ("NAME:LINE: ..."). */
int cet_adhosts_parse(struct cet_adhosts **out, const char *text, size_t len, const char *name,
                      struct cet_error *err);
/* Reads and parses the list in the file at path. */
int cet_adhosts_load(struct cet_adhosts **out, const char *path, struct cet_error *err);
void cet_adhosts_free(struct cet_adhosts *h);
/* Number of distinct hosts in the list. */
size_t cet_adhosts_count(const struct cet_adhosts *h);

/* 1 when the host of url (absolute "scheme://host/..." or protocol-relative
 * "//host/...") is listed; relative URLs have no host and never match. */
int cet_adhosts_match_url(const struct cet_adhosts *h, const char *url);

/* Its identity: 16 hex digits of a 64-bit FNV-1a hash of the text it was
 * parsed from, into out. */
void cet_adhosts_digest(const struct cet_adhosts *h, char out[17]);
/* The file it was loaded from, or NULL (parsed from text, or built in). */
const char *cet_adhosts_source(const struct cet_adhosts *h);

/* The list extractors use: the file given to cet_adhosts_use_file, else the
 * built-in list (parsed on first use), safe from any thread; NULL with the
 * reason in err when it cannot be had (out of memory). */
const struct cet_adhosts *cet_adhosts_current(struct cet_error *err);
/* Makes the list in path the one in use; fails once the list in use has
 * been handed out by cet_adhosts_current (extraction has begun). */
int cet_adhosts_use_file(const char *path, struct cet_error *err);

CET_END_DECL

#endif
