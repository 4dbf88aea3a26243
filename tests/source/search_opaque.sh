#!/usr/bin/env bash
# The search engine is opaque: its fields (src/search/search_internal.h) are
# seen by src/search alone; the run module, the CLI, the fuzzers and the tools read the engine
# through include/cetune/search.h and store it through src/search/state.h.  The
# engine's unit suites too: their white-box parts include the narrower
# src/ga/operators.h and src/search/race.h.
# usage: search_opaque.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: search_opaque.sh SOURCE_DIR}"
bad=$(grep -rln --include='*.[ch]' 'search_internal\.h' src fuzz bench examples tests |
      grep -v -e '^src/search/' || true)
if [ -n "$bad" ]; then
  echo "FAIL: these files include search_internal.h; use include/cetune/search.h or src/search/state.h:"
  echo "$bad"
  exit 1
fi
# The strategies see the search through strategy.h's view alone: no file of
# a strategy (src/ga: the GA and its operators, src/cmaes) includes
# search_internal.h or names the engine's struct.
bad=$(grep -ln -e 'search_internal\.h' -e 'struct cet_search\b' src/ga/*.[ch] src/cmaes/*.[ch] \
      src/search/nsga2.[ch] src/search/strategy.h || true)
if [ -n "$bad" ]; then
  echo "FAIL: these strategy files see the engine (search_internal.h, struct cet_search); use strategy.h's view:"
  echo "$bad"
  exit 1
fi
echo "ok: only src/search includes search_internal.h, and no strategy does"
