#!/bin/sh
# Whether two builds of cetune extract the same bytes from every page of
# ../shared/corpora (or CORPORA): `cetune extract` in each format given
# (default: json html text markdown), and `extract --warc` over one WARC of
# all the pages (the crawler path, JSON Lines).  Prints the pages whose
# output differs; exit status 1 when any does.  For changes meant to keep
# the output as it is (docs/speed.md).
#
# usage: scripts/same-output.sh OLD/cetune NEW/cetune [FORMAT...]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD/cetune NEW/cetune [FORMAT...]" >&2; exit 2; }
old=$1 new=$2
shift 2
[ $# -gt 0 ] || set -- json html text markdown
here=$(cd "$(dirname "$0")/.." && pwd)
corpora=${CORPORA:-$here/../shared/corpora}
[ -d "$corpora" ] || { echo "$0: no corpora at $corpora" >&2; exit 2; }
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT; echo "work folder $tmp"

# The pages as files (the gzipped ones unpacked), one folder per site.
mkdir "$tmp/pages"
for d in $(find "$corpora" -name '*.html' -o -name '*.html.gz' | xargs -n1 dirname | sort -u); do
    site=$(echo "${d#"$corpora"/}" | tr / -)
    mkdir "$tmp/pages/$site"
    for f in "$d"/*.html "$d"/*.html.gz; do
        case $f in
        *'*'*) ;;
        *.gz) gzip -dc "$f" >"$tmp/pages/$site/$(basename "$f" .gz)" ;;
        *) ln -s "$f" "$tmp/pages/$site/" ;;
        esac
    done
done
find "$tmp/pages" -name '*.html' | sort >"$tmp/list"
echo "$(wc -l <"$tmp/list") pages"

# Output per page: the --headers blocks, split by a line "==> FILE <==";
# JSON's lines, one a page in order (a failed page, on standard error, has none).
differ=0
for fmt in "$@"; do
    headers=--headers
    [ "$fmt" != json ] || headers=
    for b in old new; do
        eval bin=\$$b
        xargs "$bin" extract -f "$fmt" $headers <"$tmp/list" >"$tmp/$b.$fmt" 2>"$tmp/$b.$fmt.err" || true
    done
    [ -s "$tmp/old.$fmt" ] || { echo "$0: no $fmt output:" >&2; cat "$tmp/old.$fmt.err" >&2; exit 2; }
    if cmp -s "$tmp/old.$fmt" "$tmp/new.$fmt" && cmp -s "$tmp/old.$fmt.err" "$tmp/new.$fmt.err"; then
        echo "$fmt: all pages the same"
    else
        differ=1
        python3 - "$tmp/old.$fmt" "$tmp/new.$fmt" "$fmt" "$tmp/list" <<'EOF'
import re, sys
def pages(path):
    out, name = {}, None
    lines = open(path, "rb").read().split(b"\n")
    if sys.argv[3] == "json":
        return dict(zip(open(sys.argv[4]).read().split("\n"), lines))
    for line in lines:
        m = re.match(rb"==> (.*) <==$", line)
        if m:
            name = m.group(1).decode()
            out[name] = []
        elif name is not None:
            out[name].append(line)
    return out
a, b = pages(sys.argv[1]), pages(sys.argv[2])
names = sorted(n for n in set(a) | set(b) if n)
diff = [n for n in names if a.get(n) != b.get(n)]
print("%s: %d of %d pages differ" % (sys.argv[3], len(diff), len(names)))
for n in diff:
    print("  " + n)
EOF
        diff "$tmp/old.$fmt.err" "$tmp/new.$fmt.err" || true
    fi
done

# The crawler path: every page as a response record of one WARC.
pairs=$(for d in "$tmp"/pages/*; do printf '%s.example=%s ' "$(basename "$d")" "$d"; done)
python3 "$here/tests/cli/warc_tool.py" pack "$tmp/all.warc.gz" $pairs
for b in old new; do
    eval bin=\$$b
    "$bin" extract --warc --threads 2 "$tmp/all.warc.gz" >"$tmp/$b.warc" 2>/dev/null || true
done
if cmp -s "$tmp/old.warc" "$tmp/new.warc"; then
    echo "warc: all $(wc -l <"$tmp/new.warc") records the same"
else
    differ=1
    echo "warc: $(diff "$tmp/old.warc" "$tmp/new.warc" | grep -c '^<') of $(wc -l <"$tmp/new.warc") records differ"
fi
exit $differ
