#!/usr/bin/env bash
# Scores one configuration on the scrapinghub article-extraction benchmark with
# the benchmark's own evaluate.py (vendored, MIT: scripts/article-extraction-benchmark/).
# cetune extracts every page of the corpus, the extracts become the benchmark's
# prediction file {id: {"articleBody": text}}, and evaluate.py prints F1,
# precision and recall (shingles of 4 words, the mean precision and recall over
# pages).  Needs python3, no network.
#
# Usage: scripts/benchmark.sh [-b CETUNE] [-k KEEP.json] CORPUS CONFIGURATION...
#   CORPUS          the benchmark's pages (../shared/corpora/scrapinghub: ground-truth.json, html/)
#   CONFIGURATION   what `cetune evaluate` takes: -c CONFIG.json, or -x EXTRACTOR [-P name=value...]
#   -b CETUNE       the binary (default build/cetune)
#   -k KEEP.json    also keep the prediction file (to compare pages with other systems' outputs)
# Prints one line: name, F1, precision, recall (evaluate.py's figures, without its ± columns).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cetune=build/cetune keep=
while getopts b:k: o; do
  case $o in
    b) cetune=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: $0 [-b CETUNE] [-k KEEP.json] CORPUS CONFIGURATION..." >&2; exit 2; }
corpus=$(cd "$1" && pwd)
shift
[ -f "$corpus/ground-truth.json" ] || { echo "$0: $corpus/ground-truth.json: not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cetune" evaluate "$@" -d "$corpus" --extracts "$tmp/extracts" --format csv >/dev/null
mkdir "$tmp/output"
python3 - "$corpus/ground-truth.json" "$tmp/extracts" "$tmp/output/cetune.json" <<'PY'
import json, os, sys
truth = json.load(open(sys.argv[1], encoding="utf-8"))
(package,) = os.listdir(sys.argv[2])
pred = {}
for key in truth:
    path = os.path.join(sys.argv[2], package, key + ".txt")
    # A page cetune skipped (unreadable) counts as an empty extraction.
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    pred[key] = {"articleBody": text}
json.dump(pred, open(sys.argv[3], "w", encoding="utf-8"), ensure_ascii=False)
PY
[ -z "$keep" ] || cp "$tmp/output/cetune.json" "$keep"
ln -s "$corpus/ground-truth.json" "$tmp/ground-truth.json"
(cd "$tmp" && python3 "$here/article-extraction-benchmark/evaluate.py" --n-bootstrap 2) |
  awk 'NR == 2 { print "evaluate.py F1 " $2 "  precision " $5 "  recall " $8 }'
