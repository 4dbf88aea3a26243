#!/usr/bin/env bash
# The browser test of cetune label (label.test.mjs): Debian's chromium
# driven by puppeteer-core.  Skips (77) with the reason where node,
# chromium or the test's node_modules (scripts/install-deps.sh: npm ci) are
# missing.  usage: label.sh CETUNE SOURCE_DIR
set -u
CETUNE=${1:?usage: label.sh CETUNE SOURCE_DIR}
SRC=${2:?usage: label.sh CETUNE SOURCE_DIR}
here=$SRC/tests/browser
command -v node >/dev/null || { echo "skipping: node is not installed (scripts/install-deps.sh)"; exit 77; }
CHROMIUM=${CETUNE_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] || { echo "skipping: chromium is not installed (scripts/install-deps.sh installs Debian's chromium)"; exit 77; }
[ -d "$here/node_modules/puppeteer-core" ] || {
  echo "skipping: $here/node_modules has no puppeteer-core (scripts/install-deps.sh runs npm ci there)"; exit 77; }
export CHROMIUM
exec node "$here/label.test.mjs" "$CETUNE" "$SRC"
