# Storage faults: a full disk and a read-only one (tmpfs mounts; root only)
# give a clear error naming the file, exit status 1 and no partial or
# temporary file, for evolve, evaluate --extracts and extract --out-dir; a
# run whose disk fills up midway resumes, once there is room, to the same
# result as a run left alone.  Standard output on a full device is an error too.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
M=$TMP/mnt
mkdir -p "$M"
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=96k cetune-test "$M" 2>/dev/null; then
  echo "skipping: mounting a small tmpfs needs root (and a mount namespace that allows it)"
  exit 77
fi
trap 'umount "$M" 2>/dev/null; rm -rf "$TMP"' EXIT
RUN="-p $G/lqf.json -d $G/corpus --pop 20 --generations 150 --patience 0 --resolution 0 --seed 11 --threads 2 --choose search"

# no_files DIR: DIR holds no regular file (directories made before the fault may stay).
no_files() {
  local f; f=$(find "$1" -type f 2>/dev/null | head -3)
  if [ -z "$f" ]; then ok; else fail "files left in $1: $f"; fi
}
no_temporaries() {
  local f; f=$(find "$M" -name '*.tmp.*' 2>/dev/null | head -3)
  if [ -z "$f" ]; then ok; else fail "temporary files left: $f"; fi
}

# 1. The disk fills up in the middle of a run: the last complete generation
# stays on disk, whole, and --resume finishes it once there is room.
expect_status 0 "$CETUNE" evolve $RUN -o "$TMP/ref"
expect_status 1 "$CETUNE" evolve $RUN -o "$M/run"
expect_grep "$TMP/err" "$M/run/[a-z]*\.[a-z]*: cannot write: No space left on device"
expect_grep "$TMP/err" "cetune evolve --resume $M/run"
no_temporaries
gen=$(sed -n 's/^[[:space:]]*"generation":[[:space:]]*\([0-9]*\),$/\1/p' "$M/run/checkpoint.json")
if [ -n "$gen" ] && [ "$gen" -ge 1 ] && [ "$gen" -lt 149 ]; then ok; else fail "checkpoint at generation '$gen'"; fi
if [ "$(($(wc -l < "$M/run/generations.csv") - 1))" -ge $((gen + 1)) ]; then ok
else fail "generations.csv is behind the checkpoint"; fi
expect_grep "$M/run/run.json" '"status":	"running"'
mount -o remount,size=16m "$M"
expect_status 0 "$CETUNE" evolve --resume "$M/run"
expect_grep "$TMP/err" "resuming $M/run after $((gen + 1)) complete generation"
same_run "$TMP/ref" "$M/run" "from the run left alone"
rm -rf "$M/run"

# 2. A full disk from the start.
dd if=/dev/zero of="$M/fill" bs=64k 2>/dev/null
expect_status 1 "$CETUNE" evolve $RUN -o "$M/run"
expect_grep "$TMP/err" "$M/run/sample.txt: cannot write: No space left on device"
no_files "$M/run"
expect_status 1 "$CETUNE" evaluate -x alltext -d "$G/corpus" --extracts "$M/ex"
expect_grep "$TMP/err" "$M/ex/blog/blog-1.txt: cannot write: No space left on device"
no_files "$M/ex"
expect_status 1 "$CETUNE" extract -x crunch --out-dir "$M/out" "$G"/corpus/*/*.html
expect_grep "$TMP/err" "$M/out/news-4.txt: cannot write: No space left on device"
expect_grep "$TMP/err" "extracted 0 of 8 pages into $M/out, 8 failed"
no_files "$M/out"
no_temporaries
rm -rf "$M/run" "$M/ex" "$M/out" "$M/fill"

# 3. A read-only file system, with and without the output directory present.
mkdir -p "$M/run2" "$M/ex2" "$M/out2"
cp -r "$TMP/ref" "$M/done"
mount -o remount,ro "$M"
# A finished run on read-only media is still shown by --resume (its lock cannot be taken, nor is it needed).
expect_status 0 "$CETUNE" evolve --resume "$M/done"
expect_grep "$TMP/err" 'has finished already'
expect_status 1 "$CETUNE" evolve $RUN -o "$M/run"
expect_grep "$TMP/err" "$M/run: cannot create directory: Read-only file system"
expect_status 1 "$CETUNE" evolve $RUN -o "$M/run2"
expect_grep "$TMP/err" "$M/run2/run.lock: cannot write in the run directory: Read-only file system"
expect_status 1 "$CETUNE" evaluate -x alltext -d "$G/corpus" --extracts "$M/ex"
expect_grep "$TMP/err" "$M/ex/blog: cannot create directory: Read-only file system"
expect_status 1 "$CETUNE" evaluate -x alltext -d "$G/corpus" --extracts "$M/ex2"
expect_grep "$TMP/err" "$M/ex2/blog: cannot create directory: Read-only file system"
expect_status 1 "$CETUNE" extract -x alltext --out-dir "$M/out" "$G/corpus/blog/blog-1.html"
expect_grep "$TMP/err" "$M/out: cannot create directory: Read-only file system"
expect_status 1 "$CETUNE" extract -x alltext --out-dir "$M/out2" "$G/corpus/blog/blog-1.html"
expect_grep "$TMP/err" "$M/out2/blog-1.txt: cannot write: Read-only file system"
for d in run run2 ex ex2 out out2; do no_files "$M/$d"; done

# 4. Standard output on a full device.
for cmd in "extract -x alltext $G/corpus/blog/blog-1.html" "evaluate -x alltext -d $G/corpus"; do
  $CETUNE $cmd >/dev/full 2>"$TMP/err"
  status=$?
  if [ $status -eq 1 ]; then ok; else fail "$cmd >/dev/full: exit $status"; fi
  expect_grep "$TMP/err" "cannot write to standard output: No space left on device"
done
finish
