#!/usr/bin/env bash
# No .c file declares a function or variable that another file defines:
# a declaration shared between files belongs in a header (include/cetune/
# for the public API, the folder's internal header otherwise), so that the
# compiler checks it against the definition.  A .c file may declare its own
# static functions ahead of their definitions.
#
# Universal Ctags lists every file-scope prototype and extern declaration
# (kinds p and x) and every definition (kinds f and v) of each .c file.
# usage: hand_decls.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: hand_decls.sh SOURCE_DIR}
cd "$src"
if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "SKIP: Universal Ctags is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.c' 2>/dev/null || find src tests fuzz bench examples -name '*.c')
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no .c files found in $src"; exit 1; }
# NAME KIND LINE FILE for every tag of interest; _Atomic(T) members are
# parsed as prototypes by ctags and are skipped.
tags=$(ctags -x --c-kinds=fvpx --language-force=C --_xformat='%N %K %n %F' "${files[@]}" |
       grep -v '^_Atomic ')
bad=$(awk '
  $2 == "function" || $2 == "variable" { def[$4 SUBSEP $1] = 1; next }
  { decl[NR] = $0; file[NR] = $4; name[NR] = $1; line[NR] = $3 }
  END {
    for (i in decl)
      if (!((file[i] SUBSEP name[i]) in def))
        printf "%s:%s: declares %s, defined in another file: include its header\n",
               file[i], line[i], name[i]
  }' <<<"$tags" | sort)
if [ -n "$bad" ]; then
  echo "FAIL: hand-copied declarations"
  echo "$bad"
  exit 1
fi
echo "ok: ${#files[@]} .c files declare only their own functions"
