# A small run of scripts/stress.sh: 120 mutants of the real pages of
# ../shared/corpora through evaluate and extract with every extractor; no
# process may end by a signal (under the sanitizers: no report either).
# Skips when the corpora are absent.  By hand: scripts/stress.sh CETUNE 3000.
CETUNE=$1 SRC=$2
if ! perl -MJSON::PP -MIO::Compress::Gzip -MIO::Uncompress::Gunzip -e 1 2>/dev/null; then
  echo "skipping: perl with JSON::PP and IO::Compress not found"
  exit 77
fi
exec bash "$SRC/scripts/stress.sh" "$CETUNE" 120 7
