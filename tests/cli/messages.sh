# Messages and exit statuses for wrong inputs: one rule for
# files (missing or unreadable: 1, whichever option names it; a refused
# configuration or parameter description: 2), messages that say what a
# file is and which values are allowed, skip messages naming where the
# corpora were looked for.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
NO=$TMP/no-such-file

# Missing files: 1, with the path and the reason.
expect_status 1 "$CETUNE" evolve -p "$NO.json" -d "$G/corpus" -o "$TMP/r"
expect_grep "$TMP/err" "no-such-file.json: No such file or directory"
expect_status 1 "$CETUNE" evolve -p "$G/lqf.json" -d "$NO" -o "$TMP/r"
expect_status 1 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" -s "$NO.txt" -o "$TMP/r"
expect_status 1 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --seed-config "$NO.json" -o "$TMP/r"
expect_status 1 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --validate "$NO" -o "$TMP/r"
expect_status 1 "$CETUNE" evolve --resume "$NO"
expect_status 1 "$CETUNE" evaluate -c "$NO.json" -d "$G/corpus"
expect_grep "$TMP/err" "no-such-file.json: No such file or directory"
expect_status 1 "$CETUNE" evaluate -x alltext -d "$NO"
expect_status 1 "$CETUNE" evaluate -x alltext -d "$G/corpus" -s "$NO.txt"
expect_status 1 "$CETUNE" extract -c "$NO.json" "$G/corpus/blog/blog-1.html"
expect_status 1 "$CETUNE" extract -x crunch --adhosts "$NO.txt" "$G/corpus/blog/blog-1.html"
expect_status 1 "$CETUNE" extract -x alltext "$NO.html"
expect_status 1 "$CETUNE" sample -d "$NO" -n 2 -o -
expect_status 1 "$CETUNE" report "$NO"
if [ -e "$TMP/r" ]; then fail "a refused run left its directory"; else ok; fi

# Files whose content is refused: 2, with file:line:col and what it is.
expect_status 2 "$CETUNE" evaluate -c "$SRC/params/lqf.json" -d "$G/corpus"
expect_grep "$TMP/err" 'params/lqf.json:1:1: a parameter description (what to evolve), not a configuration'
printf '{"extractor": "lqf", "params": {"t": 0.3}}\n' > "$TMP/best.json"
expect_status 2 "$CETUNE" evolve -p "$TMP/best.json" -d "$G/corpus" -o "$TMP/r"
expect_grep "$TMP/err" 'best.json:1:1: a configuration .*, not a parameter description'

# A bad enum value lists the allowed ones, on the command line and in files.
expect_status 2 "$CETUNE" evaluate -x density -P empty=sometimes -d "$G/corpus"
expect_grep "$TMP/err" "density.empty: 'sometimes' is not one of its values (per_run, each_tag)"
printf '{"extractor": "density", "params": {"empty": "never"}}\n' > "$TMP/enum.json"
expect_status 2 "$CETUNE" extract -c "$TMP/enum.json" "$G/corpus/blog/blog-1.html"
expect_grep "$TMP/err" "enum.json:1:[0-9]*: .*'never' is not one of its values (per_run, each_tag)"
expect_status 2 "$CETUNE" evaluate -x alltext -d "$G/corpus" --format xml
expect_grep "$TMP/err" "--format must be one of table|csv|json, not 'xml'"

# Integration tests name the corpora directory they looked for.
CETUNE_CORPORA=$TMP/elsewhere bash "$SRC/tests/cli/extract_corpus.sh" "$CETUNE" "$SRC" > "$TMP/out" 2>&1
expect_grep "$TMP/out" "skipping: $TMP/elsewhere .*not found"

# Counts agree with their noun: one generation, not "1 generations".
expect_status 0 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --pop 4 --generations 1 --seed 1 -q -o "$TMP/one"
expect_grep "$TMP/out" "on 8 documents: 1 generation, [0-9]* evaluations, stopped by"
finish
