#!/bin/bash
# scripts/serve-families.sh with a tiny evolution budget: one configuration per
# portals family, routes from the families' hosts, each held-back page served
# through HTTP with its canonical URL equals `cetune extract -c` with its
# family's configuration.
# usage: serve_families.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
C=${CETUNE_CORPORA:-$SRC/../shared/corpora}
if [ ! -d "$C/portals" ]; then
    echo "skipping: ../shared/corpora not found"
    exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
POP=4 GENERATIONS=1 CETUNE_CORPORA=$C "$SRC/scripts/serve-families.sh" "$CETUNE" "$T/out" > "$T/table" 2>&1
rc=$?
cat "$T/table"
[ $rc = 0 ] || { echo "FAIL: serve-families.sh exit $rc"; exit 1; }
[ "$(grep -c ' yes$' "$T/table")" = 4 ] || { echo "FAIL: not four families served as extract -c"; exit 1; }
grep -q '^bbc  *bbc.co.uk ' "$T/table" || { echo "FAIL: bbc not routed by its URL"; exit 1; }
echo "serve_families: ok"
