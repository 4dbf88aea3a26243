#!/usr/bin/env bash
# Stress check on mutated real pages: makes N mutants of the pages of
# ../shared/corpora (byte flips, truncations, splices of two pages, tag and
# entity junk, deep nesting, repeated slices, odd charsets and BOMs, NUL and
# invalid UTF-8 bytes, corrupted gzip; golds mutated too), with a seeded
# random stream, then runs `cetune evaluate -x NAME` and `cetune extract -x
# NAME` (text and HTML) for every extractor over all of them.  A process may
# fail on a bad page (exit 1, the page skipped or reported); none may end by
# a signal.  A crashing batch is narrowed down to its pages, which are kept
# in OUT/crashes/.
# Usage: scripts/stress.sh CETUNE [N [SEED [OUT]]]   (defaults: 3000 mutants, seed 1, a temp dir)
set -uo pipefail
cetune=$1
n=${2:-3000}
seed=${3:-1}
out=${4:-}
src=$(cd "$(dirname "$0")/.." && pwd)
corpora=${CETUNE_CORPORA:-$src/../shared/corpora}
if [ ! -d "$corpora/portals" ] || [ ! -d "$corpora/cleaneval-dev" ] || [ ! -d "$corpora/scrapinghub" ] || [ ! -d "$corpora/big5" ]; then
  echo "skipping: $corpora (portals, cleaneval-dev, scrapinghub, big5) not found; set CETUNE_CORPORA"
  exit 77
fi
if [ -z "$out" ]; then
  out=$(mktemp -d /tmp/cetune-stress.XXXXXX)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/pages" "$out/crashes"

# Mutants in the canonical layout: $out/pages/mNN/NAME.html[.gz] + NAME.txt,
# 500 to a package so that one evaluate process holds a bounded corpus.
perl - "$corpora" "$out/pages" "$n" "$seed" <<'PERL' || exit 1
use strict; use warnings;
use JSON::PP; use IO::Compress::Gzip qw(gzip $GzipError); use IO::Uncompress::Gunzip qw(gunzip);
my ($c, $dir, $n, $seed) = @ARGV;
srand($seed);
sub slurp { my ($f) = @_; local $/; open(my $h, '<:raw', $f) or die "$f: $!"; my $s = <$h>; $s }
my @pages; # [html, gold]
for my $f (glob("$c/portals/*/*.html $c/big5/*/*.html")) {
  (my $g = $f) =~ s/\.html$/.txt/; push @pages, [slurp($f), -e $g ? slurp($g) : ''];
}
for my $f (glob("$c/cleaneval-dev/input/*.html")) {
  (my $g = $f) =~ s{/input/([^/]*)\.html$}{/GoldStandard/$1.txt}; push @pages, [slurp($f), -e $g ? slurp($g) : ''];
}
my $truth = JSON::PP->new->utf8->decode(slurp("$c/scrapinghub/ground-truth.json"));
for my $f (glob("$c/scrapinghub/html/*.html.gz")) {
  my ($id) = $f =~ m{/([^/]*)\.html\.gz$}; my $h;
  gunzip($f => \$h) or next;
  my $g = $truth->{$id} ? $truth->{$id}{articleBody} // '' : '';
  utf8::encode($g); push @pages, [$h, $g];
}
die "no pages found in $c\n" unless @pages;
my @junk = ('<', '>', '</', '<div>', '</div>', '<table>', '<tr>', '<td>', '</table>', '<a href="http://ads.doubleclick.net/x">',
  '<a href=', '</a>', '<p>', '<br>', '<!--', '-->', '<![CDATA[', ']]>', '<script>', '</script>', '<style>', '</style>',
  '<iframe src="x">', '<img src="http://ad.example/x.gif">', '<form><input><select><option>', '<html>', '</body>', '<body>',
  '&#0;', '&#xD800;', '&#x110000;', '&#99999999999;', '&amp', '&nbsp;', '&lt;', "\0", "\xff\xfe", "\xef\xbb\xbf", "\xc3", "\xe2\x82",
  "\xf4\x90\x80\x80", '<meta charset="utf-16">', '<meta http-equiv="Content-Type" content="text/html; charset=iso-2022-jp">',
  '<meta charset="x-no-such-charset">', '<meta charset="windows-1251">', "<?xml version=\"1.0\" encoding=\"ebcdic\"?>",
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
  '<!ENTITY x SYSTEM "file:///etc/passwd">&x;', '<svg><foreignObject><math><mi>', '<pre>', '<textarea>', '<noscript>', '<title>');
sub r { int(rand($_[0])) }
sub mutate {
  my ($s, $other) = @_;
  my $op = r(10);
  my $len = length($s);
  if ($op == 0) { for (1 .. 1 + r(64)) { substr($s, r($len), 1) = chr(r(256)) if $len } }
  elsif ($op == 1) { $s = substr($s, 0, r($len + 1)) }
  elsif ($op == 2) { $s = substr($s, 0, r($len + 1)) . substr($other, r(length($other) + 1)) }
  elsif ($op == 3) { for (1 .. 1 + r(40)) { substr($s, r($len + 1), 0) = $junk[r(scalar @junk)]; $len = length($s) } }
  elsif ($op == 4) { my $k = 1 + r(20000); my $t = (('<div>', '<table><tr><td>', '<b>', '<ul><li>', '<a href="x">', '<p>')[r(6)]) x $k;
                     substr($s, r($len + 1), 0) = $t }
  elsif ($op == 5) { my $a = r($len + 1); my $slice = substr($s, $a, 1 + r(65536));
                     my $most = length($slice) ? int(1_000_000 / length($slice)) : 1; # at most 1 MB more
                     substr($s, $a, 0) = $slice x (1 + r($most < 50 ? $most : 50)) }
  elsif ($op == 6) { $s = ("\xef\xbb\xbf", "\xff\xfe", "\xfe\xff", "\0\0\xfe\xff", '')[r(5)] . $s }
  elsif ($op == 7) { for (1 .. 1 + r(100)) { substr($s, r($len + 1), 0) = chr(128 + r(128)) } }
  elsif ($op == 8) { $s =~ s/</($junk[r(scalar @junk)]) . '<'/e for 1 .. 1 + r(10) }
  else { $s = $junk[r(scalar @junk)] x r(3) }
  return $s;
}
for my $i (0 .. $n - 1) {
  my $pkg = sprintf("%s/m%02d", $dir, int($i / 500));
  mkdir $pkg;
  my ($h, $g) = @{$pages[r(scalar @pages)]};
  my $other = $pages[r(scalar @pages)][0];
  $h = mutate($h, $other) for 1 .. 1 + r(3);
  $g = mutate($g, $other) if r(10) == 0;
  my $name = sprintf("%s/p%05d", $pkg, $i);
  my $gz = r(20) == 0;
  my $data = $h;
  if ($gz) { my $z; gzip(\$h => \$z) or die $GzipError; substr($z, 10 + r(length($z) - 10), 1) = chr(r(256)) if r(2); $data = $z }
  open(my $o, '>:raw', $name . ($gz ? '.html.gz' : '.html')) or die; print $o $data; close $o;
  open($o, '>:raw', "$name.txt") or die; print $o $g; close $o;
}
PERL
echo "$n mutants (seed $seed) in $out/pages: $(du -sh "$out/pages" | cut -f1)"

# With a sanitizer build, any report ends the process by a signal (or LeakSanitizer's 23).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
extractors=$("$cetune" list | awk '/^[a-z]/ { print $1 }')
status=0 runs=0
# run WHAT CMD...: one process; a signal is a failure.
run() {
  local what=$1; shift
  "$@" >/dev/null 2>"$out/err"
  local rc=$?
  runs=$((runs + 1))
  if [ $rc -ge 128 ] || { [ $rc -ne 0 ] && [ $rc -ne 1 ]; }; then
    echo "FAIL: $what ended with status $rc: $(tail -3 "$out/err")"
    status=1
    return 1
  fi
  return 0
}
# narrow X FORMAT FILES...: keeps the pages on which extract crashes.
narrow() {
  local x=$1 fmt=$2; shift 2
  for f in "$@"; do
    "$cetune" extract -x "$x" --format "$fmt" "$f" >/dev/null 2>&1
    if [ $? -ge 128 ]; then cp "$f" "$out/crashes/" && echo "  crash: extract -x $x --format $fmt $f (kept in $out/crashes)"; fi
  done
}
for x in $extractors; do
  for pkg in "$out"/pages/m*; do
    run "evaluate -x $x -d $pkg" "$cetune" evaluate -x "$x" -d "$pkg"
    pages=("$pkg"/*.html "$pkg"/*.html.gz)
    for fmt in text html; do
      run "extract -x $x --format $fmt ($pkg)" "$cetune" extract -x "$x" --format $fmt "${pages[@]}" || narrow "$x" $fmt "${pages[@]}"
    done
  done
done
echo "stress: $runs processes over $n mutated pages, $(ls "$out/crashes" | wc -l) crashing pages"
exit $status
