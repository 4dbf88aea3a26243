#!/usr/bin/env bash
# The GA is opaque: its fields (src/ga/ga_internal.h) are seen by
# src/ga alone; the run module, the CLI, the fuzzers and the tools read a GA
# through include/cetune/ga.h and store it through src/ga/state.h.  The
# GA's unit suites too: their white-box parts include the narrower
# src/ga/operators.h and src/ga/race.h.
# usage: ga_opaque.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: ga_opaque.sh SOURCE_DIR}"
bad=$(grep -rln --include='*.[ch]' 'ga_internal\.h' src fuzz bench examples tests |
      grep -v -e '^src/ga/' || true)
if [ -n "$bad" ]; then
  echo "FAIL: these files include ga_internal.h; use include/cetune/ga.h or src/ga/state.h:"
  echo "$bad"
  exit 1
fi
# The strategies see the search through strategy.h's view alone: no strategy
# file includes ga_internal.h or names the engine's struct.
bad=$(grep -ln -e 'ga_internal\.h' -e 'struct cet_ga\b' src/ga/strategy_*.c src/ga/cmaes.[ch] \
      src/ga/nsga2.[ch] src/ga/strategy.h || true)
if [ -n "$bad" ]; then
  echo "FAIL: these strategy files see the engine (ga_internal.h, struct cet_ga); use strategy.h's view:"
  echo "$bad"
  exit 1
fi
echo "ok: only src/ga includes ga_internal.h, and no strategy does"
