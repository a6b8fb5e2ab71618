// The page contract toolsim-browser drives (browser/doc.go): window.toolsim
// with reset(), apply(event), finish(), rows() and rebuild(), each settled
// before it resolves: the chat processed the event's chunks (driver.js),
// and the DOM stayed quiet for three task turns (a MutationObserver saw
// nothing), the turns React's scheduler commits in.
import React from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Chat } from '@ai-sdk/react';
import { ChatView } from './app.jsx';
import { quiet } from '../../../browser/page/settle.js';
import { Driver, Notes } from './driver.js';
import { readRows } from './reader.js';

const liveEl = document.getElementById('live');
const live = createRoot(liveEl);
let driver = null;
let scenario = 0;

window.toolsim = {
  version: 1,
  async reset() {
    if (driver) await driver.finish();
    driver = new Driver();
    const d = driver;
    flushSync(() => live.render(<ChatView key={++scenario} chat={d.chat} notes={d.notes} />));
    await quiet(liveEl);
  },
  async apply(ev) { await driver.apply(ev); await quiet(liveEl); },
  async finish() { await driver.finish(); await quiet(liveEl); },
  rows() { return readRows(liveEl); },
  // rebuild(events) runs the events through a chat with no view, takes
  // its messages and the app's notes through a JSON round trip (a
  // database gives them back), mounts a fresh useChat view from them
  // (new Chat({messages})) and returns its rows.
  async rebuild(events) {
    const d = new Driver();
    for (const ev of events) await d.apply(ev);
    await d.finish();
    const saved = JSON.parse(JSON.stringify({ messages: d.chat.messages, notes: d.notes.get() }));
    const el = document.getElementById('rebuilt');
    const root = createRoot(el);
    const chat = new Chat({ messages: saved.messages });
    flushSync(() => root.render(<ChatView chat={chat} notes={new Notes(saved.notes)} />));
    await quiet(el);
    const rows = readRows(el);
    flushSync(() => root.unmount());
    return rows;
  },
};
