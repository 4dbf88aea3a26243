# --fitness template: pages without gold get their family's pseudo-gold
# (docs/template.md), for evaluate and evolve, and a run on it resumes to the
# same files.  On the portals bbc family with its gold files hidden.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
need_corpora portals
REF="$SRC/configs/article.json"

# The family's pages without their gold.
mkdir -p "$TMP/crawl/bbc" "$TMP/tiny/few"
ln -s "$C"/portals/bbc/*.html "$TMP/crawl/bbc/"
for f in 01 02 03; do ln -s "$C/portals/bbc/bbc.co.uk_news_$f.html" "$TMP/tiny/few/"; done

# Without gold and without template, nothing is usable.
expect_status 1 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc"
expect_grep "$TMP/err" "no usable documents"

# What the pseudo-gold believes: the two section indexes (04 and 05) have no
# article, the articles have one.
expect_status 0 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc" --fitness template \
  --template-ref "$REF" --per-doc --format csv
expect_grep "$TMP/err" "pseudo-gold from each family's repetition"
for n in 04 05; do
  if grep -q "^bbc,bbc.co.uk_news_$n,[0-9]*,0," "$TMP/out"; then ok; else fail "page $n has an empty pseudo-gold"; fi
done
if [ "$(awk -F, 'NR > 1 && $4 > 300' "$TMP/out" | wc -l)" -eq 10 ]; then ok
else fail "the ten articles have a pseudo-gold of their article's size"; fi
# The default reference is the shipped configuration: the same figures.
cp "$TMP/out" "$TMP/explicit.csv"
expect_status 0 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc" --fitness template --per-doc \
  --format csv
if cmp -s "$TMP/out" "$TMP/explicit.csv"; then ok; else fail "the shipped reference by default"; fi

# Several references: the first decides the blocks they disagree on, so the
# same reference twice is one reference, and the order counts.  The score's
# built-in defaults differ from the shipped configuration on some of bbc's
# blocks.
printf '{"extractor": "score", "params": {}}\n' > "$TMP/builtin.json"
expect_status 0 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc" --fitness template --per-doc \
  --format csv --template-ref "$REF" --template-ref "$REF"
if cmp -s "$TMP/out" "$TMP/explicit.csv"; then ok; else fail "a reference twice is one"; fi
expect_status 0 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc" --fitness template --per-doc \
  --format csv --template-ref "$REF" --template-ref "$TMP/builtin.json"
expect_grep "$TMP/err" "correcting .*article.json and .*builtin.json"
cp "$TMP/out" "$TMP/two.csv"
expect_status 0 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc" --fitness template --per-doc \
  --format csv --template-ref "$TMP/builtin.json" --template-ref "$REF"
if cmp -s "$TMP/out" "$TMP/two.csv"; then fail "the first reference decides"; else ok; fi

# Pages with gold keep it: the real corpus scores the same with and without.
expect_status 0 "$CETUNE" evaluate -x score -d "$C/portals/bbc" --format csv
cp "$TMP/out" "$TMP/gold.csv"
expect_status 0 "$CETUNE" evaluate -x score -d "$C/portals/bbc" --fitness template --format csv
if cmp -s "$TMP/out" "$TMP/gold.csv"; then ok; else fail "gold files win over the pseudo-gold"; fi

# Refused: too few pages to see repetition; the character metrics; folds
# without pages that have gold of their own to hold out.
expect_status 1 "$CETUNE" evaluate -x score -d "$TMP/tiny/few" --fitness template
expect_grep "$TMP/err" "package few has 3 usable pages: a site family's repetition needs at least 6"
expect_status 2 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc" --fitness template --metric chars
expect_status 2 "$CETUNE" evolve -p "$SRC/params/accb.json" -d "$TMP/crawl/bbc" \
  --fitness template --folds 3 -o "$TMP/folds"
expect_grep "$TMP/err" "--folds 3: with --fitness template the folds hold out only the training documents with gold of their own, and 0 of the 12 have it"

# evolve on the pseudo-gold: recorded in run.json, and a run interrupted and
# resumed ends with the files of the run left alone.
RUN="-p $SRC/params/accb.json -d $TMP/crawl/bbc --fitness template --pop 10 --generations 40
     --patience 0 --resolution 0 --seed 5 --threads 2"
expect_status 0 "$CETUNE" evolve $RUN -o "$TMP/ref"
expect_grep "$TMP/ref/run.json" '"fitness":	"template"'
expect_grep "$TMP/ref/run.json" '"template_refs":	\["/.*/configs/article.json"\]'
expect_grep "$TMP/ref/run.json" '"template_defaults":	true'
expect_grep "$TMP/err" "correcting the description's defaults and .*article.json"
# Without a page of gold, nothing can be held out: the search's best, said;
# and no site rule is learned from pseudo-gold.
expect_grep "$TMP/ref/run.json" '"rule":	"training"'
expect_grep "$TMP/ref/run.json" '"site_rules":	0'
expect_grep "$TMP/err" "0 of the 12 training documents have gold of their own, and cross-validation needs 2"
signal_at INT "$TMP/run" 3 "$CETUNE" evolve $RUN -o "$TMP/run"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run"
same_run "$TMP/ref" "$TMP/run" "from the uninterrupted run"

# Semi-supervised: 4 pages with their gold among the family's 12.  The
# final choice cross-validates over the 4 alone, each held out once and
# scored against its own gold; the 8 without gold train in every fold on
# their pseudo-gold, and so does each fold's run.
mkdir -p "$TMP/semi/bbc"
ln -s "$C"/portals/bbc/*.html "$TMP/semi/bbc/"
for f in 01 03 07 09; do ln -s "$C/portals/bbc/bbc.co.uk_news_$f.txt" "$TMP/semi/bbc/"; done
# On gold alone, the 8 are skipped, and evolve says what would use them.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/accb.json" -d "$TMP/semi/bbc" --pop 4 \
  --generations 1 --choose search -q -o "$TMP/gold-only"
expect_grep "$TMP/err" "8 pages had no gold: with --fitness template the search trains on them too"
SEMI="-p $SRC/params/accb.json -d $TMP/semi/bbc --fitness template --template-ref $REF --pop 8
      --generations 4 --patience 0 --resolution 0 --seed 3"
expect_status 0 "$CETUNE" evolve $SEMI --threads 2 -o "$TMP/semi2"
expect_grep "$TMP/semi2/run.json" '"rule":	"cv"'
expect_grep "$TMP/semi2/run.json" '"folds":	4'
expect_grep "$TMP/semi2/run.json" '"decision":	"\(tuned\|start\)"'
expect_grep "$TMP/out" "cross-validation over 4 folds of the 4 training documents with gold"
expect_grep "$TMP/semi2/run.json" "from 4-fold cross-validation, holding out only pages with gold, on 4 pages)"
# Site rules from the 4 alone: each fold's start gets its other pages'.
expect_grep "$TMP/semi2/heldout.csv" "^fold,document,f1_start,f1_tuned,gain,f1_start_site$"
expect_grep "$TMP/out" "site rules learned from the 4 documents with gold"
# ... with their guard, learned from the same 4 (docs/site.md), in the run
# and in each fold's run; --no-guard leaves it out of both.
expect_grep "$TMP/semi2/checkpoint.json" '"guard":[[:space:]]*true'
expect_grep "$TMP/semi2/folds/1/checkpoint.json" '"guard":[[:space:]]*true'
expect_status 0 "$CETUNE" evolve $SEMI --generations 1 --no-guard --threads 2 -o "$TMP/semi3"
expect_grep "$TMP/semi3/checkpoint.json" '"guard":[[:space:]]*false'
expect_grep "$TMP/semi3/folds/1/checkpoint.json" '"guard":[[:space:]]*false'
expect_status 0 "$CETUNE" report "$TMP/semi2"
expect_grep "$TMP/semi2/report.md" "On pseudo-gold only the pages with gold of their own are held out"
expect_grep "$TMP/semi2/report.md" "site rules learned from the training pages with gold"
cut -d, -f2 "$TMP/semi2/heldout.csv" | tail -n +2 | sort >"$TMP/held"
printf 'bbc/bbc.co.uk_news_%s\n' 01 03 07 09 >"$TMP/labelled"
if cmp -s "$TMP/held" "$TMP/labelled"; then ok; else fail "held out: $(tr '\n' ' ' <"$TMP/held")"; fi
if awk -F, 'NR > 1 && ($2 != 11 || $3 != 1) { bad = 1 } END { exit bad || NR != 5 }' \
  "$TMP/semi2/folds.csv"; then ok; else fail "each fold trains on 11 pages and holds out 1"; fi
for k in 1 2 3 4; do
  expect_grep "$TMP/semi2/folds/$k/run.json" '"fitness":	"template"'
  expect_grep "$TMP/semi2/folds/$k/run.json" "--fitness template --template-ref /"
  if [ "$(grep -vc '^#' "$TMP/semi2/folds/$k/train.txt")" -eq 11 ]; then ok
  else fail "fold $k's train.txt has the 8 pages without gold and 3 with"; fi
done
# A held-out page's figure is its own gold's: the fold best scored again.
held=$(sed -n 2p "$TMP/semi2/heldout.csv")
expect_status 0 "$CETUNE" evaluate -c "$TMP/semi2/folds/$(echo "$held" | cut -d, -f1)/best.json" \
  -d "$C/portals/bbc" -s "$TMP/semi2/folds/$(echo "$held" | cut -d, -f1)/heldout.txt" \
  --per-doc --format csv
f1=$(awk -F, 'NR == 2 { printf "%.6f", $NF }' "$TMP/out")
if [ "$f1" = "$(echo "$held" | cut -d, -f4)" ]; then ok; else fail "held-out F1 $f1, heldout.csv: $held"; fi
# The same files with 1 thread, and interrupted in a fold then resumed.
expect_status 0 "$CETUNE" evolve $SEMI --threads 1 -o "$TMP/semi1"
same_files "$TMP/semi2" "$TMP/semi1" "with 1 thread" best.json heldout.csv folds.csv folds/2/best.json
signal_at INT "$TMP/semi-int/folds/2" 2 "$CETUNE" evolve $SEMI --threads 2 -o "$TMP/semi-int"
expect_status 0 "$CETUNE" evolve --resume "$TMP/semi-int"
same_files "$TMP/semi2" "$TMP/semi-int" "after --resume" best.json heldout.csv folds.csv \
  individuals.csv folds/2/individuals.csv
# Interrupted in the final search, after the folds: the same files, site
# rules too (learned again from the labelled pages of the reloaded sample).
LONGSEMI="${SEMI/--generations 4/--generations 30} --fold-evals 30 --threads 2"
expect_status 0 "$CETUNE" evolve $LONGSEMI -o "$TMP/semi-ref"
signal_at INT "$TMP/semi-int2" 3 "$CETUNE" evolve $LONGSEMI -o "$TMP/semi-int2"
expect_status 0 "$CETUNE" evolve --resume "$TMP/semi-int2"
same_files "$TMP/semi-ref" "$TMP/semi-int2" "resumed in the final search" best.json site.json \
  heldout.csv individuals.csv
finish
