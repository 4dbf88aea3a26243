# cetune sample and the training sample of cetune evolve: seeded, in
# proportion to the packages, the same draw in both commands, unusable
# documents replaced, -s FILE honoured.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
list() { grep -v '^#' "$1"; }

expect_status 0 "$CETUNE" sample -d "$G/corpus" -n 4 --seed 3 -o "$TMP/s.txt"
expect_grep "$TMP/out" "s.txt: 4 documents from 2 packages (blog 2, news 2), seed 3"
if [ "$(list "$TMP/s.txt" | wc -l)" -eq 4 ]; then ok; else fail "sample size"; fi
if [ "$(list "$TMP/s.txt" | grep -c '^news/')" -eq 2 ]; then ok; else fail "not proportional"; fi
expect_status 0 "$CETUNE" sample -d "$G/corpus" -n 4 --seed 3 -o -
if cmp -s "$TMP/out" "$TMP/s.txt"; then ok; else fail "same seed, different sample"; fi
expect_status 1 "$CETUNE" sample -d "$G/corpus" -n 4 --seed 3 -o "$TMP/s.txt"
expect_grep "$TMP/err" 's.txt exists; use --force'
expect_status 0 "$CETUNE" sample -d "$G/corpus" -n 4 --seed 3 -o "$TMP/s.txt" --force

# evolve --sample-size draws that very sample; -s FILE trains on the file.
expect_status 0 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --sample-size 4 --seed 3 --pop 4 --generations 2 -o "$TMP/r1"
if cmp -s <(list "$TMP/s.txt") <(list "$TMP/r1/sample.txt"); then ok; else fail "evolve drew another sample"; fi
expect_grep "$TMP/err" 'loaded 4 documents in 2 packages'
expect_grep "$TMP/r1/best.json" '"docs": 4[,}]'
printf 'news/news-2\n# a comment\nblog/blog-4\n' > "$TMP/mine.txt"
expect_status 0 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" -s "$TMP/mine.txt" --pop 4 --generations 2 -o "$TMP/r2"
if [ "$(list "$TMP/r2/sample.txt" | tr '\n' ' ')" = "blog/blog-4 news/news-2 " ]; then ok; else fail "-s FILE not honoured"; fi
expect_grep "$TMP/r2/run.json" "\"from\":	\"$TMP/mine.txt\""
printf 'news/nope\n' > "$TMP/bad.txt"
expect_status 1 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" -s "$TMP/bad.txt" -o "$TMP/r3"
expect_grep "$TMP/err" "'news/nope' is not a document of the given corpora"

# Different seeds draw differently (36 documents, 3 per package of 12).
if [ -d "$SRC/samples/demo" ]; then
  expect_status 0 "$CETUNE" sample -d "$SRC/samples/demo" -n 9 --seed 1 -o "$TMP/d1.txt"
  expect_status 0 "$CETUNE" sample -d "$SRC/samples/demo" -n 9 --seed 2 -o "$TMP/d2.txt"
  if cmp -s <(list "$TMP/d1.txt") <(list "$TMP/d2.txt"); then fail "seeds 1 and 2 drew the same"; else ok; fi
  expect_status 0 "$CETUNE" sample -d "$SRC/samples/demo" -n 9 --seed 1 --by-package -o -
  for p in cronaca dailyherald stadtblatt; do
    if [ "$(grep -c "^$p/" "$TMP/out")" -eq 3 ]; then ok; else fail "by-package share of $p"; fi
  done
fi

# Documents without gold are never drawn; one that fails to load is replaced.
mkdir -p "$TMP/c/news"
cp "$G"/corpus/news/* "$TMP/c/news/"
cp "$SRC/tests/data/corpus/canon/pages/binary-garbage.html" "$TMP/c/news/news-0.html"
cp "$SRC/tests/data/corpus/canon/pages/binary-garbage.txt" "$TMP/c/news/news-0.txt"
cp "$G/corpus/news/news-1.html" "$TMP/c/news/orphan.html"
expect_status 0 "$CETUNE" sample -d "$TMP/c" -n 4 --seed 1 -o -
if grep -q orphan "$TMP/out"; then fail "a page without gold was drawn"; else ok; fi
if [ "$(list "$TMP/out" | wc -l)" -eq 4 ]; then ok; else fail "sample of 4 expected"; fi
for s in 1 2 3 4 5 6 7 8; do
  "$CETUNE" sample -d "$TMP/c" -n 4 --seed $s -o - > "$TMP/o" 2> "$TMP/e"
  if grep -q 'skipped .*news-0.html' "$TMP/e"; then break; fi
done
expect_grep "$TMP/e" 'drawing 1 replacement for the skipped documents'
if [ "$(list "$TMP/o" | wc -l)" -eq 4 ] && ! grep -q news-0 "$TMP/o"; then ok; else fail "the skipped page was not replaced"; fi
expect_status 0 "$CETUNE" sample -d "$TMP/c" -n 9 -o -
# 5 documents have gold, one of them is binary: 4 usable.
expect_grep "$TMP/err" 'only 4 usable documents'

# Usage errors.
expect_status 2 "$CETUNE" sample -d "$G/corpus" -o -
expect_status 2 "$CETUNE" sample -n 3 -o -
expect_status 2 "$CETUNE" sample -d "$G/corpus" -n 3
expect_status 2 "$CETUNE" sample -d "$G/corpus" -n 3 --seed -1 -o -
expect_status 2 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --by-package -o "$TMP/r4"
finish
