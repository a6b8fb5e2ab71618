#!/usr/bin/env node
// The OpenAI Agents SDK's runner (npm @openai/agents: run() with
// stream: true) behind toolsim-engine/1. The runner schedules and executes
// the function tools itself; each tool's execute() resolves when toolsim
// sends its result and rejects when the runner aborts it (details.signal),
// each tool's needsApproval says whether the trace asks for approval, the
// user's answers go through the run state (approve/reject) and resume the
// run, and toolsim's cancel aborts the run.
//
//   npm ci --prefix examples/openai-agents
//   toolsim fuzz --engine 'node examples/openai-agents/adapter.mjs' --seeds 2000
//
// Producer: a Model whose streamed responses are the trace's text and tool
// calls. Consumer: the run's stream events (raw text deltas and run items),
// which a UI renders, become a toolsim-timeline/1. The mapping is in
// README.md: the runner decides when calls run, when their outputs are
// emitted and what a cancel leaves; the adapter decides none of it but
// the marks of a stop, settled as the streaming guide tells an app.
import { Agent, run, setTracingDisabled, tool } from '@openai/agents';
import { readFileSync } from 'node:fs';
import { serve } from '../node/toolsim-engine.mjs';

// What the library's real upstream never sends, and its documented
// behaviours: contract.json (docs/simulator.md, Contracts; README.md).
const declared = JSON.parse(readFileSync(new URL('./contract.json', import.meta.url), 'utf8'));

setTracingDisabled(true); // no exporter: nothing leaves the machine

// A queue of model stream events the current model call reads.
class Feed {
  items = [];
  waiter = null;
  put(item) { if (this.waiter) { const w = this.waiter; this.waiter = null; w(item); } else this.items.push(item); }
  // take waits for the next item; like a model's HTTP request, the wait
  // rejects when the run's signal aborts.
  take(signal) {
    if (this.items.length) return Promise.resolve(this.items.shift());
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const abort = () => { this.waiter = null; reject(signal.reason); };
      signal?.addEventListener('abort', abort, { once: true });
      this.waiter = (item) => { signal?.removeEventListener('abort', abort); resolve(item); };
    });
  }
}

const usage = { requests: 1, inputTokens: 0, outputTokens: 0, totalTokens: 0 };

// The model: each call streams the next response the trace holds.
class TraceModel {
  constructor(feed) { this.feed = feed; this.responses = 0; }
  async getResponse() { throw new Error('the adapter runs with stream: true'); }
  async *getStreamedResponse(request) {
    const id = `resp_${++this.responses}`;
    yield { type: 'response_started' };
    const output = [];
    let text = null;
    for (;;) {
      const item = await this.feed.take(request.signal);
      if (request.signal?.aborted) return;
      if (item.type === 'text') {
        if (!text) { text = { type: 'message', id: `${id}_msg`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '' }] }; output.push(text); }
        text.content[0].text += item.delta;
        yield { type: 'output_text_delta', delta: item.delta };
      } else if (item.type === 'call') {
        output.push({ type: 'function_call', id: `${id}_fc${output.length}`, callId: item.id, name: item.name, arguments: item.args, status: 'completed' });
      } else if (item.type === 'done') {
        // The turn's last response, with nothing said: an empty message,
        // the final output of a model that answers nothing.
        if (item.final && output.length === 0) output.push({ type: 'message', id: `${id}_msg`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '' }] });
        yield { type: 'response_done', response: { id, usage, output } };
        return;
      }
    }
  }
}

// The tool names sim/generate.go draws from.
const SIM_NAMES = ['grep', 'read', 'bash', 'glob', 'edit_file', 'web_fetch', 'todowrite'];
const QUIET = 20; // macrotask turns without progress that count as settled

class AgentsEngine {
  now = 0;
  rows = [];        // what the UI shows, in stream order
  tools = new Map(); // the app's function tools, by name
  input = '';        // the user's text: the next run's input
  current = null;    // the run of the assistant turn being streamed: its own model, feed and executing calls
  response = false;  // a model response is open (text or calls fed, not done)
  calls = false;     // and it has calls (a response without ends only with the turn)
  role = '';
  events = 0;        // stream events the UI has handled
  gates = new Map();   // call id -> the resolver of its pending needsApproval
  decided = new Map(); // call id -> whether it needs approval, once the trace said
  answers = new Map(); // call id -> the user's answer (true: approve)
  interrupted = new Set(); // runs that ended on approval requests, awaiting their answers
  stopReason = '';         // the reason of the user's latest stop

  async apply(ev, ahead) {
    this.now = ev.t;
    switch (ev.kind) {
      case 'turn_start':
        this.role = ev.role ?? '';
        if (this.role === 'assistant') this.ensure(ahead);
        break;
      case 'user': this.rows.push({ kind: 'user', text: ev.text ?? '' }); this.input = ev.text ?? ''; break;
      case 'text': this.ensure(ahead); this.response = true; this.current.feed.put({ type: 'text', delta: ev.text ?? '' }); break;
      case 'tool_start': this.call(ev, ahead); break;
      case 'tool_done':
        if (this.calls) this.endResponse();
        await this.decide(ev.id ?? '', false);
        this.result(ev);
        break;
      case 'permission': await this.permission(ev); break;
      case 'cancel': await this.cancel(ev); break;
      case 'turn_end':
        if (this.role !== 'user') this.endTurn(ahead);
        this.role = '';
        break;
      default: break; // thinking, progress and errors are not declared
    }
    await this.settle();
  }

  // The assistant turn's run, started on its first event: run(agent, input,
  // {stream: true}) and a UI loop reading its events.
  ensure(ahead) { if (!this.current) this.start(ahead); }

  start(ahead) {
    const input = this.input;
    this.input = '';
    // The app's tools: the simulator's names, and any other name this
    // turn's calls use (an app declares its tools before it runs).
    for (const name of SIM_NAMES) this.toolFor(name);
    for (let k = 0, ev; (ev = ahead?.next(k)) && ev.kind !== 'turn_end'; k++) if (ev.kind === 'tool_start') this.toolFor(ev.name ?? '');
    const abort = new AbortController();
    const feed = new Feed();
    const r = { abort, feed, executing: new Map() };
    r.agent = new Agent({ name: 'toolsim', instructions: '', model: new TraceModel(feed), tools: [...this.tools.values()] });
    this.current = r;
    r.done = this.runOnce(r, input || 'go');
  }

  // One run() of the turn, from its input or, resumed, from its state. A
  // run that ends on approval requests waits for the user's answers.
  async runOnce(r, from) {
    r.running = (r.running ?? 0) + 1; // a resumed run starts before the one it resumes returns
    try {
      const result = await run(r.agent, from, { stream: true, signal: r.abort.signal, maxTurns: 1000, ...(typeof from === 'string' ? { context: r } : {}) });
      for await (const e of result) { this.show(e, r); this.events++; }
      await result.completed;
      if (result.error) throw result.error;
      // Aborted: cancelled, or it ended just as the user stopped it.
      if (r.abort.signal.aborted) { this.stopped(result, r); this.events++; return; }
      if (result.interruptions?.length) {
        r.waiting = { state: result.state, items: result.interruptions, applied: new Set() };
        this.interrupted.add(r);
        this.events++;
        this.resume();
        return;
      }
      this.rows.push({ kind: 'separator', text: 'Turn complete' });
    } catch (err) {
      if (!r.abort.signal.aborted) this.rows.push({ kind: 'notice', level: 'error', text: String(err?.message ?? err) });
    } finally {
      r.running--;
    }
    this.events++;
  }

  // The user stops the turn: a run in flight is aborted (its stop is marked
  // once it settles, stopped below); a run paused on approval requests is
  // the app's own to drop: it resumes nothing, and marks what it dropped;
  // with no run in flight the app still shows the user's stop.
  async cancel(ev) {
    this.stopReason = ev.reason ?? '';
    const r = this.current;
    const inFlight = r?.running > 0;
    if (inFlight) r.abort.abort();
    for (const id of [...this.gates.keys()]) await this.decide(id, false);
    const paused = [...this.interrupted];
    this.interrupted.clear();
    for (const w of paused.map((p) => p.waiting)) {
      for (const item of w.items) {
        const row = this.rows.findLast((x) => x.kind === 'tool' && x.tool.id === item.rawItem?.callId);
        if (row?.tool.status === 'pending') row.tool.status = 'interrupted';
      }
    }
    if (!inFlight) this.rows.push({ kind: 'notice', level: 'interrupted', text: this.stopReason });
  }

  // A cancelled run, as the streaming guide tells an app to settle it
  // ("still await stream.completed before treating the run as settled";
  // "When a stream is cancelled, stream.cancelled becomes true"): the
  // settled newItems (the results guide: "Use newItems when you need ...
  // tool outputs") carry the outputs the closed stream did not; a call
  // still without one gets none from a settled, cancelled run, so the app
  // closes its row; and the app marks the stop: the text it cut and a
  // notice.
  stopped(result, r) {
    const live = (row) => row.kind === 'tool' && row.run === r && (row.tool.status === 'running' || row.tool.status === 'pending');
    for (const item of result.newItems ?? []) {
      if (item.type !== 'tool_call_output_item') continue;
      const row = this.rows.findLast((x) => x.kind === 'tool' && x.tool.id === item.rawItem?.callId);
      if (row && live(row)) row.tool.status = item.rawItem.status === 'incomplete' ? 'interrupted' : 'ok';
    }
    for (const row of this.rows) if (live(row)) row.tool.status = 'interrupted';
    const open = this.rows.findLast((x) => x.kind === 'assistant' && x.open);
    if (open) { open.interrupted = true; open.open = false; }
    this.rows.push({ kind: 'notice', level: 'interrupted', text: this.stopReason });
  }

  // The user's answers reach a run's approval requests once the UI shows
  // them (state.approve / state.reject); when every request of the run is
  // answered, the app resumes it (run(agent, state)).
  resume() {
    for (const r of [...this.interrupted]) {
      const w = r.waiting;
      for (const item of w.items) {
        const id = item.rawItem?.callId ?? '';
        if (w.applied.has(id) || !this.answers.has(id)) continue;
        w.applied.add(id);
        const ok = this.answers.get(id);
        if (ok) w.state.approve(item); else w.state.reject(item);
        const row = this.rows.findLast((x) => x.kind === 'tool' && x.tool.id === id);
        if (row) row.tool.status = ok ? 'running' : 'denied';
      }
      if (w.applied.size < w.items.length) continue;
      this.interrupted.delete(r);
      r.waiting = null;
      r.done = this.runOnce(r, w.state);
    }
  }

  // A tool's needsApproval waits for the trace: its approval request (yes)
  // or its result (no).
  gate(id) {
    if (this.decided.has(id)) return Promise.resolve(this.decided.get(id));
    if (!this.gates.has(id)) {
      let resolve;
      const p = new Promise((r) => { resolve = r; });
      this.gates.set(id, { p, resolve });
    }
    return this.gates.get(id).p;
  }

  async decide(id, asks) {
    if (this.decided.has(id)) return;
    this.decided.set(id, asks);
    const g = this.gates.get(id);
    this.gates.delete(id);
    if (g) { g.resolve(asks); await this.settle(); }
  }

  async permission(ev) {
    const id = ev.id ?? '';
    if (ev.state === 'asked') { await this.decide(id, true); return; }
    this.answers.set(id, ev.state === 'granted');
    this.resume();
  }

  // The turn ends: a model call waiting for its response gets the end of
  // one (the run completes); a run still executing tools is left as it is.
  endTurn(ahead) {
    this.ensure(ahead); // a turn with nothing in it still gets a response
    const r = this.current;
    this.current = null;
    const executing = [...r.executing.values()].some((w) => w.length > 0);
    if (this.response || !executing) { this.response = false; this.calls = false; r.feed.put({ type: 'done', final: true }); }
  }

  // A tool call is part of the open model response; the response ends at
  // its last call: the simulated model knows its own output (ahead), which
  // the UI never sees.
  call(ev, ahead) {
    this.ensure(ahead);
    this.response = true;
    this.calls = true;
    this.current.feed.put({ type: 'call', id: ev.id ?? '', name: ev.name ?? '', args: JSON.stringify(ev.args ?? {}) });
    const next = ahead?.next();
    const more = next?.kind === 'tool_start' && (next.batch ?? '') === (ev.batch ?? '');
    if (!more) this.endResponse();
  }

  endResponse() {
    if (!this.response) return;
    this.response = false;
    this.calls = false;
    this.current?.feed.put({ type: 'done' });
  }

  // A result resolves the oldest execute() of that call id still waiting;
  // a result for a call the runner is not executing reaches nobody.
  result(ev) {
    const waiting = this.current?.executing.get(ev.id ?? '');
    const w = waiting?.shift();
    if (!w) return;
    if (ev.ok) w.resolve(ev.output ?? ''); else w.reject(new Error(ev.error ?? 'failed'));
  }

  toolFor(name) {
    if (!this.tools.has(name)) this.tools.set(name, this.makeTool(name));
  }

  makeTool(name) {
    return tool({
      name, description: name, strict: false,
      parameters: { type: 'object', properties: {}, additionalProperties: true },
      needsApproval: async (_ctx, _input, callId) => this.gate(callId ?? ''),
      execute: (_input, ctx, details) => new Promise((resolve, reject) => {
        const id = details?.toolCall?.callId ?? '';
        const executing = ctx.context.executing;
        if (!executing.has(id)) executing.set(id, []);
        const w = { resolve, reject };
        executing.get(id).push(w);
        // A real tool stops when the runner aborts it (fetch(…, { signal })).
        const signal = details?.signal;
        const abort = () => {
          const list = executing.get(id);
          if (list?.includes(w)) list.splice(list.indexOf(w), 1);
          reject(signal.reason ?? new Error('aborted'));
        };
        if (signal?.aborted) abort(); else signal?.addEventListener('abort', abort, { once: true });
      }),
    });
  }

  // Lets the runner and the UI loop run until neither moves: the run path
  // sets no timers (tracing is off), so macrotask turns without a new stream
  // event mean it is waiting on the model or a tool, that is, on toolsim.
  async settle() {
    let quiet = 0, seen = this.events;
    while (quiet < QUIET) {
      await new Promise((r) => setImmediate(r));
      if (this.events === seen) quiet++; else { quiet = 0; seen = this.events; }
    }
  }

  // --- consumer: stream events -> rows, as a UI on run items does ----------
  show(e, r) {
    if (e.type === 'raw_model_stream_event' && e.data?.type === 'output_text_delta') {
      const last = this.rows.at(-1);
      if (last?.kind === 'assistant' && last.open) last.text += e.data.delta;
      else this.rows.push({ kind: 'assistant', text: e.data.delta, open: true });
      return;
    }
    if (e.type === 'raw_model_stream_event' && e.data?.type === 'response_done') {
      const last = this.rows.at(-1);
      if (last?.kind === 'assistant') last.open = false;
      return;
    }
    if (e.type !== 'run_item_stream_event') return;
    const item = e.item;
    if (e.name === 'tool_called') {
      this.rows.push({ kind: 'tool', run: r, tool: { id: item.rawItem.callId, name: item.rawItem.name, status: 'running', start_t: this.now } });
    } else if (e.name === 'tool_approval_requested') {
      const row = this.rows.findLast((r) => r.kind === 'tool' && r.tool.id === item.rawItem.callId);
      if (row) row.tool.status = 'pending';
    } else if (e.name === 'tool_output') {
      // The row of the call whose callId the output carries (the runner's
      // own key for the pair), the latest such row.
      const row = this.rows.findLast((r) => r.kind === 'tool' && r.tool.id === item.rawItem.callId);
      if (row) row.tool.status = item.rawItem.status === 'incomplete' ? 'interrupted' : 'ok';
    }
  }

  async finish() {
    // End of stream: the connection drops; the UI stays as it is.
    await this.settle();
  }

  timeline() {
    const items = this.rows.map((r) => r.kind === 'tool' ? { kind: 'tool', tool: { ...r.tool } }
      : r.kind === 'assistant' ? { kind: 'assistant', text: r.text, ...(r.interrupted ? { interrupted: true } : {}) } : { ...r });
    return { diagnostics: [], items, now: this.now };
  }
}

await serve(() => new AgentsEngine(), {
  fields: [],
  grouping: false,
  features: ['tools', 'text', 'user', 'cancel', 'permissions'],
  contract: declared.contract,
  documented: declared.documented,
  by_design: declared.by_design,
});
