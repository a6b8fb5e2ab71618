#!/usr/bin/env node
// The Vercel AI SDK at its real boundary behind toolsim-engine/1: a chat
// (AbstractChat, what useChat runs) whose transport calls streamText with
// the SDK's own mock model (ai/test) and tools that run when toolsim says,
// and reads toUIMessageStream as useChat reads it.
//
//   npm ci --prefix examples/ai-sdk-streamtext
//   toolsim fuzz --engine 'node examples/ai-sdk-streamtext/adapter.mjs' --timeout 30s --seeds 2000
//
// Producer: the trace is what the model streams and when the tools finish,
// when the user approves, denies or stops. The mock model's responses carry
// the text and the calls; each tool's execute() yields its progress and
// returns or throws when toolsim sends its result, and honours the abort
// signal; toolApproval asks for the calls the trace asks for; the user
// answers through addToolApprovalResponse and stops through stop().
// Consumer: the chat's UIMessages, mapped by ../ai-sdk/ui-timeline.mjs as
// the chunk-level engine maps them. README.md has the whole mapping: which
// chunk the library sends, when a tool runs, when a step or a request ends,
// and what a part's state is are the library's, never the adapter's.
import {
  AbstractChat, convertToModelMessages, generateId, getToolName, isStepCount, isToolUIPart, jsonSchema,
  lastAssistantMessageIsCompleteWithApprovalResponses, streamText, toUIMessageStream, tool,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { readFileSync } from 'node:fs';
import { Parts, SEPARATOR, notices, stopped, unanswered } from '../ai-sdk/ui-timeline.mjs';
import { serve } from '../node/toolsim-engine.mjs';

// What the library's real upstream never sends, and its documented
// behaviours: contract.json (docs/simulator.md, Contracts; README.md).
const declared = JSON.parse(readFileSync(new URL('./contract.json', import.meta.url), 'utf8'));

globalThis.AI_SDK_LOG_WARNINGS = false; // the SDK's console warnings (deprecations): nothing toolsim reads

const SIM_NAMES = ['grep', 'read', 'bash', 'glob', 'edit_file', 'web_fetch', 'todowrite']; // sim/generate.go's tool names
const STEPS = 10000;  // stopWhen: a step limit no trace reaches
const QUIET = 4;      // macrotask turns without progress that count as settled
const AHEAD = 2000;   // how far ahead a request looks for the tool names its turn calls
const DEBUG = !!process.env.TOOLSIM_DEBUG;
const USAGE = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

// What a React app's chat state does (@ai-sdk/react's ReactChatState): a
// pushed message is kept as it is, a replaced one as a snapshot.
class State {
  #status = 'ready';
  error = undefined;
  messages = [];
  constructor(moved) { this.moved = moved; }
  get status() { return this.#status; }
  set status(s) { this.#status = s; this.moved(); }
  pushMessage = (m) => { this.messages = this.messages.concat(m); this.moved(); };
  popMessage = () => { this.messages = this.messages.slice(0, -1); this.moved(); };
  replaceMessage = (i, m) => { this.messages = [...this.messages.slice(0, i), this.snapshot(m), ...this.messages.slice(i + 1)]; this.moved(); };
  snapshot = (v) => structuredClone(v);
}

class Chat extends AbstractChat {}

// One call of the mock model's doStream: a response the adapter streams.
class Response {
  calls = [];     // {id, name, args, complete}: the calls streamed so far
  part = null;    // the open text or reasoning block: {type, id}
  blocks = 0;
  closed = false;
  constructor(signal, closed) {
    this.gone = closed;
    this.stream = new ReadableStream({
      start: (c) => { this.c = c; },
      cancel: () => { this.closed = true; closed(this); },
    });
    signal?.addEventListener('abort', () => {
      if (this.closed) return;
      this.closed = true;
      try { this.c.error(signal.reason); } catch { /* already closed */ }
      closed(this);
    }, { once: true });
    this.write({ type: 'stream-start', warnings: [] });
  }
  write(part) { if (!this.closed) this.c.enqueue(part); }

  // A text or reasoning delta: one block per run of deltas of one kind.
  say(type, delta) {
    if (this.part?.type !== type) {
      this.endPart();
      this.part = { type, id: `${type[0]}${++this.blocks}` };
      this.write({ type: `${type}-start`, id: this.part.id });
    }
    this.write({ type: `${type}-delta`, id: this.part.id, delta });
  }
  endPart() {
    if (!this.part) return;
    this.write({ type: `${this.part.type}-end`, id: this.part.id });
    this.part = null;
  }

  // A call's input streams as it starts; it is complete (the tool-call
  // part streamText executes or asks approval for) at its first report.
  start(id, name, args) {
    this.endPart();
    const input = JSON.stringify(args ?? {});
    this.write({ type: 'tool-input-start', id, toolName: name });
    this.write({ type: 'tool-input-delta', id, delta: input });
    this.calls.push({ id, name, input, complete: false });
  }
  complete(call) {
    if (call.complete) return;
    call.complete = true;
    this.write({ type: 'tool-input-end', id: call.id });
    this.write({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
  }
  finish() {
    this.endPart();
    for (const call of this.calls) this.complete(call);
    const unified = this.calls.length ? 'tool-calls' : 'stop';
    this.write({ type: 'finish', finishReason: { unified, raw: unified }, usage: USAGE });
    if (!this.closed) { this.closed = true; this.c.close(); }
    this.gone(this);
  }
}

// One execute() of a tool: what toolsim sends for it, in order.
class Run {
  queue = [];
  wake = null;
  constructor(id, signal) { this.id = id; this.signal = signal; }
  push(step) { this.queue.push(step); this.wake?.(); }
  next() {
    return new Promise((resolve, reject) => {
      const take = () => {
        if (this.signal?.aborted) reject(this.signal.reason ?? new Error('aborted'));
        else if (this.queue.length) resolve(this.queue.shift());
        else return false;
        return true;
      };
      if (take()) return;
      const onAbort = () => take();
      this.signal?.addEventListener('abort', onAbort, { once: true });
      this.wake = () => { if (take()) { this.wake = null; this.signal?.removeEventListener('abort', onAbort); } };
    });
  }
}

class StreamTextEngine {
  now = 0;
  role = '';
  prev = null;       // the previous event
  spoke = false;     // the current turn had a model response
  requested = false; // a request was sent for the current assistant turn (by its user message, or implicitly)
  resp = null;       // the model response being streamed (a doStream call), or null
  runs = new Map();  // call id -> its executions still running, oldest first
  asking = new Set(); // call ids whose tool-call part comes with an approval request
  tools = {};        // the app's tools, by name
  finished = new Map(); // message id -> its last response completed (read to a finish, not aborted or failed, not paused for approval)
  aborted = new Map();  // message id -> why the user stopped its response (onFinish's isAbort)
  ended = new Set();    // message ids whose last response ended by its finish or a dropped connection (onFinish: neither isAbort nor isError, not paused for approval)
  stopReason = '';      // the reason of the cancel in flight (stop() takes none)
  bare = [];            // stops with no request in flight: {after: messages then shown, reason}
  errors = new Map();   // message id -> what the chat reported as errors while it was last
  parts = new Parts({ getToolName, isToolUIPart }); // the consumer: ../ai-sdk/ui-timeline.mjs
  moves = 0;         // progress of anything asynchronous: see settle
  ahead = null;

  constructor() {
    for (const name of SIM_NAMES) this.toolFor(name);
    this.model = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => {
        this.moved();
        const r = new Response(abortSignal, (gone) => { if (this.resp === gone) this.resp = null; this.moved(); });
        this.resp = r;
        return { stream: r.stream };
      },
    });
    const state = new State(() => this.moved());
    this.chat = new Chat({
      state,
      transport: { sendMessages: (o) => this.request(o), reconnectToStream: async () => null },
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      // The Chatbot page's recipe for a stop (ai-sdk.dev/docs/ai-sdk-ui/chatbot,
      // onFinish: "flags for abort, disconnect, and errors"; isAbort: "True
      // when the request has been aborted by the client"): the app marks
      // the stopped response itself, its last text cut off and a notice.
      onFinish: ({ message, isAbort, isError, isDisconnect, finishReason }) => {
        this.finished.set(message.id, !isAbort && !isError && !isDisconnect && finishReason !== 'tool-calls');
        if (!isAbort && !isError && finishReason !== 'tool-calls') this.ended.add(message.id); else this.ended.delete(message.id);
        if (isAbort) this.aborted.set(message.id, this.stopReason);
        else this.aborted.delete(message.id); // a response that continued the message and ended (the React page's notes do the same)
        this.moved();
      },
      onError: (err) => {
        const key = this.chat.lastMessage?.id ?? '';
        if (!this.errors.has(key)) this.errors.set(key, []);
        this.errors.get(key).push(String(err?.message ?? err));
        this.moved();
      },
    });
  }

  moved() { this.moves++; }

  // --- the server: POST /api/chat, in process ---------------------------------
  async request({ messages, abortSignal, messageId }) {
    this.moved();
    if (messageId) { this.finished.delete(messageId); this.ended.delete(messageId); } // a response continues this message
    for (let k = 0, ev; k < AHEAD && (ev = this.ahead?.next(k)); k++) if (ev.kind === 'tool_start') this.toolFor(ev.name ?? '');
    const tools = this.tools;
    const result = streamText({
      model: this.model,
      // A call stopped before its result stays in the message; the docs'
      // recipe for that (ai-sdk.dev/docs/agents/subagents, "Handling
      // Cancellation": "To avoid errors about incomplete tool calls in
      // subsequent messages, use convertToModelMessages with
      // ignoreIncompleteToolCalls") keeps the next request from failing.
      messages: await convertToModelMessages(messages, { tools, ignoreIncompleteToolCalls: true }),
      tools,
      toolApproval: ({ toolCall }) => (this.asking.delete(toolCall.toolCallId) ? 'user-approval' : 'not-applicable'),
      stopWhen: isStepCount(STEPS),
      abortSignal,
      onError: () => {}, // the default logs to the console; the stream carries the error
    });
    const stream = toUIMessageStream({ stream: result.stream, tools, originalMessages: messages, generateMessageId: generateId });
    return stream.pipeThrough(new TransformStream({ transform: (chunk, c) => { this.moved(); c.enqueue(chunk); } }));
  }

  toolFor(name) {
    if (Object.hasOwn(this.tools, name)) return;
    this.tools[name] = tool({
      description: name,
      inputSchema: jsonSchema({}),
      execute: (_input, { toolCallId, abortSignal }) => this.execute(toolCallId, abortSignal),
    });
  }

  // A tool's execute(): a streaming tool (an async iterable: each yield is a
  // preliminary output, the last one the output) that waits for toolsim.
  async *execute(id, signal) {
    const run = new Run(id, signal);
    if (!this.runs.has(id)) this.runs.set(id, []);
    this.runs.get(id).push(run);
    this.moved();
    try {
      for (;;) {
        const step = await run.next();
        if (step.kind === 'tool_progress') { yield step.output ?? ''; continue; }
        // The error text as the tool's own: a thrown string is shown as it
        // is (an Error would be shown as its toString, "Error: text").
        if (!step.ok) throw step.error ?? '';
        yield step.output ?? '';
        return;
      }
    } finally {
      const list = this.runs.get(id);
      list?.splice(list.indexOf(run), 1);
      this.moved();
    }
  }

  // --- producer: canonical events -> the model, the tools, the user ----------
  async apply(ev, ahead) {
    if (DEBUG) console.error('apply', JSON.stringify(ev), 'resp', !!this.resp, 'status', this.chat.status);
    this.now = ev.t;
    this.ahead = ahead;
    switch (ev.kind) {
      case 'turn_start': this.role = ev.role ?? ''; this.spoke = false; break;
      case 'user': await this.send(ev.text ?? ''); break;
      case 'text': case 'thinking': {
        const r = await this.respond(true);
        r?.say(ev.kind === 'text' ? 'text' : 'reasoning', ev.text ?? '');
        break;
      }
      case 'tool_start': {
        const sameBatch = this.prev?.kind === 'tool_start' && (this.prev.batch ?? '') === (ev.batch ?? '');
        this.toolFor(ev.name ?? '');
        const r = await this.respond(!sameBatch);
        r?.start(ev.id ?? '', ev.name ?? '', ev.args);
        break;
      }
      case 'permission': await this.permission(ev); break;
      case 'tool_progress': case 'tool_done': await this.report(ev); break;
      case 'cancel':
        // A stop with no request in flight stops nothing and onFinish does
        // not run: the app shows the user's stop itself.
        if (this.idle() && !this.requested) this.bare.push({ after: this.chat.messages.length, reason: ev.reason ?? '' });
        this.stopReason = ev.reason ?? ''; this.chat.stop().catch(() => {}); this.requested = false;
        break;
      case 'turn_end':
        if (this.role !== 'user') { await this.endTurn(); this.requested = false; }
        this.role = '';
        break;
      default: break; // errors are not declared; unknown kinds move the clock
    }
    this.prev = ev;
    await this.settle();
    this.observe();
  }

  idle() { return this.chat.status === 'ready' || this.chat.status === 'error'; }

  // The user sends a message (useChat's sendMessage). A response the model
  // has not begun is an empty answer first: the chat sends one message at
  // a time.
  async send(text) {
    await this.settle();
    while (this.resp && !this.resp.calls.length && !this.resp.blocks) { this.resp.finish(); await this.settle(); }
    this.chat.sendMessage({ text }).catch(() => {});
    this.requested = true;
    await this.settle();
  }

  // The response the model streams next. A response that has calls is over
  // when the trace goes on with text or another batch (fresh): it ends, and
  // streamText's next step (or the chat's next request) asks again. With no
  // request at all, the turn began without a user message: the adapter
  // sends one the timeline leaves out. null: nothing asks the model now:
  // the turn's request failed (the chat shows its error), or a tool still
  // runs, which the contract rules out.
  async respond(fresh) {
    await this.settle();
    if (this.resp && fresh && this.resp.calls.length) { this.resp.finish(); await this.settle(); }
    if (!this.resp && this.idle() && !this.requested) {
      this.chat.sendMessage({ text: '', metadata: { toolsim: 'implicit' } }).catch(() => {});
      this.requested = true;
      await this.settle();
    }
    if (this.resp) this.spoke = true;
    return this.resp;
  }

  async permission(ev) {
    const id = ev.id ?? '';
    if (ev.state === 'asked') {
      // The call's input is complete now, and toolApproval asks for it.
      const call = this.resp?.calls.find((c) => c.id === id && !c.complete);
      if (!call) return;
      this.asking.add(id);
      this.resp.complete(call);
      return;
    }
    // The user answers the newest request for the call (addToolApprovalResponse).
    const part = this.chat.messages.flatMap((m) => m.parts).filter((p) => isToolUIPart(p) && p.toolCallId === id && p.state === 'approval-requested').at(-1);
    if (!part) return;
    this.chat.addToolApprovalResponse({ id: part.approval.id, approved: ev.state === 'granted' }).catch(() => {});
  }

  // Progress or a result goes to the oldest execution of the call. A call
  // still in the model's response runs once the response ends (streamText
  // executes a step's calls at its end); an approved call, once the chat
  // sends the approval (when its response ends).
  async report(ev) {
    const id = ev.id ?? '';
    await this.settle();
    if (!this.runs.get(id)?.length && this.resp && (this.resp.calls.length || this.approved(id))) {
      this.resp.finish();
      await this.settle();
    }
    const run = this.runs.get(id)?.[0];
    if (!run) return; // no execution of the call: the contract rules it out
    run.push(ev.kind === 'tool_progress' ? { kind: ev.kind, output: ev.output } : { kind: ev.kind, ok: ev.ok, output: ev.output, error: ev.error });
  }

  approved(id) {
    return this.chat.messages.some((m) => m.parts.some((p) => isToolUIPart(p) && p.toolCallId === id && p.state === 'approval-responded'));
  }

  // The turn ends: each response the model is asked for ends, the last one
  // with its answer (finish reason stop); a turn that said nothing is asked
  // for an empty answer.
  async endTurn() {
    await this.settle();
    if (!this.resp && !this.spoke && this.idle()) await this.respond(false);
    for (let guard = 0; this.resp && guard < 1000; guard++) {
      this.resp.finish();
      await this.settle();
    }
  }

  // Lets the chat, streamText and the tools run until nothing moves: the
  // path sets no timers, so macrotask turns without progress mean they wait
  // on the model, a tool or the user, that is, on toolsim.
  async settle() {
    let quiet = 0, seen = this.moves;
    while (quiet < QUIET) {
      await new Promise((r) => setImmediate(r));
      if (this.moves === seen) quiet++; else { quiet = 0; seen = this.moves; }
    }
  }

  async finish() { await this.settle(); this.observe(); } // end of stream: the page stays as it is

  // --- consumer: the chat's messages -> timeline items ------------------------
  observe() {
    for (const m of this.chat.messages) this.parts.observe(m.id, m, this.now);
  }

  timeline() {
    const busy = !this.idle();
    const messages = this.chat.messages;
    const bare = (n) => this.bare.filter((b) => b.after === n).map((b) => ({ kind: 'notice', level: 'interrupted', text: b.reason }));
    const items = [...bare(0), ...messages.flatMap((m, i) => [...(m.metadata?.toolsim === 'implicit' ? notices(this.errors.get(m.id) ?? []) : [
      ...stopped(this.shown(m.id, this.parts.items(m.id, m, this.now)), this.aborted.get(m.id)),
      ...notices(this.errors.get(m.id) ?? []),
      ...(this.finished.get(m.id) && !(busy && i === messages.length - 1) ? [SEPARATOR] : []),
    ]), ...bare(i + 1)])];
    return { diagnostics: [], items, now: this.now };
  }

  // shown: once a message's response ended by its finish or a dropped
  // connection, a server-side call with no result is interrupted
  // (unanswered, ../ai-sdk/ui-timeline.mjs). A response paused for
  // approval (finishReason tool-calls) is continued by the next request,
  // an approved call's result with it; after a stop or an error the rows
  // stay as the library left them, beside the app's notice.
  shown(id, items) {
    return this.ended.has(id) ? unanswered(items) : items;
  }
}

await serve(() => new StreamTextEngine(), {
  fields: ['error'],
  grouping: false,
  features: ['tools', 'text', 'thinking', 'user', 'cancel', 'permissions', 'progress'],
  contract: declared.contract,
  documented: declared.documented,
  by_design: declared.by_design,
});
