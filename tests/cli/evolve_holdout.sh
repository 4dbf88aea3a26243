#!/bin/bash
# The final choice on a holdout (src/run/choose.c) on samples/demo (36
# documents): a quarter of the training documents is kept out of the search
# (holdout.txt), best.json is the best on them of the top individuals and
# the defaults (checked with cetune evaluate), run.json, the printed table
# and report.md give both gains; --holdout 0 brings back the best training
# fitness; threads and an interruption followed by --resume change nothing;
# a holdout with racing is refused.
# usage: evolve_holdout.sh CETUNE SOURCE_DIR
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
RUN="-p $SRC/params/accb.json -d $SRC/samples/demo --pop 12 --generations 8 --patience 0 --seed 3"
py=python3

expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/ref"
cp "$TMP/out" "$TMP/ref.out"
R=$TMP/ref
held=$(grep -vc '^#' "$R/holdout.txt")
if [ "$held" -ge 6 ] && [ "$held" -le 12 ]; then ok; else fail "holdout.txt lists $held of 36 documents"; fi
if grep -v '^#' "$R/holdout.txt" | grep -qxF -f - <(grep -v '^#' "$R/sample.txt"); then ok
else fail "holdout.txt is not part of sample.txt"; fi
expect_grep "$R/best.json" "\"docs\": $((36 - held))}"
expect_grep "$TMP/ref.out" "the search used $((36 - held)) of them; $held were held out to choose best.json"
expect_grep "$TMP/ref.out" "  documents (F1 "
"$CETUNE" report "$R" >/dev/null 2>&1
expect_grep "$R/report.md" "training documents the search did not see"

# run.json's figures, and the choice itself, against cetune evaluate on the
# holdout: best.json scores what run.json says, and no candidate (top.json,
# the defaults) scores more, unless the defaults were kept (their gain was
# not beyond chance).
"$CETUNE" evaluate -c "$R/best.json" -d "$SRC/samples/demo" -s "$R/holdout.txt" --per-doc \
  --format json 2>/dev/null >"$TMP/best.eval"
"$CETUNE" evaluate -x accb -d "$SRC/samples/demo" -s "$R/holdout.txt" --per-doc --format json \
  2>/dev/null >"$TMP/def.eval"
k=0
while IFS= read -r line; do
  k=$((k + 1))
  line=${line#[}; line=${line# }; line=${line%]}; line=${line%,}
  printf '%s\n' "$line" >"$TMP/top$k.json"
  "$CETUNE" evaluate -c "$TMP/top$k.json" -d "$SRC/samples/demo" -s "$R/holdout.txt" --per-doc \
    --format json 2>/dev/null >"$TMP/top$k.eval"
done <"$R/top.json"
"$py" - "$TMP" "$k" "$R/run.json" <<'EOF' && ok || fail "best.json is not the best of the candidates on the holdout, or run.json's figures differ"
import json, sys
tmp, k, run = sys.argv[1], int(sys.argv[2]), json.load(open(sys.argv[3]))
def mean(path):
    d = json.load(open(path))["configurations"][0]["per_doc"]
    return sum(x["f1"] for x in d) / len(d)
fin = run["final"]
best, dflt = mean(tmp + "/best.eval"), mean(tmp + "/def.eval")
ok = fin["rule"] == "holdout" and abs(best - fin["holdout_f1"]) < 1e-5 and \
    abs(dflt - fin["holdout_f1_defaults"]) < 1e-5 and \
    abs(fin["holdout_gain"] - (fin["holdout_f1"] - fin["holdout_f1_defaults"])) < 1e-12 and \
    (all(mean(f"{tmp}/top{i}.eval") <= best + 1e-5 for i in range(1, k + 1)) or
     (abs(best - dflt) < 1e-5 and fin["holdout_gain"] == 0))
# "top": the best of top.json on the holdout, chosen or not, and the test
# that decided: the defaults stay only when its p-value is 0.2 or more.
t, tops = fin["top"], [mean(f"{tmp}/top{i}.eval") for i in range(1, k + 1)]
ok = ok and 1 <= t["rank"] <= k and abs(tops[t["rank"] - 1] - max(tops)) < 1e-5 and \
    abs(t["holdout_f1"] - max(tops)) < 1e-5 and \
    (t["p_value"] is None or (t["p_value"] >= 0.2) == (fin["chosen_rank"] == 0))
sys.exit(0 if ok else 1)
EOF

# Threads change nothing, the choice included.
expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/t1"
same_run "$R" "$TMP/t1" "with 1 thread"
same_files "$R" "$TMP/t1" "with 1 thread" holdout.txt

# Interrupted, then resumed: the files of the run left alone.  Long enough
# (resolution 0: the search never runs dry) that the signal lands midway on
# an idle machine too.
LONG="-p $SRC/params/accb.json -d $SRC/samples/demo --pop 12 --generations 400 --patience 0
      --resolution 0 --seed 3"
expect_status 0 "$CETUNE" evolve $LONG --threads 2 -o "$TMP/long"
signal_at INT "$TMP/int" 3 "$CETUNE" evolve $LONG --threads 2 -o "$TMP/int"
expect_status 0 "$CETUNE" evolve --resume "$TMP/int"
same_run "$TMP/long" "$TMP/int" "after SIGINT and --resume"
same_files "$TMP/long" "$TMP/int" "after SIGINT and --resume" holdout.txt

# --holdout 0: the search sees every document; best.json is the training best.
expect_status 0 "$CETUNE" evolve $RUN --holdout 0 -o "$TMP/h0"
if [ ! -e "$TMP/h0/holdout.txt" ]; then ok; else fail "--holdout 0 wrote holdout.txt"; fi
expect_grep "$TMP/h0/best.json" '"docs": 36}'
expect_grep "$TMP/h0/run.json" '"rule":	"training"'
if [ "$(sed 's/, "docs".*//; s/^\[//' "$TMP/h0/top.json" | head -1)" = \
     "$(sed 's/, "docs".*//' "$TMP/h0/best.json")" ]; then ok
else fail "--holdout 0: best.json is not top.json's first"; fi

# Racing scores parts of documents: no holdout then, and none asked for.
expect_status 2 "$CETUNE" evolve $RUN --race --holdout 0.25 -o "$TMP/race"
expect_grep "$TMP/err" "holdout chooses on mean F1 over whole documents"
expect_status 0 "$CETUNE" evolve $RUN --race -o "$TMP/race"
expect_grep "$TMP/race/run.json" '"rule":	"training"'
finish
