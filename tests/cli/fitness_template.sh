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

# Refused: too few pages to see repetition; the character metrics; --folds.
expect_status 1 "$CETUNE" evaluate -x score -d "$TMP/tiny/few" --fitness template
expect_grep "$TMP/err" "package few has 3 usable pages: a site family's repetition needs at least 6"
expect_status 2 "$CETUNE" evaluate -x score -d "$TMP/crawl/bbc" --fitness template --metric chars
expect_status 2 "$CETUNE" evolve -p "$SRC/params/accb.json" -d "$TMP/crawl/bbc" \
  --fitness template --folds 3 -o "$TMP/folds"

# evolve on the pseudo-gold: recorded in run.json, and a run interrupted and
# resumed ends with the files of the run left alone.
RUN="-p $SRC/params/accb.json -d $TMP/crawl/bbc --fitness template --pop 10 --generations 40
     --patience 0 --resolution 0 --seed 5 --threads 2"
expect_status 0 "$CETUNE" evolve $RUN -o "$TMP/ref"
expect_grep "$TMP/ref/run.json" '"fitness":	"template"'
expect_grep "$TMP/ref/run.json" '"template_refs":	\["/.*/configs/article.json"\]'
expect_grep "$TMP/ref/run.json" '"template_defaults":	true'
expect_grep "$TMP/err" "correcting the description's defaults and .*article.json"
signal_at INT "$TMP/run" 3 "$CETUNE" evolve $RUN -o "$TMP/run"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run"
same_run "$TMP/ref" "$TMP/run" "from the uninterrupted run"
finish
