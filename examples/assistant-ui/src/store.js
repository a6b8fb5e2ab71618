// The app's own message store, as an app using assistant-ui's external
// store runtime keeps it (assistant-ui.com/docs/runtimes/custom/external-store:
// "you own the state"). Canonical toolsim events change it; the library
// renders it through convertMessage (app.jsx). Nothing here decides what a
// row shows: the parts carry what the backend said, and the runtime derives
// each part's status from them and from the message's status.

export function emptyStore() {
  return { messages: [], open: -1, running: false, role: '', cancelled: false, n: 0 };
}

// apply returns the store after one event (a new object: React sees it).
export function apply(s, ev) {
  s = { ...s, messages: s.messages.slice() };
  switch (ev.kind) {
    case 'turn_start':
      s.role = ev.role ?? ''; s.cancelled = false; // running starts with the first part (openMessage)
      break;
    case 'text': {
      const m = openMessage(s);
      const last = m.parts[m.parts.length - 1];
      if (last?.type === 'text') m.parts[m.parts.length - 1] = { ...last, text: last.text + (ev.text ?? '') };
      else m.parts.push({ type: 'text', text: ev.text ?? '' });
      break;
    }
    case 'tool_start': {
      const m = openMessage(s);
      const args = ev.args ?? {};
      m.parts.push({ type: 'tool-call', toolCallId: ev.id ?? '', toolName: ev.name ?? '', args, argsText: JSON.stringify(args) });
      break;
    }
    case 'tool_done':
      editPart(s, ev.id, (p) => ev.ok
        ? { ...p, result: ev.output ?? '', isError: false }
        : { ...p, result: ev.error || 'error', isError: true });
      break;
    case 'permission':
      editPart(s, ev.id, (p) => {
        if (ev.state === 'asked') return { ...p, approval: { id: `approval-${ev.id}` } };
        return { ...p, approval: { ...(p.approval ?? { id: `approval-${ev.id}` }), approved: ev.state === 'granted' } };
      });
      break;
    case 'cancel':
      // The app marks the message it was streaming as cancelled (the
      // runtime cannot know), and says so under it.
      if (s.open >= 0) s.messages[s.open] = { ...s.messages[s.open], status: { type: 'incomplete', reason: 'cancelled' } };
      s.open = -1; s.running = false; s.cancelled = true;
      push(s, { role: 'system', kind: 'notice', level: 'interrupted', text: ev.reason ?? '' });
      break;
    case 'turn_end':
      close(s);
      if (s.role !== 'user' && !s.cancelled) push(s, { role: 'system', kind: 'separator', text: 'Turn complete' });
      s.role = ''; s.cancelled = false;
      break;
    default: // other kinds only move the clock
      return s;
  }
  return s;
}

// finish is the end of the stream: the app stops running.
export function finish(s) {
  s = { ...s, messages: s.messages.slice() };
  close(s);
  return s;
}

// close ends the open message: while its turn ran the app said it was
// running; now the runtime decides its status (auto status). The app's
// server answers every call it runs before the run ends, so a call of the
// message with no result and no approval left open (awaiting an answer, or
// denied) lost its result: the app marks the part `unanswered`, and its
// row says so (app.jsx). The runtime would show it requires-action, as it
// shows a human tool the frontend answers; this page has none.
function close(s) {
  if (s.open >= 0) {
    const { status, ...rest } = s.messages[s.open];
    const m = status?.type === 'running' ? rest : s.messages[s.open];
    s.messages[s.open] = { ...m, parts: (m.parts ?? []).map((p) => (lost(p) ? { ...p, unanswered: true } : p)) };
  }
  s.open = -1; s.running = false;
}

function lost(p) {
  return p.type === 'tool-call' && p.result === undefined && !(p.approval && p.approval.approved !== true);
}

function push(s, m) {
  s.messages.push({ id: `m${++s.n}`, ...m });
}

// openMessage is the assistant message being streamed, opened on first use.
function openMessage(s) {
  if (s.open < 0) {
    push(s, { role: 'assistant', parts: [], status: { type: 'running' } });
    s.open = s.messages.length - 1;
    s.running = true;
  }
  const m = { ...s.messages[s.open], parts: s.messages[s.open].parts.slice() };
  s.messages[s.open] = m;
  return m;
}

// editPart changes the last part with tool call id `id`, wherever it is.
function editPart(s, id, fn) {
  for (let mi = s.messages.length - 1; mi >= 0; mi--) {
    const parts = s.messages[mi].parts ?? [];
    for (let pi = parts.length - 1; pi >= 0; pi--) {
      if (parts[pi].type === 'tool-call' && parts[pi].toolCallId === id) {
        const m = { ...s.messages[mi], parts: parts.slice() };
        m.parts[pi] = fn(parts[pi]);
        s.messages[mi] = m;
        return;
      }
    }
  }
}
