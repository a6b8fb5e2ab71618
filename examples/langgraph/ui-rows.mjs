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

// rows are the items of the orchestrator's messages in order: a user
// message's text; an AI message's text when assistant(m) draws it, then
// its calls (tool(tc) is the row's tool); "Turn complete" once for each run
// finished counts after a message id ('' for none: before the first, as
// useStream's onFinish); the orchestrator's error last.
export function rows(o, finished, { assistant, tool }) {
  const items = [];
  const separators = (id) => {
    for (let i = finished.get(id) ?? 0; i > 0; i--) items.push({ kind: 'separator', text: 'Turn complete' });
  };
  const calls = o.toolCalls;
  separators('');
  for (const m of o.messages) {
    const type = m.type ?? m.getType();
    if (type === 'human') items.push({ kind: 'user', text: m.text });
    if (type === 'ai') {
      if (assistant(m)) items.push({ kind: 'assistant', text: m.text });
      for (const tc of calls.filter((c) => c.aiMessage.id === m.id)) items.push({ kind: 'tool', tool: tool(tc) });
    }
    separators(m.id);
  }
  if (o.error) items.push({ kind: 'notice', level: 'error', text: String(o.error?.message ?? o.error) });
  return items;
}
