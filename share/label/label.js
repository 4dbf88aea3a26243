// The labelling page of cetune label (docs/label.md).  It talks to the
// server's JSON API and marks the page shown in the frame: every piece of
// text is a <span data-cet="NODE" data-b="BLOCK"> written by the server from
// cetune's own document model, so a label names exactly the words the
// metric reads.  No build step: plain JavaScript for current browsers.
'use strict';

const $ = (id) => document.getElementById(id);
const frame = $('page');
const state = {
  pages: [],        // [{id, labelled}]
  index: -1,
  keep: new Set(),  // node numbers kept
  loaded: new Set(),
  source: '',
  dirty: false,
  warned: false,    // a move away from unsaved changes was refused once
};

// The frame's own style: what is kept, what the pointer is on.
const FRAME_CSS = `
[data-cet] { cursor: pointer; }
[data-cet]:hover { outline: 2px solid #1a6fd0; }
[data-cet][data-keep] { background: rgba(255, 214, 0, .55) !important; color: #000 !important; }
[data-cet]:not([data-keep]) { opacity: .55; }
`;

async function api(path, options) {
  const r = await fetch(path, options);
  let body;
  try { body = await r.json(); } catch (e) { body = { error: `${r.status} ${r.statusText}` }; }
  if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`);
  return body;
}

function say(msg, bad) {
  $('status').textContent = msg;
  $('status').classList.toggle('bad', !!bad);
}

function frameDoc() {
  return frame.contentDocument;
}

function spans() {
  const doc = frameDoc();
  return doc ? Array.from(doc.querySelectorAll('[data-cet]')) : [];
}

function showCounts() {
  const labelled = state.pages.filter((p) => p.labelled).length;
  $('count').textContent = `${labelled} of ${state.pages.length} pages labelled`;
  const p = state.pages[state.index];
  const from = { config: 'from the configuration', gold: 'from its gold',
                 'gold-approx': 'from its gold, approximately' }[state.source] || '';
  $('where').textContent = p ? `${state.index + 1}/${state.pages.length} ${p.id}` +
    `${p.labelled ? ' \u2713' : ''}` : '';
  $('where').title = from;
  $('save').classList.toggle('dirty', state.dirty);
}

function paint() {
  for (const el of spans())
    el.toggleAttribute('data-keep', state.keep.has(Number(el.dataset.cet)));
  showCounts();
}

function change(nodes, keep) {
  for (const n of nodes) {
    if (keep) state.keep.add(n); else state.keep.delete(n);
  }
  state.dirty = true;
  state.warned = false;
  paint();
}

// A click toggles the block the text is in (every text node of the same
// block element); Alt+click only the text node.
function onClick(ev) {
  ev.preventDefault();
  ev.stopPropagation();
  const doc = frameDoc();
  const sel = doc.getSelection();
  if (sel && !sel.isCollapsed) return; // the end of a region selection
  const el = ev.target.closest ? ev.target.closest('[data-cet]') : null;
  if (!el) return;
  let nodes = [Number(el.dataset.cet)];
  if (!ev.altKey && el.dataset.b !== undefined)
    nodes = spans().filter((s) => s.dataset.b === el.dataset.b).map((s) => Number(s.dataset.cet));
  change(nodes, !nodes.some((n) => state.keep.has(n)));
}

function region(keep) {
  const doc = frameDoc();
  const sel = doc && doc.getSelection();
  if (!sel || sel.isCollapsed) {
    say('select a region of the page first, then press K or D', true);
    return;
  }
  const nodes = spans().filter((s) => sel.containsNode(s, true)).map((s) => Number(s.dataset.cet));
  sel.removeAllRanges();
  change(nodes, keep);
  say(`${keep ? 'kept' : 'dropped'} ${new Set(nodes).size} pieces of text`);
}

async function save() {
  const p = state.pages[state.index];
  if (!p) return false;
  try {
    const keep = Array.from(state.keep).sort((a, b) => a - b);
    const r = await api('/api/save', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                                       body: JSON.stringify({ id: p.id, keep }) });
    p.labelled = true;
    state.dirty = false;
    state.loaded = new Set(state.keep);
    say(`saved ${r.file}: ${r.words} words`);
    showCounts();
    document.body.dataset.saved = p.id;
    return true;
  } catch (e) {
    say(`not saved: ${e.message}`, true);
    return false;
  }
}

async function load(i) {
  if (i < 0 || i >= state.pages.length) {
    say(i < 0 ? 'this is the first page' : 'this is the last page');
    return;
  }
  const p = state.pages[i];
  delete document.body.dataset.ready;
  try {
    const info = await api(`/api/page?id=${encodeURIComponent(p.id)}`);
    state.index = i;
    state.keep = new Set(info.keep);
    state.loaded = new Set(info.keep);
    state.source = info.source;
    state.dirty = false;
    state.warned = false;
    p.labelled = info.labelled;
    history.replaceState(null, '', `#${encodeURIComponent(p.id)}`);
    await new Promise((resolve) => {
      frame.onload = resolve;
      frame.src = `/page?id=${encodeURIComponent(p.id)}`;
    });
    const doc = frameDoc();
    const style = doc.createElement('style');
    style.textContent = FRAME_CSS;
    (doc.head || doc.documentElement).appendChild(style);
    doc.addEventListener('click', onClick, true);
    doc.addEventListener('keydown', onKey, true);
    paint();
    say(`${info.keep.length} pieces of text kept ${state.source === 'config' ?
         'by the configuration' : 'in the gold'}`);
    document.body.dataset.ready = p.id;
  } catch (e) {
    say(`${p.id}: ${e.message}`, true);
  }
}

function go(delta) {
  if (state.dirty && !state.warned) {
    state.warned = true;
    say('unsaved changes: S saves them, the same key again leaves them', true);
    return;
  }
  load(state.index + delta);
}

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.target.closest?.('input, textarea, select')) return;
  const actions = {
    ArrowRight: () => go(1), ArrowLeft: () => go(-1),
    k: () => region(true), d: () => region(false),
    s: () => save(),
    Enter: async () => { if (await save()) load(state.index + 1); },
    r: () => { state.keep = new Set(state.loaded); state.dirty = false; paint(); say('reset'); },
  };
  const act = actions[ev.key.length === 1 ? ev.key.toLowerCase() : ev.key];
  if (!act) return;
  ev.preventDefault();
  act();
}

async function start() {
  document.addEventListener('keydown', onKey, true);
  $('prev').onclick = () => go(-1);
  $('next').onclick = () => go(1);
  $('keep').onclick = () => region(true);
  $('drop').onclick = () => region(false);
  $('save').onclick = () => save();
  $('reset').onclick = () => onKey({ key: 'r', target: document.body, preventDefault() {} });
  try {
    const info = await api('/api/pages');
    state.pages = info.pages;
    document.title = `cetune label: ${info.corpus}`;
    const wanted = decodeURIComponent(location.hash.slice(1));
    let i = state.pages.findIndex((p) => p.id === wanted);
    if (i < 0) i = state.pages.findIndex((p) => !p.labelled);
    await load(i < 0 ? 0 : i);
  } catch (e) {
    say(e.message, true);
  }
}

start();
