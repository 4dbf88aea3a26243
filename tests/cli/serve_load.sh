#!/bin/bash
# bench/cetune-load on the demo corpus, briefly: every request answered 200 at
# 1 and 4 connections, the server stopped cleanly, the figures present.
# usage: serve_load.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
LOAD=$(dirname "$CETUNE")/bench/cetune-load
[ -x "$LOAD" ] || { echo "skipping: $LOAD not built"; exit 77; }
out=$("$LOAD" --cetune "$CETUNE" -d "$SRC/samples/demo" -n 60 --repeat 1 --connections 1,4 --threads 2 \
      --memory 100 --json) || { echo "FAIL: cetune-load exit $?"; exit 1; }
python3 - "$out" <<'PY' || { echo "FAIL: $out"; exit 1; }
import json, sys
j = json.loads(sys.argv[1])
assert j["pages"] == 36 and j["server_exit"] == 0 and j["extract_pages_s"] > 0
assert [s["connections"] for s in j["serve"]] == [1, 4]
for s in j["serve"]:
    assert s["errors"] == 0 and s["pages_s"] > 0 and 0 < s["p50_ms"] <= s["p99_ms"] and s["cpu_ms"] >= 0
assert j["memory"]["errors"] == 0 and min(j["memory"]["rss_kb"]) > 0
PY
echo "serve_load: ok"
