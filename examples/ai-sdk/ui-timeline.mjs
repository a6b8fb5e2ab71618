// The consumer side both AI SDK engines share: UIMessages (what useChat
// renders) -> toolsim-timeline/1 items. examples/ai-sdk/adapter.mjs (UI
// message chunks read by readUIMessageStream) and
// examples/ai-sdk-streamtext/adapter.mjs (streamText behind a chat) import
// it; each passes its own `ai`'s getToolName and isToolUIPart, so this file
// needs no package of its own. The mapping tables are in
// examples/ai-sdk/README.md ("UIMessage parts -> timeline").

// UIMessage tool part states -> timeline statuses (a one-to-one table).
export const STATUS = {
  'input-streaming': 'running',
  'input-available': 'running',
  'approval-requested': 'pending',
  'approval-responded': 'running',
  'output-available': 'ok',
  'output-error': 'failed',
  'output-denied': 'denied',
};

// A tool part as a timeline tool: the library's state, read through STATUS;
// a preliminary output is still running, a denied approval is denied.
export function toolItem(part, start, getToolName) {
  let status = STATUS[part.state] ?? `unknown state ${part.state}`;
  if (part.state === 'output-available' && part.preliminary) status = 'running';
  if (part.state === 'approval-responded' && part.approval?.approved === false) status = 'denied';
  return { id: part.toolCallId, name: getToolName(part), status, start_t: start, ...(part.errorText ? { error: part.errorText } : {}) };
}

// Parts keeps the clock at which each part of each message first appeared
// (the library keeps no times) and maps messages to items: a user message
// to a `user` item, and an assistant message's text, reasoning and tool
// parts, in order, to `assistant`, `thinking` and `tool` items; step-start
// and any other part to nothing.
export class Parts {
  seen = new Map(); // "key:part index" -> t of its first appearance

  constructor({ getToolName, isToolUIPart }) {
    this.getToolName = getToolName;
    this.isToolUIPart = isToolUIPart;
  }

  // observe records the parts of message (under key, unique per message)
  // that were not there before, at now.
  observe(key, message, now) {
    (message?.parts ?? []).forEach((_, pi) => {
      if (!this.seen.has(`${key}:${pi}`)) this.seen.set(`${key}:${pi}`, now);
    });
  }

  items(key, message, now) {
    if (!message) return [];
    const parts = message.parts ?? [];
    if (message.role === 'user') return [{ kind: 'user', text: parts.filter((p) => p.type === 'text').map((p) => p.text).join('') }];
    const items = [];
    parts.forEach((p, pi) => {
      if (p.type === 'text') items.push({ kind: 'assistant', text: p.text });
      else if (p.type === 'reasoning') items.push({ kind: 'thinking', text: p.text });
      else if (this.isToolUIPart(p)) items.push({ kind: 'tool', tool: toolItem(p, this.seen.get(`${key}:${pi}`) ?? now, this.getToolName) });
    });
    return items;
  }
}

// What a chat shows beside a message: an error notice per error the chat
// reported while streaming it, then, for a completed response, a separator.
export function notices(errors) {
  return errors.map((text) => ({ kind: 'notice', level: 'error', text }));
}

export const SEPARATOR = { kind: 'separator', text: 'Turn complete' };

// stopped marks a stopped response's items as the app shows them: its
// text cut off when text was its last part, then an "interrupted" notice
// with the stop's reason.
export function stopped(items, reason) {
  if (reason === undefined) return items;
  const last = items.length - 1;
  const out = items.map((it, k) => (k === last && it.kind === 'assistant' ? { ...it, interrupted: true } : it));
  return [...out, { kind: 'notice', level: 'interrupted', text: reason }];
}

// The tools the app answers itself (client-side tools: no `execute`, the
// app calls addToolOutput). None here: every tool of these engines runs on
// the server.
export const CLIENT_TOOLS = new Set();

// unanswered shows as interrupted each server-side call a response left
// without a result, once that response ended by its finish or a dropped
// connection (useChat's onFinish with neither isAbort nor isError: "flags
// for abort, disconnect, and errors ... can be used to trigger ... custom
// UI updates", ai-sdk.dev Chatbot, Event Callbacks). The library keeps such a call
// `input-available`, as it keeps a client-side tool waiting for the app;
// only the app knows its result will never come. A call awaiting approval
// stays (its answer goes in the next request), and so would a client-side
// tool.
export function unanswered(items) {
  return items.map((it) => (it.kind === 'tool' && it.tool.status === 'running' && !CLIENT_TOOLS.has(it.tool.name)
    ? { ...it, tool: { ...it.tool, status: 'interrupted' } }
    : it));
}
