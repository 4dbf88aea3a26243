#!/usr/bin/env python3
"""How cetune label reads back gold it did not write (docs/label.md, docs/results.md).

On a copy of a canonical corpus with hand-made gold, for every page: (1) the selection label
shows from the gold, saved as it is (Enter on an untouched page), must leave the gold file byte
for byte; (2) the text of that selection (saved with the gold moved aside) against the original
gold, word F1 (cetune.f1, the metric).

usage: scripts/label-readback.py CETUNE PYTHONPATH CORPUS [WORK]
  e.g. scripts/label-readback.py build/cetune build/python ../shared/corpora/portals
"""
import json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request
sys.path.insert(0, sys.argv[2])
import cetune
cet, src = sys.argv[1], sys.argv[3]
work = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix='cetune-readback-')
shutil.rmtree(work, ignore_errors=True)
shutil.copytree(src, work)
logname = work + '.label.log'
log = open(logname, 'w')
p = subprocess.Popen([cet, 'label', '-d', work, '--listen', '127.0.0.1:0'], stderr=log)
port = None
for _ in range(600):
    m = re.search(r'open http://127\.0\.0\.1:(\d+)/', open(logname).read())
    if m: port = m.group(1); break
    time.sleep(0.1)
def get(path):
    return json.load(urllib.request.urlopen(f'http://127.0.0.1:{port}{path}'))
def save(pid, keep):
    req = urllib.request.Request(f'http://127.0.0.1:{port}/api/save', data=json.dumps({'id': pid, 'keep': keep}).encode(),
                                 headers={'Content-Type': 'application/json'})
    return json.load(urllib.request.urlopen(req))
pages = [x['id'] for x in get('/api/pages')['pages']]
same = 0; f1s = []
for pid in pages:
    gold_path = os.path.join(work, pid + '.txt')
    orig = open(gold_path, 'rb').read()
    pg = get('/api/page?id=' + pid)
    r = save(pid, pg['keep'])
    same += open(gold_path, 'rb').read() == orig and r.get('unchanged') is True
    os.rename(gold_path, gold_path + '.orig')
    save(pid, pg['keep'])
    text = open(gold_path, encoding='utf-8', errors='replace').read()
    f1s.append((cetune.f1(text, orig.decode('utf-8', 'replace')), pid))
p.terminate(); p.wait()
shutil.rmtree(work, ignore_errors=True)
os.remove(logname)
f1s.sort()
print(f'{len(pages)} pages; saved as shown, byte-identical: {same}')
print(f'shown selection vs original gold, word F1: mean {sum(f for f, _ in f1s)/len(f1s):.3f}, worst {f1s[0][0]:.3f} ({f1s[0][1]}), '
      f'below 0.9: {sum(f < 0.9 for f, _ in f1s)}')
for f, pid in f1s[:5]: print(f'  {f:.3f} {pid}')
