# The run directory belongs to one run: simultaneous runs on one
# -o never both succeed, the loser names the process holding the lock and
# touches nothing, --force removes every file a run or its report wrote,
# and an unusable -o fails before the corpora load.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
RUN="-p $G/lqf.json -d $G/corpus --pop 8 --generations 3 --patience 0"

# Reference runs of seeds 5 and 6, alone.
for s in 5 6; do expect_status 0 "$CETUNE" evolve $RUN --seed $s -o "$TMP/ref$s"; done

# Ten pairs started together, without and then with --force: exactly one
# of each pair runs, and the directory holds that run's files only.
for force in "" --force; do
  for i in $(seq 10); do
    [ -z "$force" ] && rm -rf "$TMP/r"
    for s in 5 6; do
      ( "$CETUNE" evolve $RUN --seed $s -o "$TMP/r" $force >/dev/null 2>"$TMP/err$s"; echo $? > "$TMP/rc$s" ) &
    done
    wait
    rcs="$(cat "$TMP/rc5")$(cat "$TMP/rc6")"
    case $rcs in
      01) win=5 lose=6 ;;
      10) win=6 lose=5 ;;
      *) fail "pair $i ${force:-without --force}: exit statuses $rcs"; continue ;;
    esac
    ok
    if grep -q "in use by process [0-9][0-9]*, which holds $TMP/r/run.lock\|exists and is not empty" "$TMP/err$lose"; then ok
    else fail "pair $i: the refused run says: $(cat "$TMP/err$lose")"; fi
    grep -q "in use by process" "$TMP/err$lose" && locked=$((locked + 1))
    same_files "$TMP/ref$win" "$TMP/r" "from seed $win's run (pair $i ${force:-})" best.json individuals.csv top.json
    if cmp -s <(grep -v '^#' "$TMP/r/sample.txt") <(grep -v '^#' "$TMP/ref$win/sample.txt"); then ok
    else fail "pair $i: sample.txt is not seed $win's"; fi
    expect_grep "$TMP/r/run.json" "\"seed\":	$win,"
  done
done
echo "pairs refused by the lock: ${locked:-0}" >&2

# --resume takes the lock too: a directory held by another process is
# refused, naming it.
( echo $BASHPID > "$TMP/ref5/run.lock"; exec flock "$TMP/ref5/run.lock" sleep 3 ) &
holder=$!
sleep 0.5
expect_status 1 "$CETUNE" evolve --resume "$TMP/ref5"
expect_grep "$TMP/err" "ref5 is in use by process $holder"
expect_status 1 "$CETUNE" evolve $RUN -o "$TMP/ref5" --force
expect_grep "$TMP/err" "in use by process $holder"
if cmp -s "$TMP/ref5/best.json" "$TMP/r/best.json" || [ -s "$TMP/ref5/best.json" ]; then ok; else fail "a refused --force removed files"; fi
kill $holder 2>/dev/null; wait $holder 2>/dev/null

# --force removes every file of the old run and of its report (plots, the
# gnuplot script and data), and nothing else.
D=$TMP/old
expect_status 0 "$CETUNE" evolve -p "$SRC/params/sw.json" -d "$SRC/samples/demo" --pop 8 \
  --generations 2 --validate "$G/corpus" -o "$D"
expect_status 0 "$CETUNE" report "$D"
touch "$D/explored-a-b.png" "$D/convergence.png" "$D/notes.txt"   # plots even without gnuplot
expect_status 0 "$CETUNE" evolve $RUN -o "$D" --force
expect_status 0 "$CETUNE" evolve $RUN -o "$TMP/fresh"
if [ "$(ls "$D" | grep -v notes.txt)" = "$(ls "$TMP/fresh")" ]; then ok
else fail "--force left: $(ls "$D" | tr '\n' ' ') (a fresh run: $(ls "$TMP/fresh" | tr '\n' ' '))"; fi
if [ -e "$D/notes.txt" ]; then ok; else fail "--force removed a file that is not the run's"; fi

# An unusable -o fails before the corpora load, and a run that fails
# before writing leaves no directory behind.
touch "$TMP/file"
expect_status 1 "$CETUNE" evolve $RUN -o "$TMP/file/run"
expect_grep "$TMP/err" "file/run: cannot create directory: Not a directory"
if grep -q loaded "$TMP/err"; then fail "the corpora were loaded before -o was checked"; else ok; fi
echo 'news/nope' > "$TMP/bad-sample.txt"
expect_status 1 "$CETUNE" evolve $RUN -s "$TMP/bad-sample.txt" -o "$TMP/new/run"
if [ -e "$TMP/new/run" ]; then fail "a failed run left $TMP/new/run: $(ls -a "$TMP/new/run")"; else ok; fi
finish
