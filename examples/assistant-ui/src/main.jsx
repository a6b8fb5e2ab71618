// The page contract toolsim-browser drives (browser/doc.go): window.toolsim
// with reset(), apply(event), finish(), rows() and rebuild(), each settled
// before it resolves: React has committed (flushSync) and the DOM stayed
// quiet for three task turns (a MutationObserver saw nothing).
import React from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './app.jsx';
import { quiet } from '../../../browser/page/settle.js';
import { readRows } from './reader.js';
import * as store from './store.js';

const bug = new URLSearchParams(location.search).get('bug') ?? '';
// planted (bug=unsaved-results): the app's database keeps no tool results.
const dropResults = (key, value) => (key === 'result' || key === 'isError' ? undefined : value);

let state = store.emptyStore();
let listeners = new Set();
const subscribe = (fn) => { listeners.add(fn); return () => listeners.delete(fn); };

function Live() {
  const s = React.useSyncExternalStore(subscribe, () => state);
  return <App store={s} />;
}

const liveEl = document.getElementById('live');
const live = createRoot(liveEl);
flushSync(() => live.render(<Live />));

function set(next) {
  state = next;
  flushSync(() => listeners.forEach((fn) => fn()));
}

window.toolsim = {
  version: 1,
  async reset() { set(store.emptyStore()); await quiet(liveEl); },
  async apply(ev) { set(store.apply(state, ev)); await quiet(liveEl); },
  async finish() { set(store.finish(state)); await quiet(liveEl); },
  rows() { return readRows(liveEl); },
  // rebuild(events) folds the events into a store without rendering, as
  // the app stored its messages, takes them through a JSON round trip (a
  // database gives them back), mounts a fresh app from them and returns
  // its rows.
  async rebuild(events) {
    let saved = store.emptyStore();
    for (const ev of events) saved = store.apply(saved, ev);
    saved = JSON.parse(JSON.stringify(store.finish(saved), bug === 'unsaved-results' ? dropResults : undefined));
    const el = document.getElementById('rebuilt');
    const root = createRoot(el);
    flushSync(() => root.render(<App store={saved} />));
    await quiet(el);
    const rows = readRows(el);
    flushSync(() => root.unmount());
    return rows;
  },
};
