// toolsim-engine/1 for Node >= 20, no dependencies: serve(make, info) reads
// JSON lines on stdin and answers each on stdout (docs/protocol.md).
// make(options) returns an engine: apply(event), finish(), timeline() ->
// {items, diagnostics, now}, optional render(width); any may be async. An
// engine that also has changed() -> the indices of the top-level items it
// added or changed since the last call (examples/node/engine.mjs) is sent
// only those; any other is diffed item by item.
// info: {fields, features, grouping, contract, documented, by_design}. Pass --no-delta to send whole timelines.
// apply's second argument, ahead.next(k), is the k-th event after this one in
// the same batch (undefined past its end): for an adapter whose producer side
// simulates a server that knows its own output (a model response's calls),
// never for what the UI shows.
import { createInterface } from 'node:readline';

const PROTOCOL = 'toolsim-engine/1';

export async function serve(make, info = {}) {
  const delta = !process.argv.includes('--no-delta');
  let options = {}, engine = await make(options), prev = null, out = [];
  // Replies are gathered and written once per message: a batch's N+1
  // timelines go out in one write.
  const reply = (fields) => out.push(JSON.stringify(fields));
  async function timeline(id, index) {
    const t = await engine.timeline();
    const diagnostics = t.diagnostics ?? [];
    const base = { type: 'timeline', id, ...(index === undefined ? {} : { index }) };
    // An engine that tracks what it changes (changed() -> indices of the
    // top-level items added or changed since the last call) costs what it
    // touched; any other is diffed item by item against the last reply.
    const touched = engine.changed ? engine.changed() : null;
    if (!delta || prev === null) {
      reply({ ...base, timeline: { diagnostics, format: 'toolsim-timeline/1', items: t.items, now: t.now } });
      prev = { items: touched ? null : t.items.map((it) => JSON.stringify(it)), diagnostics: diagnostics.length };
      return;
    }
    const changed = {};
    if (touched) {
      for (const i of touched) changed[i] = t.items[i];
    } else {
      const items = t.items.map((it) => JSON.stringify(it));
      items.forEach((s, i) => { if (s !== prev.items[i]) changed[i] = t.items[i]; });
      prev.items = items;
    }
    const added = diagnostics.slice(prev.diagnostics);
    reply({ ...base, delta: { len: t.items.length, items: changed, now: t.now, ...(added.length ? { diagnostics: added } : {}) } });
    prev.diagnostics = diagnostics.length;
  }
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const msg = JSON.parse(line), id = msg.id ?? 0;
    try { await handle(msg, id); } catch (err) { reply({ type: 'error', id, message: String(err?.stack ?? err) }); }
    process.stdout.write(out.join('\n') + '\n');
    out = [];
  }
  async function handle(msg, id) {
    switch (msg.type) {
      case 'init':
        if (msg.protocol !== PROTOCOL) { reply({ type: 'error', id, message: `this engine speaks ${PROTOCOL}` }); break; }
        options = msg.options ?? {};
        engine = await make(options);
        prev = null;
        reply({ type: 'init_ok', id, protocol: PROTOCOL, fields: info.fields ?? [],
          capabilities: ['timeline', 'batch', ...(engine.render ? ['render'] : []), ...(delta ? ['delta'] : [])],
          ...(info.features ? { features: info.features } : {}), ...(info.grouping === false ? { grouping: false } : {}),
          ...(info.contract?.length ? { contract: info.contract } : {}), ...(info.documented?.length ? { documented: info.documented } : {}),
          ...(info.by_design?.length ? { by_design: info.by_design } : {}) });
        break;
      case 'event': await engine.apply(msg.event); await timeline(id); break;
      case 'batch':
        for (const [i, ev] of msg.events.entries()) {
          await engine.apply(ev, { next: (k = 0) => msg.events[i + 1 + k] });
          await timeline(id, i);
        }
        if (msg.finish) { await engine.finish(); await timeline(id, msg.events.length); }
        break;
      case 'finish': await engine.finish(); await timeline(id); break;
      case 'reset': engine = await make(options); prev = null; await timeline(id); break;
      case 'render':
        if (engine.render) { reply({ type: 'rendered', id, text: await engine.render(msg.width) }); break; }
      // falls through: render was not declared
      default: reply({ type: 'error', id, message: `unsupported message type ${msg.type}` });
    }
  }
}
