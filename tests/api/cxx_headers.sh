# Every installed header compiles alone in a C++ translation unit (its
# declarations inside extern "C", cetune/common.h) without a warning.
# Usage: cxx_headers.sh SOURCE_DIR
SRC=$1
CXX=${CXX:-$(command -v g++ || command -v c++ || command -v clang++)}
if [ -z "$CXX" ]; then echo "skipped: no C++ compiler (scripts/install-deps.sh installs g++)"; exit 77; fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0 n=0
for h in "$SRC"/include/cetune/*.h; do
  name=$(basename "$h")
  printf '#include "cetune/%s"\n#include "cetune/%s"\nint main() { return 0; }\n' "$name" "$name" \
    >"$TMP/t.cpp"
  if "$CXX" -std=c++11 -Wall -Wextra -Werror -I "$SRC/include" -c "$TMP/t.cpp" -o "$TMP/t.o" \
       2>"$TMP/err"; then
    n=$((n + 1))
  else
    echo "FAIL: $name does not compile as C++:"
    head -20 "$TMP/err"
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "ok: $n headers compile as C++ ($CXX)"
exit $fail
