#!/usr/bin/env bash
# Site-family tuning end to end (docs/tutorial-family.md): tunes one
# configuration per family (package) of the portals corpus, holding one page
# of each back; writes the routes file from the families' hosts; serves it on
# a free loopback port; extracts each held-back page through HTTP with its
# real URL (the page's <link rel="canonical">), and checks that the text is
# exactly `cetune extract -c` with the configuration of that family.
#
# usage: scripts/serve-families.sh [CETUNE [OUT]]
#   CETUNE   the cetune binary (default build/cetune)
#   OUT      where runs, routes.json and the log go (default runs/families)
# Environment: CETUNE_CORPORA (default ../shared/corpora), PARAMS (default
# params/accb.json), POP and GENERATIONS (the evolution budget, default 20 and
# 20, with the patience rule of evolve: well under a minute on two cores), SEED
# (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
CETUNE=$(realpath "${1:-build/cetune}")
OUT=${2:-runs/families}
C=${CETUNE_CORPORA:-../shared/corpora}/portals
PARAMS=${PARAMS:-params/accb.json}
POP=${POP:-20}
GENERATIONS=${GENERATIONS:-20}
SEED=${SEED:-1}
if [ ! -d "$C" ]; then
    echo "skipping: $C not found"
    exit 77
fi
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

canonical() { # the page's canonical URL
    grep -oiE '<link[^>]*rel="canonical"[^>]*>' "$1" | head -1 | sed -E 's/.*href="([^"]*)".*/\1/'
}

# 1. One run per family, on all its pages but the last (held back).
echo '{"routes": [' > "$OUT/routes.json"
families=()
first=1
for dir in "$C"/*/; do
    fam=$(basename "$dir")
    pages=("$dir"*.html)
    held=${pages[-1]}
    : > "$OUT/$fam.sample"
    for p in "${pages[@]}"; do
        [ "$p" = "$held" ] || echo "$fam/$(basename "$p" .html)" >> "$OUT/$fam.sample"
    done
    "$CETUNE" evolve -p "$PARAMS" -d "$dir" -s "$OUT/$fam.sample" --pop "$POP" \
        --generations "$GENERATIONS" --seed "$SEED" -o "$OUT/runs/$fam" --force \
        > "$OUT/$fam.evolve.txt" 2>&1 || { cat "$OUT/$fam.evolve.txt"; exit 1; }
    # 2. The family's host: its pages are named HOST_..., and their canonical
    # URLs are on that host or a subdomain of it (www.bbc.co.uk for bbc.co.uk).
    host=$(basename "${pages[0]}"); host=${host%%_*}
    [ $first = 1 ] || echo ',' >> "$OUT/routes.json"
    first=0
    printf '  {"host": "*.%s", "config": "runs/%s/best.json"}' "$host" "$fam" >> "$OUT/routes.json"
    families+=("$fam|$host|$held")
done
printf '],\n "default": "default.json"}\n' >> "$OUT/routes.json"
grep -h '"extractor"' "$PARAMS" | head -1 | sed 's/,$//' | sed 's/^ */{/; s/$/}/' > "$OUT/default.json"

# 3. Serve the routes.  The log is made (empty) here: the background job's
# redirection may come after the first look for the port, and sed on a
# missing file would end the script (set -e).  The wait is bounded by wall
# time, generous for a loaded machine, and ends as soon as the port shows.
log=$OUT/serve.log
: > "$log"
"$CETUNE" serve --routes "$OUT/routes.json" --listen 127.0.0.1:0 --threads 2 2>"$log" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
port=
end=$((SECONDS + ${SERVE_WAIT:-120}))
while [ $SECONDS -lt $end ]; do
    port=$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$log")
    [ -n "$port" ] && break
    kill -0 $pid 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start within ${SERVE_WAIT:-120} s"; cat "$log"; exit 1; }

# 4. Each held-back page through HTTP, routed by its URL, against extract -c.
printf '%-13s %-20s %-18s %6s %8s %8s  %s\n' family route "tuned" words "F1 tuned" "F1 dflt" "HTTP == extract -c"
status=0
for f in "${families[@]}"; do
    IFS='|' read -r fam host held <<< "$f"
    url=$(canonical "$held")
    [ -n "$url" ] || url="http://$host/"
    curl -s --max-time 30 -H "X-Url: $url" --data-binary @"$held" "http://127.0.0.1:$port/extract" > "$OUT/$fam.http.txt"
    curl -s --max-time 30 -H "X-Url: $url" -H 'Accept: application/json' --data-binary @"$held" \
        "http://127.0.0.1:$port/extract" > "$OUT/$fam.http.json"
    "$CETUNE" extract -c "$OUT/runs/$fam/best.json" "$held" > "$OUT/$fam.extract.txt"
    same=yes
    cmp -s "$OUT/$fam.http.txt" "$OUT/$fam.extract.txt" || { same=NO; status=1; }
    route=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["route"], j["words"])' "$OUT/$fam.http.json")
    [ "${route% *}" = "$host" ] || { same="NO (routed to ${route% *})"; status=1; }
    name=$(basename "$held" .html)
    echo "$fam/$name" > "$OUT/$fam.held"
    f1() { "$CETUNE" evaluate "$@" -d "$C/$fam" -s "$OUT/$fam.held" --format csv 2>/dev/null | awk -F, '$1 == "macro" {print $5}'; }
    tuned=$(python3 -c 'import json,sys
names = [q["name"] for q in json.load(open(sys.argv[2]))["parameters"]]
p = json.load(open(sys.argv[1]))["params"]
print(" ".join("%s=%s" % (k, p[k]) for k in names))' "$OUT/runs/$fam/best.json" "$PARAMS")
    printf '%-13s %-20s %-18s %6s %8.4f %8.4f  %s\n' "$fam" "${route% *}" "$tuned" "${route#* }" \
        "$(f1 -c "$OUT/runs/$fam/best.json")" "$(f1 -c "$OUT/default.json")" "$same"
done
kill -TERM $pid
wait $pid || { echo "the server did not stop cleanly"; status=1; }
trap - EXIT
echo "routes: $OUT/routes.json; access log: $log"
exit $status
