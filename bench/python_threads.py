"""Pages per second of cetune.Extractor().extract from Python with 1, 2 and 4 threads
sharing one Extractor, over the pages of ../shared/corpora (else the demo corpus): the
GIL is released while extracting, so threads scale up to the cores (docs/python.md).

usage: PYTHONPATH=build/python python3 bench/python_threads.py [ROUNDS] [THREADS...]
"""
import glob
import gzip
import os
import sys
import threading
import time

import cetune

here = os.path.dirname(os.path.abspath(__file__))
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
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
counts = [int(a) for a in sys.argv[2:]] or [1, 2, 4]
ex = cetune.Extractor()
ex.extract(pages[0])  # warm
print("%d pages, %.1f MB, %d round(s), %d cores" % (len(pages), sum(map(len, pages)) / 1e6,
                                                   rounds, os.cpu_count()))
base = None
for n in counts:
    def work(k):
        for _ in range(rounds):
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
    rate = len(pages) * rounds / wall
    base = base or rate
    # CPU seconds per wall second: above 1 only when threads run at once.
    print("%d thread%s: %7.1f pages/s  (x%.2f)  %.2f cores busy" %
          (n, "" if n == 1 else "s", rate, rate / base, cpu / wall))
