#!/usr/bin/env bash
# Installs everything cetune needs to build, test and plot on Debian.
# Both README commands call this script, so a fresh machine needs nothing else.
set -euo pipefail
pkgs=(build-essential cmake pkg-config git
      libxml2-dev libgsl-dev libcjson-dev libutf8proc-dev zlib1g-dev libomp-dev
      clang libclang-rt-14-dev gnuplot-nox time
      g++ # tests/api/cxx_headers.sh (build-essential brings it too)
      libmicrohttpd-dev curl
      universal-ctags # tests/source/hand_decls.sh
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
