"""Helpers of the WARC tests (tests/cli/extract_warc.sh, bench/warc_memory.sh).

  serve DIR            serves DIR on 127.0.0.1 (a free port, printed as "port N"):
                       files under enc/ go out with the encoding their name says
                       (chunked, gzip, deflate, chunked-gzip) and latin*.html with
                       "charset=windows-1252" in the Content-Type
  ends WARC            "RECORD-ID END" for every record: the file offset where the
                       record (its gzip member, for per-record gzip) ends
  gen OUT PAGE N BIG K one response record of PAGE N times, plus K image records of
                       BIG bytes each between them, per-record gzip when OUT ends in .gz
  corrupt IN OUT K     copies IN with the deflate data of its K-th gzip member damaged
  pack OUT HOST=DIR... a crawl of corpus pages: each DIR/NAME.html (sorted) as the
                       response of http://HOST/NAME.html, hosts interleaved page by page
                       (per-record gzip when OUT ends in .gz)
  compare JSONL MAP    each JSON line against `cetune extract --format json --url URI
                       FILE` (MAP: lines "URI FILE"); exits 1 on the first difference
"""
import gzip
import http.server
import json
import os
import socketserver
import subprocess
import sys
import zlib


def serve(root):
    class Handler(http.server.SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def __init__(self, *a, **k):
            super().__init__(*a, directory=root, **k)

        def log_message(self, *a):
            pass

        def do_GET(self):
            path = self.translate_path(self.path)
            name = os.path.basename(path)
            special = "/enc/" in self.path or name.startswith("latin")
            if not special or not os.path.isfile(path):
                return super().do_GET()
            body = open(path, "rb").read()
            ctype = "text/html; charset=windows-1252" if name.startswith("latin") else "text/html"
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            if "gzip" in name:
                body = gzip.compress(body)
                self.send_header("Content-Encoding", "gzip")
            elif "deflate" in name:
                body = zlib.compress(body)
                self.send_header("Content-Encoding", "deflate")
            if "chunked" in name:
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for i in range(0, len(body), 700):
                    part = body[i:i + 700]
                    self.wfile.write(b"%x;ext=1\r\n%s\r\n" % (len(part), part))
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    srv = Server(("127.0.0.1", 0), Handler)
    print("port", srv.server_address[1], flush=True)
    srv.serve_forever()


def records_plain(data):
    """(record id, start, end) of each record of an uncompressed WARC."""
    pos = 0
    while True:
        start = data.find(b"WARC/1.", pos)
        if start < 0:
            return
        head_end = data.index(b"\r\n\r\n", start) + 4
        head = data[start:head_end].decode("latin-1")
        fields = dict(l.split(": ", 1) for l in head.split("\r\n")[1:] if ": " in l)
        end = head_end + int(fields["Content-Length"]) + 4
        yield fields.get("WARC-Record-ID", ""), start, end
        pos = end


def members(data):
    """(start, end, decompressed) of each gzip member."""
    pos = 0
    while pos < len(data):
        d = zlib.decompressobj(31)
        out = d.decompress(data[pos:])
        end = len(data) - len(d.unused_data)
        yield pos, end, out
        pos = end


def ends(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        for start, end, out in members(data):
            for rid, _, _ in records_plain(out):
                print(rid, end)
    else:
        for rid, _, end in records_plain(data):
            print(rid, end)


def record(fields, block):
    head = "WARC/1.0\r\n" + "".join("%s: %s\r\n" % kv for kv in fields)
    return head.encode() + b"Content-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n"


def gen(out, page, n, big, k):
    html = open(page, "rb").read()
    page_block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html
    image_block = b"HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n\r\n" + os.urandom(big)
    compress = out.endswith(".gz")
    every = max(1, n // max(k, 1))
    with open(out, "wb") as f:
        def put(rec):
            f.write(gzip.compress(rec, 1) if compress else rec)
        for i in range(n):
            put(record([("WARC-Type", "response"),
                        ("WARC-Target-URI", "http://example.com/page/%d" % i),
                        ("WARC-Date", "2026-11-28T00:00:00Z"),
                        ("WARC-Record-ID", "<urn:uuid:page-%d>" % i),
                        ("Content-Type", "application/http; msgtype=response")], page_block))
            if k and i % every == 0:
                put(record([("WARC-Type", "response"),
                            ("WARC-Target-URI", "http://example.com/image/%d.jpg" % i),
                            ("WARC-Date", "2026-11-28T00:00:00Z"),
                            ("WARC-Record-ID", "<urn:uuid:image-%d>" % i),
                            ("Content-Type", "application/http; msgtype=response")], image_block))


def pack(out, pairs):
    sites = []
    for pair in pairs:
        host, d = pair.split("=", 1)
        sites.append((host, sorted(f for f in os.listdir(d) if f.endswith(".html")), d))
    compress = out.endswith(".gz")
    with open(out, "wb") as f:
        for i in range(max(len(names) for _, names, _ in sites)):
            for host, names, d in sites:
                if i >= len(names):
                    continue
                with open(os.path.join(d, names[i]), "rb") as page:
                    body = page.read()
                block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body
                rec = record([("WARC-Type", "response"),
                              ("WARC-Target-URI", "http://%s/%s" % (host, names[i])),
                              ("WARC-Date", "2026-11-28T00:00:00Z"),
                              ("WARC-Record-ID", "<urn:uuid:%s-%d>" % (host, i)),
                              ("Content-Type", "application/http; msgtype=response")], block)
                f.write(gzip.compress(rec, 6) if compress else rec)


def corrupt(src, dst, k):
    data = bytearray(open(src, "rb").read())
    for i, (start, end, _) in enumerate(members(bytes(data))):
        if i == k:
            mid = (start + end) // 2
            data[mid:mid + 16] = b"\xff" * 16
            break
    open(dst, "wb").write(data)


def compare(jsonl, mapping, cetune):
    files = dict(l.split(" ", 1) for l in open(mapping).read().splitlines())
    n = 0
    for line in open(jsonl):
        got = json.loads(line)
        uri = got.pop("WARC-Target-URI")
        for key in ("WARC-Record-ID", "WARC-Date"):
            got.pop(key)
        if uri not in files:
            continue
        want = json.loads(subprocess.run([cetune, "extract", "--format", "json", "--url", uri,
                                          files[uri]], check=True, capture_output=True).stdout)
        if got != want:
            diff = {k: (got.get(k), want.get(k)) for k in want if got.get(k) != want.get(k)}
            print("FAIL: %s differs from %s: %s" % (uri, files[uri], str(diff)[:400]))
            sys.exit(1)
        n += 1
    print("compared", n)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "serve":
        serve(args[0])
    elif cmd == "ends":
        ends(args[0])
    elif cmd == "gen":
        gen(args[0], args[1], int(args[2]), int(args[3]), int(args[4]))
    elif cmd == "corrupt":
        corrupt(args[0], args[1], int(args[2]))
    elif cmd == "pack":
        pack(args[0], args[1:])
    elif cmd == "compare":
        compare(args[0], args[1], args[2])
    else:
        sys.exit("unknown command " + cmd)
