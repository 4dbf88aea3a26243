#!/usr/bin/env bash
# The floors of docs/internals.md ("Architecture"): each folder of src/ uses
# only the folders below it, and src/util is used by all:
#
#   util <- warc <- doc <- extract <- page <- space <- eval <- search <- ga <- run <- mpi <- cli
#                                        \-- serve (doc, extract, page, eval) ---------------^
#                                                 cmaes (search and below) <- run -^
# (warc: WARC files, which corpora read as page sources; search: the engine;
# ga and cmaes: its two strategies, which the engine's table names)
#
# An include of "cetune/X.h" counts as a use of the folder that implements
# X.h (OWNER below: a new public header needs a row), "DIR/Y.h" as a use of
# src/DIR.  Public headers keep their folder's floor too.  And the engine's
# internals stay inside src/search: outside it only "search/state.h" (the
# engine's state for checkpoints, which src/run stores) and, for the
# strategies, "search/strategy.h" (their interface) and "search/nsga2.h"
# may be included.
# usage: layers.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: layers.sh SOURCE_DIR}"

CHAIN=(util warc doc extract page space eval search ga run mpi cli)
declare -A BELOW
below=""
for f in "${CHAIN[@]}"; do
  BELOW[$f]="$below"
  below="$below $f"
done
BELOW[serve]="util warc doc extract page eval" # eval: label aligns gold as the metric does
BELOW[cli]="${BELOW[cli]} serve cmaes"
BELOW[cmaes]="${BELOW[ga]}"
BELOW[run]="${BELOW[run]} cmaes"
BELOW[mpi]="${BELOW[mpi]} cmaes"

declare -A OWNER=(
  [common]=util [error]=util [buf]=util [clock]=util [datadir]=util [version]=util
  [doc]=doc [tags]=doc [corpus]=doc [layout]=doc [template]=doc [text]=doc [guard]=doc
  [extractor]=extract [config]=extract [adhosts]=extract [routes]=extract [site]=extract
  [page]=page [meta]=page
  [params]=space [split]=space
  [eval]=eval [chars]=eval [lcs]=eval
  [search]=search [ga]=search [objective]=search
  [run]=run [rundir]=run [report]=run [choice]=run
  [serve]=serve [label]=serve [warc]=warc)

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for h in include/cetune/*.h; do
  n=$(basename "$h" .h)
  [ -n "${OWNER[$n]:-}" ] || fail "$h has no folder in layers.sh's OWNER table"
done
for d in src/*/; do
  d=${d%/}; d=${d#src/}
  [ -n "${BELOW[$d]+x}" ] || fail "src/$d is on no floor of layers.sh (and docs/internals.md)"
done

# check FILE FOLDER: every include of FILE stays on FOLDER's floor or below.
check() {
  local file=$1 from=$2 inc to
  while IFS= read -r inc; do
    case $inc in
      cetune/*) to=${OWNER[$(basename "$inc" .h)]:-} ;;
      ../*/*) to=${inc#../}; to=${to%%/*} ;;
      */*) to=${inc%%/*} ;;
      *) continue ;; # the folder's own header
    esac
    [ -n "$to" ] || { fail "$file includes $inc, which no folder owns"; continue; }
    [ "$to" = "$from" ] && continue
    case " ${BELOW[$from]} " in
      *" $to "*) ;;
      *) fail "$file (src/$from) includes $inc of src/$to, which is not below it" ;;
    esac
    if [ "$to" = search ] && [ "$from" != search ] && [[ $inc != cetune/* ]]; then
      case $from:$inc in
        *:search/state.h | ga:search/strategy.h | cmaes:search/strategy.h | ga:search/nsga2.h) ;;
        *) fail "$file includes $inc: outside src/search only search/state.h, the strategies'" \
             "search/strategy.h and search/nsga2.h, and the public headers" ;;
      esac
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
}

for f in src/*/*.[ch]; do
  d=${f#src/}; d=${d%%/*}
  [ -n "${BELOW[$d]+x}" ] && check "$f" "$d"
done
for h in include/cetune/*.h; do
  n=$(basename "$h" .h)
  [ -n "${OWNER[$n]:-}" ] && check "$h" "${OWNER[$n]}"
done

if [ "$fails" -ne 0 ]; then
  echo "$fails violations of the floors (docs/internals.md, \"Architecture\")"
  exit 1
fi
echo "ok: every folder of src/ and every public header uses only the floors below it"
