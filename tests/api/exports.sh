# libcetune.so exports exactly what the installed headers declare: every
# defined dynamic symbol is declared by include/cetune/ (a C file including
# them all takes its address), and every function they declare is exported
# (except serve.h's and label.h's: the HTTP services are not part of libcetune).
# Usage: exports.sh LIBCETUNE.so SOURCE_DIR C_COMPILER
LIB=$1 SRC=$2 CC=${3:-cc}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# (the sanitizer build adds its ODR indicators, __odr_asan.NAME, one per exported variable)
nm -D --defined-only "$LIB" | awk '{ print $NF }' |
  grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$|^__odr_asan[.]' | sort -u >"$TMP/exported"
if [ ! -s "$TMP/exported" ]; then echo "FAIL: nm lists nothing for $LIB"; exit 1; fi
{
  for h in "$SRC"/include/cetune/*.h; do echo "#include \"cetune/$(basename "$h")\""; done
  echo "void every_export(void);"
  echo "void every_export(void) {"
  sed 's/.*/    (void)\&&;/' "$TMP/exported"
  echo "}"
} >"$TMP/uses.c"
fail=0
if ! "$CC" -std=gnu11 -fsyntax-only -Werror=implicit-function-declaration -I "$SRC/include" \
     "$TMP/uses.c" 2>"$TMP/err"; then
  echo "FAIL: libcetune.so exports symbols no installed header declares:"
  grep -oE "‘[A-Za-z_0-9.]+’ undeclared|'[A-Za-z_0-9.]+' undeclared" "$TMP/err" | sort -u
  grep -q undeclared "$TMP/err" || cat "$TMP/err"
  fail=1
fi
# The other way: each function an installed header declares is exported.
if command -v ctags >/dev/null; then
  for h in "$SRC"/include/cetune/*.h; do
    case $(basename "$h") in serve.h|label.h) continue ;; esac
    ctags -x --language-force=C --c-kinds=px -I CET_BEGIN_DECL,CET_END_DECL "$h"
  done | awk '{ print $1 }' | sort -u >"$TMP/declared"
  missing=$(comm -23 "$TMP/declared" "$TMP/exported")
  if [ -n "$missing" ]; then
    echo "FAIL: declared in include/cetune/ but not exported by libcetune.so:"
    echo "$missing"
    fail=1
  fi
else
  echo "note: universal-ctags is absent: the declared-but-not-exported check was skipped"
fi
# The search engine's names of 0.1.0 (deprecated macros, cetune/search.h) still compile.
cat >"$TMP/old.c" <<'EOF'
#include "cetune/ga.h"
#include "cetune/run.h"
int uses_old_names(struct cet_run *run);
int uses_old_names(struct cet_run *run)
{
    struct cet_ga_options o;
    cet_ga_default_options(&o);
    struct cet_ga *ga = cet_run_ga(run);
    struct cet_ga_status st;
    cet_ga_status(ga, &st);
    const struct cet_ga_stats *h = cet_ga_history(ga, &(size_t){0});
    return (int)o.pop + (int)st.gen + (h != NULL);
}
EOF
if ! "$CC" -std=c11 -Wall -Wextra -Werror -I "$SRC/include" -c "$TMP/old.c" -o "$TMP/old.o" \
     2>"$TMP/err"; then
  echo "FAIL: a program using the deprecated cet_ga_* names does not compile:"
  head -20 "$TMP/err"
  fail=1
fi
[ $fail -eq 0 ] && echo "ok: $(wc -l <"$TMP/exported") exported symbols, each declared by include/cetune/"
exit $fail
