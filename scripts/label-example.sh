#!/usr/bin/env bash
# The worked example of labelling (docs/tutorial-family.md, docs/label.md), end to end and measured: a
# crawl-like folder of one site family (a portals family with its gold files
# left out) -> `cetune label` five pages -> `evolve --fitness template` with
# those five gold files and the pseudo-gold of the rest -> `serve --routes`.
# The figures: word F1 against the corpus's real gold on the test half (the
# even-numbered pages sorted by name; the five labels come from the other
# half), beside the same run without labels and the configurations before.
#
# The person labelling is played by the corpus's own gold, so that the run is
# reproducible: each of the five pages gets its real gold beside it, label
# shows it (approximately: the texts with half their words in the word
# alignment with it) and that selection is saved, exactly as a person
# pressing S on that page would, which leaves the gold file as it was.
#
# usage: scripts/label-example.sh [CETUNE [OUT]]
#   CETUNE   the cetune binary (default build/cetune)
#   OUT      where the crawl, the runs and the routes go (default runs/label-example)
# Environment: CETUNE_CORPORA (default ../shared/corpora), FAMILY (default
# wapo), LABELS (default 5), SEED (default 1), STRATEGY (evolve --strategy,
# default: evolve's own choice).
set -euo pipefail
cd "$(dirname "$0")/.."
CETUNE=$(realpath "${1:-build/cetune}")
OUT=${2:-runs/label-example}
FAMILY=${FAMILY:-wapo}
LABELS=${LABELS:-5}
SEED=${SEED:-1}
STRATEGY=${STRATEGY:+--strategy $STRATEGY}
C=$(realpath -m "${CETUNE_CORPORA:-../shared/corpora}/portals/$FAMILY")
if [ ! -d "$C" ]; then
    echo "skipping: $C not found"
    exit 77
fi
rm -rf "$OUT"
mkdir -p "$OUT/crawl/$FAMILY" "$OUT/unlabelled/$FAMILY"
OUT=$(realpath "$OUT")

# The port a server started with --listen 127.0.0.1:0 prints in LOG.
port_of() {
    local port=
    for _ in $(seq 1 600); do
        port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$1" | head -1)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$1" >&2; exit 1; }
    echo "$port"
}

# 1. The crawl: the family's pages, no gold.  Odd positions train, even test.
mapfile -t pages < <(cd "$C" && LC_ALL=C ls -- *.html | sed 's/\.html$//')
train=() test=()
for i in "${!pages[@]}"; do
    cp "$C/${pages[$i]}.html" "$OUT/crawl/$FAMILY/"
    cp "$C/${pages[$i]}.html" "$OUT/unlabelled/$FAMILY/"
    if [ $((i % 2)) -eq 0 ]; then train+=("${pages[$i]}"); else test+=("${pages[$i]}"); fi
done
printf "$FAMILY/%s\n" "${test[@]}" > "$OUT/test.sample"

# 2. cetune label, five pages of the training half.
"$CETUNE" label -d "$OUT/crawl" --listen 127.0.0.1:0 2> "$OUT/label.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
port=$(port_of "$OUT/label.log")
for p in "${train[@]:0:$LABELS}"; do
    cp "$C/$p.txt" "$OUT/crawl/$FAMILY/$p.txt" # the person's judgement
    keep=$(curl -sf "http://127.0.0.1:$port/api/page?id=$FAMILY/$p" |
           sed -n 's/.*"keep":\(\[[^]]*\]\).*/\1/p')
    curl -sf -X POST -H "Content-Type: application/json" \
        --data-binary "{\"id\": \"$FAMILY/$p\", \"keep\": $keep}" \
        "http://127.0.0.1:$port/api/save" > "$OUT/save.$p.json"
    echo "labelled $FAMILY/$p: $(cat "$OUT/save.$p.json")"
done
kill -TERM $pid; wait $pid || true
trap - EXIT

# 3. evolve --fitness template: the five gold files and the pseudo-gold of
# the rest; the same run without labels for comparison.
for run in crawl unlabelled; do
    start=$SECONDS
    # shellcheck disable=SC2086 # STRATEGY is empty or two words
    "$CETUNE" evolve -p params/score.json -d "$OUT/$run" --fitness template --seed "$SEED" \
        $STRATEGY -o "$OUT/runs/$run" --force -q > "$OUT/$run.evolve.txt" 2>&1 ||
        { cat "$OUT/$run.evolve.txt"; exit 1; }
    echo "evolve on $run: $((SECONDS - start)) s"
done

# 4. Scored against the real gold on the test half.
"$CETUNE" evaluate -c "$OUT/runs/crawl/best.json" -c "$OUT/runs/unlabelled/best.json" \
    -c configs/article.json -x score -d "$C" -s "$OUT/test.sample" --show f1 2>/dev/null |
    tee "$OUT/scores.txt"

# 5. Route the family's host to the tuned configuration and serve it.
host=${pages[0]%%_*}
printf '{"routes": [{"host": "*.%s", "config": "%s"}], "default": "%s"}\n' \
    "$host" "$OUT/runs/crawl/best.json" "$(realpath configs/article.json)" > "$OUT/routes.json"
"$CETUNE" serve --routes "$OUT/routes.json" --listen 127.0.0.1:0 2> "$OUT/serve.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
port=$(port_of "$OUT/serve.log")
page=$C/${test[0]}.html
curl -sf --data-binary @"$page" -H "X-Url: https://www.$host/x" "http://127.0.0.1:$port/extract" \
    > "$OUT/served.txt"
"$CETUNE" extract -c "$OUT/runs/crawl/best.json" "$page" > "$OUT/extracted.txt"
if cmp -s "$OUT/served.txt" "$OUT/extracted.txt"; then same=yes; else same=NO; fi
echo "serve --routes: ${test[0]} through *.$host, $(wc -w < "$OUT/served.txt") words, same as extract -c: $same"
kill -TERM $pid; wait $pid || true
trap - EXIT
[ "$same" = yes ]
