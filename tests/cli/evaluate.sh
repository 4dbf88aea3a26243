# cetune evaluate and list: formats, errors and exit codes.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
D=$SRC/tests/data/corpus

expect_status 2 "$CETUNE"
expect_status 2 "$CETUNE" frobnicate
expect_status 0 "$CETUNE" list
expect_grep "$TMP/out" '^alltext'
expect_status 2 "$CETUNE" list nope
expect_status 2 "$CETUNE" evaluate -x nope -d "$D/canon"
expect_grep "$TMP/err" "unknown extractor 'nope'"
expect_status 2 "$CETUNE" evaluate -x alltext
expect_grep "$TMP/err" 'give at least one corpus'
expect_status 2 "$CETUNE" evaluate -x alltext -d "$D/canon" --format xml
expect_status 2 "$CETUNE" evaluate -x alltext -d "$D/canon" -P t=1
expect_status 1 "$CETUNE" evaluate -x alltext -d /nonexistent/corpus
expect_grep "$TMP/err" '/nonexistent/corpus: not a directory'

# Malformed configuration: file:line:col.
printf '{"extractor": "alltext",\n  "params": {\n' > "$TMP/bad.json"
expect_status 2 "$CETUNE" evaluate -c "$TMP/bad.json" -d "$D/canon"
expect_grep "$TMP/err" "bad.json:3:1: malformed JSON"
printf '{"extractor": "alltext",\n  "params": {"t": 1}}\n' > "$TMP/unknown.json"
expect_status 2 "$CETUNE" evaluate -c "$TMP/unknown.json" -d "$D/canon"
expect_grep "$TMP/err" 'unknown.json:2:14: extractor .alltext. has no parameter "t"'

# Bad documents are skipped with a reason each and counted.
expect_status 0 "$CETUNE" evaluate -x alltext -d "$D/canon"
expect_grep "$TMP/err" 'skipped .*binary-garbage.html: binary data'
expect_grep "$TMP/err" 'skipped .*no-gold.html: no gold standard'
expect_grep "$TMP/err" 'skipped .*zero-bytes.html: empty page'
expect_grep "$TMP/err" 'loaded 4 documents in 1 package .* skipped 3'
expect_grep "$TMP/out" '^macro average *4 '

# Per-document CSV with the contract's header, JSON, extracts.
expect_status 0 "$CETUNE" evaluate -x alltext -d "$D/canon" -d "$D/cleaneval" --per-doc --format csv --threads 1
if [ "$(head -1 "$TMP/out")" = "package,name,words_extract,words_gold,lcs,precision,recall,f1" ]; then ok; else fail "csv header: $(head -1 "$TMP/out")"; fi
expect_grep "$TMP/out" '^pages,utf8-bom,4,4,4,1.000000,1.000000,1.000000$'
expect_grep "$TMP/out" '^cleaneval,2,2,0,0,0.000000,1.000000,0.000000$'
if [ "$(wc -l < "$TMP/out")" -eq 7 ]; then ok; else fail "csv rows: $(wc -l < "$TMP/out")"; fi
expect_status 0 "$CETUNE" evaluate -x alltext -d "$D/article" --format json --per-doc
expect_grep "$TMP/out" '"macro": {"docs": 2, '
expect_grep "$TMP/out" '"name": "abc123", "words_extract": 4, "words_gold": 4, "lcs": 4'
expect_status 0 "$CETUNE" evaluate -x alltext -d "$D/canon" --extracts "$TMP/ex"
if [ "$(cat "$TMP/ex/pages/utf8-bom.txt")" = "Perchè no? Città bella." ]; then ok; else fail "extract text: $(cat "$TMP/ex/pages/utf8-bom.txt")"; fi

# Several configurations: one row each, table 3 style.
expect_status 0 "$CETUNE" evaluate -x alltext -x alltext -d "$D/canon" --format csv
expect_grep "$TMP/out" '^figure,extractor,config,pages,macro$'
# ... and their extracts one folder each, N-EXTRACTOR.
expect_status 0 "$CETUNE" evaluate -x alltext -x lqf -d "$D/canon" --extracts "$TMP/ex2"
if [ "$(cat "$TMP/ex2/1-alltext/pages/utf8-bom.txt")" = "Perchè no? Città bella." ] &&
   [ -f "$TMP/ex2/2-lqf/pages/utf8-bom.txt" ]; then ok; else fail "extracts of two configurations: $(ls -R "$TMP/ex2")"; fi

# Empty extractions where the gold is not: counted per package and in all, in
# the table, the CSV and the JSON.  Of the four pages, one extraction is empty
# with a gold (lost), one is empty with an empty gold (gold-empty: not a loss),
# one has text against an empty gold (boilerplate), one is right (kept).
E=$SRC/tests/data/corpus/empties
expect_status 0 "$CETUNE" evaluate -x alltext -d "$E"
expect_grep "$TMP/out" '^package  *docs  *precision  *recall  *f1  *empty$'
expect_grep "$TMP/out" '^macro average  *4  *0.7500  *0.7500  *0.5000  *1$'
expect_status 0 "$CETUNE" evaluate -x alltext -d "$E" --format csv
expect_grep "$TMP/out" '^package,docs,precision,recall,f1,empty$'
expect_grep "$TMP/out" '^empties,4,0.750000,0.750000,0.500000,1$'
expect_grep "$TMP/out" '^macro,4,0.750000,0.750000,0.500000,1$'
expect_status 0 "$CETUNE" evaluate -x alltext -d "$E" --format json
expect_grep "$TMP/out" '"name": "empties", "docs": 4, .*"f1": 0.500000, "empty": 1}'
expect_grep "$TMP/out" '"macro": {"docs": 4, .*"empty": 1}'
expect_status 0 "$CETUNE" evaluate -x alltext -x lqf -P t=0 -d "$E" --format csv
expect_grep "$TMP/out" '^empty,alltext,"defaults",1,1$'
# lqf with t=0 drops every block with a link-text ratio above 0: none here.
expect_grep "$TMP/out" '^empty,lqf,"t=0",1,1$'
expect_status 0 "$CETUNE" evaluate -x alltext -x lqf -d "$E" -d "$D/canon"
expect_grep "$TMP/out" '^Empty extractions where the gold is not empty (8 documents)$'
expect_grep "$TMP/out" '^  defaults  *1  *0  *1$'

# Pages built by scripts, whose article is only in JSON-LD articleBody, a
# noscript or a template (their gold): the fallback chain's steps 3 and 4
# bring the whole article, scored through the extract's alternate text nodes;
# without them all three come back empty.
S=$SRC/tests/data/corpus/shells
CHAIN="-P fallback_words=20 -P fallback_share=0.1 -P drop_headline=true"
expect_status 0 "$CETUNE" evaluate -x score $CHAIN -x score $CHAIN -P fallback_jsonld=false \
  -P fallback_noscript=false -d "$S" --format csv
expect_grep "$TMP/out" '^f1,score,"drop_headline=true fallback_words=20 fallback_share=0.1",1.000000,1.000000$'
expect_grep "$TMP/out" '^f1,score,"[^"]*fallback_jsonld=false fallback_noscript=false",0.000000,0.000000$'
expect_grep "$TMP/out" '^empty,score,"drop_headline=true fallback_words=20 fallback_share=0.1",0,0$'
expect_grep "$TMP/out" '^empty,score,"[^"]*fallback_jsonld=false fallback_noscript=false",3,3$'
finish
