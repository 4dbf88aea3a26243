#!/bin/bash
# `cetune extract -c best.json PAGE` prints exactly what `cetune evaluate -c
# best.json --extracts DIR` wrote for that page, on pages of every corpus
# layout (canonical, CleanEval with its wrapper line, article JSON .html.gz).
# usage: extract_corpus.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
C=${CETUNE_CORPORA:-$SRC/../shared/corpora}
if [ ! -d "$C/portals" ] || [ ! -d "$C/cleaneval-dev" ] || [ ! -d "$C/scrapinghub" ] || [ ! -d "$C/big5" ]; then
    echo "skipping: $C (portals, cleaneval-dev, scrapinghub, big5) not found; set CETUNE_CORPORA"
    exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Two pages of each layout: sample lines and the page files.
pages=()
: > "$T/sample.txt"
add() { # PACKAGE FILE
    local name
    name=$(basename "$2"); name=${name%.gz}; name=${name%.html}
    echo "$1/$name" >> "$T/sample.txt"
    pages+=("$1|$name|$2")
}
for f in $(ls "$C"/portals/wapo/*.html | head -2); do add wapo "$f"; done
for f in $(ls "$C"/big5/2009/*.html | head -2); do add 2009 "$f"; done
for f in $(ls "$C"/cleaneval-dev/input/*.html | head -2); do add cleaneval-dev "$f"; done
for f in $(ls "$C"/scrapinghub/html/*.html.gz | head -2); do add scrapinghub "$f"; done

printf '{"extractor": "crunch", "params": {"link_text_ratio": 0.4, "retain_links": true, "min_text_length": 30}, "fitness": 0.7, "docs": 8}\n' > "$T/crunch.json"
printf '{"extractor": "mantratzis", "params": {"decay": 0.4, "propagate_lists": false}}\n' > "$T/mantratzis.json"
printf '{"extractor": "alltext", "params": {}}\n' > "$T/alltext.json"
for cfg in crunch mantratzis alltext; do
    "$CETUNE" evaluate -c "$T/$cfg.json" -d "$C/portals" -d "$C/cleaneval-dev" -d "$C/scrapinghub" \
        -d "$C/big5" -s "$T/sample.txt" --extracts "$T/ev-$cfg" >/dev/null 2>"$T/err" ||
        fail "evaluate $cfg: $(cat "$T/err")"
    for p in "${pages[@]}"; do
        IFS='|' read -r pkg name file <<< "$p"
        "$CETUNE" extract -c "$T/$cfg.json" "$file" > "$T/out.txt" 2>"$T/err" || fail "extract $cfg $file: $(cat "$T/err")"
        [ -f "$T/ev-$cfg/$pkg/$name.txt" ] || fail "evaluate wrote no $pkg/$name.txt"
        cmp -s "$T/out.txt" "$T/ev-$cfg/$pkg/$name.txt" || fail "$cfg: extract and evaluate --extracts differ on $file"
    done
done
echo "extract_corpus: ok (${#pages[@]} pages, 3 configurations)"
