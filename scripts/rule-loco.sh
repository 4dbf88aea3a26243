#!/bin/sh
# Leave-one-corpus-out test of one parameter of the shipped configuration
# (a context rule of score, docs/extractors.md): for each of the five dev
# corpora, the parameter's value is chosen on the other four (the best mean of
# their macro F1, corpora weighted equally; ties go to the smaller value) with
# every other parameter at configs/article.json, and the left-out corpus is
# scored at that value against the rule off (value 0).
#
#   scripts/rule-loco.sh PARAM "VALUES" [BASE.json]
#   scripts/rule-loco.sh tail "0 1 2 3 4 6"
#
# Prints each corpus's macro F1 per value, then one row per left-out corpus:
# the value chosen without it, its F1 with the rule off and at that value, and
# the difference.  Needs build/cetune, jq, and ../shared/corpora (CORPORA=...
# to point elsewhere).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 PARAM \"VALUES\" [BASE.json]" >&2; exit 2; }
param=$1
values=$2
base=${3:-configs/article.json}
C=${CORPORA:-../shared/corpora}
corpora="portals big5 cleaneval-dev scrapinghub l3s-gn1"
cetune=${CETUNE:-./build/cetune}
for c in $corpora; do
    [ -d "$C/$c" ] || { echo "$0: no corpus $C/$c" >&2; exit 1; }
done
jq -e --arg p "$param" '.params | has($p)' "$base" >/dev/null ||
    { echo "$0: $base has no parameter $param" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=""
for v in 0 $values; do
    [ -f "$tmp/v$v.json" ] && continue
    jq --arg p "$param" --argjson v "$v" '.params[$p] = $v' "$base" > "$tmp/v$v.json"
    args="$args -c $tmp/v$v.json"
done
# One evaluation per corpus, every value at once (each page is prepared once).
for c in $corpora; do
    # shellcheck disable=SC2086
    "$cetune" evaluate $args -d "$C/$c" --format csv --threads "${THREADS:-2}" 2>/dev/null |
        awk -F, -v c="$c" '$1 == "f1" { gsub(/"/, "", $3); sub(/^v/, "", $3); print c, $3, $NF }'
done > "$tmp/f1.txt"
awk -v param="$param" -v corpora="$corpora" '
    { f[$1, $2] = $3; if (!($2 in seen)) { seen[$2] = 1; vals[++nv] = $2 } }
    END {
        nc = split(corpora, cs, " ")
        for (i = 1; i <= nv; i++) for (j = i + 1; j <= nv; j++)
            if (vals[j] + 0 < vals[i] + 0) { t = vals[i]; vals[i] = vals[j]; vals[j] = t }
        printf "macro F1 per corpus, %s at each value (others as the base configuration)\n", param
        printf "%-14s", param; for (j = 1; j <= nc; j++) printf " %13s", cs[j]; printf "\n"
        for (i = 1; i <= nv; i++) {
            printf "%-14s", vals[i]
            for (j = 1; j <= nc; j++) printf " %13.4f", f[cs[j], vals[i]]
            printf "\n"
        }
        printf "\nleft out       chosen on the others   F1 rule off   F1 rule on     delta\n"
        wins = 0; sum = 0
        for (j = 1; j <= nc; j++) {
            best = ""; bestm = -1
            for (i = 1; i <= nv; i++) {
                m = 0
                for (k = 1; k <= nc; k++) if (k != j) m += f[cs[k], vals[i]]
                m /= nc - 1
                if (m > bestm + 1e-9) { bestm = m; best = vals[i] }
            }
            off = f[cs[j], 0]; on = f[cs[j], best]
            printf "%-14s %20s %13.4f %12.4f %+9.4f\n", cs[j], best, off, on, on - off
            wins += on > off + 1e-9; losses += on < off - 1e-9; sum += on - off
        }
        printf "better on %d, worse on %d of %d left-out corpora; mean delta %+.4f\n",
            wins, losses, nc, sum / nc
    }' "$tmp/f1.txt"
