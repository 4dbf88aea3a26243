#!/usr/bin/env bash
# Prints, as Markdown, every registered extractor's precision, recall and F1
# per package at its defaults on the four dev corpora (docs/extractors.md).
# Usage: scripts/extractor-figures.sh [CETUNE] [CORPORA]
set -euo pipefail
cetune=${1:-build/cetune}
corpora=${2:-../shared/corpora}
dirs=(-d "$corpora/portals" -d "$corpora/cleaneval-dev" -d "$corpora/scrapinghub" -d "$corpora/big5")
extractors=$("$cetune" list | awk '/^[a-z]/ {print $1}')
echo "| extractor | package | docs | P | R | F1 |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for x in $extractors; do
  "$cetune" evaluate -x "$x" "${dirs[@]}" --format csv 2>/dev/null |
    awk -F, -v x="$x" 'NR > 1 { name = ($1 == "macro") ? "**macro average**" : $1;
      printf "| %s | %s | %d | %.3f | %.3f | %.3f |\n", x, name, $2, $3, $4, $5 }'
done
