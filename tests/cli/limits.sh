# Input limits (docs/reliability.md): a 50 MB page, a page nested 100,000
# elements deep, a page of one 10 MB text node and one word in a million
# pieces load within their documented time and memory bounds, every
# extractor runs on the first three, and not a
# word is lost; a page over the 64 MB limit is skipped with its reason.  The
# pages are generated here, never committed.
#
# Under AddressSanitizer (CI's second pass) memory is dominated by shadow
# memory and everything runs several times slower, so the 50 MB and 10 MB
# pages shrink tenfold (the 100,000-deep page keeps its depth) and only the
# time bounds, not the memory bounds, are checked.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
if [ ! -x /usr/bin/time ]; then
  echo "skipping: /usr/bin/time (GNU time, installed by scripts/install-deps.sh) not found"
  exit 77
fi
if [ -n "${CETUNE_SANITIZED:-}" ]; then  # set by tests/CMakeLists.txt
  sanitized=1 blocks=45000 lorems=170000
  echo "sanitizer build: 5 MB and 1 MB pages instead of 50 MB and 10 MB; memory not checked"
else
  sanitized=0 blocks=450000 lorems=1700000
fi
depth=100000

# Pages: big (blocks of a paragraph and a link, 10 words each), deep (one
# word per level) and text (one text node of "lorem " repeated), each with a
# small gold so the metric's LCS stays cheap.
P=$TMP/c/limits
mkdir -p "$P"
{ echo '<!DOCTYPE html><html><head><title>big</title></head><body>'
  seq 1 $blocks | sed 's|.*|<div class="c"><p>lorem ipsum dolor sit amet consectetur adipiscing elit w&</p><a href="/x">more</a></div>|'
  echo '</body></html>'; } > "$P/big.html"
{ echo '<html><body>'; seq 1 $depth | sed 's|.*|<div>d&|' | tr -d '\n'
  yes '</div>' | head -n $depth | tr -d '\n'; echo '</body></html>'; } > "$P/deep.html"
{ printf '<html><body><p>'; yes lorem | head -n $lorems | tr '\n' ' '; echo '</p></body></html>'; } > "$P/text.html"
for f in big deep text; do echo 'lorem ipsum dolor' > "$P/$f.txt"; done
declare -A words=([big]=$((blocks * 10)) [deep]=$depth [text]=$lorems)
# Bounds: peak resident memory in kB and CPU seconds (user + system) per
# command, generous guards against work that grows faster than the page
# (wall-clock time would measure the machine's load, not cetune)
# (wall-clock measured on 2 cores: 50 MB page 330-450 MB and 2-4 s by extractor;
# deep page 25-30 MB, 0.2 s; text node 64 MB, 0.5 s; all nine extractors
# evaluated at once on the three pages, each keeping its per-document
# preparation, 870 MB and 4 s).
declare -A max_kb=([big]=655360 [deep]=65536 [text]=131072 [all]=1048576)
declare -A max_s=([big]=30 [deep]=10 [text]=10 [all]=60)

# bounded BOUNDS CMD...: runs CMD under GNU time, checks exit 0 and the
# bounds (big, deep, text or all); stdout in $TMP/out.
bounded() {
  local page=$1; shift
  /usr/bin/time -f '%U %S %M' -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err"
  local status=$?
  local user sys s kb; read -r user sys kb < <(tail -1 "$TMP/time")
  s=$(awk -v u="$user" -v y="$sys" 'BEGIN { printf "%.2f", u + y }')
  if [ $status -eq 0 ]; then ok; else fail "exit $status ($(tail -1 "$TMP/time")): ${*:2}"; sed 's/^/  stderr: /' "$TMP/err" | head -3 >&2; fi
  if awk -v s="$s" -v m="${max_s[$page]}" 'BEGIN { exit !(s <= m) }'; then ok; else fail "$page: $s CPU s > ${max_s[$page]} s: ${*:2}"; fi
  if [ $sanitized -eq 1 ] || [ "$kb" -le "${max_kb[$page]}" ]; then ok; else fail "$page: peak RSS $kb kB > ${max_kb[$page]} kB: ${*:2}"; fi
  echo "$page: ${*:2:3}: $s s of CPU, $kb kB"
}

# Every word loaded and scored: alltext keeps all text.
for f in big deep text; do
  mkdir -p "$TMP/one-$f/p" && ln -s "$P/$f.html" "$P/$f.txt" "$TMP/one-$f/p/"
  bounded $f "$CETUNE" evaluate -x alltext -d "$TMP/one-$f" --per-doc --format csv
  got=$(awk -F, 'NR == 2 { print $3 }' "$TMP/out")
  if [ "$got" = "${words[$f]}" ]; then ok; else fail "$f: $got words scored, ${words[$f]} generated"; fi
done

# Every extractor, through evaluate (all at once) and extract (one page at a time).
extractors=$("$CETUNE" list | awk '/^[a-z]/ { print $1 }')
if [ "$(echo $extractors | wc -w)" -ge 9 ]; then ok; else fail "cetune list: $extractors"; fi
bounded all "$CETUNE" evaluate $(printf -- '-x %s ' $extractors) -d "$TMP/c" --threads 1
for x in $extractors; do
  for f in big deep text; do
    bounded $f "$CETUNE" extract -x $x "$P/$f.html"
    got=$(wc -w < "$TMP/out")
    if [ "$x" = alltext ] && [ "$got" != "${words[$f]}" ]; then fail "extract -x alltext $f: $got words, ${words[$f]} generated"
    elif [ "$got" -le "${words[$f]}" ]; then ok; else fail "extract -x $x $f: $got words, more than generated"; fi
  done
done
bounded deep "$CETUNE" extract -x alltext --format html "$P/deep.html"
if [ "$(grep -o '<div>' "$TMP/out" | wc -l)" -eq $depth ]; then ok; else fail "--format html lost levels of deep.html"; fi

# One word split by inline elements into a million pieces (8 MB; a tenth
# under sanitizers) is one word, counted and printed, in linear time: each
# piece joins the text node the word begins in, which is tokenized once.
pieces=$((sanitized ? 100000 : 1000000))
mkdir -p "$TMP/word/p"
{ printf '<html><body><p>'; yes '<b>a</b>' | head -n $pieces | tr -d '\n'; echo '</p></body></html>'; } > "$TMP/word/p/word.html"
echo lorem > "$TMP/word/p/word.txt"
bounded text "$CETUNE" evaluate -x alltext -d "$TMP/word" --per-doc --format csv
got=$(awk -F, 'NR == 2 { print $3 }' "$TMP/out")
if [ "$got" = 1 ]; then ok; else fail "word.html: $got words scored, 1 generated"; fi
bounded text "$CETUNE" extract -x alltext "$TMP/word/p/word.html"
if [ "$(wc -w < "$TMP/out")" = 1 ] && [ "$(wc -c < "$TMP/out")" = $((pieces + 1)) ]; then ok
else fail "extract -x alltext word.html: $(wc -w < "$TMP/out") words, $(wc -c < "$TMP/out") bytes"; fi

# Over the limit: skipped with a reason, never truncated (a sparse file).
mkdir -p "$TMP/over/p"
truncate -s 70M "$TMP/over/p/huge.html"
echo gold > "$TMP/over/p/huge.txt"
cp "$SRC/tests/data/ga/corpus/blog/blog-1.html" "$SRC/tests/data/ga/corpus/blog/blog-1.txt" "$TMP/over/p/"
expect_status 0 "$CETUNE" evaluate -x alltext -d "$TMP/over"
expect_grep "$TMP/err" "skipped .*huge.html: .*larger than 64 MB"
expect_grep "$TMP/err" "loaded 1 document in 1 package .*skipped 1"
expect_status 1 "$CETUNE" extract -x alltext "$TMP/over/p/huge.html"
expect_grep "$TMP/err" "huge.html: larger than 64 MB"
# Deeper than the model's 1,000,000 levels (CET_MAX_DEPTH): skipped with its reason.
{ echo '<html><body>'; yes '<div>' | head -n 1000000 | tr -d '\n'; echo 'too deep'; } > "$TMP/over/p/deeper.html"
echo 'too deep' > "$TMP/over/p/deeper.txt"
expect_status 0 "$CETUNE" evaluate -x alltext -d "$TMP/over"
expect_grep "$TMP/err" "skipped .*deeper.html: elements nested deeper than the limit of 1000000"
expect_status 1 "$CETUNE" extract -x alltext "$TMP/over/p/deeper.html"
expect_grep "$TMP/err" "deeper.html: elements nested deeper than the limit of 1000000"
finish
