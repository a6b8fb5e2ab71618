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
import { Parts, SEPARATOR, notices } from './ui-timeline.mjs';

// What the library's real upstream never sends, and its documented
// behaviours: contract.json (docs/simulator.md, Contracts; README.md).
const declared = JSON.parse(readFileSync(new URL('./contract.json', import.meta.url), 'utf8'));

class AISDKEngine {
  turns = [];   // in display order: {role:'user', message} or an assistant message stream
  open = null;  // the assistant turn whose stream is open
  now = 0;
  prev = '';      // the previous event's kind, and batch of the previous tool_start
  prevBatch = '';
  role = '';      // of the current turn
  streamed = false; // whether the current turn opened a stream
  parts = new Parts({ getToolName, isToolUIPart }); // the consumer: ui-timeline.mjs, shared with ../ai-sdk-streamtext

  // --- producer: canonical events -> UI message chunks -----------------------
  async apply(ev) {
    this.now = ev.t;
    const chunks = this.chunks(ev);
    if (chunks === null) return; // an unknown kind only moves the clock
    if (chunks.length) await this.send(chunks);
    if (ev.kind === 'turn_end' && this.open) this.open.finished = !this.open.dead; // the library read the finish chunk
    if (ev.kind === 'turn_end') this.role = '';
    if (ev.kind === 'cancel' || ev.kind === 'turn_end') await this.close();
    this.prev = ev.kind;
    this.observe();
  }

  chunks(ev) {
    const id = ev.id ?? '';
    switch (ev.kind) {
      case 'turn_start': this.role = ev.role ?? ''; this.streamed = false; return [];
      case 'user':
        this.turns.push({ role: 'user', message: { role: 'user', parts: [{ type: 'text', text: ev.text ?? '' }] } }); // what Chat.sendMessage adds
        return [];
      case 'text': return [...this.part('text', ev.text)];
      case 'thinking': return [...this.part('reasoning', ev.text)];
      case 'tool_start':
        return [...this.step(ev), { type: 'tool-input-available', toolCallId: id, toolName: ev.name ?? '', input: ev.args ?? {} }];
      case 'tool_progress':
        return [...this.endPart(), { type: 'tool-output-available', toolCallId: id, output: ev.output ?? '', preliminary: true }];
      case 'tool_done':
        return [...this.endPart(), ev.ok
          ? { type: 'tool-output-available', toolCallId: id, output: ev.output ?? '' }
          : { type: 'tool-output-error', toolCallId: id, errorText: ev.error ?? '' }];
      case 'permission':
        if (ev.state === 'asked') return [...this.endPart(), { type: 'tool-approval-request', approvalId: id, toolCallId: id }];
        return [...this.endPart(), { type: 'tool-approval-response', approvalId: id, approved: ev.state === 'granted' },
          ...(ev.state === 'denied' ? [{ type: 'tool-output-denied', toolCallId: id }] : [])];
      case 'cancel': return this.open ? [...this.endPart(), { type: 'abort', ...(ev.reason ? { reason: ev.reason } : {}) }] : [];
      case 'error': return [...this.endPart(), { type: 'error', errorText: ev.message ?? '' }];
      case 'turn_end':
        if (!this.open && (this.role === 'user' || this.streamed)) return []; // nothing streaming (a user turn, or aborted)
        this.turn(); // an assistant response, empty or not
        return [...this.endPart(), ...(this.open.step ? [{ type: 'finish-step' }] : []), { type: 'finish' }];
      default: return null;
    }
  }

  // text and reasoning deltas: one part per run of deltas of the same kind.
  *part(type, delta) {
    const turn = this.turn();
    if (turn.part?.type !== type) {
      yield* this.endPart();
      yield* this.step({});
      turn.part = { type, id: `${type[0]}${++turn.parts}` };
      yield { type: `${type}-start`, id: turn.part.id };
    }
    yield { type: `${type}-delta`, id: turn.part.id, delta: delta ?? '' };
  }

  *endPart() {
    const turn = this.open;
    if (!turn?.part) return;
    yield { type: `${turn.part.type}-end`, id: turn.part.id };
    turn.part = null;
  }

  // A step is one model response: tool calls of one batch id, or one run of
  // tool_start events without batch ids (SPEC §2's grouping rule).
  *step(ev) {
    const turn = this.turn();
    if (ev.kind === 'tool_start') {
      yield* this.endPart();
      const key = ev.batch ? `b:${ev.batch}` : this.prev === 'tool_start' && !this.prevBatch ? turn.key : `r:${++turn.runs}`;
      this.prevBatch = ev.batch ?? '';
      if (turn.step && turn.key !== key && turn.hasTools) { yield { type: 'finish-step' }; turn.step = false; }
      turn.key = key;
      if (!turn.step) { yield { type: 'start-step' }; turn.step = true; turn.hasTools = false; }
      turn.hasTools = true;
    } else if (!turn.step) {
      yield { type: 'start-step' };
      turn.step = true;
    }
  }

  // The assistant turn being streamed, opened on first use (a new request).
  turn() {
    if (this.open) return this.open;
    let input;
    const stream = new ReadableStream({ start(c) { input = c; } });
    const turn = { role: 'assistant', input, message: null, errors: [], parts: 0, runs: 0, sync: 0, finished: false, dead: false };
    turn.reader = readUIMessageStream({ stream, onError: (err) => turn.errors.push(String(err?.message ?? err)) })[Symbol.asyncIterator]();
    input.enqueue({ type: 'start', messageId: `msg-${this.turns.length}` });
    this.turns.push(turn);
    this.open = turn;
    this.streamed = true;
    return turn;
  }

  // Sends chunks, then a message-metadata marker, and reads snapshots until
  // the library has processed the marker (or ended its stream on an error).
  async send(chunks) {
    const turn = this.turn();
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
      ...this.parts.items(ti, turn.message, this.now),
      ...notices(turn.errors ?? []),
      ...(turn.finished ? [SEPARATOR] : []),
    ]);
    return { diagnostics: [], items, now: this.now };
  }
}

await serve(() => new AISDKEngine(), {
  fields: ['error'],
  grouping: false,
  features: ['tools', 'text', 'thinking', 'user', 'cancel', 'permissions', 'progress'],
  contract: declared.contract,
  documented: declared.documented,
});
