#!/usr/bin/env bash
# The example outputs quoted in README.md and docs/*.md, regenerated from the
# commands that print them, or checked against them.
#
#   scripts/docs-examples.sh [--check | --update] [--cetune PATH] [--skip-corpora] [FILE.md...]
#
# An example is a line
#
#   <!-- output of: COMMAND -->
#
# followed at once by a fenced code block that holds COMMAND's standard output,
# exactly.  COMMAND runs with bash in a scratch copy of the repository root
# (params/, samples/, configs/, data/, scripts/ linked, ./build/cetune the
# binary under test, ../shared beside it when the checkout has one), so its
# run directories never land in the checkout.  --check (the default; the test
# tests/cli/docs_examples.sh runs it) prints a diff for every block that
# drifted and exits 1; --update rewrites the blocks in place.  Examples that
# read the corpora (the command names ../shared, or a script that reads them)
# are skipped with a note when the corpora are absent, or with
# --skip-corpora: the sanitizer build's test passes it, since those commands
# take minutes there and their paths have tests of their own.
# Standard error is not quoted: it carries timings.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mode=check skip_corpora=0
cetune=$here/build/cetune
files=()
while [ $# -gt 0 ]; do
  case $1 in
    --check) mode=check ;;
    --update) mode=update ;;
    --cetune) cetune=$(realpath "$2"); shift ;;
    --skip-corpora) skip_corpora=1 ;;
    -h|--help) sed -n '2,23s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "docs-examples.sh: unknown option $1" >&2; exit 2 ;;
    *) files+=("$(realpath "$1")") ;;
  esac
  shift
done
[ ${#files[@]} -gt 0 ] || files=("$here/README.md" "$here"/docs/*.md)
[ -x "$cetune" ] || { echo "docs-examples.sh: $cetune is not an executable cetune (--cetune PATH)" >&2; exit 2; }

tmp=$(mktemp -d /tmp/cetune-docs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
corpora=$here/../shared/corpora
[ -n "${CETUNE_CORPORA:-}" ] && corpora=$CETUNE_CORPORA

# A fresh scratch root for each example, so no example sees another's runs.
scratch() {
  rm -rf "$tmp/root" "$tmp/shared"
  mkdir -p "$tmp/root/build"
  local d
  for d in params samples configs data scripts; do ln -s "$here/$d" "$tmp/root/$d"; done
  ln -s "$cetune" "$tmp/root/build/cetune"
  if [ -d "$corpora" ]; then mkdir "$tmp/shared"; ln -s "$(realpath "$corpora")" "$tmp/shared/corpora"; fi
}

# Lists the examples of a file: "MARKER_LINE<TAB>OPEN_FENCE<TAB>CLOSE_FENCE<TAB>COMMAND".
examples() {
  awk -v file="$1" '
    function fail(msg) { printf "%s:%d: %s\n", file, NR, msg > "/dev/stderr"; bad = 1 }
    state == 0 && /^<!-- output of: .* -->$/ {
      cmd = $0; sub(/^<!-- output of: /, "", cmd); sub(/ -->$/, "", cmd)
      marker = NR; state = 1; next }
    state == 1 { if ($0 ~ /^```/) { open = NR; state = 2 } else { fail("an output-of marker must be followed by a fenced block"); state = 0 }; next }
    state == 2 && /^```$/ { printf "%d\t%d\t%d\t%s\n", marker, open, NR, cmd; state = 0 }
    END { if (state) fail("unclosed example"); exit bad }' "$1"
}

checked=0 drifted=0 skipped=0
for f in "${files[@]}"; do
  rel=${f#"$here"/}
  examples "$f" | sort -t$'\t' -k1,1nr >"$tmp/list" || { drifted=$((drifted + 1)); continue; }
  # Bottom to top, so that rewriting a block keeps the line numbers above it.
  while IFS=$'\t' read -r marker open close cmd; do
    if [[ $cmd == *../shared* || $cmd == *scripts/serve-families.sh* ]] &&
       { [ ! -d "$corpora" ] || [ "$skip_corpora" = 1 ]; }; then
      echo "skipping $rel:$marker: needs ../shared/corpora"; skipped=$((skipped + 1)); continue
    fi
    scratch
    if ! (cd "$tmp/root" && bash -c "$cmd") >"$tmp/got" 2>"$tmp/err"; then
      echo "$rel:$marker: the command failed: $cmd" >&2; sed 's/^/  stderr: /' "$tmp/err" | tail -5 >&2
      drifted=$((drifted + 1)); continue
    fi
    sed -n "$((open + 1)),$((close - 1))p" "$f" >"$tmp/want"
    checked=$((checked + 1))
    cmp -s "$tmp/want" "$tmp/got" && continue
    if [ "$mode" = update ]; then
      { head -n "$open" "$f"; cat "$tmp/got"; tail -n "+$close" "$f"; } >"$tmp/new"
      cat "$tmp/new" >"$f"
      echo "updated $rel:$marker"
    else
      echo "$rel:$marker: the quoted output differs from what the command prints: $cmd"
      diff -u --label "$rel (quoted)" --label "printed" "$tmp/want" "$tmp/got" | head -40 || true
      drifted=$((drifted + 1))
    fi
  done <"$tmp/list"
done
echo "docs examples: $checked checked, $drifted drifted or failed, $skipped skipped"
[ "$drifted" -eq 0 ]
