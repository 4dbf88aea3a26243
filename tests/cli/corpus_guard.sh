#!/bin/bash
# Corpora are never written: every writer (evaluate --extracts, extract
# --out-dir, evolve -o, sample -o, report) refuses, before writing anything,
# an output that is a page or gold file of a corpus (by inode: links too) or
# lies inside a corpus directory; exit 1 with a message.
# usage: corpus_guard.sh CETUNE SOURCE_DIR
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"

D=$TMP/demo
cp -r "$SRC/samples/demo" "$D"
G=$D/cronaca/festa-san-donato.txt
sum() { find "$D" -type f | sort | xargs cat | md5sum; }
before=$(sum)
# unchanged WHAT: the corpus is as it was, nothing added.
unchanged() {
  if [ "$(sum)" = "$before" ]; then ok; else fail "$1 changed the corpus"; fi
}
refused() { # refused WHAT PATTERN CMD...: exit 1, the message, the corpus untouched
  local what=$1 pat=$2; shift 2
  expect_status 1 "$@"
  expect_grep "$TMP/err" "$pat"
  unchanged "$what"
}

# The issue's two commands.
refused "evaluate --extracts CORPUS" "inside the corpus $D" \
  "$CETUNE" evaluate -x lqf -d "$D" --extracts "$D"
refused "extract --out-dir PACKAGE" "would overwrite the gold standard $G" \
  "$CETUNE" extract -x lqf --out-dir "$D/cronaca" "$D/cronaca/festa-san-donato.html"
# Other names for the same place: a symbolic link, "..", a package given as
# the corpus with --extracts its parent, a hard link to a gold file.
ln -s "$D/cronaca" "$TMP/link"
refused "--extracts via a link" "inside the corpus" \
  "$CETUNE" evaluate -x lqf -d "$D" --extracts "$TMP/link/sub"
refused "--extracts via .." "inside the corpus" \
  "$CETUNE" evaluate -x lqf -d "$D" --extracts "$TMP/nothere/../demo/x"
refused "--extracts above a package corpus" "inside the corpus $D/cronaca" \
  "$CETUNE" evaluate -x lqf -d "$D/cronaca" --extracts "$D"
mkdir -p "$TMP/ex/cronaca" && ln "$G" "$TMP/ex/cronaca/festa-san-donato.txt"
refused "--extracts over a hard link" "would overwrite a file of the corpus" \
  "$CETUNE" evaluate -x lqf -d "$D" --extracts "$TMP/ex"
rm "$TMP/ex/cronaca/festa-san-donato.txt"
# A CleanEval page's gold is in ../GoldStandard.
mkdir -p "$TMP/ce/input" "$TMP/ce/GoldStandard"
cp "$D/cronaca/festa-san-donato.html" "$TMP/ce/input/p.html"
echo gold > "$TMP/ce/GoldStandard/p.txt"
expect_status 1 "$CETUNE" extract -x lqf --out-dir "$TMP/ce/GoldStandard" "$TMP/ce/input/p.html"
expect_grep "$TMP/err" "would overwrite the gold standard"
if [ "$(cat "$TMP/ce/GoldStandard/p.txt")" = gold ]; then ok; else fail "CleanEval gold overwritten"; fi
# sample -o and evolve -o (also into a validation corpus); --force changes nothing.
refused "sample -o" "inside the corpus" \
  "$CETUNE" sample -d "$D" -n 3 -o "$G" --force
refused "evolve -o" "inside the corpus" \
  "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$D" -o "$D/run" --force
refused "evolve -o in --validate" "inside the corpus" \
  "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$SRC/tests/data/ga/corpus" --validate "$D" -o "$D/run"
# report refuses a run directory that lies in the corpora its run.json names.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$D" --pop 4 --generations 1 -o "$TMP/runs/r"
sed -i "s|\"corpus\":[^]]*]|\"corpus\": [\"$TMP/runs\"]|" "$TMP/runs/r/run.json"
expect_status 1 "$CETUNE" report "$TMP/runs/r"
expect_grep "$TMP/err" "inside the corpus $TMP/runs"
if [ -e "$TMP/runs/r/report.md" ]; then fail "report wrote report.md"; else ok; fi

# A folder of NAME.html + NAME.txt pairs is a corpus whether or not -d
# named it: a copy of the corpus given only as --extracts, or a package of it
# as --out-dir, keeps its gold files, with or without --force.
C3=$TMP/c3
cp -r "$SRC/samples/demo" "$C3"
sum3() { find "$C3" -type f | sort | xargs cat | md5sum; }
before3=$(sum3)
for force in "" --force; do
  expect_status 1 "$CETUNE" evaluate -x lqf -d "$D" --extracts "$C3" $force
  expect_grep "$TMP/err" "would be the gold standard of the page $C3/.*\.html"
  expect_status 1 "$CETUNE" extract -x lqf -o "$C3/cronaca" $force "$D/cronaca/festa-san-donato.html"
  expect_grep "$TMP/err" "$C3/cronaca/festa-san-donato.txt would be the gold standard of the page"
  if [ "$(sum3)" = "$before3" ]; then ok; else fail "the unnamed corpus changed (${force:-no --force})"; fi
done
# A gzipped page has its pair too.
mkdir -p "$TMP/gz/p"
gzip -c "$D/cronaca/festa-san-donato.html" >"$TMP/gz/p/festa-san-donato.html.gz"
expect_status 1 "$CETUNE" extract -x lqf -o "$TMP/gz/p" "$D/cronaca/festa-san-donato.html"
expect_grep "$TMP/err" "festa-san-donato.html.gz"

# Outputs elsewhere still work; a second time over the files written, or
# over any existing file, only with --force.
expect_status 0 "$CETUNE" evaluate -x lqf -d "$D" --extracts "$TMP/ex"
if [ -s "$TMP/ex/cronaca/festa-san-donato.txt" ]; then ok; else fail "--extracts elsewhere"; fi
cp "$TMP/ex/cronaca/festa-san-donato.txt" "$TMP/ex1"
echo mine >"$TMP/ex/cronaca/festa-san-donato.txt"
expect_status 1 "$CETUNE" evaluate -x lqf -d "$D" --extracts "$TMP/ex"
expect_grep "$TMP/err" "cronaca/.*.txt exists; use --force"
if [ "$(cat "$TMP/ex/cronaca/festa-san-donato.txt")" = mine ]; then ok; else fail "--extracts replaced a file without --force"; fi
expect_status 0 "$CETUNE" evaluate -x lqf -d "$D" --extracts "$TMP/ex" --force
if cmp -s "$TMP/ex1" "$TMP/ex/cronaca/festa-san-donato.txt"; then ok; else fail "--extracts --force"; fi
expect_status 0 "$CETUNE" extract -x lqf --out-dir "$TMP/o" "$D/cronaca/festa-san-donato.html"
expect_status 1 "$CETUNE" extract -x lqf --out-dir "$TMP/o" "$D/cronaca/festa-san-donato.html"
expect_grep "$TMP/err" "festa-san-donato.txt exists; use --force"
expect_status 0 "$CETUNE" extract -x lqf --out-dir "$TMP/o" --force "$D/cronaca/festa-san-donato.html"
expect_status 0 "$CETUNE" sample -d "$D" -n 3 -o "$TMP/s.txt"
unchanged "the allowed commands"
finish
