#!/usr/bin/env node
// The OpenAI Agents SDK's runner (npm @openai/agents: run() with
// stream: true) behind toolsim-engine/1. The runner schedules and executes
// the function tools itself; each tool's execute() resolves when toolsim
// sends its result, and toolsim's cancel aborts the run.
//
//   npm ci --prefix examples/openai-agents
//   toolsim fuzz --engine 'node examples/openai-agents/adapter.mjs' --seeds 2000
//
// Producer: a Model whose streamed responses are the trace's text and tool
// calls. Consumer: the run's stream events (raw text deltas and run items),
// which a UI renders, become a toolsim-timeline/1. The mapping is in
// README.md: the runner decides when calls run, when their outputs are
// emitted and what a cancel leaves; the adapter decides none of it.
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
  take() { return this.items.length ? Promise.resolve(this.items.shift()) : new Promise((r) => { this.waiter = r; }); }
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
      const item = await this.feed.take();
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
      case 'tool_done': if (this.calls) this.endResponse(); this.result(ev); break;
      case 'cancel': this.current?.abort.abort(); break;
      case 'turn_end':
        if (this.role !== 'user') this.endTurn(ahead);
        this.role = '';
        break;
      default: break; // thinking, progress, permissions and errors are not declared
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
    r.done = (async () => {
      try {
        const result = await run(r.agent, input || 'go', { stream: true, signal: abort.signal, maxTurns: 1000, context: r });
        for await (const e of result) { this.show(e); this.events++; }
        await result.completed;
        if (result.error) throw result.error;
        if (!abort.signal.aborted) this.rows.push({ kind: 'separator', text: 'Turn complete' });
      } catch (err) {
        if (!abort.signal.aborted) this.rows.push({ kind: 'notice', level: 'error', text: String(err?.message ?? err) });
      }
      this.events++;
    })();
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
      execute: (_input, ctx, details) => new Promise((resolve, reject) => {
        const id = details?.toolCall?.callId ?? '';
        const executing = ctx.context.executing;
        if (!executing.has(id)) executing.set(id, []);
        executing.get(id).push({ resolve, reject });
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
  show(e) {
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
      this.rows.push({ kind: 'tool', tool: { id: item.rawItem.callId, name: item.rawItem.name, status: 'running', start_t: this.now } });
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
      : r.kind === 'assistant' ? { kind: 'assistant', text: r.text } : { ...r });
    return { diagnostics: [], items, now: this.now };
  }
}

await serve(() => new AgentsEngine(), {
  fields: [],
  grouping: false,
  features: ['tools', 'text', 'user', 'cancel'],
  contract: declared.contract,
  documented: declared.documented,
});
