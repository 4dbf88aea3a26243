#!/bin/bash
# The shipped configuration (configs/article.json): extract and serve use it
# when no configuration is given, found beside the program (the build tree,
# an installed prefix) or through CETUNE_CONFIG; not found is a clear error.
# usage: extract_shipped.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/serve_lib.sh"

cat > "$TMP/a.html" <<'HTML'
<html><head><title>A page</title></head><body>
<div class="nav"><a href="/">Home</a> <a href="/x">News</a> <a href="/y">Sport</a></div>
<div class="article"><h1>The headline of the page</h1>
<p>Main text of the page, long enough to be kept by the shipped configuration, which is score.</p>
<p>A second paragraph of the article with more words, so that the block scores well enough.</p></div>
<div class="footer"><a href="/about">About</a> <a href="/contact">Contact</a></div></body></html>
HTML
SHIPPED=$SRC/configs/article.json

# The build tree's copy is the source file, and extract with no -c uses it.
expect_status 0 "$CETUNE" extract -c "$SHIPPED" "$TMP/a.html"
cp "$TMP/out" "$TMP/want"
expect_grep "$TMP/want" "Main text of the page"
expect_status 0 "$CETUNE" extract "$TMP/a.html"
if cmp -s "$TMP/out" "$TMP/want"; then ok; else fail "extract without -c differs from -c $SHIPPED"; fi
if cmp -s "$SHIPPED" "$(dirname "$CETUNE")/share/cetune/configs/article.json"; then ok
else fail "the build tree's share/cetune/configs/article.json is not configs/article.json"; fi

# CETUNE_CONFIG names any configuration; a file that cannot be read is refused.
printf '{"extractor": "alltext", "params": {}}\n' > "$TMP/all.json"
CETUNE_CONFIG=$TMP/all.json expect_status 0 "$CETUNE" extract "$TMP/a.html"
expect_grep "$TMP/out" "About Contact"
CETUNE_CONFIG=$TMP/none.json expect_status 1 "$CETUNE" extract "$TMP/a.html"
expect_grep "$TMP/err" "$TMP/none.json: No such file"; expect_grep "$TMP/err" "environment variable CETUNE_CONFIG"
# -c wins over CETUNE_CONFIG; -c with --routes, or two configurations, stay refused.
CETUNE_CONFIG=$TMP/none.json expect_status 0 "$CETUNE" extract -c "$SHIPPED" "$TMP/a.html"
expect_status 2 "$CETUNE" extract -c "$SHIPPED" -x alltext "$TMP/a.html"

# An installed layout: PREFIX/bin/cetune reads PREFIX/share/cetune/configs/.
mkdir -p "$TMP/p/bin" "$TMP/p/share/cetune/configs" "$TMP/q/bin"
cp "$CETUNE" "$TMP/p/bin/cetune"
cp "$TMP/all.json" "$TMP/p/share/cetune/configs/article.json"
expect_status 0 "$TMP/p/bin/cetune" extract "$TMP/a.html"
expect_grep "$TMP/out" "About Contact"
# Nowhere to be found: exit 1 (a missing file) naming the places looked in (unless the
# configured prefix holds an installed copy).
cp "$CETUNE" "$TMP/q/bin/cetune"
"$TMP/q/bin/cetune" extract "$TMP/a.html" >"$TMP/out" 2>"$TMP/err"
st=$?
if grep -q "was not found" "$TMP/err"; then
  if [ $st = 1 ]; then ok; else fail "not found: exit $st"; fi
  expect_grep "$TMP/err" "$TMP/q/bin/share/cetune/configs/article.json"
  expect_grep "$TMP/err" "set CETUNE_CONFIG"
elif [ $st = 0 ]; then
  echo "note: an installed configuration was found: $(cat "$TMP/err")"
else
  fail "exit $st: $(cat "$TMP/err")"
fi

# serve without -c or --routes serves the shipped configuration.
start_server "$TMP/log"
code=$(curl -s -o "$TMP/o" -w '%{http_code}' --data-binary @"$TMP/a.html" "http://127.0.0.1:$PORT/extract")
if [ "$code" = 200 ] && cmp -s "$TMP/o" "$TMP/want"; then ok; else fail "serve without -c: $code"; fi
expect_grep "$TMP/log" "share/cetune/configs/article.json"
stop_server
if [ "$SERVE_STATUS" = 0 ]; then ok; else fail "serve exit $SERVE_STATUS"; fi
CETUNE_CONFIG=$TMP/none.json expect_status 1 "$CETUNE" serve --listen 127.0.0.1:0
expect_grep "$TMP/err" "CETUNE_CONFIG"
finish
