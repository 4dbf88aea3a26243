#!/bin/bash
# From a crawl to tuned routes: a WARC built from the portals pages of
# ../shared/corpora (one host per family) is a corpus whose packages are its
# hosts; `cetune routes` tunes each host with --fitness template and writes
# routes.json; the tuned configurations beat the shipped one on the gold of
# the crawl's pages; extract --warc --routes uses the routes; a host with too
# few pages keeps the default; an earlier routes.json is kept without --force.
# usage: routes_crawl.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"
need_corpora portals
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
P=$C/portals
$PY "$SRC/tests/cli/warc_tool.py" pack "$TMP/crawl.warc.gz" www.bbc.example=$P/bbc \
    www.msnbc.example=$P/msnbc www.wapo.example=$P/wapo www.wsj.example=$P/wsj-brussels
shipped=$(cd "$(dirname "$CETUNE")" && pwd)/share/cetune/configs/article.json

# At the default budget of 200 evaluations a host: with 20, no host found a
# pseudo-gold gain.
expect_status 0 "$CETUNE" routes -d "$TMP/crawl.warc.gz" -o "$TMP/r" --threads 2
cp "$TMP/out" "$TMP/table"
cat "$TMP/table"
expect_grep "$TMP/table" "^host  *pages  *used  *shipped  *tuned  *gain  *route"
expect_grep "$TMP/table" "^www.msnbc.example  *30  *30  *0\.[0-9]*  *[01]\.[0-9]*  *[-+]0\.[0-9]*  "
[ -f "$TMP/r/routes.json" ] && ok || fail "no routes.json"
for h in www.bbc.example www.msnbc.example www.wapo.example www.wsj.example; do
    [ -f "$TMP/r/$h/best.json" ] && ok || fail "$h was not tuned"
done

# A host's run is an ordinary run: it resumes, its WARC pages checked by digest.
expect_status 0 "$CETUNE" evolve --resume "$TMP/r/www.bbc.example"
grep -q '"[^"]*crawl.warc.gz#[0-9]*", "[0-9a-f]\{16\}"' "$TMP/r/www.bbc.example/checkpoint.json" && ok ||
    fail "the checkpoint does not record the WARC pages' digests"

# On the gold of the crawl's pages: each routed host's configuration against
# the shipped one (the default of the hosts without a route).
total_tuned=0
total_shipped=0
n=0
for pair in bbc:www.bbc.example msnbc:www.msnbc.example wapo:www.wapo.example wsj-brussels:www.wsj.example; do
    pkg=${pair%%:*}
    host=${pair#*:}
    cfg=$shipped
    grep -q "\"host\":[[:space:]]*\"$host\"" "$TMP/r/routes.json" && cfg=$TMP/r/$host/best.json
    "$CETUNE" evaluate -c "$cfg" -c "$shipped" -d "$P/$pkg" --format json >"$TMP/eval.json" 2>/dev/null ||
        fail "evaluate on $pkg"
    read -r t s < <($PY -c 'import json,sys; c=json.load(open(sys.argv[1]))["configurations"]; print(c[0]["macro"]["f1"], c[1]["macro"]["f1"])' "$TMP/eval.json")
    echo "$pkg: routed $t, shipped $s (gold)"
    total_tuned=$($PY -c "print($total_tuned + $t)")
    total_shipped=$($PY -c "print($total_shipped + $s)")
    n=$((n + 1))
done
echo "mean over the $n hosts: routes $($PY -c "print(round($total_tuned / $n, 4))"), shipped $($PY -c "print(round($total_shipped / $n, 4))")"
$PY -c "import sys; sys.exit(not $total_tuned > $total_shipped)" && ok ||
    fail "the routes do not beat the shipped configuration on gold ($total_tuned vs $total_shipped)"

# The routes at work: every page, each with its host's configuration.
expect_status 0 "$CETUNE" extract --warc --routes "$TMP/r/routes.json" "$TMP/crawl.warc.gz"
[ "$(wc -l <"$TMP/out")" -eq 71 ] && ok || fail "extract --warc --routes: $(wc -l <"$TMP/out") lines"
page=$(ls "$P"/wapo/*.html | head -1)
cfg=$TMP/r/www.wapo.example/best.json
grep -q '"www.wapo.example"' "$TMP/r/routes.json" || cfg=$shipped
want=$("$CETUNE" extract -c "$cfg" --format json --url "http://www.wapo.example/$(basename "$page")" "$page")
grep -F -q "${want%\}}" "$TMP/out" && ok || fail "the wapo page is not extracted with its route's configuration"

# Too few pages: the default route; an earlier routes.json stays without --force.
expect_status 0 "$CETUNE" routes -d "$TMP/crawl.warc.gz" -o "$TMP/r2" --min-pages 20 --max-evals 4 --threads 2
expect_grep "$TMP/out" "^www.bbc.example  *12  *-.*default (too few pages)"
expect_grep "$TMP/err" "1 host tuned"
expect_status 1 "$CETUNE" routes -d "$TMP/crawl.warc.gz" -o "$TMP/r2" --min-pages 20 --max-evals 4
expect_grep "$TMP/err" "routes.json exists: give --force"
finish
