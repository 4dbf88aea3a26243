#!/usr/bin/env bash
# Installs everything cetune needs to build, test and plot on Debian.
# Both README commands call this script, so a fresh machine needs nothing else.
set -euo pipefail
pkgs=(build-essential cmake pkg-config git
      libxml2-dev libgsl-dev libcjson-dev libutf8proc-dev zlib1g-dev libomp-dev
      clang libclang-rt-14-dev gnuplot-nox time
      g++ # tests/api/cxx_headers.sh (build-essential brings it too)
      libmicrohttpd-dev curl
      wget # tests/cli/extract_warc.sh: crawls made by wget --warc-file
      python3-dev # the Python module (python/, docs/python.md)
      universal-ctags # tests/source/hand_decls.sh
      chromium nodejs # tests/browser/label.sh: cetune label in a real browser
      libopenmpi-dev openmpi-bin # MPI only for -DCETUNE_MPI=ON (docs/distributed.md)
      python3-optuna python3-cmaes r-cran-irace) # scripts/tuner-comparison.sh's peers
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The browser test drives chromium with puppeteer-core, pinned in
# tests/browser/package-lock.json.  Debian's npm only where node came without one.
if ! command -v npm >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm
fi
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$here/tests/browser/node_modules/puppeteer-core" ] ||
   [ "$here/tests/browser/package-lock.json" -nt "$here/tests/browser/node_modules/.package-lock.json" ]; then
  (cd "$here/tests/browser" && npm ci --no-audit --no-fund --loglevel=error)
fi
