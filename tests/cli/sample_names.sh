# Every list cetune writes (sample -o, a run's sample.txt) reads back
# whatever the names: a package named "#stadt" (a comment, written plain)
# and a page whose name holds a newline are quoted, and evaluate -s scores
# exactly the documents listed (docs/formats.md, "Sample files").
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"

C=$TMP/c
cp -r "$SRC/samples/demo" "$C"
mv "$C/stadtblatt" "$C/#stadt"
nl=$'two\nlines'
cp "$C/cronaca/festa-san-donato.html" "$C/cronaca/$nl.html"
cp "$C/cronaca/festa-san-donato.txt" "$C/cronaca/$nl.txt"
total=$(find "$C" -name '*.html' -printf x | wc -c)

expect_status 0 "$CETUNE" sample -d "$C" -n 1000 -o "$TMP/all.txt"
expect_grep "$TMP/all.txt" '^"#stadt/'
expect_grep "$TMP/all.txt" '^"cronaca/two\\nlines"$'
expect_status 0 "$CETUNE" evaluate -x lqf -d "$C" -s "$TMP/all.txt"
expect_grep "$TMP/err" "loaded $total documents in 3 packages"

# A run's sample.txt, given back to evaluate, is the run's documents.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$C" --pop 4 --generations 1 --seed 2 -q -o "$TMP/run"
expect_status 0 "$CETUNE" evaluate -x lqf -d "$C" -s "$TMP/run/sample.txt"
expect_grep "$TMP/err" "loaded $total documents in 3 packages"
# A file written before quoting (plain lines) still reads.
printf 'cronaca/festa-san-donato\n  # a comment\n\n' >"$TMP/old.txt"
expect_status 0 "$CETUNE" evaluate -x lqf -d "$C" -s "$TMP/old.txt"
expect_grep "$TMP/err" "loaded 1 document in 1 package"
finish
