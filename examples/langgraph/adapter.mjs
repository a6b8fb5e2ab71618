#!/usr/bin/env node
// LangGraph's client stream state (npm @langchain/langgraph-sdk: the
// CustomStreamOrchestrator that useStream runs with a custom transport, its
// StreamManager and MessageTupleManager) behind toolsim-engine/1.
//
//   npm ci --prefix examples/langgraph
//   toolsim fuzz --engine 'node examples/langgraph/adapter.mjs' --seeds 2000
//
// Canonical events become the stream a LangGraph agent server sends in the
// `messages-tuple` and `values` modes; the messages and tool calls the
// library keeps (orchestrator.messages and orchestrator.toolCalls, what a
// useStream UI renders) become a toolsim-timeline/1. The mapping is in
// README.md: the adapter pairs nothing and decides no status but the marks
// of a stop, which the app records from useStream's onStop.
import { CustomStreamOrchestrator } from '@langchain/langgraph-sdk/ui';
import { readFileSync } from 'node:fs';
import { serve } from '../node/toolsim-engine.mjs';
import { STATUS, Stops, callKey, observe, rows } from './ui-rows.mjs';

// What the library's real upstream never sends, and its documented
// behaviours: contract.json (docs/simulator.md, Contracts; README.md).
const declared = JSON.parse(readFileSync(new URL('./contract.json', import.meta.url), 'utf8'));

// A queue the transport's stream reads: push() hands the server's next
// event over and resolves once the library asks for the one after it, that
// is, once it has processed this one.
class Wire {
  items = [];
  waiter = null;   // the stream's pending read
  drained = null;  // resolves when the stream asks again
  closed = false;

  push(item) {
    const done = new Promise((resolve) => { this.drained = resolve; });
    if (this.waiter) { const w = this.waiter; this.waiter = null; w(item); } else this.items.push(item);
    return done;
  }

  async *stream(signal) {
    for (;;) {
      this.drained?.();
      this.drained = null;
      if (signal.aborted) return;
      const item = this.items.length ? this.items.shift()
        : await new Promise((resolve) => {
          this.waiter = resolve;
          signal.addEventListener('abort', () => resolve(null), { once: true });
        });
      if (item === null) return; // end of the run, or the client stopped it
      yield item;
    }
  }
}

class LangGraphEngine {
  now = 0;
  thread = [];     // the server's thread state: message dicts in order
  run = null;      // {wire, done, ai} of the run being streamed
  ai = null;       // the model message being streamed: its thread entry, and the batch of its calls
  prev = '';       // the previous event's kind
  role = '';
  finished = new Map(); // last message id ('' when none) -> runs that ended normally after it
  seen = new Map();      // tool call id + message id -> t it first appeared
  msgs = 0;
  stops = new Stops();   // the app's record of the user's stops (onStop)
  reason = '';           // the reason of the stop being made
  orchestrator = new CustomStreamOrchestrator({
    transport: { stream: (payload) => this.run.wire.stream(payload.signal) },
    onError: () => {},
    // The docs' hook for a stop: the app marks what the stop left.
    onStop: () => this.stops.record(this.orchestrator, this.reason, this.run != null),
  });

  async apply(ev) {
    this.now = ev.t;
    switch (ev.kind) {
      case 'turn_start':
        this.role = ev.role ?? '';
        if (this.role === 'assistant') await this.ensureRun(); // the response to a submit
        break;
      case 'user': await this.user(ev.text ?? ''); break;
      case 'text': await this.text(ev.text ?? ''); break;
      case 'tool_start': await this.call(ev); break;
      case 'tool_done': await this.result(ev); break;
      case 'cancel': this.reason = ev.reason ?? ''; await this.stop(); break;
      case 'turn_end': if (this.role !== 'user') await this.end(); this.role = ''; break;
      default: break; // thinking, progress, permissions and errors are not declared
    }
    this.prev = ev.kind;
    this.observe();
  }

  // A user message starts a run with it as input: the server's first
  // `values` event is the thread with the message appended.
  async user(text) {
    await this.end();
    this.thread.push({ type: 'human', id: `h${++this.msgs}`, content: text });
    await this.start();
  }

  async start() {
    const wire = new Wire();
    const run = { wire, done: null };
    this.run = run;
    run.done = this.orchestrator.submit(null);
    await wire.push({ event: 'values', data: { messages: this.snapshot() } });
    return run;
  }

  async ensureRun() { if (!this.run) await this.start(); }

  // The model message being streamed: text after tool calls, or calls of
  // another batch (or after another event), begin a new model response.
  async model(kind, ev) {
    await this.ensureRun();
    const same = this.ai && (kind === 'text'
      ? this.ai.msg.tool_calls.length === 0 && (this.prev === 'text' || this.prev === 'turn_start')
      : (this.prev === 'tool_start' || this.prev === 'text') && (ev.batch ?? '') === this.ai.batch);
    if (!same) {
      this.ai = { msg: { type: 'ai', id: `ai${++this.msgs}`, content: '', tool_calls: [] }, batch: ev?.batch ?? '' };
      this.thread.push(this.ai.msg);
    }
    return this.ai.msg;
  }

  async text(delta) {
    const ai = await this.model('text', {});
    ai.content += delta;
    await this.send({ event: 'messages', data: [{ type: 'AIMessageChunk', id: ai.id, content: delta }, { langgraph_node: 'model' }] });
  }

  async call(ev) {
    const ai = await this.model('tool_start', ev);
    const index = ai.tool_calls.length;
    const args = JSON.stringify(ev.args ?? {});
    ai.tool_calls.push({ id: ev.id ?? '', name: ev.name ?? '', args: ev.args ?? {}, type: 'tool_call' });
    await this.send({ event: 'messages', data: [{ type: 'AIMessageChunk', id: ai.id, content: '',
      tool_call_chunks: [{ type: 'tool_call_chunk', id: ev.id ?? '', name: ev.name ?? '', args, index }] }, { langgraph_node: 'model' }] });
  }

  // A tool's result is the ToolMessage its task returns, streamed as it finishes.
  async result(ev) {
    this.ai = null;
    const msg = { type: 'tool', id: `t${++this.msgs}`, tool_call_id: ev.id ?? '', name: ev.name ?? '',
      content: ev.ok ? (ev.output ?? '') : (ev.error ?? ''), status: ev.ok ? 'success' : 'error' };
    this.thread.push(msg);
    await this.send({ event: 'messages', data: [{ ...msg, type: 'ToolMessageChunk' }, { langgraph_node: 'tools' }] });
  }

  // The thread as the server sends it in a `values` event: copies, as the
  // server's JSON would be (the library keeps what it is given).
  snapshot() {
    return this.thread.map((m) => ({ ...m, ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ ...c })) } : {}) }));
  }

  // Events of a run nobody reads any more (after a stop) are not sent.
  async send(item) { if (this.run && !this.run.stopped) await this.run.wire.push(item); }

  // The user stops the run: useStream's stop() aborts the stream. With no
  // run open it aborts nothing, but still calls the app's onStop.
  async stop() {
    const run = this.run;
    if (!run) { this.orchestrator.stop(); return; }
    run.stopped = true;
    this.orchestrator.stop();
    await run.done;
  }

  // The run ends: the server's final `values`, then the stream closes.
  async end() {
    this.ai = null;
    const run = this.run;
    if (!run) return;
    this.run = null;
    if (!run.stopped) {
      await run.wire.push({ event: 'values', data: { messages: this.snapshot() } });
      run.wire.push(null);
      const last = this.thread.at(-1)?.id ?? '';
      this.finished.set(last, (this.finished.get(last) ?? 0) + 1);
    }
    await run.done;
  }

  async finish() {
    // End of stream: the connection drops; the run is not finished.
    const run = this.run;
    this.run = null;
    if (run && !run.stopped) { run.stopped = true; this.orchestrator.stop(); await run.done; }
    this.observe();
  }

  // What the user sees: ui-rows.mjs, shared with examples/langgraph-graph.
  observe() { observe(this.orchestrator, this.seen, this.now); }

  // An AI message shows its text, or an empty item when it has no calls
  // either (an answer that said nothing).
  timeline() {
    const items = rows(this.orchestrator, this.finished, {
      assistant: (m) => m.text || !m.tool_calls?.length,
      tool: (tc) => this.tool(tc),
    }, this.stops);
    return { diagnostics: [], items, now: this.now };
  }

  tool(tc) {
    // A call the user's stop cut off stays so: what a later run's values
    // say of it (its late result, or "completed" once a later AI message
    // exists) is not a result the user waited for.
    const stopped = this.stops.interrupted(tc);
    const status = stopped ? 'interrupted' : STATUS[tc.state] ?? `unknown state ${tc.state}`;
    const start = this.seen.get(callKey(tc)) ?? this.now;
    const error = !stopped && tc.state === 'error' && typeof tc.result?.content === 'string' ? { error: tc.result.content } : {};
    return { id: tc.call.id ?? tc.id, name: tc.call.name, status, start_t: start, ...error };
  }
}

await serve(() => new LangGraphEngine(), {
  fields: ['error'],
  grouping: false,
  features: ['tools', 'text', 'user', 'cancel'],
  contract: declared.contract,
  documented: declared.documented,
  by_design: declared.by_design,
});
