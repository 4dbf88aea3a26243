# Checkpoints written before the search options had one table (their keys,
# tests/data/checkpoints/README.md) still resume, and end byte-identically
# with the same run left alone at that time; a new run of the same command
# ends there too, so the results did not change (--choose search: those runs
# exported the search's best, before cross-validation chose).
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
F=$SRC/tests/data/checkpoints
G=$SRC/tests/data/ga
declare -A RUN=(
  [ga-race]="-p $G/lqf.json -d $G/corpus --strategy ga --race --race-first 2 --race-block 2 --pop 12 --generations 60 --patience 0 --resolution 0 --seed 5"
  [cmaes]="-p $SRC/params/sw.json -d $G/corpus --strategy cmaes --generations 30 --patience 0 --seed 3")
# copy_run NAME DIR: the old run NAME's files into DIR, paths made this checkout's.
copy_run() {
  mkdir -p "$2"
  for f in "$F/$1/run/"*; do
    sed "s|@SRC@|$SRC|g" "$f" > "$2/$(basename "$f")"
  done
}
for r in ga-race cmaes; do
  copy_run "$r" "$TMP/$r"
  expect_status 0 "$CETUNE" evolve --resume "$TMP/$r" --threads 2
  expect_grep "$TMP/err" "resuming $TMP/$r after 7 complete generations"
  expect_grep "$TMP/err" "note: $TMP/$r/checkpoint.json records no digests of the pages and gold"
  # The run's holdout share (the cmaes run's default 0.25 then) stays among the options.
  want=$(grep -o '"holdout":[[:space:]]*[0-9.]*' "$F/$r/run/checkpoint.json" | tr -d '[:space:]')
  got=$(grep -o '"holdout":[[:space:]]*[0-9.]*' "$TMP/$r/checkpoint.json" | tr -d '[:space:]')
  [ -n "$want" ] && [ "$got" = "$want" ] && ok || fail "the holdout share: '$got', was '$want' ($r)"
  cut -d, -f1-7,9- "$TMP/$r/generations.csv" > "$TMP/$r/generations.cut"
  same_files "$F/$r/ref" "$TMP/$r" "after resuming the old checkpoint ($r)" best.json individuals.csv top.json
  if cmp -s "$F/$r/ref/generations.csv" "$TMP/$r/generations.cut"; then ok
  else fail "generations.csv differs after resuming the old checkpoint ($r)"; fi

  # (--no-site: the old run learns no site rules, so neither does the new one)
  expect_status 0 "$CETUNE" evolve ${RUN[$r]} --choose search --no-site --threads 1 -o "$TMP/$r-new"
  cut -d, -f1-7,9- "$TMP/$r-new/generations.csv" > "$TMP/$r-new/generations.cut"
  same_files "$F/$r/ref" "$TMP/$r-new" "in a new run ($r)" best.json individuals.csv top.json
  if cmp -s "$F/$r/ref/generations.csv" "$TMP/$r-new/generations.cut"; then ok
  else fail "generations.csv differs in a new run ($r)"; fi
done

# A checkpoint without the holdout key (as written before the run kept one)
# resumes with none, and the search ends where it did.
r=cmaes
copy_run "$r" "$TMP/$r-nokey"
python3 - "$TMP/$r-nokey/checkpoint.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
del c["options"]["holdout"]
json.dump(c, open(sys.argv[1], "w"), indent=1)
PY
if grep -q '"holdout"' "$TMP/$r-nokey/checkpoint.json"; then fail "the holdout key was not removed"; fi
expect_status 0 "$CETUNE" evolve --resume "$TMP/$r-nokey" --threads 2
got=$(grep -o '"holdout":[[:space:]]*[0-9.]*' "$TMP/$r-nokey/checkpoint.json" | tr -d '[:space:]')
[ "$got" = '"holdout":0' ] && ok || fail "without the key the holdout share is '$got', not 0"
same_files "$F/$r/ref" "$TMP/$r-nokey" "after resuming without the holdout key" best.json individuals.csv top.json
finish
