#!/usr/bin/env bash
# Prints, as Markdown, the precision, recall and F1 per package of every
# registered extractor at its defaults on the four dev corpora: the tables of
# docs/extractors.md.  Usage: scripts/extractor-figures.sh [CETUNE] [CORPORA]
set -euo pipefail
cetune=${1:-build/cetune}
corpora=${2:-../shared/corpora}
dirs=(-d "$corpora/portals" -d "$corpora/cleaneval-dev" -d "$corpora/scrapinghub" -d "$corpora/big5")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for x in $("$cetune" list | awk '/^[a-z]/ {print $1}'); do
  "$cetune" evaluate -x "$x" "${dirs[@]}" --format csv 2>/dev/null | awk -F, -v x="$x" 'NR > 1 { print x "," $0 }'
done >"$tmp"
# One table per figure: a row per extractor, a column per package, then the macro average.
for fig in 4:F1 2:Precision 3:Recall; do
  col=${fig%%:*} name=${fig#*:}
  awk -F, -v col="$col" -v name="$name" '
    { key = $1 SUBSEP $2; v[key] = $(col + 2); if (!($1 in seenx)) { seenx[$1] = 1; xs[++nx] = $1 }
      if ($2 != "macro" && !($2 in seenp)) { seenp[$2] = 1; ps[++np] = $2; docs[$2] = $3 } }
    END {
      printf "### %s\n\n| extractor |", name
      for (j = 1; j <= np; j++) printf " %s (%d) |", ps[j], docs[ps[j]]
      printf " **macro** |\n| --- |"
      for (j = 1; j <= np + 1; j++) printf " ---: |"
      printf "\n"
      for (i = 1; i <= nx; i++) {
        printf "| `%s` |", xs[i]
        for (j = 1; j <= np; j++) printf " %.3f |", v[xs[i], ps[j]]
        printf " **%.3f** |\n", v[xs[i], "macro"]
      }
      printf "\n"
    }' "$tmp"
done
