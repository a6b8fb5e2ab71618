// The producer both chunk-level AI SDK engines share: canonical events ->
// AI SDK UI message chunks, as a server's toUIMessageStream would send them.
// examples/ai-sdk/adapter.mjs feeds them to readUIMessageStream in Node,
// examples/ai-sdk-react/src/driver.js to useChat's Chat in the browser
// (esbuild bundles this file into its page: no Node-only imports here).
// The chunk table is in README.md; the writer pairs nothing and decides no
// status: the library does both.

// Every kind the writer knows; a caller may write fewer (the others are
// unknown to it).
export const KINDS = ['turn_start', 'user', 'text', 'thinking', 'tool_start', 'tool_progress',
  'tool_done', 'permission', 'cancel', 'error', 'turn_end'];

// UIChunks writes the chunks of one event at a time. The caller owns the
// streams: current() is the response being streamed (null between
// responses), start() opens a new one (its stream begins with the `start`
// chunk) and returns it. Options, each caller's own behaviour:
//   kinds   the event kinds written; write returns null for any other
//   abort   a cancel writes an `abort` chunk into the open response (else
//           it writes nothing: the caller stops the request itself)
//   finish  extra fields of the `finish` chunk
// With 'user' among the kinds, a user turn's turn_end opens no response.
export class UIChunks {
  prev = '';        // the previous written event's kind, and batch of the previous tool_start
  prevBatch = '';
  role = '';        // of the current turn
  streamed = false; // whether the current turn opened a response
  #state = new WeakMap(); // response -> its parts, runs and step

  constructor({ current, start, kinds = KINDS, abort = true, finish = {} }) {
    Object.assign(this, { current, start, abort, finish });
    this.kinds = new Set(kinds);
    this.users = this.kinds.has('user');
  }

  // write returns the chunks of one event, or null for a kind it does not
  // write (the caller only moves its clock).
  write(ev) {
    if (!this.kinds.has(ev.kind)) return null;
    const chunks = this.chunks(ev);
    if (ev.kind === 'turn_end') this.role = '';
    this.prev = ev.kind;
    return chunks;
  }

  chunks(ev) {
    const id = ev.id ?? '';
    switch (ev.kind) {
      case 'turn_start': this.role = ev.role ?? ''; this.streamed = false; return [];
      case 'user': return []; // the caller adds the user message, as Chat.sendMessage does
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
      case 'cancel':
        return this.abort && this.current() ? [...this.endPart(), { type: 'abort', ...(ev.reason ? { reason: ev.reason } : {}) }] : [];
      case 'error': return [...this.endPart(), { type: 'error', errorText: ev.message ?? '' }];
      case 'turn_end': return this.end();
      default: return null;
    }
  }

  // turn_end: finish the response, empty or not, unless nothing is
  // streaming (a user turn, or a turn whose response was stopped).
  end() {
    if (!this.current() && ((this.users && this.role === 'user') || this.streamed)) return [];
    const s = this.#state.get(this.response());
    return [...this.endPart(), ...(s.step ? [{ type: 'finish-step' }] : []), { type: 'finish', ...this.finish }];
  }

  // text and reasoning deltas: one part per run of deltas of the same kind.
  *part(type, delta) {
    const s = this.#state.get(this.response());
    if (s.part?.type !== type) {
      yield* this.endPart();
      yield* this.step({});
      s.part = { type, id: `${type[0]}${++s.parts}` };
      yield { type: `${type}-start`, id: s.part.id };
    }
    yield { type: `${type}-delta`, id: s.part.id, delta: delta ?? '' };
  }

  *endPart() {
    const r = this.current();
    const s = r && this.#state.get(r);
    if (!s?.part) return;
    yield { type: `${s.part.type}-end`, id: s.part.id };
    s.part = null;
  }

  // A step is one model response: tool calls of one batch id, or one run of
  // tool_start events without batch ids (SPEC §2's grouping rule).
  *step(ev) {
    const s = this.#state.get(this.response());
    if (ev.kind === 'tool_start') {
      yield* this.endPart();
      const key = ev.batch ? `b:${ev.batch}` : this.prev === 'tool_start' && !this.prevBatch ? s.key : `r:${++s.runs}`;
      this.prevBatch = ev.batch ?? '';
      if (s.step && s.key !== key && s.hasTools) { yield { type: 'finish-step' }; s.step = false; }
      s.key = key;
      if (!s.step) { yield { type: 'start-step' }; s.step = true; s.hasTools = false; }
      s.hasTools = true;
    } else if (!s.step) {
      yield { type: 'start-step' };
      s.step = true;
    }
  }

  // response is the response being streamed, opened on first use (a new
  // request). The caller opens its streams only through it.
  response() {
    let r = this.current();
    if (r) return r;
    r = this.start();
    this.#state.set(r, { parts: 0, runs: 0, part: null, step: false, key: undefined, hasTools: false });
    this.streamed = true;
    return r;
  }
}
