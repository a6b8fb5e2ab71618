// What a chat UI on useStream's orchestrator (CustomStreamOrchestrator)
// shows, as toolsim timeline items: shared by examples/langgraph (chunks
// fed to the orchestrator) and examples/langgraph-graph (a StateGraph
// streamed into it), so that both engines read the library the same way.
// Each adapter keeps what its UI decides itself: when an AI message's text
// is drawn, and a call's row (its status and fields).

// STATUS maps getToolCallsWithResults' states to timeline statuses.
export const STATUS = { pending: 'running', completed: 'ok', error: 'failed' };

// callKey names one call of one AI message (ids may repeat across messages).
export const callKey = (tc) => `${tc.aiMessage.id}\u0000${tc.index}`;

// observe runs MessageTupleManager's refresh itself (the library re-parses
// streamed tool-call arguments at most every 50 ms, on a wall-clock timer),
// so a read is what the user sees once the throttle has passed, not a
// frame 50 ms stale; and notes in seen (callKey -> t) when each call first
// showed.
export function observe(o, seen, now) {
  o.messageManager.flush();
  for (const tc of o.toolCalls) {
    const key = callKey(tc);
    if (!seen.has(key)) seen.set(key, now);
  }
}

// Stops is the app's record of the user's stops, kept from useStream's
// onStop callback ("Callback that is called when the stream is stopped by
// the user", UseStreamOptions.onStop): for each stop, the ids of the
// messages then shown, newest first (anchors: its notice follows the
// newest of them still shown), the AI message whose text it cut (cut), the
// calls then still pending (calls: callKey set) and the reason. The app
// keeps it beside the stream state, not in it: the next run's `values`
// replace the state (onStop's mutate is "immediately
// without requiring a server roundtrip", and the server never hears of the
// marks).
export class Stops {
  list = [];

  // record notes a stop of the orchestrator o, as onStop sees it; live
  // says whether a run was streaming (onStop is called even when none was:
  // then the stop cuts no text).
  record(o, reason, live) {
    o.messageManager.flush();
    const last = o.messages.at(-1);
    const type = last && (last.type ?? last.getType());
    const calls = new Set(o.toolCalls.filter((tc) => tc.state === 'pending').map(callKey));
    const cut = live && type === 'ai' && !last.tool_calls?.length ? last.id : '';
    this.list.push({ anchors: o.messages.map((m) => m.id).reverse(), cut, calls, reason });
  }

  // interrupted reports whether a stop cut call tc off before its result.
  interrupted(tc) { return this.list.some((s) => s.calls.has(callKey(tc))); }

  // cut reports whether a stop cut message m's text off.
  cut(m) { return this.list.some((s) => s.cut !== '' && s.cut === m.id); }

  // placed maps each message id ('' for none) to the notices of the stops
  // that follow it among messages, the ids shown now.
  placed(messages) {
    const shown = new Set(messages.map((m) => m.id));
    const at = new Map();
    for (const s of this.list) {
      const id = s.anchors.find((a) => shown.has(a)) ?? '';
      at.set(id, [...(at.get(id) ?? []), { kind: 'notice', level: 'interrupted', text: s.reason }]);
    }
    return at;
  }
}

// rows are the items of the orchestrator's messages in order: a user
// message's text; an AI message's text when assistant(m) draws it (marked
// interrupted when a stop cut it), then its calls (tool(tc) is the row's
// tool); "Turn complete" once for each run finished counts after a message
// id ('' for none: before the first, as useStream's onFinish); a stop's
// notice after the message it followed; the orchestrator's error last.
export function rows(o, finished, { assistant, tool }, stops = new Stops()) {
  const items = [];
  const notices = stops.placed(o.messages);
  const after = (id) => {
    for (let i = finished.get(id) ?? 0; i > 0; i--) items.push({ kind: 'separator', text: 'Turn complete' });
    items.push(...(notices.get(id) ?? []));
  };
  const calls = o.toolCalls;
  after('');
  for (const m of o.messages) {
    const type = m.type ?? m.getType();
    if (type === 'human') items.push({ kind: 'user', text: m.text });
    if (type === 'ai') {
      const cut = stops.cut(m) ? { interrupted: true } : {};
      if (assistant(m)) items.push({ kind: 'assistant', text: m.text, ...cut });
      for (const tc of calls.filter((c) => c.aiMessage.id === m.id)) items.push({ kind: 'tool', tool: tool(tc) });
    }
    after(m.id);
  }
  if (o.error) items.push({ kind: 'notice', level: 'error', text: String(o.error?.message ?? o.error) });
  return items;
}
