// The app's side of useChat: a Chat (@ai-sdk/react) whose ChatTransport
// streams UI message chunks written from canonical events, as a server's
// toUIMessageStream would send them (by examples/ai-sdk/ui-chunks.mjs, the
// producer examples/ai-sdk/adapter.mjs uses too), and the app's notes on
// each finished response, kept from useChat's onError and onFinish. The
// driver pairs nothing and decides no status: the library's
// processUIMessageStream builds the messages, the row component (app.jsx)
// shows them.
import { Chat } from '@ai-sdk/react';
import { turn } from '../../../browser/page/settle.js';
import { UIChunks } from '../../ai-sdk/ui-chunks.mjs';

// Notes: message id -> {errors, aborted, finished, ended}, with subscribers (the
// live view re-renders on a change).
export class Notes {
  constructor(saved = {}) { this.state = saved; this.listeners = new Set(); }
  get = () => this.state;
  subscribe = (fn) => { this.listeners.add(fn); return () => this.listeners.delete(fn); };
  set(id, note) { this.state = { ...this.state, [id]: { ...this.state[id], ...note } }; this.listeners.forEach((fn) => fn()); }
}

export class Driver {
  open = null;      // the response being streamed: {input, done, ended, sync}
  n = 0;            // responses so far (their message ids)
  errors = [];      // onError's errors for the response in flight
  reason = '';      // why the app stopped the response in flight

  // The writer (examples/ai-sdk/ui-chunks.mjs, shared with that adapter):
  // only the kinds this page wires (contract.json's features); a cancel
  // writes no chunk (stop() aborts the request); finish carries a reason.
  writer = new UIChunks({
    current: () => this.open,
    start: () => this.response(),
    kinds: ['turn_start', 'text', 'tool_start', 'tool_done', 'permission', 'cancel', 'turn_end'],
    abort: false,
    finish: { finishReason: 'stop' },
  });

  constructor() {
    this.notes = new Notes();
    this.chat = new Chat({
      transport: { sendMessages: async () => this.next, reconnectToStream: async () => null },
      onError: (err) => this.errors.push(String(err?.message ?? err)),
      onFinish: ({ message, isAbort, isError, finishReason }) => {
        // ended: the response ended by its finish or a dropped connection,
        // not paused for approval (a next request continues that one), so
        // a server-side call left without a result gets none (app.jsx).
        this.notes.set(message.id, { errors: this.errors, aborted: isAbort, reason: this.reason, finished: finishReason != null && !isAbort && !isError,
          ended: !isAbort && !isError && finishReason !== 'tool-calls' });
        this.errors = [];
        this.reason = '';
      },
    });
  }

  async apply(ev) {
    const chunks = this.writer.write(ev);
    if (chunks === null) return; // an unknown kind, or one this page does not wire
    if (chunks.length) await this.send(chunks);
    if (ev.kind === 'cancel' && this.open) await this.stop(ev.reason ?? '');
    if (ev.kind === 'turn_end') await this.close();
  }

  async finish() { await this.close(); }

  // A new response, opened by the writer on first use: the app sends an
  // empty prompt (sendMessage), and the transport hands back the stream.
  response() {
    let input;
    this.next = new ReadableStream({ start(c) { input = c; } });
    const r = { input, sync: 0, ended: false };
    input.enqueue({ type: 'start', messageId: `msg-${++this.n}` });
    r.done = this.chat.sendMessage({ text: '' }).catch(() => {}).then(() => { r.ended = true; });
    this.open = r;
    return r;
  }

  // send writes chunks and a message-metadata marker, then waits until the
  // library processed the marker or ended the request (a stream error).
  async send(chunks) {
    const r = this.writer.response();
    if (r.ended) return;
    const mark = ++r.sync;
    for (const c of chunks) r.input.enqueue(c);
    r.input.enqueue({ type: 'message-metadata', messageMetadata: { toolsim: mark } });
    for (let i = 0; !r.ended && this.chat.messages.at(-1)?.metadata?.toolsim !== mark; i++) {
      if (i > 10000) throw new Error(`the chat never processed chunk batch ${mark}`);
      await turn();
    }
  }

  // stop is the user's Stop: useChat's stop() aborts the request. stop()
  // takes no reason; the app keeps its own (why it stopped) in its notes.
  async stop(reason) {
    const r = this.open;
    this.open = null;
    this.reason = reason;
    await this.chat.stop();
    try { r.input.close(); } catch { /* already cancelled */ }
    await r.done;
  }

  // close ends the open stream (turn end, end of stream) and waits for the
  // request to finish.
  async close() {
    const r = this.open;
    this.open = null;
    if (!r) return;
    try { r.input.close(); } catch { /* the reader cancelled it */ }
    await r.done;
  }
}
