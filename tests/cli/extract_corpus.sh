#!/bin/bash
# `cetune extract -c best.json PAGE` prints exactly what `cetune evaluate -c
# best.json --extracts DIR` wrote for that page, on pages of every corpus
# layout (canonical, CleanEval with its wrapper line, article JSON .html.gz).
# usage: extract_corpus.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"
need_corpora portals cleaneval-dev scrapinghub big5

# Two pages of each layout: sample lines and the page files.
pages=()
: > "$TMP/sample.txt"
add() { # PACKAGE FILE
    local name
    name=$(basename "$2"); name=${name%.gz}; name=${name%.html}
    echo "$1/$name" >> "$TMP/sample.txt"
    pages+=("$1|$name|$2")
}
for f in $(ls "$C"/portals/wapo/*.html | head -2); do add wapo "$f"; done
for f in $(ls "$C"/big5/2009/*.html | head -2); do add 2009 "$f"; done
for f in $(ls "$C"/cleaneval-dev/input/*.html | head -2); do add cleaneval-dev "$f"; done
for f in $(ls "$C"/scrapinghub/html/*.html.gz | head -2); do add scrapinghub "$f"; done

printf '{"extractor": "crunch", "params": {"link_text_ratio": 0.4, "retain_links": true, "min_text_length": 30}, "fitness": 0.7, "docs": 8}\n' > "$TMP/crunch.json"
printf '{"extractor": "mantratzis", "params": {"decay": 0.4, "propagate_lists": false}}\n' > "$TMP/mantratzis.json"
printf '{"extractor": "alltext", "params": {}}\n' > "$TMP/alltext.json"
for cfg in crunch mantratzis alltext; do
    "$CETUNE" evaluate -c "$TMP/$cfg.json" -d "$C/portals" -d "$C/cleaneval-dev" -d "$C/scrapinghub" \
        -d "$C/big5" -s "$TMP/sample.txt" --extracts "$TMP/ev-$cfg" >/dev/null 2>"$TMP/err" ||
        die "evaluate $cfg: $(cat "$TMP/err")"
    for p in "${pages[@]}"; do
        IFS='|' read -r pkg name file <<< "$p"
        "$CETUNE" extract -c "$TMP/$cfg.json" "$file" > "$TMP/out.txt" 2>"$TMP/err" || die "extract $cfg $file: $(cat "$TMP/err")"
        [ -f "$TMP/ev-$cfg/$pkg/$name.txt" ] || die "evaluate wrote no $pkg/$name.txt"
        cmp -s "$TMP/out.txt" "$TMP/ev-$cfg/$pkg/$name.txt" || die "$cfg: extract and evaluate --extracts differ on $file"
    done
done
echo "extract_corpus: ok (${#pages[@]} pages, 3 configurations)"
