#!/bin/bash
# scripts/serve-families.sh with a tiny evolution budget: one configuration per
# portals family, routes from the families' hosts, each held-back page served
# through HTTP with its canonical URL equals `cetune extract -c` with its
# family's configuration.
# usage: serve_families.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"
need_corpora portals
POP=4 GENERATIONS=1 CETUNE_CORPORA=$C "$SRC/scripts/serve-families.sh" "$CETUNE" "$TMP/out" > "$TMP/table" 2>&1
rc=$?
cat "$TMP/table"
[ $rc = 0 ] || die "serve-families.sh exit $rc"
[ "$(grep -c ' yes$' "$TMP/table")" = 4 ] || die "not four families served as extract -c"
grep -q '^bbc  *bbc.co.uk ' "$TMP/table" || die "bbc not routed by its URL"
echo "serve_families: ok"
