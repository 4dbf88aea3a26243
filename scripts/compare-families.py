#!/usr/bin/env python3
"""Two sets of family runs side by side, run by run (docs/experiment.md).

scripts/generalisation.sh --part families writes OUT/families.csv, one row per
family, K and seed, with the gain of best.json over the start on the family's
other pages.  Given the files of two binaries (or two option sets) run on the
same families, K and seeds (and start seeds, when both files name them), this prints each one's distribution (median, mean,
worst, runs that lose, that lose more than 0.005), by corpus too, the runs
they share that got better or worse, and each changed run with what best.json
was (tuned, start+site, start) before and after.  Only the runs in both files
count, so a partial run compares on what it has.

usage: scripts/compare-families.py BEFORE.csv AFTER.csv [--min CHANGE]
  --min CHANGE   a run counts as changed past this gain difference (1e-6)
"""
import csv
import statistics
import sys


def load(path):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError as e:
        sys.exit(f"compare-families.py: {path}: {e.strerror}")
    if rows and not {"family", "k", "seed", "gain", "corpus"} <= rows[0].keys():
        sys.exit(f"compare-families.py: {path}: not a families.csv of scripts/generalisation.sh")
    return rows


def index(path, rows, by_start):
    """The runs of a file by (family, K, seed, start seed); the start seed is
    left out ("") when one of the two files does not name it (written before
    generalisation.sh had several starts), and then a file must hold one run
    per family, K and seed."""
    runs = {}
    for r in rows:
        key = (r["family"], r["k"], r["seed"], r.get("start_seed", "") if by_start else "")
        if key in runs:
            sys.exit(f"compare-families.py: {path}: {key[0]} K={key[1]} seed {key[2]} is there "
                     "from several starts, and the other file does not name its start seed")
        runs[key] = r
    return runs


def line(name, gains):
    lose = sum(g < -1e-9 for g in gains)
    big = sum(g < -0.005 for g in gains)
    return (f"| {name} | {len(gains)} | {statistics.median(gains):+.4f} | "
            f"{statistics.mean(gains):+.4f} | {min(gains):+.4f} | {lose} | {big} |")


def main(argv):
    args, least = [], 1e-6
    while argv:
        a = argv.pop(0)
        if a == "--min" and argv:
            least = float(argv.pop(0))
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(a)
    if len(args) != 2:
        sys.exit(__doc__)
    rb, ra = load(args[0]), load(args[1])
    by_start = all(rs and "start_seed" in rs[0] for rs in (rb, ra))
    before, after = index(args[0], rb, by_start), index(args[1], ra, by_start)
    keys = sorted(set(before) & set(after))
    if not keys:
        sys.exit("compare-families.py: the two files share no run (family, K, seed, start seed)")
    print("| runs | count | median | mean | worst | lose | lose > 0.005 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for corpus in sorted({before[k]["corpus"] for k in keys}) + [None]:
        ks = [k for k in keys if corpus is None or before[k]["corpus"] == corpus]
        label = corpus or "**all**"
        print(line(f"before, {label}", [float(before[k]["gain"]) for k in ks]))
        print(line(f"after, {label}", [float(after[k]["gain"]) for k in ks]))
    changed = [(k, float(before[k]["gain"]), float(after[k]["gain"])) for k in keys
               if abs(float(after[k]["gain"]) - float(before[k]["gain"])) > least]
    better = sum(a > b for _, b, a in changed)
    print(f"\n{len(keys)} runs in both; {better} better, {len(changed) - better} worse")
    for key, b, a in changed:
        fam, k, seed, t = key
        start = f" start seed {t}" if t not in ("", "-") else ""
        print(f"  {fam} K={k} seed {seed}{start}: {b:+.4f} -> {a:+.4f} ({a - b:+.4f}), "
              f"{before[key].get('decision', '-')} -> {after[key].get('decision', '-')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
