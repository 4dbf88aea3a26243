#!/bin/bash
# Peak resident memory of `cetune extract --warc` over generated crawls of
# growing size (per-record gzip: pages of the demo corpus and 1 MB images, a
# tenth of the records pages): it stays flat (docs/warc.md, "Streaming and
# memory").  usage: bench/warc_memory.sh CETUNE [MB...]   (default 50 500)
set -eu
CETUNE=$1
shift
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50 500)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/cetune-warc-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
page=$(ls "$here"/samples/demo/cronaca/*.html | head -1)
printf '%8s %10s %8s %12s %8s\n' "MB" "bytes" "pages" "peak RSS kB" "seconds"
for mb in "${sizes[@]}"; do
    images=$((mb * 9 / 10))
    pages=$((images * 4))
    python3 "$here/tests/cli/warc_tool.py" gen "$tmp/crawl.warc.gz" "$page" $pages 1048576 $images
    start=$(date +%s.%N)
    /usr/bin/time -f '%M' -o "$tmp/rss" "$CETUNE" extract --warc --threads 2 "$tmp/crawl.warc.gz" >/dev/null 2>"$tmp/err"
    end=$(date +%s.%N)
    printf '%8s %10s %8s %12s %8.1f\n' "$mb" "$(stat -c %s "$tmp/crawl.warc.gz")" "$pages" "$(tail -1 "$tmp/rss")" "$(awk -v a="$start" -v b="$end" "BEGIN{print b - a}")"
    rm -f "$tmp/crawl.warc.gz"
done
