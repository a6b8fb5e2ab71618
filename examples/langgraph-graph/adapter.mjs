#!/usr/bin/env node
// LangGraph at its real boundary behind toolsim-engine/1: a
// @langchain/langgraph StateGraph (a chat model node, the prebuilt ToolNode
// with one task per call, tools that ask approval through interrupt()) run
// by an in-process POST /api/stream that streams it as the docs' custom
// server does (graph.stream with encoding text/event-stream), read by
// useStream's core (@langchain/langgraph-sdk CustomStreamOrchestrator with
// its FetchStreamTransport).
//
//   npm ci --prefix examples/langgraph-graph
//   toolsim fuzz --engine 'node examples/langgraph-graph/adapter.mjs' --timeout 30s --seeds 2000
//
// Producer: the trace is what the model streams and when the tools finish,
// when the user approves, denies or stops. The chat model (a BaseChatModel
// subclass) streams the trace's text and calls; each tool waits until
// toolsim sends its result, asks approval through interrupt() when the
// trace asks, and rejects when the run's signal aborts. Consumer: the
// orchestrator's messages, toolCalls and interrupts, what a useStream UI
// renders. README.md has the whole mapping: when a tool runs, when its
// ToolMessage is streamed, what a call's state is and what a stop leaves are
// the library's, never the adapter's.
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { Command, END, MemorySaver, MessagesAnnotation, Send, START, StateGraph, interrupt } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { CustomStreamOrchestrator, FetchStreamTransport } from '@langchain/langgraph-sdk/ui';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { serve } from '../node/toolsim-engine.mjs';
import { STATUS, Stops, callKey, observe, rows } from '../langgraph/ui-rows.mjs';

// What the library's real upstream never sends, and its documented
// behaviours: contract.json (docs/simulator.md, Contracts; README.md).
const declared = JSON.parse(readFileSync(new URL('./contract.json', import.meta.url), 'utf8'));

const SIM_NAMES = ['grep', 'read', 'bash', 'glob', 'edit_file', 'web_fetch', 'todowrite']; // sim/generate.go's tool names
const QUIET = 20; // macrotask turns without progress that count as settled
const DEBUG = !!process.env.TOOLSIM_DEBUG;

// A queue of what the model streams next: {type: 'text'|'call'|'done'}.
class Feed {
  items = [];
  waiter = null;
  put(item) { if (this.waiter) { const w = this.waiter; this.waiter = null; w(item); } else this.items.push(item); }
  take(signal) {
    if (this.items.length) return Promise.resolve(this.items.shift());
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      signal?.addEventListener('abort', () => { this.waiter = null; reject(signal.reason ?? new Error('aborted')); }, { once: true });
    });
  }
}

// The chat model: each call streams the next response of the trace, chunk
// by chunk, as a provider's streaming API does.
class TraceChatModel extends BaseChatModel {
  constructor(engine) { super({}); this.engine = engine; }
  _llmType() { return 'toolsim-trace'; }
  async _generate() { throw new Error('the graph streams its model (streamMode messages)'); }
  async *_streamResponseChunks(_messages, options, runManager) {
    const engine = this.engine;
    const feed = engine.feed;
    const id = `ai${++engine.responses}`;
    engine.moved();
    let index = 0, said = false;
    for (;;) {
      const item = await feed.take(options?.signal);
      engine.moved();
      if (item.type === 'done') {
        // A response must have a chunk: nothing said is an empty message.
        if (!said) yield this.chunk(new AIMessageChunk({ id, content: '' }), '', runManager);
        return;
      }
      said = true;
      if (item.type === 'text') {
        yield this.chunk(new AIMessageChunk({ id, content: item.delta }), item.delta, runManager);
      } else {
        const tc = { type: 'tool_call_chunk', id: item.id, name: item.name, args: item.args, index: index++ };
        yield this.chunk(new AIMessageChunk({ id, content: '', tool_call_chunks: [tc] }), '', runManager);
      }
    }
  }
  chunk(message, text, runManager) {
    const chunk = new ChatGenerationChunk({ message, text });
    runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
    return chunk;
  }
}

class GraphEngine {
  now = 0;
  role = '';
  responses = 0;
  moves = 0;
  feed = new Feed();     // the model's next response(s) in the current run
  response = false;      // a model response is open (fed, not done)
  running = false;       // a run (a stream) is open
  tools = new Map();     // the app's tools, by name
  executing = new Map(); // call id -> executions waiting for their result, oldest first
  gates = new Map();     // call id -> the resolver of a tool waiting to know whether it asks approval
  decided = new Map();   // call id -> whether the trace asked approval for it
  answers = new Map();   // call id -> the user's answer (true: approve)
  denied = new Set();    // call ids the user denied: the UI's own bookkeeping of its answers
  finished = new Map();  // last message id -> runs that ended normally after it
  seen = new Map();      // call key -> t it first appeared
  stops = new Stops();   // the app's record of the user's stops (onStop)
  reason = '';           // the reason of the stop being made

  constructor() {
    for (const name of SIM_NAMES) this.toolFor(name);
    this.graph = this.build();
    // useStream keeps the thread the first run created (onThreadId) and
    // passes it back as its threadId option, as an app's state does.
    const options = {
      onThreadId: (id) => { options.threadId = id; },
      transport: new FetchStreamTransport({ apiUrl: 'http://app.local/api/stream', fetch: (url, init) => this.serve(url, init) }),
      onError: () => {},
      // The docs' hook for a stop: the app marks what the stop left.
      onStop: () => this.stops.record(this.orchestrator, this.reason, this.running),
      onFinish: (state) => {
        if (this.implicit) { this.implicit = false; return; } // the empty answer answerFirst asked for: no turn of the trace
        const last = state.values?.messages?.at(-1)?.id ?? '';
        if (!state.values?.__interrupt__?.length) this.finished.set(last, (this.finished.get(last) ?? 0) + 1);
      },
    };
    this.orchestrator = new CustomStreamOrchestrator(options);
    this.orchestrator.subscribe(() => this.moved());
  }

  moved() { this.moves++; }

  // --- the server: the graph, and POST /api/stream in process ----------------
  build() {
    const model = new TraceChatModel(this);
    const tools = new ToolNode([...this.tools.values()]);
    this.toolNode = tools;
    const agent = async (state, config) => ({ messages: [await model.invoke(state.messages, config)] });
    // One ToolNode task per call (Send), as createReactAgent's version
    // "v2" and LangChain's createAgent dispatch them.
    const route = (state) => {
      const last = state.messages.at(-1);
      if (!last?.tool_calls?.length) return END;
      return last.tool_calls.map((call) => new Send('tools', { ...state, lg_tool_call: call }));
    };
    return new StateGraph(MessagesAnnotation)
      .addNode('agent', agent)
      .addNode('tools', tools)
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', route, ['tools', END])
      .addEdge('tools', 'agent')
      .compile({ checkpointer: new MemorySaver() });
  }

  // The app's route: the request's input or command, streamed as the
  // LangGraph server streams a run (values, messages, updates).
  async serve(_url, init) {
    const body = JSON.parse(init.body);
    const input = body.command ? new Command(body.command) : body.input;
    const stream = await this.graph.stream(input, {
      configurable: body.config?.configurable,
      streamMode: ['values', 'messages', 'updates'],
      encoding: 'text/event-stream',
      signal: init.signal,
      recursionLimit: 10000,
    });
    this.moved();
    const counted = stream.pipeThrough(new TransformStream({ transform: (c, ctl) => { this.moved(); ctl.enqueue(c); } }));
    return new Response(counted, { headers: { 'Content-Type': 'text/event-stream' } });
  }

  toolFor(name) {
    if (this.tools.has(name)) return false;
    this.tools.set(name, tool((_input, runtime) => this.execute(name, runtime), {
      name, description: name, schema: z.object({}).passthrough(),
    }));
    if (this.toolNode) this.toolNode.tools = [...this.tools.values()];
    return true;
  }

  // A tool: it asks approval when the trace asks (interrupt(): the run ends
  // with the request, and the resumed run runs the tool again from its
  // start, where interrupt() returns the user's answer), then works until
  // toolsim sends its result, and stops when the run's signal aborts.
  async execute(name, runtime) {
    const id = runtime.toolCallId ?? '';
    const signal = runtime.signal;
    this.moved();
    if (await this.gate(id, signal)) {
      const answer = interrupt({ tool_call_id: id, name, question: `Run ${name}?` });
      if (!answer?.approved) return `The user denied ${name}.`;
    }
    return new Promise((resolve, reject) => {
      if (!this.executing.has(id)) this.executing.set(id, []);
      const w = { resolve, reject };
      this.executing.get(id).push(w);
      this.moved();
      const abort = () => {
        const list = this.executing.get(id);
        if (list?.includes(w)) list.splice(list.indexOf(w), 1);
        reject(signal.reason ?? new Error('aborted'));
      };
      if (signal?.aborted) abort(); else signal?.addEventListener('abort', abort, { once: true });
    });
  }

  gate(id, signal) {
    if (this.decided.has(id)) return Promise.resolve(this.decided.get(id));
    if (!this.gates.has(id)) {
      let resolve;
      const p = new Promise((r) => { resolve = r; });
      this.gates.set(id, { p, resolve });
    }
    const { p } = this.gates.get(id);
    return signal ? Promise.race([p, new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))]) : p;
  }

  decide(id, asks) {
    if (this.decided.has(id)) return;
    this.decided.set(id, asks);
    const g = this.gates.get(id);
    this.gates.delete(id);
    g?.resolve(asks);
  }

  // --- producer: canonical events -> the user, the model, the tools ----------
  async apply(ev, ahead) {
    if (DEBUG) console.error('apply', JSON.stringify(ev), [...this.executing].map(([k, v]) => k + ':' + v.length).join(','), this.running, this.orchestrator.isLoading);
    this.now = ev.t;
    switch (ev.kind) {
      case 'turn_start':
        this.role = ev.role ?? '';
        this.cancelled = false;
        if (this.role === 'assistant') this.ensureRun(ahead);
        break;
      case 'user':
        await this.answerFirst();
        this.submit({ messages: [{ type: 'human', content: ev.text ?? '' }] }, ahead);
        break;
      case 'text':
        this.ensureRun(ahead);
        this.response = true;
        this.feed.put({ type: 'text', delta: ev.text ?? '' });
        break;
      case 'tool_start': this.call(ev, ahead); break;
      case 'tool_done':
        this.endResponse();
        await this.settle();
        this.decide(ev.id ?? '', false);
        await this.settle();
        this.result(ev);
        break;
      case 'permission': await this.permission(ev); break;
      case 'cancel': this.reason = ev.reason ?? ''; this.stop(); this.cancelled = true; break;
      case 'turn_end':
        if (this.role !== 'user') this.endTurn(ahead);
        this.role = '';
        break;
      default: break; // thinking, progress and errors are not declared
    }
    await this.settle();
    this.observe();
  }

  // The user sends a message: useStream's submit, a new run with it as input.
  submit(input, ahead) {
    this.implicit = false;
    this.learnTools(ahead);
    this.feed = new Feed();
    this.response = false;
    this.running = true;
    this.stopped = false;
    this.run(this.orchestrator.submit(input));
  }

  // A run ends: the app resumes it if it ended on interrupts the user has
  // answered meanwhile.
  run(p) {
    p.catch(() => {}).finally(() => { this.running = false; this.moved(); this.resume(); });
  }

  // The user sends while a run still waits for the model (a turn that
  // never said anything): the model answers first, as a chat sends one
  // message at a time once the answer is in.
  async answerFirst() {
    for (let guard = 0; this.running && !this.stopped && guard < 100; guard++) {
      this.implicit = true;
      this.response = false;
      this.feed.put({ type: 'done' });
      await this.settle();
    }
  }

  // An assistant turn no user message opened: a run with no new message.
  ensureRun(ahead) { if (!this.running) this.submit({ messages: [] }, ahead); }

  // The app declares its tools before it runs: the simulator's names and
  // any other name the trace calls.
  learnTools(ahead) {
    for (let k = 0, ev; (ev = ahead?.next(k)); k++) if (ev.kind === 'tool_start') this.toolFor(ev.name ?? '');
  }

  // A call is part of the open model response, which ends at its last call
  // (the simulated model knows its own output: ahead; the UI never looks).
  call(ev, ahead) {
    if (this.toolFor(ev.name ?? '')) { /* a name no look-ahead saw: the ToolNode knows it from now on */ }
    this.ensureRun(ahead);
    this.response = true;
    this.feed.put({ type: 'call', id: ev.id ?? '', name: ev.name ?? '', args: JSON.stringify(ev.args ?? {}) });
    const next = ahead?.next();
    if (!(next?.kind === 'tool_start' && (next.batch ?? '') === (ev.batch ?? ''))) this.endResponse();
  }

  endResponse() {
    if (!this.response) return;
    this.response = false;
    this.feed.put({ type: 'done' });
  }

  // A result goes to the oldest execution of the call waiting for one; a
  // result for a call no tool is executing reaches nobody.
  result(ev) {
    const w = this.executing.get(ev.id ?? '')?.shift();
    if (!w) return;
    if (ev.ok) w.resolve(ev.output ?? ''); else w.reject(new Error(ev.error ?? 'failed'));
  }

  async permission(ev) {
    const id = ev.id ?? '';
    if (ev.state === 'asked') { this.endResponse(); await this.settle(); this.decide(id, true); return; }
    this.answers.set(id, ev.state === 'granted');
    if (ev.state !== 'granted') this.denied.add(id);
    await this.settle();
    this.resume();
  }

  // Once the run has ended on its interrupts and the user answered each,
  // the app resumes it: submit(null, {command: {resume}}), one answer per
  // interrupt id.
  resume() {
    if (this.running || this.stopped) return;
    const pending = this.orchestrator.interrupts.filter((i) => i.value?.tool_call_id != null);
    if (!pending.length || !pending.every((i) => this.answers.has(i.value.tool_call_id))) return;
    const resume = Object.fromEntries(pending.map((i) => [i.id, { approved: this.answers.get(i.value.tool_call_id) }]));
    for (const i of pending) this.answers.delete(i.value.tool_call_id);
    this.feed = new Feed();
    this.response = false;
    this.running = true;
    this.run(this.orchestrator.submit(null, { command: { resume } }));
  }

  // The user stops the run: useStream's stop() aborts the request, whose
  // signal is the graph's. A stopped run is never resumed.
  stop() {
    this.orchestrator.stop();
    this.stopped = true;
    this.answers.clear();
    this.response = false;
  }

  // The turn ends: the model's open response (or the one the graph asks for
  // next) is its answer; a run still executing tools is left as it is, and
  // a turn the user stopped is over already.
  endTurn(ahead) {
    if (this.cancelled) return; // the user stopped this turn's run: nothing more of it
    this.ensureRun(ahead);
    const executing = [...this.executing.values()].some((w) => w.length > 0);
    if (this.response || !executing) { this.response = false; this.feed.put({ type: 'done' }); }
  }

  // Lets the graph, the stream and the orchestrator run until nothing
  // moves: the path sets no timers (the orchestrator's 50 ms re-parse is
  // flushed by observe), so macrotask turns without progress mean they
  // wait on the model, a tool or the user, that is, on toolsim.
  async settle() {
    let quiet = 0, seen = this.moves;
    while (quiet < QUIET) {
      await new Promise((r) => setImmediate(r));
      if (this.moves === seen) quiet++; else { quiet = 0; seen = this.moves; }
    }
  }

  async finish() { await this.settle(); this.resume(); await this.settle(); this.observe(); } // end of stream: the page stays as it is

  // --- consumer: what a useStream UI renders -----------------------------------
  // ui-rows.mjs, shared with examples/langgraph.
  observe() { observe(this.orchestrator, this.seen, this.now); }

  // An AI message shows its text; one without text shows nothing (the
  // closing answer of a turn that said nothing after its tools).
  timeline() {
    const o = this.orchestrator;
    const asking = new Set(o.interrupts.map((i) => i.value?.tool_call_id).filter((id) => id != null));
    const items = rows(o, this.finished, { assistant: (m) => m.text, tool: (tc) => this.tool(tc, asking) }, this.stops);
    return { diagnostics: [], items, now: this.now };
  }

  // A call's status: its state in toolCalls; pending approval while an
  // interrupt of the thread names it; denied once the user denied it (the
  // UI's record of its own answer); interrupted once a stop cut it off
  // (the app's record of its stops: what a later run's values say of it is
  // not a result the user waited for).
  tool(tc, asking) {
    const id = tc.call.id ?? tc.id;
    let status = STATUS[tc.state] ?? `unknown state ${tc.state}`;
    if (this.denied.has(id)) status = 'denied';
    else if (this.stops.interrupted(tc)) status = 'interrupted';
    else if (tc.state === 'pending' && asking.has(id)) status = this.answers.get(id) === true ? 'running' : 'pending';
    const start = this.seen.get(callKey(tc)) ?? this.now;
    return { id, name: tc.call.name, status, start_t: start };
  }
}

await serve(() => new GraphEngine(), {
  fields: [],
  grouping: false,
  features: ['tools', 'text', 'user', 'cancel', 'permissions'],
  contract: declared.contract,
  documented: declared.documented,
  by_design: declared.by_design,
});
