/* Ad-server host lists for Crunch's advertisement remover (Gupta et al.
 * 2003, 001 §3): a node whose src or href points at a listed host is removed.
 *
 * A list has one host per line; '#' starts a comment and blank lines are
 * ignored.  Hosts-file lines ("0.0.0.0 ads.example.com") are accepted too, as
 * the paper used such a file.  An entry matches its own host and every
 * subdomain ("doubleclick.net" matches "ad.doubleclick.net", never
 * "notdoubleclick.net"), compared case-insensitively and without the port.
 *
 * The list in use is data/adhosts.txt, compiled into the library, unless the
 * environment variable CETUNE_ADHOSTS names a file, or cet_adhosts_use_file()
 * was called; either replaces the built-in list entirely. */
#ifndef CETUNE_ADHOSTS_H
#define CETUNE_ADHOSTS_H

#include <stddef.h>

#include "cetune/error.h"

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

/* The list extractors use: the file set here, else $CETUNE_ADHOSTS, else
 * the built-in list.  Loaded once, on first use, safely from any thread;
 * returns NULL with the reason in err when the file cannot be used. */
const struct cet_adhosts *cet_adhosts_current(struct cet_error *err);
/* Makes the list in path the one in use.  Call it before any extraction
 * starts (it is not safe against concurrent cet_adhosts_current calls). */
int cet_adhosts_use_file(const char *path, struct cet_error *err);

#endif
