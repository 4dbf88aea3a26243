"""The Python module (`import cetune`) with Debian's python3: the same text as the
command line (on the demo pages always, on the dev corpora of ../shared/corpora when
present), the JSON dict, WARC records, the metric, errors carrying cetune's message, and
threads that extract while others do (the GIL is released).

Environment (set by ctest): PYTHONPATH (build/python), CETUNE_CONFIG (the shipped
configuration of the build tree), CETUNE_BIN (build/cetune), CETUNE_SOURCE_DIR.
"""
import glob
import gzip
import os
import subprocess
import sys
import tempfile
import threading
import unittest
import warnings

import cetune

SRC = os.environ.get("CETUNE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("CETUNE_BIN", os.path.join(SRC, "build", "cetune"))
CORPORA = os.environ.get("CETUNE_CORPORA", os.path.join(SRC, "..", "shared", "corpora"))
DEMO = sorted(glob.glob(os.path.join(SRC, "samples", "demo", "*", "*.html")))
WARCS = os.path.join(SRC, "fuzz", "corpus", "warc")


def read_page(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if path.endswith(".gz") else data


def cli_texts(paths, *options):
    """What `cetune extract --headers OPTIONS PATHS` prints, per path."""
    out = subprocess.run([BIN, "extract", "--headers", *options, *paths], check=True,
                         capture_output=True).stdout.decode("utf-8")
    texts, current = {}, None
    for line in out.splitlines(keepends=True):
        if line.startswith("==> ") and line.rstrip("\n").endswith(" <==") and \
                line[4:-5] in paths:
            current = line[4:-5]
            texts[current] = ""
        else:
            texts[current] += line
    return texts


class TestExtract(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ex = cetune.Extractor()

    def test_shipped_configuration(self):
        self.assertTrue(self.ex.config.endswith("article.json"), self.ex.config)
        self.assertEqual(self.ex.extractor, "score")
        other = cetune.Extractor(os.path.join(SRC, "configs", "article.json"))
        page = read_page(DEMO[0])
        self.assertEqual(other.extract(page), self.ex.extract(page))

    def test_demo_text_as_cli(self):
        want = cli_texts(DEMO)
        for p in DEMO:
            self.assertEqual(self.ex.extract(read_page(p)), want[p], p)

    def test_markdown_as_cli(self):
        want = cli_texts(DEMO[:6], "--format", "markdown")
        for p in DEMO[:6]:
            self.assertEqual(self.ex.extract(read_page(p), format="markdown"), want[p], p)

    def test_dev_corpora_text_as_cli(self):
        pages = []
        for pattern in ("portals/*/*.html", "big5/*/*.html", "cleaneval-dev/input/*.html",
                        "scrapinghub/html/*.html*", "l3s-gn1/*/*.html"):
            pages += sorted(glob.glob(os.path.join(CORPORA, pattern)))
        if not pages:
            self.skipTest("%s: no dev corpora; set CETUNE_CORPORA" % CORPORA)
        # CleanEval pages begin with a <text id=...> line that the corpus reader drops but
        # `extract` keeps: both read the same bytes here, so they compare as they are.
        differ = []
        for i in range(0, len(pages), 200):
            chunk = pages[i:i + 200]
            want = cli_texts(chunk)
            differ += [p for p in chunk if self.ex.extract(read_page(p)) != want[p]]
        self.assertEqual(differ, [], "%d of %d pages differ" % (len(differ), len(pages)))
        print("\n%d dev pages: the same text as cetune extract" % len(pages), file=sys.stderr)

    def test_json(self):
        page = read_page(DEMO[0])
        d = self.ex.extract(page, url="https://example.com/a/b.html", format="json")
        self.assertEqual(list(d), ["url", "title", "author", "date", "sitename", "language",
                                  "canonical", "text", "words"])
        self.assertEqual(d["url"], "https://example.com/a/b.html")
        self.assertEqual(d["text"], self.ex.extract(page))
        want = subprocess.run([BIN, "extract", "--format", "json", "--url",
                               "https://example.com/a/b.html", DEMO[0]], check=True,
                              capture_output=True).stdout
        import json
        self.assertEqual(d, json.loads(want))

    def test_str_and_bytes(self):
        page = read_page(DEMO[0])
        self.assertEqual(self.ex.extract(page.decode("utf-8")), self.ex.extract(page))
        self.assertEqual(self.ex.extract(bytearray(page)), self.ex.extract(page))
        self.assertEqual(self.ex.extract(memoryview(page)), self.ex.extract(page))

    def test_charset(self):
        page = '<html><head><meta charset="utf-8"></head><body><p>Caf\xe9 cr\xe8me br\xfbl\xe9e, ' \
               'na\xefve fa\xe7ade.</p></body></html>'.encode("cp1252")
        alltext = cetune.Extractor(self.write_config('{"extractor": "alltext", "params": {}}'))
        self.assertIn("Café crème brûlée", alltext.extract(page, charset="windows-1252"))
        self.assertNotIn("Café", alltext.extract(page))  # the page's own (wrong) claim
        with self.assertRaises(ValueError):
            alltext.extract(page, charset="no-such-charset")

    def test_site_rules(self):
        # A configuration's site rules (docs/site.md) apply here as in `cetune extract -c`.
        page = b'<html><body><div class="story"><p>The harbour closed after the storm.</p></div>' \
               b'<div class="comments"><p>A reader says the storm was worse last year.</p></div>' \
               b'</body></html>'
        rules = self.write_config('{"extractor": "alltext", "params": {}, "site": '
                                  '{"drop": ["html/body/div.comments/p"]}}')
        text = cetune.Extractor(rules).extract(page)
        self.assertIn("harbour closed", text)
        self.assertNotIn("reader", text)
        self.assertIn("reader", cetune.Extractor(
            self.write_config('{"extractor": "alltext", "params": {}}')).extract(page))
        bad = self.write_config('{"extractor": "alltext",\n "site": {"drop": [1]}}')
        with self.assertRaisesRegex(cetune.Error, os.path.basename(bad) + r":2:\d+: .*site"):
            cetune.Extractor(bad)

    def write_config(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_errors(self):
        with self.assertRaisesRegex(cetune.Error, "empty page"):
            self.ex.extract(b"")
        with self.assertRaisesRegex(cetune.Error, "no-such.json"):
            cetune.Extractor("/nonexistent/no-such.json")
        bad = self.write_config('{"extractor": "accb", "params": {"r": "x"}}')
        with self.assertRaisesRegex(cetune.Error, os.path.basename(bad) + r":1:\d+: .*number"):
            cetune.Extractor(bad)
        with self.assertRaisesRegex(cetune.Error, "unknown extractor|no extractor"):
            cetune.Extractor(self.write_config('{"extractor": "nope", "params": {}}'))
        with self.assertRaises(ValueError):
            self.ex.extract(b"<p>x</p>", format="pdf")
        with self.assertRaises(TypeError):
            self.ex.extract(42)
        with self.assertRaisesRegex(cetune.Error, "no-such.warc"):
            cetune.read_warc("/nonexistent/no-such.warc")


class TestWarc(unittest.TestCase):
    def test_records(self):
        plain = list(cetune.read_warc(os.path.join(WARCS, "plain-encodings")))
        self.assertEqual([r["uri"].rsplit("/", 1)[1] for r in plain],
                         ["chunked-gzip.html", "deflate.html", "latin.html"])
        for r in plain:
            self.assertEqual(r["kind"], "page")
            self.assertEqual(r["status"], 200)
            self.assertTrue(r["record_id"].startswith("<urn:uuid:"))
        # Chunked and gzip, deflate: the page as it was served.
        self.assertIn(b"Hello chunked world.", plain[0]["html"])
        self.assertEqual(plain[0]["html"], plain[1]["html"])
        self.assertEqual(plain[2]["charset"], "windows-1252")
        self.assertIn(b"Caf\xe9", plain[2]["html"])  # the bytes as served, to decode with charset
        for name in ("per-record-gzip", "whole-gzip"):
            other = list(cetune.read_warc(os.path.join(WARCS, name)))
            self.assertEqual([r["html"] for r in other], [r["html"] for r in plain], name)
        everything = list(cetune.read_warc(os.path.join(WARCS, "plain-encodings"),
                                           pages_only=False))
        kinds = [r["kind"] for r in everything]
        self.assertEqual(kinds.count("page"), 3)
        self.assertIn("request", kinds)
        self.assertIn("not 2xx", kinds)

    def test_truncated_warns(self):
        with open(os.path.join(WARCS, "plain-encodings"), "rb") as f:
            data = f.read()
        cut = tempfile.NamedTemporaryFile(suffix=".warc", delete=False)
        cut.write(data[:data.index(b"Caf\xe9")])  # inside the third page's record
        cut.close()
        self.addCleanup(os.unlink, cut.name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pages = list(cetune.read_warc(cut.name))
        self.assertEqual(len(pages), 2)
        self.assertTrue(any("truncated" in str(w.message) for w in caught),
                        [str(w.message) for w in caught])


class TestMetric(unittest.TestCase):
    def test_f1(self):
        self.assertAlmostEqual(cetune.f1("a b c", "a c"), 0.8)
        self.assertEqual(cetune.f1("", ""), 1.0)
        self.assertEqual(cetune.f1("", "gold"), 0.0)
        self.assertEqual(cetune.f1("Straße, ﬁne!", "STRASSE fine"), 1.0)  # NFKC, case fold
        s = cetune.scores("one two three four", "two four five")
        self.assertEqual((s["extract_words"], s["gold_words"], s["overlap"]), (4, 3, 2))
        self.assertAlmostEqual(s["precision"], 0.5)
        self.assertAlmostEqual(s["recall"], 2 / 3)

    def test_f1_as_evaluate(self):
        # A page's F1 against its gold as `cetune evaluate --per-doc` gives it.
        gold_dir = os.path.join(SRC, "samples", "demo", "cronaca")
        page = sorted(glob.glob(os.path.join(gold_dir, "*.html")))[0]
        with open(page[:-5] + ".txt", encoding="utf-8") as f:
            gold = f.read()
        text = cetune.Extractor().extract(read_page(page))
        out = subprocess.run([BIN, "evaluate", "-c", cetune.Extractor().config, "-d",
                              gold_dir, "--per-doc", "--format", "csv"], check=True,
                             capture_output=True).stdout.decode().splitlines()
        name = os.path.basename(page)[:-5]
        row = next(l for l in out if ("," + name + ",") in l)
        self.assertAlmostEqual(cetune.f1(text, gold), float(row.split(",")[-1]), places=4)


class TestThreads(unittest.TestCase):
    def test_gil_released(self):
        """While one thread is inside a long extraction, another completes many small
        ones: work done, not time.  With the GIL held through the extraction the other
        thread could not run at all until it ended (at most one switch interval before)."""
        ex = cetune.Extractor()
        big = ("<html><body>" + "".join(
            "<div class=c%d><p>Paragraph %d of a long page with enough words to keep the "
            "extractor busy for a while, and <a href=/x%d>a link</a>.</p></div>" % (i % 7, i, i)
            for i in range(40000)) + "</body></html>").encode()
        small = read_page(DEMO[0])
        sys.setswitchinterval(0.0005)
        self.addCleanup(sys.setswitchinterval, 0.005)
        inside = threading.Event()
        done = threading.Event()
        during = [0]

        def long_one():
            inside.set()
            ex.extract(big)
            done.set()

        t = threading.Thread(target=long_one)
        t.start()
        inside.wait()
        while not done.is_set():
            ex.extract(small)
            during[0] += 1
        t.join()
        print("\n%d small extractions during the long one" % during[0], file=sys.stderr)
        self.assertGreater(during[0], 20, "small extractions while a long one ran")

    def test_threads_same_results(self):
        ex = cetune.Extractor()
        pages = [read_page(p) for p in DEMO]
        want = [ex.extract(p) for p in pages]
        got = [None] * len(pages)

        def work(k):
            for i in range(k, len(pages), 4):
                got[i] = ex.extract(pages[i])

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(got, want)


if __name__ == "__main__":
    unittest.main()
