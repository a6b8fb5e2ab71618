#!/usr/bin/env node
// The Vercel AI SDK's UI message stream reader (npm `ai`, readUIMessageStream:
// the same processUIMessageStream that useChat runs) behind toolsim-engine/1.
//
//   npm ci --prefix examples/ai-sdk
//   toolsim fuzz --engine 'node examples/ai-sdk/adapter.mjs' --seeds 2000
//
// Canonical events become UI message chunks, as a server's toUIMessageStream
// would send them; the UIMessage parts the library builds become a
// toolsim-timeline/1. The whole mapping is in README.md: the adapter pairs
// nothing and decides no status; the library does both.
import { getToolName, isToolUIPart, readUIMessageStream } from 'ai';
import { readFileSync } from 'node:fs';
import { serve } from '../node/toolsim-engine.mjs';
import { UIChunks } from './ui-chunks.mjs';
import { Parts, SEPARATOR, notices, stopped, unanswered } from './ui-timeline.mjs';

// What the library's real upstream never sends, and its documented
// behaviours: contract.json (docs/simulator.md, Contracts; README.md).
const declared = JSON.parse(readFileSync(new URL('./contract.json', import.meta.url), 'utf8'));

class AISDKEngine {
  turns = [];   // in display order: {role:'user', message} or an assistant message stream
  open = null;  // the assistant turn whose stream is open
  now = 0;
  parts = new Parts({ getToolName, isToolUIPart }); // the consumer: ui-timeline.mjs, shared with ../ai-sdk-streamtext

  // --- producer: canonical events -> UI message chunks (ui-chunks.mjs) -----
  // The writer is shared with ../ai-sdk-react; here it writes every kind, and
  // a cancel writes an `abort` chunk.
  writer = new UIChunks({ current: () => this.open, start: () => this.turn() });

  async apply(ev) {
    this.now = ev.t;
    if (ev.kind === 'user') this.turns.push({ role: 'user', message: { role: 'user', parts: [{ type: 'text', text: ev.text ?? '' }] } }); // what Chat.sendMessage adds
    const chunks = this.writer.write(ev);
    if (chunks === null) return; // an unknown kind only moves the clock
    if (chunks.length) await this.send(chunks);
    if (ev.kind === 'turn_end' && this.open) this.open.finished = !this.open.dead; // the library read the finish chunk
    // The user's stop of a response in flight: the app marks it, as useChat's
    // onFinish tells it (isAbort, ai-sdk.dev Chatbot; ../ai-sdk-streamtext).
    // With none in flight the stop reaches no library: the app shows it.
    if (ev.kind === 'cancel' && this.open && !this.open.dead) this.open.stopped = ev.reason ?? '';
    else if (ev.kind === 'cancel') this.turns.push({ role: 'stop', message: null, errors: [], stopped: ev.reason ?? '' });
    if (ev.kind === 'cancel' || ev.kind === 'turn_end') await this.close();
    this.observe();
  }

  // A new assistant turn (a new request): the writer opens it on first use.
  turn() {
    let input;
    const stream = new ReadableStream({ start(c) { input = c; } });
    const turn = { role: 'assistant', input, message: null, errors: [], sync: 0, finished: false, dead: false };
    turn.reader = readUIMessageStream({ stream, onError: (err) => turn.errors.push(String(err?.message ?? err)) })[Symbol.asyncIterator]();
    input.enqueue({ type: 'start', messageId: `msg-${this.turns.length}` });
    this.turns.push(turn);
    this.open = turn;
    return turn;
  }

  // Sends chunks, then a message-metadata marker, and reads snapshots until
  // the library has processed the marker (or ended its stream on an error).
  async send(chunks) {
    const turn = this.writer.response();
    if (turn.dead) return;
    const mark = ++turn.sync;
    for (const c of chunks) turn.input.enqueue(c);
    turn.input.enqueue({ type: 'message-metadata', messageMetadata: { toolsim: mark } });
    for (;;) {
      const { done, value } = await turn.reader.next();
      if (done) { turn.dead = true; return; }
      turn.message = value;
      if (value.metadata?.toolsim === mark) return;
    }
  }

  // Closes the open stream (turn end, abort, end of stream) and drains it.
  async close() {
    const turn = this.open;
    this.open = null;
    if (!turn || turn.dead) return;
    turn.input.close();
    for (;;) {
      const { done, value } = await turn.reader.next();
      if (done) break;
      turn.message = value;
    }
    turn.dead = true;
  }

  async finish() { await this.close(); this.observe(); }

  // --- consumer: UIMessage parts -> timeline items (ui-timeline.mjs) -------
  observe() {
    this.turns.forEach((turn, ti) => this.parts.observe(ti, turn.message, this.now));
  }

  timeline() {
    const items = this.turns.flatMap((turn, ti) => [
      ...stopped(this.shown(turn, this.parts.items(ti, turn.message, this.now)), turn.stopped),
      ...notices(turn.errors ?? []),
      ...(turn.finished ? [SEPARATOR] : []),
    ]);
    return { diagnostics: [], items, now: this.now };
  }

  // shown is what the app shows of a turn's items: once its response
  // ended by its finish or a dropped stream (onFinish with neither isAbort
  // nor isError), a server-side call with no result is interrupted
  // (unanswered, ui-timeline.mjs). After a stop or an error the rows stay
  // as the library left them, beside the app's notice.
  shown(turn, items) {
    return turn.dead && turn.stopped === undefined && !turn.errors?.length ? unanswered(items) : items;
  }
}

await serve(() => new AISDKEngine(), {
  fields: ['error'],
  grouping: false,
  features: ['tools', 'text', 'thinking', 'user', 'cancel', 'permissions', 'progress'],
  contract: declared.contract,
  documented: declared.documented,
  by_design: declared.by_design,
});
