#!/bin/bash
# cetune extract on small pages: text and HTML output, stdin, --out-dir,
# failures that do not stop the run, refused configurations, ad-host lists.
# usage: extract_basic.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"

cat > "$TMP/a.html" <<'HTML'
<html><body><div><a href="/">Home</a> <a href="/x">News</a></div>
<p>Main text of page a, long enough to be kept by every extractor here.</p>
<p><a href="http://ads.example.org/buy">Sponsored offer</a></p></body></html>
HTML
printf '<html><body><p>Page b \xe9t\xe9 in windows-1252.</p></body></html>' > "$TMP/b.htm"
cp "$TMP/a.html" "$TMP/c.html" && gzip -9 "$TMP/c.html"

# Text to stdout, exactly cet_extract_text's rendering.
out=$("$CETUNE" extract -x alltext "$TMP/a.html") || die "alltext exit status"
[ "$out" = "$(printf 'Home News\n\nMain text of page a, long enough to be kept by every extractor here.\n\nSponsored offer')" ] ||
    die "alltext text: $out"
# Charset handling as everywhere: windows-1252 bytes come out as UTF-8.
out=$("$CETUNE" extract -x alltext "$TMP/b.htm") || die "b.htm"
[ "$out" = "Page b été in windows-1252." ] || die "charset: $out"
# Standard input, with '-' or no file at all; .gz pages are read too.
[ "$("$CETUNE" extract -x alltext - < "$TMP/a.html")" = "$("$CETUNE" extract -x alltext "$TMP/a.html")" ] || die "stdin -"
[ "$("$CETUNE" extract -x alltext < "$TMP/a.html")" = "$("$CETUNE" extract -x alltext "$TMP/a.html")" ] || die "stdin default"
[ "$("$CETUNE" extract -x crunch "$TMP/c.html.gz")" = "$("$CETUNE" extract -x crunch "$TMP/a.html")" ] || die ".gz page"
# crunch at its defaults drops the menu; several files on standard output
# are separated by a line holding a form feed (they once ran together).
out=$("$CETUNE" extract -x crunch "$TMP/a.html" "$TMP/b.htm") || die "crunch exit status"
[ "$out" = "$(printf 'Main text of page a, long enough to be kept by every extractor here.\n\nSponsored offer\n\f\nPage b été in windows-1252.')" ] ||
    die "crunch text: $out"
# Split again, each page is what it gives alone.
"$CETUNE" extract -x alltext "$TMP/a.html" "$TMP/b.htm" "$TMP/c.html.gz" > "$TMP/all.txt" || die "three pages"
[ "$(grep -c $'^\f$' "$TMP/all.txt")" = 2 ] || die "form feed lines: $(od -c "$TMP/all.txt" | head -5)"
awk 'BEGIN { RS = "\f\n" } NR == 2 { printf "%s", $0 }' "$TMP/all.txt" > "$TMP/second.txt"
[ "$(cat "$TMP/second.txt")" = "$("$CETUNE" extract -x alltext "$TMP/b.htm")" ] || die "second page: $(cat "$TMP/second.txt")"
# --headers: a line ==> FILE <== before each page instead.
out=$("$CETUNE" extract -x crunch --headers "$TMP/a.html" "$TMP/b.htm") || die "--headers exit status"
[ "$out" = "$(printf '==> %s <==\nMain text of page a, long enough to be kept by every extractor here.\n\nSponsored offer\n==> %s <==\nPage b été in windows-1252.' "$TMP/a.html" "$TMP/b.htm")" ] ||
    die "--headers: $out"
# One page alone is printed as it is.
[ "$("$CETUNE" extract -x alltext "$TMP/b.htm" | od -c)" = "$(printf 'Page b été in windows-1252.\n' | od -c)" ] || die "one page changed"

# HTML output.
out=$("$CETUNE" extract -x mantratzis --format html "$TMP/a.html") || die "html exit status"
case "$out" in '<!DOCTYPE html>'*'<meta charset="utf-8">'*'Main text of page a'*) ;; *) die "html: $out" ;; esac
# A whole document, in order: <html>, then <head> with the charset and a title, then <body>.
[ "$(printf '%s\n' "$out" | head -5 | tr '\n' '|')" = '<!DOCTYPE html>|<html>|<head>|<meta charset="utf-8">|<title></title>|' ] ||
  die "html frame: $(printf '%s\n' "$out" | head -6)"
printf '%s\n' "$out" | grep -q '^<body>$' || die "html: no <body>"
# The page's title heads the cleaned page (the metadata reader's: the model keeps no head text).
out=$(printf '<html><head><title>Tides &amp; times</title></head><body><p>Long enough main text here.</p></body></html>' |
      "$CETUNE" extract -x alltext --format html) || die "titled html exit status"
printf '%s\n' "$out" | grep -qx '<title>Tides &amp; times</title>' || die "html title: $(printf '%s\n' "$out" | head -6)"
[ "$(printf '%s\n' "$out" | tail -1)" = '</html>' ] || die "html: does not end with </html>"
[ "$(printf '%s\n' "$out" | grep -c '<html')" = 1 ] || die "html: more than one <html>"
"$CETUNE" extract -x alltext --format pdf "$TMP/a.html" 2>/dev/null; [ $? = 2 ] || die "--format pdf is a usage error"

# --out-dir: DIR/NAME.txt, NAME without .html/.htm/.gz; created when missing.
"$CETUNE" extract -x crunch --out-dir "$TMP/out" "$TMP/a.html" "$TMP/b.htm" "$TMP/c.html.gz" 2>"$TMP/err" || die "out-dir: $(cat "$TMP/err")"
for n in a b c; do [ -f "$TMP/out/$n.txt" ] || die "out-dir: no $n.txt"; done
cmp -s "$TMP/out/a.txt" "$TMP/out/c.txt" || die "out-dir: a and c differ"
[ "$(cat "$TMP/out/a.txt")" = "$("$CETUNE" extract -x crunch "$TMP/a.html")" ] || die "out-dir text differs from stdout"
"$CETUNE" extract -x crunch --format html --out-dir "$TMP/out" "$TMP/a.html" 2>/dev/null || die "out-dir html"
head -1 "$TMP/out/a.html" | grep -q '<!DOCTYPE html>' || die "out-dir html content"
# Two pages of one name are not written over each other: the second fails.
mkdir "$TMP/d1" "$TMP/d2" && cp "$TMP/a.html" "$TMP/d1/x.html" && cp "$TMP/b.htm" "$TMP/d2/x.html"
"$CETUNE" extract -x alltext --out-dir "$TMP/dup" "$TMP/d1/x.html" "$TMP/d2/x.html" 2>"$TMP/err"
[ $? = 1 ] || die "a second page of the same name must fail"
grep -q 'already written' "$TMP/err" || die "same-name message: $(cat "$TMP/err")"
grep -q 'Main text of page a' "$TMP/dup/x.txt" || die "the first page of a name was overwritten"
"$CETUNE" extract -x alltext --out-dir "$TMP/dup" "$TMP/d1/x.html" 2>/dev/null && die "a new run replaced old outputs without --force"
"$CETUNE" extract -x alltext --out-dir "$TMP/dup" --force "$TMP/d1/x.html" 2>/dev/null || die "a new run with --force may replace old outputs"
# ... and never over the page itself.
cp "$TMP/a.html" "$TMP/keep.html"
"$CETUNE" extract -x crunch --format html --out-dir "$TMP" "$TMP/keep.html" 2>"$TMP/err"
[ $? = 1 ] || die "overwriting the input must fail"
grep -q 'overwrite' "$TMP/err" || die "overwrite message: $(cat "$TMP/err")"
cmp -s "$TMP/a.html" "$TMP/keep.html" || die "the input page was overwritten"

# A missing page is reported on one line; the others are still extracted; exit 1.
out=$("$CETUNE" extract -x alltext "$TMP/a.html" "$TMP/missing.html" "$TMP/b.htm" 2>"$TMP/err")
[ $? = 1 ] || die "a failed page must give exit status 1"
grep -q 'missing.html' "$TMP/err" || die "no message for the missing page"
grep -q '2 of 3 pages' "$TMP/err" || die "no summary: $(cat "$TMP/err")"
case "$out" in *'Main text of page a'*'Page b'*) ;; *) die "pages after a failure: $out" ;; esac

# Configurations that do not match the registry are refused (exit 2), with file:line:col.
refused() { # FILE JSON MESSAGE WHAT: extract -c FILE (holding JSON) exits 2 saying MESSAGE
    printf '%s\n' "$2" > "$TMP/$1"
    "$CETUNE" extract -c "$TMP/$1" "$TMP/a.html" >/dev/null 2>"$TMP/err"
    [ $? = 2 ] || die "$4 accepted"
    grep -q "$3" "$TMP/err" || die "$4 message: $(cat "$TMP/err")"
}
refused bad1.json $'{"extractor": "crunch",\n "params": {"link_text_ratio": 0.5, "no_such": 1}}' \
    "bad1.json:2:[0-9]*: .*no parameter \"no_such\"" "unknown parameter"
refused bad2.json '{"extractor": "nosuch", "params": {}}' \
    "bad2.json:1:[0-9]*: unknown extractor 'nosuch'" "unknown extractor"
refused bad3.json '{"extractor": "mantratzis", "params": {"min_points": 3}}' \
    "bad3.json:1:[0-9]*: .*min_points" "out-of-range value"
refused bad4.json '{"extractor": "crunch", "params": {"remove_ads": 1}}' \
    'bad4.json:1:[0-9]*: "remove_ads" must be true or false' "a number for a bool"
"$CETUNE" extract -x crunch -P link_text_ratio=abc "$TMP/a.html" >/dev/null 2>&1; [ $? = 2 ] || die "bad -P accepted"
"$CETUNE" extract -x crunch -x lqf "$TMP/a.html" >/dev/null 2>&1; [ $? = 2 ] || die "two configurations accepted"
# A good configuration file gives what the same -P settings give.
printf '{"extractor": "crunch", "params": {"retain_links": true}, "fitness": 0.5, "docs": 3}\n' > "$TMP/best.json"
[ "$("$CETUNE" extract -c "$TMP/best.json" "$TMP/a.html")" = "$("$CETUNE" extract -x crunch -P retain_links=true "$TMP/a.html")" ] ||
    die "-c and -x -P differ"

# Ad-server lists: ads.example.org is not on the built-in list; --adhosts and
# CETUNE_ADHOSTS replace it.
printf '# mine\nexample.org\n' > "$TMP/hosts.txt"
"$CETUNE" extract -x crunch "$TMP/a.html" | grep -q 'Sponsored offer' || die "built-in list removed ads.example.org"
"$CETUNE" extract -x crunch --adhosts "$TMP/hosts.txt" "$TMP/a.html" | grep -q 'Sponsored offer' && die "--adhosts ignored"
CETUNE_ADHOSTS="$TMP/hosts.txt" "$CETUNE" extract -x crunch "$TMP/a.html" | grep -q 'Sponsored offer' && die "CETUNE_ADHOSTS ignored"
"$CETUNE" extract -x crunch -P remove_ads=false --adhosts "$TMP/hosts.txt" "$TMP/a.html" | grep -q 'Sponsored offer' ||
    die "remove_ads=false still removed the ad"
printf 'example.org\nnot a host line\n' > "$TMP/badhosts.txt"
"$CETUNE" extract -x crunch --adhosts "$TMP/badhosts.txt" "$TMP/a.html" >/dev/null 2>"$TMP/err"
[ $? = 2 ] || die "bad --adhosts file accepted"
grep -q 'badhosts.txt:2:' "$TMP/err" || die "bad --adhosts message: $(cat "$TMP/err")"
CETUNE_ADHOSTS="$TMP/nonexistent.txt" "$CETUNE" extract -x crunch "$TMP/a.html" >/dev/null 2>"$TMP/err"
[ $? = 1 ] || die "unreadable CETUNE_ADHOSTS accepted"
grep -q 'CETUNE_ADHOSTS' "$TMP/err" || die "CETUNE_ADHOSTS message: $(cat "$TMP/err")"

"$CETUNE" extract --help | grep -q 'usage: cetune extract' || die "--help"
echo "extract_basic: ok"
