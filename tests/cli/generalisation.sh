#!/bin/bash
# scripts/generalisation.sh --quick: the family protocol on two families
# (one seed, K = 3, 30 evaluations) and the leave-one-corpus-out part on
# cleaneval-dev, bounded; every run is scored on pages its search did not
# use, the tables are written, and the script skips cleanly without corpora.
# usage: generalisation.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"

# Without the corpora: exit 77 (skip) and a message, nothing run.
"$SRC/scripts/generalisation.sh" --quick "$CETUNE" "$TMP/no-corpora" "$TMP/none" >"$TMP/skip" 2>&1
rc=$?
[ $rc = 77 ] && ok || fail "without corpora: exit $rc, expected 77"
expect_grep "$TMP/skip" "skipping"
expect_status 2 "$SRC/scripts/generalisation.sh" --part nothing "$CETUNE"
expect_status 2 "$SRC/scripts/generalisation.sh" --k three "$CETUNE"

need_corpora portals big5 cleaneval-dev scrapinghub l3s-gn1
"$SRC/scripts/generalisation.sh" --quick "$CETUNE" "$C" "$TMP/g" >"$TMP/log" 2>&1
rc=$?
tail -20 "$TMP/log"
[ $rc = 0 ] || die "generalisation.sh --quick: exit $rc"
csv=$TMP/g/families.csv
[ "$(grep -c '^bbc,portals,12,3,1,9,' "$csv")" = 1 ] && ok || fail "no bbc run of 3 labelled and 9 test pages in $csv"
[ "$(grep -c '^big5-bbc.co.uk-2009,big5,10,3,1,7,' "$csv")" = 1 ] && ok ||
  fail "no big5-bbc.co.uk-2009 run of 3 labelled and 7 test pages in $csv"
# The test pages never include a labelled one, and together they are the family.
for w in "$TMP"/g/work/*; do
  if grep -v '^#' "$w/train.txt" | grep -qxF -f - "$w/test.txt"; then fail "$w: a labelled page is a test page"
  else ok; fi
  [ $(($(grep -vc '^#' "$w/train.txt") + $(wc -l <"$w/test.txt"))) = "$(grep -vc '^#' "$w/all.txt")" ] &&
    ok || fail "$w: labelled and test pages are not the family"
  [ "$(($(wc -l <"$w/run/individuals.csv") - 1))" -le 30 ] && ok || fail "$w: more than 30 evaluations"
done
# The gain is the tuned F1 minus the start's, as evaluate prints them; the
# start of a portals family was learned without portals, and the shipped
# configuration is scored beside it.
w=$TMP/g/work/bbc-k3-s1-start1
got=$(grep -o -- "-d [^ ]*" "$TMP/g/starts/seed-1/without-portals/run/run.json" | sed 's|.*/||' |
  sort | tr '\n' ' ')
[ "$got" = "big5 cleaneval-dev l3s-gn1 scrapinghub " ] && ok ||
  fail "the start of the portals families was learned on $got, not the four other corpora"
grep -q -- "--seed-config $TMP/g/starts/seed-1/without-portals/start.json" "$w/run/run.json" && ok ||
  fail "bbc's run does not start from the start learned without portals"
f1_on() {
  "$CETUNE" evaluate -c "$1" -d "$TMP/g/families/bbc" -s "$w/test.txt" --format csv 2>/dev/null |
    awk -F, '$1 == "macro" { printf "%.6f", $5 }'
}
start=$(f1_on "$TMP/g/starts/seed-1/without-portals/start.json")
[ "$(grep '^bbc,' "$csv" | cut -d, -f7)" = "$start" ] && ok || fail "bbc's start F1 is not $start"
article=$(f1_on "$SRC/configs/article.json")
[ "$(grep '^bbc,' "$csv" | cut -d, -f13)" = "$article" ] && ok || fail "bbc's article.json F1 is not $article"
# best.json's F1 is the one evaluate prints for it (its row is named after the run's folder).
tuned=$("$CETUNE" evaluate -c "$w/run/best.json" -d "$TMP/g/families/bbc" -s "$w/test.txt" \
  --format csv 2>/dev/null | awk -F, '$1 == "macro" { printf "%.6f", $5 }')
[ "$(grep '^bbc,' "$csv" | cut -d, -f8)" = "$tuned" ] && ok || fail "bbc's tuned F1 is not $tuned"
# cv_gains are heldout.csv's gains, and decision is run.json's.
python3 - "$csv" "$TMP/g/work" <<'PY' && ok || fail "families.csv's cv_gains or decision disagree with the runs"
import csv, json, sys
for r in csv.DictReader(open(sys.argv[1])):
    run = f"{sys.argv[2]}/{r['family']}-k{r['k']}-s{r['seed']}-start{r['start_seed']}/run"
    held = [float(h["gain"]) for h in csv.DictReader(open(run + "/heldout.csv"))]
    assert [float(g) for g in r["cv_gains"].split(";")] == held, (r, held)
    assert r["decision"] == json.load(open(run + "/run.json"))["final"]["decision"], r
PY
expect_grep "$TMP/g/families.md" "| 3 | 2 | \*\*all\*\* | 2 |"
expect_grep "$TMP/g/loco/summary.md" "| cleaneval-dev | portals big5 scrapinghub l3s-gn1 | 58 |"
# The cached starts are reused, but one learned by another binary is said
# to be, in the log and in families.md (learned-by holds the binary's sha1).
expect_grep "$TMP/g/starts/seed-1/without-portals/learned-by" "^$(sha1sum <"$CETUNE" | cut -d' ' -f1)$"
if grep -q "another cetune" "$TMP/g/families.md"; then fail "fresh starts called stale"; else ok; fi
expect_grep "$TMP/g/families.md" "start seed 1)"
echo 0000 >"$TMP/g/starts/seed-1/without-portals/learned-by"
# A second start seed: its start is learned beside the cached one, and
# every run is made from both (families.csv's start_seed, a table each).
expect_status 0 "$SRC/scripts/generalisation.sh" --quick --part families --families bbc --start-seed 1,2 \
  "$CETUNE" "$C" "$TMP/g"
expect_grep "$TMP/err" "reusing the start without portals learned by another cetune (sha1 0000)"
expect_grep "$TMP/g/families.md" "The starts without portals (start seed 1) were learned by another cetune binary"
if grep -q "learning the start without portals, start seed 1" "$TMP/err"; then
  fail "a cached start was learned again"; else ok; fi
expect_grep "$TMP/err" "learning the start without portals, start seed 2: big5 cleaneval-dev scrapinghub l3s-gn1"
[ "$(cut -d, -f1,17 "$csv" | tr '\n' ' ')" = "family,start_seed bbc,1 bbc,2 " ] && ok ||
  fail "families.csv does not hold bbc from start seeds 1 and 2: $(cut -d, -f1,17 "$csv" | tr '\n' ' ')"
grep -q -- "--seed-config $TMP/g/starts/seed-2/without-portals/start.json" \
  "$TMP/g/work/bbc-k3-s1-start2/run/run.json" && ok || fail "bbc's second run is not from start seed 2"
expect_grep "$TMP/g/families.md" "start seeds 1, 2)"
expect_grep "$TMP/g/families.md" "^| 3 | 1 | 1 | 1 |"
expect_grep "$TMP/g/families.md" "^| 3 | 1 | 2 | 1 |"
expect_status 2 "$SRC/scripts/generalisation.sh" --start-seed two "$CETUNE"
expect_status 2 "$SRC/scripts/generalisation.sh" --start-seed 1,1 "$CETUNE"
finish
