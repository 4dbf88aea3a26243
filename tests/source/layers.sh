#!/usr/bin/env bash
# The floors of docs/internals.md ("Architecture"): each folder of src/ uses
# only the folders below it, and src/util is used by all:
#
#   util <- warc <- doc <- extract <- page <- space <- eval <- ga <- run <- mpi <- cli
#                                        \-- serve (doc, extract, page, eval) -----^
# (warc: WARC files, which corpora read as page sources)
#
# An include of "cetune/X.h" counts as a use of the folder that implements
# X.h (OWNER below: a new public header needs a row), "DIR/Y.h" as a use of
# src/DIR.  Public headers keep their folder's floor too.  And the engine's
# internals stay inside src/ga: outside it only "ga/state.h" (the engine's
# state for checkpoints, which src/run stores) may be included.
# usage: layers.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: layers.sh SOURCE_DIR}"

CHAIN=(util warc doc extract page space eval ga run mpi cli)
declare -A BELOW
below=""
for f in "${CHAIN[@]}"; do
  BELOW[$f]="$below"
  below="$below $f"
done
BELOW[serve]="util warc doc extract page eval" # eval: label aligns gold as the metric does
BELOW[cli]="${BELOW[cli]} serve"

declare -A OWNER=(
  [common]=util [error]=util [buf]=util [clock]=util [datadir]=util [version]=util
  [doc]=doc [tags]=doc [corpus]=doc [layout]=doc [template]=doc [text]=doc [guard]=doc
  [extractor]=extract [config]=extract [adhosts]=extract [routes]=extract
  [page]=page [meta]=page
  [params]=space [split]=space
  [eval]=eval [chars]=eval [lcs]=eval
  [search]=ga [ga]=ga [objective]=ga
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
    if [ "$to" = ga ] && [ "$from" != ga ] && [ "$inc" != ga/state.h ] && [[ $inc != cetune/* ]]; then
      fail "$file includes $inc: outside src/ga only ga/state.h and the public headers"
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
