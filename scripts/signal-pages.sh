#!/usr/bin/env bash
# For each of score's page-named signals, the pages it rescues: the
# configuration as given against the same with that signal switched off
# (its weight 0; drop_headline false; near, fallback_words, fallback_margin
# 0), word F1 per page on the four dev corpora.  Prints, per signal, how many
# pages gain and lose more than 0.01 F1, the macro F1 change (per package,
# then over packages), and the three pages that gain most.
# Usage: scripts/signal-pages.sh [CETUNE] [CORPORA] CONFIG.json
set -euo pipefail
cd "$(dirname "$0")/.."
cetune=${1:-build/cetune}
corpora=${2:-../shared/corpora}
config=${3:?usage: scripts/signal-pages.sh [CETUNE] [CORPORA] CONFIG.json}
dirs=(-d "$corpora/portals" -d "$corpora/big5" -d "$corpora/cleaneval-dev" -d "$corpora/scrapinghub")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
signals=(w_body_mark w_meta w_comments w_related w_share w_notice w_hidden w_caption w_landmark
  w_headline w_repeat w_outside_body drop_headline near fallback_words fallback_margin)
off() { case $1 in drop_headline) echo false ;; *) echo 0 ;; esac; }
args=()
for s in "${signals[@]}"; do args+=(-c "$config" -P "$s=$(off "$s")"); done
"$cetune" evaluate -c "$config" "${args[@]}" "${dirs[@]}" --per-doc --format csv \
  >"$tmp/per-doc.csv" 2>/dev/null
printf '| signal | pages better | pages worse | macro F1 change | pages it rescues most (F1 without → with) |\n'
printf '| --- | ---: | ---: | ---: | --- |\n'
python3 - "$tmp/per-doc.csv" "${signals[@]}" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
signals = sys.argv[2:]
# Configurations come in order: the given one, then one per signal.
configs = []
for r in rows:
    if r["config"] not in configs:
        configs.append(r["config"])
f1 = {}
for r in rows:
    f1[(r["config"], r["package"], r["name"])] = float(r["f1"])
base = configs[0]
keys = [(p, n) for (c, p, n) in f1 if c == base]
for s, c in zip(signals, configs[1:]):
    d = sorted(((f1[(base, p, n)] - f1[(c, p, n)], p, n) for p, n in keys), reverse=True)
    better = sum(1 for x, _, _ in d if x > 0.01)
    worse = sum(1 for x, _, _ in d if x < -0.01)
    pk = {}
    for p, n in keys:
        pk.setdefault(p, []).append(f1[(base, p, n)] - f1[(c, p, n)])
    dm = sum(sum(v) / len(v) for v in pk.values()) / len(pk)
    top = ", ".join("%s/%s %.2f → %.2f" % (p, n[:8] if len(n) == 64 else n, f1[(c, p, n)], f1[(base, p, n)])
                    for x, p, n in d[:3] if x > 0.01)
    print("| `%s` | %d | %d | %+.4f | %s |" % (s, better, worse, dm, top or "none"))
PY
