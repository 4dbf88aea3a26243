# The ad-host list is an input of Crunch: a crunch run records which list it
# started with (digest and file) in run.json, the checkpoint and best.json,
# and --resume with another list (CETUNE_ADHOSTS or the built-in one) is
# refused, the checkpoint untouched; with the same list it finishes.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
RUN="-p $SRC/params/crunch.json -d $SRC/samples/demo --pop 400 --generations 15 --patience 0 --seed 5 --threads 1 --choose search"
printf '# test list\ndoubleclick.net\nads.example.org\n' > "$TMP/a.txt"
printf '# another list\ndoubleclick.net\n' > "$TMP/b.txt"

CETUNE_ADHOSTS="$TMP/a.txt" signal_at INT "$TMP/run" 1 "$CETUNE" evolve $RUN -o "$TMP/run"
expect_grep "$TMP/run/run.json" '"file":	"'"$TMP"'/a.txt"'
expect_grep "$TMP/run/checkpoint.json" '"adhosts_file":	"'"$TMP"'/a.txt"'
expect_grep "$TMP/run/best.json" '"adhosts": {"digest": "[0-9a-f]\{16\}", "file": "'"$TMP"'/a.txt"}'
cp "$TMP/run/checkpoint.json" "$TMP/checkpoint.before"

CETUNE_ADHOSTS="$TMP/b.txt" expect_status 1 "$CETUNE" evolve --resume "$TMP/run"
expect_grep "$TMP/err" "started with the ad-host list $TMP/a.txt (digest [0-9a-f]*), but the list in use is $TMP/b.txt"
expect_status 1 "$CETUNE" evolve --resume "$TMP/run"
expect_grep "$TMP/err" "but the list in use is built in"
if cmp -s "$TMP/run/checkpoint.json" "$TMP/checkpoint.before"; then ok; else fail "a refused resume touched the checkpoint"; fi

CETUNE_ADHOSTS="$TMP/a.txt" expect_status 0 "$CETUNE" evolve --resume "$TMP/run"
expect_grep "$TMP/out" "stopped by generations"

# extract warns when the list in use is not the one best.json was tuned with.
printf '<html><body><p>Some text of a page that crunch reads for this check.</p></body></html>' > "$TMP/p.html"
CETUNE_ADHOSTS="$TMP/b.txt" expect_status 0 "$CETUNE" extract -c "$TMP/run/best.json" "$TMP/p.html"
expect_grep "$TMP/err" "tuned with the ad-host list of digest [0-9a-f]\{16\}; this extraction uses $TMP/b.txt"
CETUNE_ADHOSTS="$TMP/a.txt" expect_status 0 "$CETUNE" extract -c "$TMP/run/best.json" "$TMP/p.html"
if [ -s "$TMP/err" ]; then fail "a warning with the run's own list: $(cat "$TMP/err")"; else ok; fi

# Extractors that do not read the list record none.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$SRC/samples/demo" --generations 2 -o "$TMP/lqf"
if grep -q adhosts "$TMP/lqf/best.json" "$TMP/lqf/checkpoint.json"; then fail "lqf records an ad-host list"; else ok; fi
finish
