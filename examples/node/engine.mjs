// A small agent-UI engine in plain JavaScript: SPEC §2 of toolsim.
//
// It turns tool-call events into a timeline (items, tool groups, statuses),
// pairing results by id, never by position. It knows nothing of the
// protocol: adapter.mjs puts it behind toolsim-engine/1. `bug` plants one or
// more (comma-separated) of the classic mistakes (last-item, name-fifo,
// spinner, upgrade), so you can watch toolsim catch, tell apart and shrink
// them.

const TERMINAL = new Set(['ok', 'failed', 'interrupted', 'denied']);
const KINDS = new Set(['turn_start', 'user', 'thinking', 'text', 'tool_start', 'tool_progress',
  'tool_done', 'permission', 'cancel', 'error', 'turn_end']);
export const BUGS = ['last-item', 'name-fifo', 'spinner', 'upgrade'];

export class Engine {
  constructor(metaTools = [], bug = null) {
    this.meta = new Set(metaTools);
    this.bugs = new Set((bug ?? '').split(',').filter(Boolean));
    this.items = [];        // top-level items, in display order
    this.slots = new Map(); // id -> {live: [tools, oldest first], last: tool}
    this.early = new Map(); // id -> results that came before their start
    this.started = [];      // tools in start order
    this.run = null;        // {container, item} of the current run of starts
    this.openText = null;
    this.now = 0;
    this.role = null;
    this.cancelled = false;
    // What changed, for the kit to send only that (changed()): the indices
    // of the top-level items touched since the last call, each item's
    // index, and the top-level item each tool lives under.
    this.touched = new Set();
    this.indexOf = new Map(); // top-level item -> its index
    this.topOf = new Map();   // tool -> its top-level item
  }

  // The indices of the top-level items added or changed since the last
  // call, in order: the kit encodes only those.
  changed() {
    const out = [...this.touched].sort((a, b) => a - b);
    this.touched.clear();
    return out;
  }

  append(item) {
    this.indexOf.set(item, this.items.length);
    this.touched.add(this.items.length);
    this.items.push(item);
  }

  touch(tool) { this.touched.add(this.indexOf.get(this.topOf.get(tool))); }
  touchItem(item) { this.touched.add(this.indexOf.get(item)); }

  // --- events ---------------------------------------------------------------
  apply(ev) {
    this.now = ev.t;
    if (ev.kind !== 'tool_start' && KINDS.has(ev.kind)) this.run = null; // unknown kinds only move the clock
    const handler = this[`on_${ev.kind}`];
    if (KINDS.has(ev.kind) && handler) handler.call(this, ev);
  }

  on_turn_start(ev) { this.openText = null; this.role = ev.role; this.cancelled = false; }

  on_turn_end() {
    this.openText = null;
    this.early.clear();
    this.interruptLive();
    if (this.role !== 'user' && !this.cancelled) this.append({ kind: 'separator', text: 'Turn complete' });
    this.role = null;
    this.cancelled = false;
  }

  on_user(ev) { this.openText = null; this.append({ kind: 'user', text: ev.text }); }
  on_text(ev) { this.addText('assistant', ev.text); }
  on_thinking(ev) { this.addText('thinking', ev.text); }
  on_error(ev) { this.openText = null; this.append({ kind: 'notice', level: 'error', text: ev.message }); }

  on_cancel(ev) {
    if (this.openText?.kind === 'assistant' && this.items.at(-1) === this.openText) {
      this.openText.interrupted = true;
      this.touchItem(this.openText);
    }
    this.openText = null;
    const spinner = this.bugs.has('spinner') ? this.live().slice(-1) : [];
    this.interruptLive();
    for (const tool of spinner) { tool.status = 'running'; this.touch(tool); } // the planted bug: one spinner survives
    this.append({ kind: 'notice', level: 'interrupted', text: ev.reason ?? '' });
    this.cancelled = true;
  }

  finish() { this.early.clear(); this.interruptLive(); this.run = null; }

  // --- tools ----------------------------------------------------------------
  on_tool_start(ev) {
    const id = ev.id ?? '';
    if (!id) return;
    this.openText = null;
    const tool = { id, name: ev.name, status: 'running', start_t: ev.t };
    if (ev.batch) tool.batch = ev.batch;
    let container = this.items;
    const parent = this.parentOf(ev.parent ?? '');
    if (parent) {
      tool.parent = ev.parent;
      container = parent.children ??= [];
    }
    const item = this.place(container, tool);
    const top = parent ? this.topOf.get(parent) : item;
    this.topOf.set(tool, top);
    this.touchItem(top);
    const slot = this.slots.get(id) ?? { live: [], last: null };
    this.slots.set(id, slot);
    slot.live.push(tool);
    slot.last = tool;
    this.started.push(tool);
    const early = this.early.get(id);
    if (early?.length) this.result(tool, early.shift());
  }

  place(container, tool) {
    if (this.meta.has(tool.name)) {
      const item = { kind: 'meta_tool', tool, ...(tool.batch ? { batch: tool.batch } : {}) };
      this.addItem(container, item);
      return item;
    }
    let join = null;
    const batch = tool.batch ?? '';
    if (!batch) {
      if (this.run?.container === container && !this.run.item.batch) join = this.run.item;
    } else {
      for (let i = container.length - 1; i >= 0; i--) {
        const item = container[i];
        if (item.batch === batch && item.kind === 'meta_tool') continue; // batch adjacency looks past it
        if (item.batch === batch && (item.kind === 'tool' || item.kind === 'tool_group')) join = item;
        break;
      }
    }
    if (!join) {
      join = { kind: 'tool', tool, ...(batch ? { batch } : {}) };
      this.addItem(container, join);
    } else if (join.kind === 'tool') {
      const first = join.tool;
      delete join.tool;
      join.kind = 'tool_group';
      join.tools = this.bugs.has('upgrade') ? [tool] : [first, tool];
    } else {
      join.tools.push(tool);
    }
    this.run = { container, item: join };
    return join;
  }

  addItem(container, item) {
    if (container === this.items) this.append(item);
    else container.push(item);
  }

  parentOf(pid) {
    const slot = pid ? this.slots.get(pid) : undefined;
    if (!slot) return null;
    return slot.live[0] ?? slot.last;
  }

  // The oldest live tool with the event's id (or what a bug picks).
  liveTool(ev) {
    const live = this.live();
    if (this.bugs.has('last-item') && live.length) return live.at(-1);
    const slot = this.slots.get(ev.id ?? '');
    if (this.bugs.has('name-fifo') && slot && ev.kind === 'tool_done') {
      const same = live.find((t) => t.name === slot.last.name);
      if (same) return same;
    }
    return slot?.live[0] ?? null;
  }

  on_tool_progress(ev) {
    const tool = this.liveTool(ev);
    if (!tool) return;
    tool.output = (tool.output ?? '') + (ev.output ?? '');
    tool.update_seq = (tool.update_seq ?? 0) + 1;
    this.touch(tool);
  }

  on_tool_done(ev) {
    const id = ev.id ?? '';
    if (id && !this.slots.has(id)) { // its start may still come
      if (!this.early.has(id)) this.early.set(id, []);
      this.early.get(id).push(ev);
      return;
    }
    const tool = this.liveTool(ev);
    if (tool) this.result(tool, ev);
  }

  on_permission(ev) {
    const tool = this.liveTool(ev);
    if (!tool) return;
    if (ev.state === 'denied') this.end(tool, 'denied');
    else { tool.status = ev.state === 'asked' ? 'pending' : 'running'; this.touch(tool); }
  }

  result(tool, ev) {
    if (ev.output) tool.output = ev.output;
    if (!ev.ok) tool.error = ev.error ?? '';
    this.end(tool, ev.ok ? 'ok' : 'failed');
    if (ev.duration_ms != null) tool.duration_ms = ev.duration_ms;
    this.touch(tool);
  }

  end(tool, status) {
    this.touch(tool);
    tool.status = status;
    tool.end_t = this.now;
    tool.duration_ms = Math.max(this.now - tool.start_t, 0);
    const live = this.slots.get(tool.id).live;
    const at = live.indexOf(tool);
    if (at >= 0) live.splice(at, 1);
  }

  live() { return this.started.filter((t) => !TERMINAL.has(t.status)); }

  interruptLive() {
    for (const tool of this.live()) this.end(tool, 'interrupted');
    this.started = [];
  }

  addText(kind, text) {
    if (this.openText?.kind === kind && this.items.at(-1) === this.openText) {
      this.openText.text += text;
      this.touchItem(this.openText);
      return;
    }
    this.openText = { kind, text };
    this.append(this.openText);
  }

  timeline() { return { diagnostics: [], items: this.items, now: this.now }; }
}
