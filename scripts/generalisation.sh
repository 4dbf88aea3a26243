#!/usr/bin/env bash
# Does tuning pay off on pages it never saw?  Two measurements, each scored
# only on pages the search did not use (docs/experiment.md, "Generalisation"):
#
# families  For each site family of the corpora (scripts/site-families.py:
#           the four portals packages, the big5 sites per crawl year, the
#           l3s-gn1 sites with at least 8 pages), and each K and seed: draw K
#           labelled pages (`cetune sample -n K --seed SEED`), tune from the
#           start configuration (evolve --seed-config START, otherwise
#           evolve's defaults and EVOLVE-OPTIONS), score best.json and START
#           on the family's other pages.  The gain is their difference in
#           mean word F1.  A K runs only where at least 3 test pages remain.
#           START (--start loco, the default) is learned without the
#           family's corpus: for each corpus C that has families, `evolve`
#           on the other four dev corpora (--start-docs pages of each, drawn
#           with a start seed; --start-evals evaluations with that seed; the
#           search's best), from
#           the hand-set configuration of params/score.json (its second
#           seed: trafilatura's rules, set without looking at a page) made
#           the description's defaults, so no page of C shaped it.  These
#           starts are cached in OUT/starts/seed-T/without-C for start seed T
#           (reused while the options and the budget are the same, so that
#           two binaries can be compared on the same starts; a start learned
#           by another binary is reported, and families.md says so).  With
#           several start seeds (--start-seed 1,2,3), every family run is
#           made from each seed's start: the start alone moves the figures
#           by as much as many a change of method, so a change is judged on
#           all of them (families.md has a table per start seed).  --start FILE
#           gives one start for every family instead (configs/article.json
#           was learned on portals, big5 and cleaneval-dev: only the l3s-gn1
#           families are unseen by it).
#           With --unlabelled, the search also sees the family's other pages
#           without their gold (evolve --fitness template: K labels plus the
#           pseudo-gold of the rest, docs/template.md), as a crawler team
#           holding the family's pages would; the gold stays out of reach.
# loco      Leave one corpus out across the five dev corpora (portals, big5,
#           cleaneval-dev, scrapinghub, l3s-gn1) with scripts/leave-one-out.sh:
#           tune on four with evolve's default settings, score the fifth,
#           the start (the description's defaults) beside the tuned setting.
#
# Outputs in OUT: families.csv (one row per run, with what best.json is:
# tuned, start+site or start, and the start seed of a loco start; the runs
# are in OUT/work/FAMILY-kK-sSEED, -startT added for a loco start),
# families.md (the
# distribution of the gains per K and corpus: median, worst, best, share of
# runs that lose, that lose more than 0.005), loco/summary.md, and the runs.
#
# Usage: scripts/generalisation.sh [OPTIONS] [CETUNE [CORPORA [OUT]]] [-- EVOLVE-OPTIONS...]
#   CETUNE   the built binary (build/cetune)
#   CORPORA  the folder holding the corpora (../shared/corpora)
#   OUT      runs/generalisation
# Options:
#   --part families|loco|all     what to run (all)
#   --seeds LIST                 family seeds, comma- or space-separated (1,2,3,4,5)
#   --k LIST                     labelled pages per family run (3,5,10)
#   --families LIST              only these families (names as families.md prints them)
#   --max-evals N                evolve --max-evals of each family run (0: evolve's own stop)
#   --loco-evals N               evolve --max-evals of each leave-one-out run (800)
#   --loco-sample N              evolve --sample-size of each leave-one-out run (300)
#   --start loco|CONFIG.json     the family runs' start: learned without the
#                                family's corpus (loco), or one file for all
#   --start-evals N              evaluations of each loco start's search (400)
#   --start-docs N               pages of each training corpus in it (40)
#   --start-seed LIST            the seeds of their samples and searches (1): other seeds
#                                give other starts; several give every run from each
#   --unlabelled                 the family's other pages join the search without gold
#   --threads N                  threads of every cetune call (2)
#   --quick                      a check of the whole chain in about a minute: seed 1,
#                                K 3, families bbc and big5-bbc.co.uk-2009, 30
#                                evaluations; leave out cleaneval-dev only, 60
#                                documents and 28 evaluations; loco starts of 20
#                                evaluations on 5 pages per corpus
# Runs with nice.  Exit 77 when the corpora are absent (tests/cli skips).
# Runtime on two loaded cores, default options: a 5-page family run with
# evolve's defaults (cross-validation: 5 inner searches and the final one)
# takes 20 to 50 s, so K 5 and seeds 1-5 (170 runs) take about 1.5 hours
# and the whole families part (370 runs) 3 to 5; the three loco starts
# about a minute each; the leave-one-out part about 20 minutes
# (docs/experiment.md).
set -euo pipefail
die() { echo "generalisation.sh: $*" >&2; exit 2; }
part=all seeds="1 2 3 4 5" ks="3 5 10" only="" max_evals=0 loco_evals=800 loco_sample=300
start=loco start_evals=400 start_docs=40 start_seeds=1 unlabelled=0 threads=2 quick=0
args=() extra=() stale="" # stale: CORPUS:T for each cached start (start seed T) another binary learned
while [ $# -gt 0 ]; do
  case $1 in
  --part | --seeds | --k | --families | --max-evals | --loco-evals | --loco-sample | --start | \
    --start-evals | --start-docs | --start-seed | --threads)
    [ $# -ge 2 ] || die "$1 needs a value"
    v=${2//,/ }
    case $1 in
    --part) part=$v ;; --seeds) seeds=$v ;; --k) ks=$v ;; --families) only=$v ;;
    --max-evals) max_evals=$v ;; --loco-evals) loco_evals=$v ;; --loco-sample) loco_sample=$v ;;
    --start) start=$2 ;; --start-evals) start_evals=$v ;; --start-docs) start_docs=$v ;;
    --start-seed) start_seeds=$v ;;
    --threads) threads=$v ;;
    esac
    shift 2 ;;
  --unlabelled) unlabelled=1; shift ;;
  --quick) quick=1; shift ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --) shift; extra=("$@"); break ;;
  -*) die "unknown option $1 (see --help)" ;;
  *) args+=("$1"); shift ;;
  esac
done
[ ${#args[@]} -le 3 ] || die "too many arguments (CETUNE CORPORA OUT)"
case $part in families | loco | all) ;; *) die "--part takes families, loco or all" ;; esac
for n in $max_evals $loco_evals $loco_sample $start_evals $start_docs $start_seeds $threads $ks $seeds; do
  [[ $n =~ ^[0-9]+$ ]] || die "'$n' is not a number"
done
if [ $quick = 1 ]; then
  seeds=1 ks=3 max_evals=30 loco_evals=28 loco_sample=60 start_evals=20 start_docs=5
  only=${only:-bbc big5-bbc.co.uk-2009}
fi
# Paths given are made absolute before the script moves to the repository.
cetune=$(realpath -m "${args[0]:-build/cetune}")
corpora=$(realpath -m "${args[1]:-../shared/corpora}")
out=$(realpath -m "${args[2]:-runs/generalisation}")
[ "$start" != loco ] && start=$(realpath -m "$start")
[ "$(printf '%s\n' $start_seeds | sort | uniq -d)" = "" ] || die "--start-seed: a seed given twice"
# A start file has no start seed: its runs are named and counted once.
[ "$start" = loco ] || start_seeds=-
cd "$(dirname "$0")/.."
params=${PARAMS:-params/score.json}
[ -x "$cetune" ] || die "$cetune not found; build first: cmake -S . -B build && cmake --build build -j2"
[ "$start" = loco ] || [ -f "$start" ] || die "$start not found"
if [ ! -d "$corpora/portals" ]; then
  echo "skipping: $corpora/portals not found (the shared corpora)"
  exit 77
fi
mkdir -p "$out"
log() { printf '== %s\n' "$*" >&2; }
# scores SAMPLE BEST.json START.json [SEARCH.json]: the mean word F1 of the
# start, of BEST, of configs/article.json and of the search's best (whatever
# the final choice; 0 when not given) on the family's pages that SAMPLE
# lists ($dir, one package: the macro column; evaluate names a row by its
# file, or a best.json by its run's folder).
scores() {
  local search=()
  [ -n "${4:-}" ] && search=(-c "$4")
  "$cetune" evaluate -c "$3" -c "$out/article.json" -c "$2" "${search[@]}" -d "$dir" -s "$1" \
    --format csv --threads "$threads" 2>/dev/null |
    awk -F, '$1 == "f1" && $3 == "\"start\"" { s = $NF; next }
      $1 == "f1" && $3 == "\"article\"" { a = $NF; next }
      $1 == "f1" && $3 == "\"search\"" { x = $NF; next } $1 == "f1" { b = $NF }
      END { printf "%.6f %.6f %.6f %.6f\n", s, b, a, x }'
}

# learn_starts T CORPUS...: OUT/starts/seed-T/without-C/start.json for each
# C, the best of a search with seed T on the other dev corpora from the
# hand-set configuration (the description's second seed), cached while the
# settings are the same.
learn_starts() {
  local all=(portals big5 cleaneval-dev scrapinghub l3s-gn1) c o sdir binary t=$1
  shift
  binary=$(sha1sum <"$cetune" | cut -d' ' -f1)
  mkdir -p "$out/starts"
  python3 - "$params" "$out/starts/params.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hand = d["seeds"][1]  # set by hand from trafilatura's rules, before any tuning
for p in d["parameters"]:
    if p["name"] in hand:
        p["default"] = hand[p["name"]]
d["seeds"] = []
d["description"] += " (generalisation.sh: the hand-set seed as the defaults)"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
  for c in "$@"; do
    sdir=$out/starts/seed-$t/without-$c
    local train=() stamp="evals $start_evals docs $start_docs seed $t no-site $(sha1sum <"$out/starts/params.json")"
    for o in "${all[@]}"; do
      [ "$o" = "$c" ] || [ ! -d "$corpora/$o" ] || train+=("$o")
    done
    if [ -f "$sdir/start.json" ] && [ "$(cat "$sdir/stamp" 2>/dev/null)" = "$stamp" ]; then
      # Reused on purpose (two binaries compared on the same starts), but
      # said: a start learned by other code is not what this code learns.
      if [ "$(cat "$sdir/learned-by" 2>/dev/null)" != "$binary" ]; then
        log "reusing the start without $c learned by another cetune (sha1 $(cut -c1-12 \
          "$sdir/learned-by" 2>/dev/null || echo unknown)); remove $sdir to learn it with this one"
        stale+=" $c:$t"
      fi
      continue
    fi
    log "learning the start without $c, start seed $t: ${train[*]}"
    rm -rf "$sdir"
    mkdir -p "$sdir"
    local dirs=()
    for o in "${train[@]}"; do
      dirs+=(-d "$corpora/$o")
      "$cetune" sample -d "$corpora/$o" -n "$start_docs" --seed "$t" -o - --threads "$threads" \
        2>/dev/null >>"$sdir/sample.txt"
    done
    # The search's best (the start must move off the hand-set point), no
    # shrink, no site rules (a general configuration): what the families'
    # runs tune from, whatever evolve's defaults.
    nice -n 10 "$cetune" evolve -p "$out/starts/params.json" "${dirs[@]}" -s "$sdir/sample.txt" \
      --max-evals "$start_evals" --generations 0 --patience 0 --choose search --shrink 0 --no-site \
      --seed "$t" --threads "$threads" -o "$sdir/run" -q >"$sdir/evolve.txt" 2>&1 ||
      { cat "$sdir/evolve.txt" >&2; die "learning the start without $c failed"; }
    cp "$sdir/run/best.json" "$sdir/start.json"
    echo "$stamp" >"$sdir/stamp"
    echo "$binary" >"$sdir/learned-by"
  done
}

families() {
  rm -rf "$out/families"
  python3 scripts/site-families.py "$corpora" "$out/families" >"$out/families.txt"
  cp configs/article.json "$out/article.json" # named so that evaluate's rows say "article"
  if [ "$start" = loco ]; then
    local corpora_used
    corpora_used=$(while read -r fam corpus n; do
      if [ -z "$only" ] || [[ " $only " == *" $fam "* ]]; then echo "$corpus"; fi
    done <"$out/families.txt" | sort -u)
    local t
    for t in $start_seeds; do
      # shellcheck disable=SC2086 # one word per corpus
      learn_starts "$t" $corpora_used
    done
  else
    mkdir -p "$out/starts"
    cp "$start" "$out/starts/start.json" # named so that evaluate's rows say "start"
  fi
  local csv=$out/families.csv
  echo "family,corpus,pages,k,seed,test_pages,start_f1,tuned_f1,gain,train_gain,evaluations,seconds,article_f1,search_gain,cv_gains,decision,start_seed" >"$csv"
  local fam corpus n k s t fstart fparams name
  while read -r fam corpus n; do
    if [ -n "$only" ] && [[ " $only " != *" $fam "* ]]; then continue; fi
    local dir=$out/families/$fam
    # A loco start comes with the description it was learned from: the
    # hand-set defaults and no seeds, so that nothing learned on the
    # family's corpus joins the search's first generation either.
    for t in $start_seeds; do
      fstart=$out/starts/start.json fparams=$params name=""
      [ "$start" = loco ] && fstart=$out/starts/seed-$t/without-$corpus/start.json \
        fparams=$out/starts/params.json name="-start$t"
      for k in $ks; do
        [ $((n - k)) -ge 3 ] || continue
        for s in $seeds; do
          local w=$out/work/$fam-k$k-s$s$name
          rm -rf "$w"
          mkdir -p "$w"
          "$cetune" sample -d "$dir" -n "$k" --seed "$s" -o "$w/train.txt" --threads "$threads" \
            >/dev/null 2>&1
          "$cetune" sample -d "$dir" -n 1000000 -o "$w/all.txt" --threads "$threads" >/dev/null 2>&1
          grep -v '^#' "$w/train.txt" | grep -vxF -f - "$w/all.txt" | grep -v '^#' >"$w/test.txt"
          local data=(-d "$dir" -s "$w/train.txt")
          if [ $unlabelled = 1 ]; then
            # The family as a crawl: every page, gold beside the K labelled ones only.
            mkdir -p "$w/crawl/$fam"
            ln -s "$dir"/*.html "$w/crawl/$fam/"
            sed "s|^$fam/||" "$w/train.txt" | grep -v '^#' | while read -r p; do
              ln -s "$dir/$p.txt" "$w/crawl/$fam/$p.txt"
            done
            data=(-d "$w/crawl" --fitness template)
          fi
          local evals=()
          [ "$max_evals" -gt 0 ] && evals=(--max-evals "$max_evals")
          local t0=$SECONDS
          nice -n 10 "$cetune" evolve -p "$fparams" "${data[@]}" --seed-config "$fstart" --seed "$s" \
            --threads "$threads" "${evals[@]}" "${extra[@]}" -o "$w/run" -q >"$w/evolve.txt" 2>&1 ||
            { cat "$w/evolve.txt" >&2; die "evolve failed on $fam k=$k seed $s"; }
          local secs=$((SECONDS - t0))
          local sf tf af xf st tt ne cv=""
          # The search's best on all K pages with the site rules learned after
          # it (site.json), whatever the final choice made of them, and the
          # held-out gains the choice was made from: with both, any choice rule
          # can be judged on these runs afterwards.
          python3 -c 'import json, os, sys
c = json.load(open(sys.argv[1]))[0]
if os.path.exists(sys.argv[2]): c["site"] = json.load(open(sys.argv[2]))
json.dump(c, open(sys.argv[3], "w"))' "$w/run/top.json" "$w/run/site.json" "$w/search.json"
          [ -f "$w/run/heldout.csv" ] && cv=$(awk -F, 'NR > 1 { printf "%s%s", sep, $5; sep = ";" }' \
            "$w/run/heldout.csv")
          # One evaluate per page set, the start and best.json side by side.
          read -r sf tf af xf < <(scores "$w/test.txt" "$w/run/best.json" "$fstart" "$w/search.json")
          # The gain the search saw on its labelled pages (what a user is shown).
          read -r st tt _ _ < <(scores "$w/train.txt" "$w/run/best.json" "$fstart")
          ne=$(($(wc -l <"$w/run/individuals.csv") - 1))
          # What best.json is: tuned, start+site (the start with site rules) or start.
          dec=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["final"].get("decision", "-"))' \
            "$w/run/run.json")
          awk -v f="$fam" -v c="$corpus" -v n="$n" -v k="$k" -v s="$s" -v m="$(wc -l <"$w/test.txt")" \
            -v sf="$sf" -v tf="$tf" -v st="$st" -v tt="$tt" -v ne="$ne" -v sec="$secs" -v af="$af" \
            -v xf="$xf" -v cv="$cv" -v dec="$dec" -v t="$t" 'BEGIN {
              printf "%s,%s,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%d,%d,%.6f,%.6f,%s,%s,%s\n", f, c, n, k, s, m, sf,
                tf, tf - sf, tt - st, ne, sec, af, xf - sf, cv, dec, t }' >>"$csv"
          log "$fam k=$k seed $s${name:+ start seed $t}: start $sf, tuned $tf on $(wc -l <"$w/test.txt") test pages"
        done
      done
    done
  done <"$out/families.txt"
  python3 - "$csv" "$out/families.md" "$start" "${extra[*]}" "$unlabelled" "$stale" "$start_seeds" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out, start, extra, unl = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] == "1"
tseeds = sys.argv[7].split()
several = len(tseeds) > 1
stale = [c.replace(":", " (start seed ") + ")" if several else c.split(":")[0]
         for c in sys.argv[6].split()]
md = [(f"Start: learned without the family's corpus (OUT/starts/seed-T/without-CORPUS, start seed"
       f"{'s' if several else ''} {', '.join(tseeds)})" if start == "loco"
       else f"Start: `{start.split('/')[-1]}`") + f"; evolve options: `{extra or '(defaults)'}`"
      + ("; the family's other pages join the search without gold" if unl else "") + "."
      + (f" The starts without {', '.join(stale)} were learned by another cetune binary"
         " (reused from the cache)." if stale else ""), "",
      "| K | families | corpus | runs | tuned | start + site rules | median gain | mean gain | worst | best | lose | lose > 0.005 | median training gain | start - article.json, median |",
      "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
def line(k, corpus, rs):
    g = [float(r["gain"]) for r in rs]
    t = [float(r["train_gain"]) for r in rs]
    a = [float(r["start_f1"]) - float(r["article_f1"]) for r in rs]
    lose = sum(x < -1e-9 for x in g)
    big = sum(x < -0.005 for x in g)
    dec = [r.get("decision", "-") for r in rs]
    return (f"| {k} | {len({r['family'] for r in rs})} | {corpus} | {len(g)} | {dec.count('tuned')} "
            f"| {dec.count('start+site')} | {statistics.median(g):+.4f} "
            f"| {statistics.mean(g):+.4f} | {min(g):+.4f} | {max(g):+.4f} | {lose} ({lose / len(g):.0%}) "
            f"| {big} ({big / len(g):.0%}) | {statistics.median(t):+.4f} | {statistics.median(a):+.4f} |")
for k in sorted({int(r["k"]) for r in rows}):
    rk = [r for r in rows if int(r["k"]) == k]
    for corpus in sorted({r["corpus"] for r in rk}):
        md.append(line(k, corpus, [r for r in rk if r["corpus"] == corpus]))
    md.append(line(k, "**all**", rk))
# The same runs from each start: how much of the figures is the start's.
if several:
    md += ["", "By start seed (every family, K and seed from each start):", "",
           md[2].replace("| corpus |", "| start seed |"), md[3]]
    for k in sorted({int(r["k"]) for r in rows}):
        for t in tseeds:
            rt = [r for r in rows if int(r["k"]) == k and r["start_seed"] == t]
            if rt:
                md.append(line(k, t, rt))
open(out, "w").write("\n".join(md) + "\n")
print("\n".join(md))
EOF
}

loco() {
  local all=(portals big5 cleaneval-dev scrapinghub l3s-gn1) left c
  for c in "${all[@]}"; do
    [ -d "$corpora/$c" ] || { echo "skipping the leave-one-out part: $corpora/$c not found" >&2; return 0; }
  done
  left=${LOCO_ONLY:-${all[*]}}
  [ $quick = 1 ] && left=cleaneval-dev
  log "leave one corpus out: $left"
  ALL="${all[*]}" ONLY="$left" THREADS=$threads \
    EVOLVE_OPTS="--max-evals $loco_evals --sample-size $loco_sample --generations 0 --patience 0" \
    nice -n 10 scripts/leave-one-out.sh "$cetune" "$corpora" "$out/loco"
}

case $part in
families) families ;;
loco) loco ;;
all) families; loco ;;
esac
log "done: $out"
