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
# The server starts 15 s late, as on a loaded machine or under a sanitizer:
# the script waits for its port by wall time (it gave up after 100 looks, 10
# s), and its log exists before the first look (sed failed on a log the
# background job had not made yet: 2 failures in 16 runs).
printf '#!/bin/bash\n[ "$1" != serve ] || sleep 15\nexec "%s" "$@"\n' "$CETUNE" > "$TMP/slow"
chmod +x "$TMP/slow"
POP=4 GENERATIONS=1 CETUNE_CORPORA=$C "$SRC/scripts/serve-families.sh" "$TMP/slow" "$TMP/out" > "$TMP/table" 2>&1
rc=$?
cat "$TMP/table"
[ $rc = 0 ] || die "serve-families.sh exit $rc"
[ "$(grep -c ' yes$' "$TMP/table")" = 4 ] || die "not four families served as extract -c"
grep -q '^bbc  *bbc.co.uk ' "$TMP/table" || die "bbc not routed by its URL"
echo "serve_families: ok"
