# cmake --install puts the command, libcetune (shared with an soname, and
# static), its headers, cetune.pc, the man page and params/ under a prefix;
# examples/extract_page.c compiles against that tree with pkg-config alone,
# and prints exactly what `cetune extract -c best.json PAGE` prints.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
if [ -n "$CETUNE_SANITIZED" ]; then
  echo "skipping: a sanitizer build's library needs the sanitizer runtime in every program"
  exit 77
fi
BUILD=$(dirname "$CETUNE")
X=$TMP/x
expect_status 0 cmake --install "$BUILD" --prefix "$X"
LIBDIR=$(dirname "$(find "$X" -name libcetune.a | head -1)")
for f in bin/cetune include/cetune/page.h include/cetune/run.h share/cetune/params/lqf.json \
         share/cetune/configs/article.json share/cetune/label/index.html \
         share/cetune/label/label.js share/cetune/label/label.css \
         share/man/man1/cetune.1; do
  if [ -f "$X/$f" ]; then ok; else fail "$f not installed"; fi
done
if [ -f "$LIBDIR/pkgconfig/cetune.pc" ]; then ok; else fail "cetune.pc not installed"; fi
# Every field of cetune.pc says what pkg-config expects (URL: a README was none).
if grep -q '^URL: *[^h]' "$LIBDIR/pkgconfig/cetune.pc"; then fail "cetune.pc: $(grep '^URL' "$LIBDIR/pkgconfig/cetune.pc")"; else ok; fi
soname=$(objdump -p "$LIBDIR/libcetune.so" 2>/dev/null | sed -n 's/^ *SONAME *//p')
if [ "$soname" = "libcetune.so.0" ] && [ -f "$LIBDIR/$soname" ]; then ok; else fail "soname '$soname'"; fi

export PKG_CONFIG_PATH=$LIBDIR/pkgconfig
flags=$(pkg-config --cflags --libs cetune) || fail "pkg-config --cflags --libs cetune"
expect_status 0 cc -std=c11 -Wall -Wextra -Werror "$SRC/examples/extract_page.c" $flags -o "$TMP/extract_page"
if [ "$(grep -c '' "$SRC/examples/extract_page.c")" -le 40 ]; then ok; else fail "the example is over 40 lines"; fi

# A tuned configuration (crunch reads the ad-host list too), then pages.
expect_status 0 "$X/bin/cetune" evolve -p "$SRC/params/crunch.json" -d "$SRC/samples/demo" \
  --sample-size 12 --generations 2 --seed 3 -o "$TMP/run"
n=0
for page in "$SRC"/samples/demo/*/*.html "$SRC"/tests/data/corpus/canon/pages/cp1252*.html; do
  [ -f "$page" ] || continue
  LD_LIBRARY_PATH=$LIBDIR "$TMP/extract_page" "$TMP/run/best.json" "$page" > "$TMP/a" || fail "extract_page $page"
  "$X/bin/cetune" extract -c "$TMP/run/best.json" "$page" > "$TMP/b" 2>/dev/null
  if cmp -s "$TMP/a" "$TMP/b"; then ok; else fail "extract_page differs from cetune extract on $page"; fi
  n=$((n + 1))
done
if [ $n -ge 10 ]; then ok; else fail "only $n pages compared"; fi
# The installed cetune finds its shipped configuration under the prefix.
page=$SRC/samples/demo/cronaca/$(ls "$SRC/samples/demo/cronaca" | grep -m1 '\.html$')
"$X/bin/cetune" extract -c "$X/share/cetune/configs/article.json" "$page" > "$TMP/a" 2>&1
CETUNE_CONFIG= "$X/bin/cetune" extract "$page" > "$TMP/b" 2>&1
if [ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b"; then ok; else fail "installed cetune without -c: $(head -2 "$TMP/b")"; fi
# ... and its labelling page (cetune label), served from the prefix's share/cetune/label.
cp -r "$SRC/tests/data/label" "$TMP/label"
"$X/bin/cetune" label -d "$TMP/label" --listen 127.0.0.1:0 2>"$TMP/label.log" &
pid=$!
port=$(label_port "$TMP/label.log" $pid 600)
if [ -n "$port" ] && curl -sf "http://127.0.0.1:$port/" | cmp -s - "$SRC/share/label/index.html"; then ok
else fail "installed cetune label does not serve its page: $(cat "$TMP/label.log")"; fi
kill -TERM $pid 2>/dev/null
wait $pid
# The Python module, installed into the prefix's Debian site directory, finds the
# prefix's shipped configuration: the documented one-liner prints the page's title.
pydir=$(dirname "$(dirname "$(find "$X" -name '_cetune*.so' | head -1)")")
if [ -x /usr/bin/python3 ] && [ "$pydir" != . ]; then
  case $pydir in */lib/python3*/dist-packages) ok ;; *) fail "the Python module went to $pydir" ;; esac
  P=$SRC/samples/demo/cronaca/allerta-arancione-temporali.html
  got=$(cd "$TMP" && PYTHONPATH=$pydir CETUNE_CONFIG= /usr/bin/python3 -c "import cetune; print(cetune.Extractor().extract(open('$P','rb').read(), format='json')['title'])" 2>&1)
  want=$("$X/bin/cetune" extract --format json "$P" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["title"])')
  if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else fail "import cetune from the prefix: '$got', want '$want'"; fi
fi
finish
