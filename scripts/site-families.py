#!/usr/bin/env python3
"""Groups the pages of the shared corpora into site families, for
scripts/generalisation.sh: one folder per family under OUT, holding symbolic
links to each page's NAME.html and NAME.txt (the canonical layout), and one
line per family on stdout: NAME CORPUS PAGES.

- portals: each package is a family already (bbc, msnbc, wapo, wsj-brussels).
- big5 and l3s-gn1 name their pages by topic or by id, not by site: a page's
  site is the host of its <link rel=canonical>, og:url or <base>, else the
  host most of its absolute links and images point to (archived pages'
  Wayback addresses unwrapped), reduced to the registered domain.  Hosts
  that serve every site (advertising, analytics, the W3C's doctype) never
  count, and a few content networks stand for their site (ALIASES, checked
  against the pages' titles: trb.com is the Los Angeles Times' own network,
  yimg.com Yahoo! News's).  A big5 family is one site in one crawl year
  (the two years' templates differ); an l3s-gn1 family is one site.
- Only families of at least --min-pages pages are kept (default 8).

usage: scripts/site-families.py [--min-pages N] CORPORA OUT
"""
import argparse
import collections
import os
import re
import sys
from urllib.parse import urlparse

IGNORED = re.compile(
    r"(w3\.org|doubleclick|google|archive\.org|facebook|twitter|addthis|yahooapis|adtech|2mdn|"
    r"atdmt|quantserve|scorecardresearch|omniture|feedburner|digg\.com|del\.icio\.us|macromedia|"
    r"adobe|revsci|akamai|imrworldwide|overture|advertising|adbrite|fastclick|tacoda|hitbox|"
    r"statcounter|sitemeter|technorati|reddit|stumbleupon|newsvine|myspace|webtrends)")
ALIASES = {"trb.com": "latimes.com", "newyorkmetro.com": "nymag.com", "turner.com": "cnn.com",
           "cnn.net": "cnn.com", "yimg.com": "yahoo.com"}
DECLARED = [r"<link[^>]+rel=[\"']?canonical[\"']?[^>]*href=[\"']([^\"']+)",
            r"<link[^>]+href=[\"']([^\"']+)[\"'][^>]*rel=[\"']?canonical",
            r"<meta[^>]+property=[\"']og:url[\"'][^>]*content=[\"']([^\"']+)",
            r"<meta[^>]+content=[\"']([^\"']+)[\"'][^>]*property=[\"']og:url",
            r"<base[^>]+href=[\"']([^\"']+)"]
WAYBACK = re.compile(r"https?://web(?:-beta)?\.archive\.org/web/\d+[a-z_]*/(https?://.*)")


def domain(host):
    """The registered domain: news.bbc.co.uk -> bbc.co.uk, www.cnn.com -> cnn.com."""
    p = host.lower().rstrip(".").split(".")
    if len(p) >= 3 and p[-2] in ("co", "com", "org", "net", "ac", "gov") and len(p[-1]) == 2:
        return ".".join(p[-3:])
    return ".".join(p[-2:])


def site(html):
    def host(url):
        m = WAYBACK.match(url)
        if m:
            url = m.group(1)
        try:
            h = urlparse(url).hostname
        except ValueError:
            return None
        return None if not h or "." not in h or IGNORED.search(h) else domain(h)

    for pat in DECLARED:
        m = re.search(pat, html, re.I)
        if m and m.group(1).startswith("http") and host(m.group(1)):
            return host(m.group(1))
    hosts = collections.Counter(
        h for u in re.findall(r"(?:href|src|action)\s*=\s*[\"']?(https?://[^\"'\s>]+)", html, re.I)
        if (h := host(u)))
    if not hosts:
        return None
    return hosts.most_common(1)[0][0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-pages", type=int, default=8)
    ap.add_argument("corpora")
    ap.add_argument("out")
    a = ap.parse_args()
    families = collections.defaultdict(list)  # name -> [(corpus, folder, page)]
    portals = os.path.join(a.corpora, "portals")
    if os.path.isdir(portals):
        for pkg in sorted(os.listdir(portals)):
            d = os.path.join(portals, pkg)
            if os.path.isdir(d):
                for f in sorted(os.listdir(d)):
                    if f.endswith(".html"):
                        families[pkg].append(("portals", d, f[:-5]))
    for corpus in ("big5", "l3s-gn1"):
        top = os.path.join(a.corpora, corpus)
        if not os.path.isdir(top):
            continue
        for pkg in sorted(os.listdir(top)):
            d = os.path.join(top, pkg)
            if not os.path.isdir(d):
                continue
            for f in sorted(os.listdir(d)):
                if not f.endswith(".html"):
                    continue
                with open(os.path.join(d, f), "rb") as fh:
                    s = site(fh.read().decode("latin-1"))
                if s is None:
                    continue
                s = ALIASES.get(s, s)
                name = f"{corpus}-{s}" + (f"-{pkg}" if corpus == "big5" else "")
                families[name].append((corpus, d, f[:-5]))
    for name in sorted(families):
        pages = families[name]
        if len(pages) < a.min_pages:
            continue
        fam = os.path.join(a.out, name)
        os.makedirs(fam, exist_ok=True)
        for _, d, page in pages:
            for ext in (".html", ".txt"):
                src = os.path.abspath(os.path.join(d, page + ext))
                dst = os.path.join(fam, page + ext)
                if os.path.exists(src) and not os.path.lexists(dst):
                    os.symlink(src, dst)
        print(name, pages[0][0], len(pages))


if __name__ == "__main__":
    sys.exit(main())
