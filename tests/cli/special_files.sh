# Outputs never replace what is not a regular file (docs/reliability.md,
# "Special files"): a character device or a FIFO is written through, a
# symbolic link keeps pointing where it did, and anything else (and a FIFO
# that no process reads) is refused with exit 1, left as it was.  Checked
# for every writer: sample -o, evaluate --extracts, extract --out-dir,
# evolve -o (its --force clearing), report.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
D=$TMP/d
mkdir -p "$D"

# is_kind TEST PATH WHY: PATH is still of the kind test(1)'s TEST checks.
is_kind() { if [ "$1" "$2" ] && [ ! -L "$2" ]; then ok; else fail "$3: $2 is no longer what it was ($(stat -c %F "$2" 2>&1))"; fi; }

# A FIFO that a process reads gets the sample; the FIFO stays.
mkfifo "$D/fifo"
timeout 20 cat "$D/fifo" >"$TMP/read" &
reader=$!
expect_status 0 timeout 20 "$CETUNE" sample -d "$G/corpus" -n 3 -o "$D/fifo"
wait $reader
is_kind -p "$D/fifo" "sample -o FIFO"
if grep -q '^# cetune sample -n 3' "$TMP/read" && [ "$(grep -vc '^#' "$TMP/read")" = 3 ]; then ok
else fail "the FIFO's reader did not get the sample: $(head -c 200 "$TMP/read")"; fi
# Without a reader: refused at once (no wait), the FIFO left.
expect_status 1 timeout 20 "$CETUNE" sample -d "$G/corpus" -n 3 -o "$D/fifo"
expect_grep "$TMP/err" "fifo: cannot write: a FIFO that no process reads"
is_kind -p "$D/fifo" "sample -o FIFO without reader"
ls "$D" | grep -q tmp && fail "a temporary file was left: $(ls "$D")" || ok

# A symbolic link: its target gets the file, the link stays a link.
echo old >"$D/target"
ln -s target "$D/link"
expect_status 0 "$CETUNE" sample -d "$G/corpus" -n 2 -o "$D/link" --force
if [ -L "$D/link" ] && grep -q '^# cetune sample -n 2' "$D/target"; then ok; else fail "sample -o LINK: $(ls -l "$D")"; fi
ln -s nowhere "$D/dangling"
expect_status 1 "$CETUNE" sample -d "$G/corpus" -n 2 -o "$D/dangling" --force
expect_grep "$TMP/err" "a symbolic link to nothing"
if [ -L "$D/dangling" ] && [ ! -e "$D/nowhere" ]; then ok; else fail "dangling link replaced"; fi

# Standard output into a pipe, named as /dev/stdout names it, is written
# through (a link of our own: a cetune that replaced the link, as one did,
# must not replace the system's /dev/stdout when run as root).
ln -s /proc/self/fd/1 "$D/stdout"
"$CETUNE" sample -d "$G/corpus" -n 2 -o "$D/stdout" --force 2>"$TMP/err" | grep -c "^[a-z]*/[a-z]*-[0-9]$" >"$TMP/n"
if [ "$(cat "$TMP/n")" = 2 ] && [ -L "$D/stdout" ]; then ok; else fail "sample -o /dev/stdout: $(cat "$TMP/err")"; fi

# Character devices (mknod needs root): /dev/null's twin takes the sample,
# /dev/full's fails with exit 1; both stay devices.
if mknod -m 666 "$D/null" c 1 3 2>/dev/null && mknod -m 666 "$D/full" c 1 7 2>/dev/null; then
  expect_status 0 "$CETUNE" sample -d "$G/corpus" -n 3 -o "$D/null" --force
  is_kind -c "$D/null" "sample -o DEVICE"
  expect_status 1 "$CETUNE" sample -d "$G/corpus" -n 3 -o "$D/full" --force
  expect_grep "$TMP/err" "full: cannot write: No space left"
  is_kind -c "$D/full" "sample -o /dev/full's twin"
else
  echo "skipping the device checks: mknod needs root"
fi

# A socket or a directory where a file goes: refused.
mkdir "$D/dir"
expect_status 1 "$CETUNE" sample -d "$G/corpus" -n 3 -o "$D/dir" --force
is_kind -d "$D/dir" "sample -o DIR"

# evaluate --extracts and extract --out-dir: a FIFO among the files to write.
mkdir -p "$TMP/x/news" "$TMP/o"
mkfifo "$TMP/x/news/news-2.txt" "$TMP/o/news-1.txt"
expect_status 1 timeout 20 "$CETUNE" evaluate -x lqf -d "$G/corpus" --extracts "$TMP/x"
expect_grep "$TMP/err" "news-2.txt: cannot write: a FIFO that no process reads"
is_kind -p "$TMP/x/news/news-2.txt" "evaluate --extracts"
expect_status 1 timeout 20 "$CETUNE" extract -x lqf -o "$TMP/o" "$G/corpus/news/news-1.html"
is_kind -p "$TMP/o/news-1.txt" "extract --out-dir"

# evolve -o --force clears the run's files, but not a FIFO named like one;
# report does not remove a plot that is a FIFO.
RUN="-p $G/lqf.json -d $G/corpus --pop 4 --generations 2 --seed 1 -q"
expect_status 0 "$CETUNE" evolve $RUN -o "$TMP/run"
rm "$TMP/run/top.json"
mkfifo "$TMP/run/top.json"
expect_status 1 timeout 20 "$CETUNE" evolve $RUN -o "$TMP/run" --force
expect_grep "$TMP/err" "top.json: cannot remove: a FIFO"
is_kind -p "$TMP/run/top.json" "evolve --force"
if command -v gnuplot >/dev/null; then
  rm -f "$TMP/run/convergence.png"
  mkfifo "$TMP/run/convergence.png"
  expect_status 1 timeout 60 "$CETUNE" report "$TMP/run"
  expect_grep "$TMP/err" "convergence.png: cannot remove: a FIFO"
  is_kind -p "$TMP/run/convergence.png" "report"
fi
finish
