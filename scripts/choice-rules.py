#!/usr/bin/env python3
"""Judge final-choice rules on runs already made (docs/experiment.md, "The final rule").

scripts/generalisation.sh writes, for every family run, the held-out gains the
cross-validation measured (cv_gains) and what the search's best gains on the
family's test pages (search_gain), whatever the run chose.  So any rule that
decides from the held-out gains can be judged on the same runs: a run that
adopts tuning gains search_gain, one that keeps the start gains 0 here (the
start with site rules that evolve exports then, docs/choice.md, does not
depend on this rule and is left out of the comparison).

The interval is the one of src/run/choice.c: racing's sign-flip test
(src/eval/signflip.c, exact for the 3 to 12 pages of a family run; pages that
tie drop out) inverted by bisection.

usage: scripts/choice-rules.py FAMILIES.csv [FAMILIES.csv ...]
"""
import csv
import itertools
import statistics
import sys


def pvalue(x):
    """One-sided sign-flip p-value of sum(x) being this small: P(S <= sum x)."""
    nz = [v for v in x if v != 0]
    if len(nz) > 16:
        sys.exit("choice-rules.py: more than 16 pages differ; the exact test would be too slow")
    obs = sum(nz)
    at = obs + 1e-9 * sum(abs(v) for v in nz)
    a = [abs(v) for v in nz]
    hits = sum(sum(s * v for s, v in zip(signs, a)) <= at
               for signs in itertools.product((1, -1), repeat=len(a)))
    return hits / 2 ** len(a)


def lower_end(d, alpha):
    """The largest shift delta such that "the gains lie above delta" is significant at
    alpha, one-sided; NaN when no shift is (too few pages)."""
    lo, hi = min(d) - 1, max(d)
    sig = lambda delta: pvalue([delta - v for v in d]) < alpha
    if not sig(lo):
        return float("nan")
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if sig(mid) else (lo, mid)
    return lo


def rules(d):
    """Each rule's decision (True: adopt tuning) on the held-out gains d."""
    m = statistics.mean(d)
    lo90, lo80 = lower_end(d, 0.05), lower_end(d, 0.1)
    return {
        "lower end > 0 at 90% (the rule before)": lo90 > 0,
        "lower end > 0 at 80% (the default)": lo80 > 0,
        "mean > 0, lower end > -0.002 at 80% (--tolerance 0.002)": m > 0 and lo80 > -0.002,
        "mean > 0, lower end > -0.005 at 80% (--tolerance 0.005)": m > 0 and lo80 > -0.005,
        "mean > 0, lower end > -0.005 at 90%": m > 0 and lo90 > -0.005,
        "mean > 0, lower end > -0.01 at 80% (--tolerance 0.01)": m > 0 and lo80 > -0.01,
        "mean > 0": m > 0,
        "always the search's best": True,
    }


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| runs | rule | adopt | median gain | mean gain | worst | lose | lose > 0.005 |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in sys.argv[1:]:
        rows = list(csv.DictReader(open(path)))
        if not rows or "cv_gains" not in rows[0]:
            sys.exit(f"choice-rules.py: {path}: no cv_gains column (made by an older "
                     "generalisation.sh?)")
        gains = {}
        for r in rows:
            d = [float(x) for x in r["cv_gains"].split(";") if x]
            if not d:
                continue
            for name, adopt in rules(d).items():
                gains.setdefault(name, []).append((adopt, float(r["search_gain"]) if adopt else 0.0))
        for name, v in gains.items():
            g = [x for _, x in v]
            print(f"| {path} ({len(g)}) | {name} | {sum(a for a, _ in v)} | "
                  f"{statistics.median(g):+.4f} | {statistics.mean(g):+.4f} | {min(g):+.4f} | "
                  f"{sum(x < -1e-9 for x in g)} | {sum(x < -0.005 for x in g)} |")


if __name__ == "__main__":
    main()
