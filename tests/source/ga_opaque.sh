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
echo "ok: only src/ga includes ga_internal.h"
