"""cetune: tuned web content extraction from Python (docs/python.md).

    import cetune
    ex = cetune.Extractor()                      # the shipped configuration
    text = ex.extract(open("page.html", "rb").read())
    meta = ex.extract(html, url="https://example.com/a", format="json")
    for rec in cetune.read_warc("crawl.warc.gz"):
        print(rec["uri"], ex.extract(rec["html"], url=rec["uri"], charset=rec["charset"]))
    cetune.f1(text, gold)                        # the word F1 of `cetune evaluate`

The work is done by libcetune, the library of the `cetune` command, with the
GIL released: threads sharing one Extractor extract in parallel.
"""
from ._cetune import Error, Extractor, WarcReader, __version__, f1, read_warc, scores

__all__ = ["Error", "Extractor", "WarcReader", "f1", "read_warc", "scores", "__version__"]
