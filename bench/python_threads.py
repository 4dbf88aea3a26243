"""Pages per second of cetune.Extractor().extract from Python with 1, 2 and 4 threads
sharing one Extractor, over the pages of ../shared/corpora (else the demo corpus): the
GIL is released while extracting, so threads scale up to the cores (docs/python.md).

usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_threads.py [-r REPEATS] [-p PASSES] [THREADS...]

Each measurement extracts every page PASSES times (default 1), the pages dealt out to
the threads in turn.  The thread counts are measured in turn, REPEATS times (default 5:
1 2 4 1 2 4 ...), so that a change in the machine's load touches them alike; each count's
rate is then given as min, median and max, and its speed-up over one thread as the median
of the ratios to the one-thread measurement of the same repeat.
"""
import argparse
import glob
import gzip
import os
import statistics
import threading
import time

import cetune

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("-r", "--repeats", type=int, default=5)
ap.add_argument("-p", "--passes", type=int, default=1)
ap.add_argument("threads", type=int, nargs="*", default=[1, 2, 4])
args = ap.parse_args()
counts = args.threads if 1 in args.threads else [1] + args.threads

corpora = os.environ.get("CETUNE_CORPORA", os.path.join(here, "..", "..", "shared", "corpora"))
paths = []
for pattern in ("portals/*/*.html", "big5/*/*.html", "cleaneval-dev/input/*.html",
                "scrapinghub/html/*.html*", "l3s-gn1/*/*.html"):
    paths += sorted(glob.glob(os.path.join(corpora, pattern)))
if not paths:
    paths = sorted(glob.glob(os.path.join(here, "..", "samples", "demo", "*", "*.html")))
pages = []
for p in paths:
    with open(p, "rb") as f:
        data = f.read()
    pages.append(gzip.decompress(data) if p.endswith(".gz") else data)
ex = cetune.Extractor()
ex.extract(pages[0])  # warm
print("%d pages, %.1f MB, %d pass(es) a measurement, %d repeats, %d cores, load average %.1f"
      % (len(pages), sum(map(len, pages)) / 1e6, args.passes, args.repeats, os.cpu_count(),
         os.getloadavg()[0]))


def measure(n):
    """Pages per second and cores busy (CPU seconds per wall second) with n threads."""
    def work(k):
        for _ in range(args.passes):
            for i in range(k, len(pages), n):
                try:
                    ex.extract(pages[i])
                except cetune.Error:
                    pass
    threads = [threading.Thread(target=work, args=(k,)) for k in range(n)]
    t0, c0 = time.perf_counter(), time.process_time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return len(pages) * args.passes / wall, cpu / wall


rates = {n: [] for n in counts}
busy = {n: [] for n in counts}
for _ in range(args.repeats):
    for n in counts:
        r, b = measure(n)
        rates[n].append(r)
        busy[n].append(b)
print("%-9s %9s %9s %9s   %s   %s" % ("threads", "min", "median", "max",
                                      "x 1 thread (median, min-max)", "cores busy"))
for n in counts:
    ratios = [r / b for r, b in zip(rates[n], rates[1])]
    print("%-9d %9.1f %9.1f %9.1f   x%.2f (%.2f-%.2f)%15.2f" %
          (n, min(rates[n]), statistics.median(rates[n]), max(rates[n]),
           statistics.median(ratios), min(ratios), max(ratios), statistics.median(busy[n])))
print("pages/s; load average now %.1f" % os.getloadavg()[0])
