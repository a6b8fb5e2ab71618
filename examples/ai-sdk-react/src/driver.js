// The app's side of useChat: a Chat (@ai-sdk/react) whose ChatTransport
// streams UI message chunks written from canonical events, as a server's
// toUIMessageStream would send them (the same producer as
// examples/ai-sdk/adapter.mjs), and the app's notes on each finished
// response, kept from useChat's onError and onFinish. The driver pairs
// nothing and decides no status: the library's processUIMessageStream
// builds the messages, the row component (app.jsx) shows them.
import { Chat } from '@ai-sdk/react';
import { turn } from '../../../browser/page/settle.js';

// Notes: message id -> {errors, aborted, finished}, with subscribers (the
// live view re-renders on a change).
export class Notes {
  constructor(saved = {}) { this.state = saved; this.listeners = new Set(); }
  get = () => this.state;
  subscribe = (fn) => { this.listeners.add(fn); return () => this.listeners.delete(fn); };
  set(id, note) { this.state = { ...this.state, [id]: { ...this.state[id], ...note } }; this.listeners.forEach((fn) => fn()); }
}

export class Driver {
  open = null;      // the response being streamed: {input, done, ended, part, ...}
  streamed = false; // whether the current turn opened a response
  n = 0;            // responses so far (their message ids)
  prev = '';
  prevBatch = '';
  errors = [];      // onError's errors for the response in flight
  reason = '';      // why the app stopped the response in flight

  constructor() {
    this.notes = new Notes();
    this.chat = new Chat({
      transport: { sendMessages: async () => this.next, reconnectToStream: async () => null },
      onError: (err) => this.errors.push(String(err?.message ?? err)),
      onFinish: ({ message, isAbort, isError, finishReason }) => {
        this.notes.set(message.id, { errors: this.errors, aborted: isAbort, reason: this.reason, finished: finishReason != null && !isAbort && !isError });
        this.errors = [];
        this.reason = '';
      },
    });
  }

  async apply(ev) {
    const chunks = this.chunks(ev);
    if (chunks === null) return; // an unknown kind
    if (chunks.length) await this.send(chunks);
    if (ev.kind === 'cancel' && this.open) await this.stop(ev.reason ?? '');
    if (ev.kind === 'turn_end') await this.close();
    this.prev = ev.kind;
  }

  async finish() { await this.close(); }

  chunks(ev) {
    const id = ev.id ?? '';
    switch (ev.kind) {
      case 'turn_start': this.streamed = false; return [];
      case 'text': return [...this.text(ev.text)];
      case 'tool_start':
        return [...this.step(ev), { type: 'tool-input-available', toolCallId: id, toolName: ev.name ?? '', input: ev.args ?? {} }];
      case 'tool_done':
        return [...this.endPart(), ev.ok
          ? { type: 'tool-output-available', toolCallId: id, output: ev.output ?? '' }
          : { type: 'tool-output-error', toolCallId: id, errorText: ev.error ?? '' }];
      case 'permission':
        if (ev.state === 'asked') return [...this.endPart(), { type: 'tool-approval-request', approvalId: id, toolCallId: id }];
        return [...this.endPart(), { type: 'tool-approval-response', approvalId: id, approved: ev.state === 'granted' },
          ...(ev.state === 'denied' ? [{ type: 'tool-output-denied', toolCallId: id }] : [])];
      case 'cancel': return [];
      case 'turn_end':
        if (!this.open && this.streamed) return []; // stopped: nothing streaming
        this.response();
        return [...this.endPart(), ...(this.open.step ? [{ type: 'finish-step' }] : []), { type: 'finish', finishReason: 'stop' }];
      default: return null;
    }
  }

  // text deltas: one text part per run of deltas.
  *text(delta) {
    const r = this.response();
    if (!r.part) {
      yield* this.step({});
      r.part = `t${++r.parts}`;
      yield { type: 'text-start', id: r.part };
    }
    yield { type: 'text-delta', id: r.part, delta: delta ?? '' };
  }

  *endPart() {
    if (!this.open?.part) return;
    yield { type: 'text-end', id: this.open.part };
    this.open.part = null;
  }

  // A step is one model response: tool calls of one batch id, or one run of
  // tool_start events without batch ids (SPEC §2's grouping rule).
  *step(ev) {
    const r = this.response();
    if (ev.kind === 'tool_start') {
      yield* this.endPart();
      const key = ev.batch ? `b:${ev.batch}` : this.prev === 'tool_start' && !this.prevBatch ? r.key : `r:${++r.runs}`;
      this.prevBatch = ev.batch ?? '';
      if (r.step && r.key !== key && r.hasTools) { yield { type: 'finish-step' }; r.step = false; }
      r.key = key;
      if (!r.step) { yield { type: 'start-step' }; r.step = true; r.hasTools = false; }
      r.hasTools = true;
    } else if (!r.step) {
      yield { type: 'start-step' };
      r.step = true;
    }
  }

  // The response being streamed, requested on first use: the app sends an
  // empty prompt (sendMessage), and the transport hands back the stream.
  response() {
    if (this.open) return this.open;
    let input;
    this.next = new ReadableStream({ start(c) { input = c; } });
    const r = { input, parts: 0, runs: 0, sync: 0, part: null, step: false, ended: false };
    input.enqueue({ type: 'start', messageId: `msg-${++this.n}` });
    r.done = this.chat.sendMessage({ text: '' }).catch(() => {}).then(() => { r.ended = true; });
    this.open = r;
    this.streamed = true;
    return r;
  }

  // send writes chunks and a message-metadata marker, then waits until the
  // library processed the marker or ended the request (a stream error).
  async send(chunks) {
    const r = this.response();
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
