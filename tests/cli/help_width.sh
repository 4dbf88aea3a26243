# Every --help fits 100 columns (docs/formats.md keeps to them too): the
# top-level help and each command's, the commands read from the top-level
# list so that a new one is checked without a change here.  A command's
# about text is wrapped by the printer, so none is cut mid-sentence by a
# line break placed by hand.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"

"$CETUNE" --help >"$TMP/top" || die "cetune --help failed"
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$TMP/top")
[ "$(echo "$cmds" | wc -w)" -ge 8 ] && ok || fail "the command list: $cmds"
for c in "" $cmds; do
  "$CETUNE" $c --help >"$TMP/help" 2>&1 || fail "cetune $c --help: exit $?"
  wide=$(awk 'length > 100 {printf "%d: %s\n", length, $0}' "$TMP/help")
  if [ -z "$wide" ]; then ok; else fail "cetune $c --help has lines over 100 columns:"; echo "$wide" >&2; fi
  # The about paragraph (after the summary line): no line of a few words
  # followed by more text, as a break placed by hand left.
  short=$(awk 'NR > 1 && prev != "" && length(prev) < 40 && $0 != "" && prev !~ /^ / && prev !~ /^usage/ && prev !~ /:$/ {print prev} {prev = $0}' "$TMP/help")
  if [ -z "$short" ]; then ok; else fail "cetune $c --help breaks a sentence after: $short"; fi
done
finish
