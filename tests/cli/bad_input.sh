# Hostile and broken pages: the parser loads no external DTD or entity (no
# file, no network), a corrupt gzipped page is reported with zlib's reason
# and skipped and counted by evaluate, and every extractor gets through a
# page of tag soup.  (Fuzzing, fuzz/, and scripts/stress.sh go further.)
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"

# External DTD and entities: neither read nor expanded.
printf '<!ENTITY secret "LEAKED-DTD">\n' > "$TMP/evil.dtd"
echo LEAKED-FILE > "$TMP/secret.txt"
printf '<!DOCTYPE html SYSTEM "file://%s/evil.dtd" [<!ENTITY local SYSTEM "file://%s/secret.txt">]>\n<html><body><p>before &secret; &local; after</p><p>&amp; &eacute;</p></body></html>\n' \
  "$TMP" "$TMP" > "$TMP/entities.html"
expect_status 0 "$CETUNE" extract -x alltext "$TMP/entities.html"
if grep -q LEAKED "$TMP/out"; then fail "an external entity was loaded: $(cat "$TMP/out")"; else ok; fi
expect_grep "$TMP/out" 'before &secret; &local; after'
expect_grep "$TMP/out" '^& é$'
expect_status 0 "$CETUNE" extract -x alltext --format html "$TMP/entities.html"
if grep -q LEAKED "$TMP/out"; then fail "an external entity was loaded (html)"; else ok; fi

# A gzipped page with a broken checksum: zlib's reason (read before the
# stream is closed: it once was read after, from freed memory).
mkdir -p "$TMP/c/p"
printf '<html><body><p>hello world</p></body></html>' | gzip -c > "$TMP/c/p/bad.html.gz"
size=$(stat -c %s "$TMP/c/p/bad.html.gz")
printf '\0\0\0\0' | dd of="$TMP/c/p/bad.html.gz" bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
echo 'hello world' > "$TMP/c/p/bad.txt"
expect_status 1 "$CETUNE" extract -x alltext "$TMP/c/p/bad.html.gz"
expect_grep "$TMP/err" "bad.html.gz: corrupt gzip data (incorrect data check)$"
cp "$SRC/tests/data/ga/corpus/blog/blog-1.html" "$SRC/tests/data/ga/corpus/blog/blog-1.txt" "$TMP/c/p/"
expect_status 0 "$CETUNE" evaluate -x alltext -d "$TMP/c"
expect_grep "$TMP/err" "skipped .*bad.html.gz: .*corrupt gzip data (incorrect data check)"
expect_grep "$TMP/err" "loaded 1 document in 1 package .*skipped 1"

# A gzipped page cut short: zlib says so only in gzclose and
# gzerror; it was read as a shorter page, with exit 0.
{ printf '<html><body>'; for i in $(seq 300); do printf '<p>paragraph %d of a long page</p>' $i; done
  printf '</body></html>'; } | gzip -c | head -c 300 > "$TMP/c/p/cut.html.gz"
expect_status 1 "$CETUNE" extract -x alltext "$TMP/c/p/cut.html.gz"
expect_grep "$TMP/err" "cut.html.gz: truncated gzip data"
expect_grep "$TMP/err" "extracted 0 of 1 pages, 1 failed"
printf 'paragraph 1 of a long page\n' > "$TMP/c/p/cut.txt"
expect_status 0 "$CETUNE" evaluate -x alltext -d "$TMP/c"
expect_grep "$TMP/err" "skipped .*cut.html.gz: truncated gzip data"
expect_grep "$TMP/err" "loaded 1 document in 1 package .*skipped 2"
rm "$TMP/c/p/cut.html.gz" "$TMP/c/p/cut.txt"

# Tag soup: unclosed, misnested and stray tags, NUL and invalid UTF-8 bytes,
# odd character references, an unclosed comment.
{ printf '<html><body><table><tr><td><a href="x"><div><p>one<b>two</p></b></a>three</td>'
  printf '<td>\0four \xff\xfe five &#0; &#xD800; &#x110000; &#99999999999; six</td></tr>'
  printf '</div></table><ul><li>seven<li>eight</ul></span></a></td>nine<script>x<y</script>'
  printf '<form><select><option>ten</select></form><!-- never closed <p>eleven'; } > "$TMP/soup.html"
for x in $("$CETUNE" list | awk '/^[a-z]/ { print $1 }'); do
  for fmt in text html; do
    expect_status 0 "$CETUNE" extract -x $x --format $fmt "$TMP/soup.html"
  done
done
expect_status 0 "$CETUNE" extract -x alltext "$TMP/soup.html"
for w in one two three four five six seven eight nine; do expect_grep "$TMP/out" "$w"; done
finish
