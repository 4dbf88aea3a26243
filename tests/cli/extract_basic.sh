#!/bin/bash
# cetune extract on small pages: text and HTML output, stdin, --out-dir,
# failures that do not stop the run, refused configurations, ad-host lists.
# usage: extract_basic.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$T/a.html" <<'HTML'
<html><body><div><a href="/">Home</a> <a href="/x">News</a></div>
<p>Main text of page a, long enough to be kept by every extractor here.</p>
<p><a href="http://ads.example.org/buy">Sponsored offer</a></p></body></html>
HTML
printf '<html><body><p>Page b \xe9t\xe9 in windows-1252.</p></body></html>' > "$T/b.htm"
cp "$T/a.html" "$T/c.html" && gzip -9 "$T/c.html"

# Text to stdout, exactly cet_extract_text's rendering.
out=$("$CETUNE" extract -x alltext "$T/a.html") || fail "alltext exit status"
[ "$out" = "$(printf 'Home News\nMain text of page a, long enough to be kept by every extractor here.\nSponsored offer')" ] ||
    fail "alltext text: $out"
# Charset handling as everywhere: windows-1252 bytes come out as UTF-8.
out=$("$CETUNE" extract -x alltext "$T/b.htm") || fail "b.htm"
[ "$out" = "Page b été in windows-1252." ] || fail "charset: $out"
# Standard input, with '-' or no file at all; .gz pages are read too.
[ "$("$CETUNE" extract -x alltext - < "$T/a.html")" = "$("$CETUNE" extract -x alltext "$T/a.html")" ] || fail "stdin -"
[ "$("$CETUNE" extract -x alltext < "$T/a.html")" = "$("$CETUNE" extract -x alltext "$T/a.html")" ] || fail "stdin default"
[ "$("$CETUNE" extract -x crunch "$T/c.html.gz")" = "$("$CETUNE" extract -x crunch "$T/a.html")" ] || fail ".gz page"
# crunch at its defaults drops the menu; several files on standard output
# are separated by a line holding a form feed (they once ran together).
out=$("$CETUNE" extract -x crunch "$T/a.html" "$T/b.htm") || fail "crunch exit status"
[ "$out" = "$(printf 'Main text of page a, long enough to be kept by every extractor here.\nSponsored offer\n\f\nPage b été in windows-1252.')" ] ||
    fail "crunch text: $out"
# Split again, each page is what it gives alone.
"$CETUNE" extract -x alltext "$T/a.html" "$T/b.htm" "$T/c.html.gz" > "$T/all.txt" || fail "three pages"
[ "$(grep -c $'^\f$' "$T/all.txt")" = 2 ] || fail "form feed lines: $(od -c "$T/all.txt" | head -5)"
awk 'BEGIN { RS = "\f\n" } NR == 2 { printf "%s", $0 }' "$T/all.txt" > "$T/second.txt"
[ "$(cat "$T/second.txt")" = "$("$CETUNE" extract -x alltext "$T/b.htm")" ] || fail "second page: $(cat "$T/second.txt")"
# --headers: a line ==> FILE <== before each page instead.
out=$("$CETUNE" extract -x crunch --headers "$T/a.html" "$T/b.htm") || fail "--headers exit status"
[ "$out" = "$(printf '==> %s <==\nMain text of page a, long enough to be kept by every extractor here.\nSponsored offer\n==> %s <==\nPage b été in windows-1252.' "$T/a.html" "$T/b.htm")" ] ||
    fail "--headers: $out"
# One page alone is printed as it is.
[ "$("$CETUNE" extract -x alltext "$T/b.htm" | od -c)" = "$(printf 'Page b été in windows-1252.\n' | od -c)" ] || fail "one page changed"

# HTML output.
out=$("$CETUNE" extract -x mantratzis --format html "$T/a.html") || fail "html exit status"
case "$out" in '<!DOCTYPE html>'*'<meta charset="utf-8">'*'Main text of page a'*) ;; *) fail "html: $out" ;; esac
"$CETUNE" extract -x alltext --format pdf "$T/a.html" 2>/dev/null; [ $? = 2 ] || fail "--format pdf is a usage error"

# --out-dir: DIR/NAME.txt, NAME without .html/.htm/.gz; created when missing.
"$CETUNE" extract -x crunch --out-dir "$T/out" "$T/a.html" "$T/b.htm" "$T/c.html.gz" 2>"$T/err" || fail "out-dir: $(cat "$T/err")"
for n in a b c; do [ -f "$T/out/$n.txt" ] || fail "out-dir: no $n.txt"; done
cmp -s "$T/out/a.txt" "$T/out/c.txt" || fail "out-dir: a and c differ"
[ "$(cat "$T/out/a.txt")" = "$("$CETUNE" extract -x crunch "$T/a.html")" ] || fail "out-dir text differs from stdout"
"$CETUNE" extract -x crunch --format html --out-dir "$T/out" "$T/a.html" 2>/dev/null || fail "out-dir html"
head -1 "$T/out/a.html" | grep -q '<!DOCTYPE html>' || fail "out-dir html content"
# Two pages of one name are not written over each other: the second fails.
mkdir "$T/d1" "$T/d2" && cp "$T/a.html" "$T/d1/x.html" && cp "$T/b.htm" "$T/d2/x.html"
"$CETUNE" extract -x alltext --out-dir "$T/dup" "$T/d1/x.html" "$T/d2/x.html" 2>"$T/err"
[ $? = 1 ] || fail "a second page of the same name must fail"
grep -q 'already written' "$T/err" || fail "same-name message: $(cat "$T/err")"
grep -q 'Main text of page a' "$T/dup/x.txt" || fail "the first page of a name was overwritten"
"$CETUNE" extract -x alltext --out-dir "$T/dup" "$T/d1/x.html" 2>/dev/null || fail "a new run may replace old outputs"
# ... and never over the page itself.
cp "$T/a.html" "$T/keep.html"
"$CETUNE" extract -x crunch --format html --out-dir "$T" "$T/keep.html" 2>"$T/err"
[ $? = 1 ] || fail "overwriting the input must fail"
grep -q 'overwrite' "$T/err" || fail "overwrite message: $(cat "$T/err")"
cmp -s "$T/a.html" "$T/keep.html" || fail "the input page was overwritten"

# A missing page is reported on one line; the others are still extracted; exit 1.
out=$("$CETUNE" extract -x alltext "$T/a.html" "$T/missing.html" "$T/b.htm" 2>"$T/err")
[ $? = 1 ] || fail "a failed page must give exit status 1"
grep -q 'missing.html' "$T/err" || fail "no message for the missing page"
grep -q '2 of 3 pages' "$T/err" || fail "no summary: $(cat "$T/err")"
case "$out" in *'Main text of page a'*'Page b'*) ;; *) fail "pages after a failure: $out" ;; esac

# Configurations that do not match the registry are refused (exit 2), with file:line:col.
printf '{"extractor": "crunch",\n "params": {"link_text_ratio": 0.5, "no_such": 1}}\n' > "$T/bad1.json"
"$CETUNE" extract -c "$T/bad1.json" "$T/a.html" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "unknown parameter accepted"
grep -q "bad1.json:2:[0-9]*: .*no parameter \"no_such\"" "$T/err" || fail "unknown parameter message: $(cat "$T/err")"
printf '{"extractor": "nosuch", "params": {}}\n' > "$T/bad2.json"
"$CETUNE" extract -c "$T/bad2.json" "$T/a.html" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "unknown extractor accepted"
grep -q "bad2.json:1:[0-9]*: unknown extractor 'nosuch'" "$T/err" || fail "unknown extractor message: $(cat "$T/err")"
printf '{"extractor": "mantratzis", "params": {"min_points": 3}}\n' > "$T/bad3.json"
"$CETUNE" extract -c "$T/bad3.json" "$T/a.html" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "out-of-range value accepted"
grep -q "bad3.json:1:[0-9]*: .*min_points" "$T/err" || fail "range message: $(cat "$T/err")"
printf '{"extractor": "crunch", "params": {"remove_ads": 1}}\n' > "$T/bad4.json"
"$CETUNE" extract -c "$T/bad4.json" "$T/a.html" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "a number for a bool accepted"
"$CETUNE" extract -x crunch -P link_text_ratio=abc "$T/a.html" >/dev/null 2>&1; [ $? = 2 ] || fail "bad -P accepted"
"$CETUNE" extract -x crunch -x lqf "$T/a.html" >/dev/null 2>&1; [ $? = 2 ] || fail "two configurations accepted"
"$CETUNE" extract "$T/a.html" >/dev/null 2>&1; [ $? = 2 ] || fail "no configuration accepted"
# A good configuration file gives what the same -P settings give.
printf '{"extractor": "crunch", "params": {"retain_links": true}, "fitness": 0.5, "docs": 3}\n' > "$T/best.json"
[ "$("$CETUNE" extract -c "$T/best.json" "$T/a.html")" = "$("$CETUNE" extract -x crunch -P retain_links=true "$T/a.html")" ] ||
    fail "-c and -x -P differ"

# Ad-server lists: ads.example.org is not on the built-in list; --adhosts and
# CETUNE_ADHOSTS replace it.
printf '# mine\nexample.org\n' > "$T/hosts.txt"
"$CETUNE" extract -x crunch "$T/a.html" | grep -q 'Sponsored offer' || fail "built-in list removed ads.example.org"
"$CETUNE" extract -x crunch --adhosts "$T/hosts.txt" "$T/a.html" | grep -q 'Sponsored offer' && fail "--adhosts ignored"
CETUNE_ADHOSTS="$T/hosts.txt" "$CETUNE" extract -x crunch "$T/a.html" | grep -q 'Sponsored offer' && fail "CETUNE_ADHOSTS ignored"
"$CETUNE" extract -x crunch -P remove_ads=false --adhosts "$T/hosts.txt" "$T/a.html" | grep -q 'Sponsored offer' ||
    fail "remove_ads=false still removed the ad"
printf 'example.org\nnot a host line\n' > "$T/badhosts.txt"
"$CETUNE" extract -x crunch --adhosts "$T/badhosts.txt" "$T/a.html" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "bad --adhosts file accepted"
grep -q 'badhosts.txt:2:' "$T/err" || fail "bad --adhosts message: $(cat "$T/err")"
CETUNE_ADHOSTS="$T/nonexistent.txt" "$CETUNE" extract -x crunch "$T/a.html" >/dev/null 2>"$T/err"
[ $? = 1 ] || fail "unreadable CETUNE_ADHOSTS accepted"
grep -q 'CETUNE_ADHOSTS' "$T/err" || fail "CETUNE_ADHOSTS message: $(cat "$T/err")"

"$CETUNE" extract --help | grep -q 'usage: cetune extract' || fail "--help"
echo "extract_basic: ok"
