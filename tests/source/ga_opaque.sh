#!/usr/bin/env bash
# The GA is opaque (issue 25): its fields (src/ga/ga_internal.h) are seen by
# src/ga alone; the run module, the CLI, the fuzzers and the tools read a GA
# through include/cetune/ga.h and store it through src/ga/state.h.  Only
# the white-box unit suites of the GA itself may include the header.
# usage: ga_opaque.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: ga_opaque.sh SOURCE_DIR}"
bad=$(grep -rln --include='*.[ch]' 'ga_internal\.h' src fuzz bench examples tests |
      grep -v -e '^src/ga/' -e '^tests/unit/test_ga\.c$' -e '^tests/unit/test_ga_golden\.c$' \
              -e '^tests/unit/test_race\.c$' || true)
if [ -n "$bad" ]; then
  echo "FAIL: these files include ga_internal.h; use include/cetune/ga.h or src/ga/state.h:"
  echo "$bad"
  exit 1
fi
echo "ok: only src/ga and the GA's white-box unit suites include ga_internal.h"
