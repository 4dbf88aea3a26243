#!/usr/bin/env bash
# The documentation stays navigable: the README is short (at most 250 lines),
# docs/README.md indexes every document of docs/, every relative link of the
# README, CONTRIBUTING.md and docs/*.md leads to a file that exists, and no
# text points at an issue number a reader cannot follow.
SRC=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

n=$(wc -l <README.md)
[ "$n" -le 250 ] || fail "README.md has $n lines; at most 250 (move details to docs/)"

for f in docs/*.md; do
  b=${f#docs/}
  [ "$b" = README.md ] && continue
  grep -q "($b)" docs/README.md || fail "docs/README.md does not list $b"
done

for f in README.md CONTRIBUTING.md CHANGELOG.md docs/*.md; do
  dir=$(dirname "$f")
  # Markdown links and images to relative targets, anchors and URLs left out.
  # (Code spans are left out: they show link syntax, not links.)
  sed 's/`[^`]*`//g' "$f" | grep -o '\](\([^)#: ]*\)\(#[^)]*\)\{0,1\})' | sed 's/^](\([^)#]*\).*/\1/' | sort -u |
    while read -r target; do
      [ -n "$target" ] || continue
      [ -e "$dir/$target" ] || echo "$f: link to $target, which does not exist"
    done
done >"${TMPDIR:-/tmp}/cetune-doclinks.$$"
while read -r line; do fail "$line"; done <"${TMPDIR:-/tmp}/cetune-doclinks.$$"
rm -f "${TMPDIR:-/tmp}/cetune-doclinks.$$"

if grep -nE '\b[Ii]ssues? #?[0-9]+' README.md CONTRIBUTING.md CHANGELOG.md docs/*.md; then
  fail "the lines above cite issue numbers; say what they refer to instead"
fi

for f in LICENSE CHANGELOG.md CONTRIBUTING.md docs/README.md docs/results.md docs/internals.md; do
  [ -s "$f" ] || fail "$f is missing"
done

[ "$fails" -eq 0 ] && echo "documentation: README $n lines, every document indexed, every link resolves"
exit $((fails > 0))
