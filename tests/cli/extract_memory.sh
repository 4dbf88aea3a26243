#!/bin/bash
# `cetune extract` streams: over all dev pages (490) its peak resident memory
# stays under 200 MB, and as many pages are read again it does not grow.
# usage: extract_memory.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"
need_corpora portals cleaneval-dev scrapinghub big5
if [ ! -x /usr/bin/time ]; then
    echo "skipping: /usr/bin/time (GNU time) not found"
    exit 77
fi
# Sanitizer builds carry shadow memory and a quarantine: the absolute bound is
# for normal builds; flatness is checked in both.
limit=204800
[ -n "${CETUNE_SANITIZED:-}" ] && limit=1048576

pages=$(ls "$C"/portals/*/*.html "$C"/big5/*/*.html "$C"/cleaneval-dev/input/*.html "$C"/scrapinghub/html/*.html*)
n=$(echo $pages | wc -w)
peak() { # prints the peak RSS in kB of: cetune extract ARGS...
    /usr/bin/time -f '%M' -o "$TMP/rss" "$CETUNE" extract "$@" >/dev/null 2>"$TMP/err" || die "extract $1 $2: $(cat "$TMP/err")"
    tail -1 "$TMP/rss"
}
for x in crunch mantratzis; do
    once=$(peak -x $x $pages)
    thrice=$(peak -x $x $pages $pages $pages)
    echo "$x: $n pages, peak RSS $once kB; 3 x $n pages, $thrice kB"
    [ "$once" -lt "$limit" ] || die "$x: peak RSS $once kB over $n pages"
    # Flat: reading every page three times may cost allocator slack, never another copy.
    [ "$thrice" -lt $((once + once / 2)) ] || die "$x: memory grows with the number of pages ($once -> $thrice kB)"
done
# big5's two years share page names, which one --out-dir refuses; 2005 only.
unique=$(ls "$C"/portals/*/*.html "$C"/big5/2005/*.html "$C"/cleaneval-dev/input/*.html "$C"/scrapinghub/html/*.html*)
html=$(peak -x crunch --format html --out-dir "$TMP/out" $unique)
echo "crunch --format html --out-dir: peak RSS $html kB"
[ "$html" -lt "$limit" ] || die "html: peak RSS $html kB"
[ "$(ls "$TMP/out" | wc -l)" = "$(echo $unique | wc -w)" ] || die "--out-dir wrote $(ls "$TMP/out" | wc -l) files"
echo "extract_memory: ok"
