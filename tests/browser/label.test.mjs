// The browser test of cetune label (run by label.sh): starts `cetune label`
// on a copy of tests/data/label, opens it in headless chromium, toggles
// blocks with real clicks and keys, saves, and checks the gold files byte
// for byte, that the pages were never touched, and that `cetune evaluate`
// gives F1 1 for a page saved as the configuration showed it.
// usage: node label.test.mjs CETUNE SOURCE_DIR   (CHROMIUM: the browser;
// CETUNE_SCREENSHOT=FILE.png also saves a screenshot of the first page)
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const [cetune, src] = process.argv.slice(2);
const tmp = mkdtempSync(join(tmpdir(), 'cetune-label-'));
const corpus = join(tmp, 'corpus');
cpSync(join(src, 'tests/data/label'), corpus, { recursive: true });
const pageBytes = (name) => readFileSync(join(corpus, 'news', `${name}.html`));
const before = { storm: pageBytes('storm'), market: pageBytes('market') };
let failures = 0;
let server;
let browser;

function check(ok, what) {
  if (ok) {
    console.log(`ok: ${what}`);
  } else {
    failures++;
    console.log(`FAIL: ${what}`);
  }
}

// Starts the server on a free port; resolves with its address.
function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn(cetune, ['label', '-d', corpus, '--listen', '127.0.0.1:0'],
                   { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    server.stderr.on('data', (d) => {
      log += d;
      const m = log.match(/open (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`cetune label exited with ${code}: ${log}`)));
  });
}

// Where a text node's first piece is on the page, for the mouse.
async function spot(page, node, end = false) {
  return page.evaluate((n, atEnd) => {
    const frame = document.getElementById('page');
    const els = frame.contentDocument.querySelectorAll(`[data-cet="${n}"]`);
    const el = els[atEnd ? els.length - 1 : 0];
    const rects = el.getClientRects();
    const r = rects[atEnd ? rects.length - 1 : 0];
    const f = frame.getBoundingClientRect();
    return { x: f.left + (atEnd ? r.right - 2 : r.left + 2), y: f.top + r.top + r.height / 2 };
  }, node, end);
}

async function clickNode(page, node, alt = false) {
  const p = await spot(page, node);
  if (alt) await page.keyboard.down('Alt');
  await page.mouse.click(p.x, p.y);
  if (alt) await page.keyboard.up('Alt');
}

// The node of the first piece of text that contains s.
async function nodeOf(page, s) {
  return page.evaluate((text) => {
    const doc = document.getElementById('page').contentDocument;
    const el = Array.from(doc.querySelectorAll('[data-cet]')).find((e) => e.textContent.includes(text));
    return el ? Number(el.dataset.cet) : -1;
  }, s);
}

async function kept(page) {
  return page.evaluate(() => {
    const doc = document.getElementById('page').contentDocument;
    return Array.from(doc.querySelectorAll('[data-cet][data-keep]')).map((e) => e.textContent).join('|');
  });
}

async function open(page, base, id) {
  await page.goto('about:blank'); // a new hash alone would not load the page again
  await page.goto(`${base}#${encodeURIComponent(id)}`);
  await page.waitForSelector(`body[data-ready="${id}"]`, { timeout: 60000 });
}

async function saveWith(page, key, id) {
  await page.evaluate(() => { delete document.body.dataset.saved; });
  await page.keyboard.press(key);
  await page.waitForSelector(`body[data-saved="${id}"]`, { timeout: 60000 });
}

function cetuneOut(args) {
  return execFileSync(cetune, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

try {
  const base = await startServer();
  const args = ['--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
                '--no-default-browser-check'];
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox'); // chromium's own sandbox refuses root
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM, headless: true, args });
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 760 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // 1. storm, as the shipped configuration shows it, saved unchanged.
  await open(page, base, 'news/storm');
  const frameState = await page.evaluate(() => {
    const doc = document.getElementById('page').contentDocument;
    return { title: doc.title, body: doc.body.textContent, scripts: doc.querySelectorAll('script').length,
             counter: document.getElementById('count').textContent };
  });
  check(frameState.title === 'Storm closes the harbour - Coast News', `the page's script did not run (title "${frameState.title}")`);
  check(!frameState.body.includes('scripts ran') && frameState.scripts === 0, 'no script and no event handler ran');
  check(!frameState.body.includes('enable JavaScript'), 'noscript content is not shown');
  check(frameState.counter === '0 of 2 pages labelled', `the counter starts at 0 of 2 ("${frameState.counter}")`);
  if (process.env.CETUNE_SCREENSHOT) await page.screenshot({ path: process.env.CETUNE_SCREENSHOT });
  await saveWith(page, 's', 'news/storm');
  const extracted = cetuneOut(['extract', join(corpus, 'news/storm.html')]);
  const stormGold = readFileSync(join(corpus, 'news/storm.txt'), 'utf8');
  check(stormGold === extracted, 'storm.txt is byte for byte what `cetune extract` prints');
  // The configuration the server showed is the shipped one, configs/article.json.
  const csv = cetuneOut(['evaluate', '-c', join(src, 'configs/article.json'), '-d', corpus, '--per-doc',
                         '--format', 'csv']);
  const stormRow = csv.split('\n').find((l) => l.startsWith('news,storm,')) || '';
  check(stormRow.endsWith(',1.000000,1.000000,1.000000'),
        `evaluate gives P = R = F1 = 1 for the page saved unchanged (${stormRow})`);
  const counter = await page.$eval('#count', (e) => e.textContent);
  check(counter === '1 of 2 pages labelled', `the counter says 1 of 2 after saving ("${counter}")`);

  // 2. market, corrected: everything dropped as a region, then the headline
  // and the last paragraph kept by clicks (one click keeps a whole block,
  // the word split across <i> included), and one piece dropped by Alt+click.
  await page.keyboard.press('ArrowLeft'); // pages are in name order: market, storm
  await page.waitForSelector('body[data-ready="news/market"]', { timeout: 60000 });
  // From the headline (a drag from a link would drag the link) to the footer.
  const first = await nodeOf(page, 'Fish market reopens'), last = await nodeOf(page, 'Copyright');
  const a = await spot(page, first), b = await spot(page, last, true);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.press('d');
  check(await kept(page) === '', 'a region dropped with D drops every block in it');
  await clickNode(page, await nodeOf(page, 'Fish market reopens'));
  await clickNode(page, await nodeOf(page, 'The repairs cost'));
  await clickNode(page, await nodeOf(page, 'Traders said'));
  await clickNode(page, await nodeOf(page, 'Traders said')); // a second click drops it again
  await clickNode(page, await nodeOf(page, 'Most read'));
  await clickNode(page, await nodeOf(page, 'Council budget'), true); // Alt: that link alone
  check(await kept(page) === 'Fish market reopens after repairs|The repairs cost the town 240,000 euros, paid partly by insurance. Hel|lo|to the first customers came from the mayor at seven in the morning.|Most read|Council budget approved',
        'clicks keep whole blocks, Alt+click one piece of text');
  await saveWith(page, 'Enter', 'news/market');
  const want = 'Fish market reopens after repairs\n\nThe repairs cost the town 240,000 euros, paid partly by ' +
               'insurance. Hello to the first customers came from the mayor at seven in the morning.\n\n' +
               'Most read\n\nCouncil budget approved\n';
  const marketGold = readFileSync(join(corpus, 'news/market.txt'), 'utf8');
  check(marketGold === want, `market.txt is the corrected text byte for byte (${JSON.stringify(marketGold)})`);

  // 3. The labels come back: reopened, market shows its gold, and saving it
  // again writes the same bytes.
  await open(page, base, 'news/market');
  const source = await page.$eval('#where', (e) => e.title);
  check(source === 'from its gold', `a labelled page is shown from its gold ("${source}")`);
  await saveWith(page, 's', 'news/market');
  check(readFileSync(join(corpus, 'news/market.txt'), 'utf8') === want, 'saving the reopened page writes the same gold');
  const scored = cetuneOut(['evaluate', '-x', 'alltext', '-d', corpus, '--per-doc', '--format', 'csv']);
  check(scored.includes('\nnews,market,') && scored.includes('\nnews,storm,'),
        'evaluate reads both labelled pages');

  check(pageBytes('storm').equals(before.storm) && pageBytes('market').equals(before.market),
        'the pages themselves are unchanged');
  check(errors.length === 0, `no error on the labelling page (${errors.join('; ')})`);
} catch (e) {
  failures++;
  console.log(`FAIL: ${e.stack || e}`);
} finally {
  if (browser) await browser.close();
  if (server && server.exitCode === null) {
    // SIGTERM stops it cleanly: exit 0 (a sanitizer build's leak report would not be).
    const code = await new Promise((resolve) => {
      server.once('exit', (c) => resolve(c));
      server.kill('SIGTERM');
    });
    check(code === 0, `cetune label stops with exit 0 on SIGTERM (${code})`);
  }
  rmSync(tmp, { recursive: true, force: true });
}
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
