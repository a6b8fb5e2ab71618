// The app: assistant-ui's external store runtime over the store of
// store.js, a thread of messages, and the tool row written from the
// library's documentation (README.md, "The tool row"). The shadcn registry
// that ships the default ToolFallback cannot be reached from here; the row
// follows the component as docs/ui/tool-fallback shows it, and the failure
// branch of elements/tool-error.
import React from 'react';
import {
  AssistantRuntimeProvider, MessagePrimitive, ThreadPrimitive, useExternalStoreRuntime,
} from '@assistant-ui/react';

const bug = new URLSearchParams(globalThis.location?.search ?? '').get('bug') ?? '';

// convertMessage: the app's stored message -> ThreadMessageLike.
function convertMessage(m) {
  if (m.role === 'system') return { id: m.id, role: 'system', content: [{ type: 'text', text: JSON.stringify([m.kind, m.level ?? '', m.text]) }] };
  return { id: m.id, role: 'assistant', content: m.parts, ...(m.status ? { status: m.status } : {}) };
}

export function App({ store }) {
  const runtime = useExternalStoreRuntime({
    messages: store.messages,
    isRunning: store.running,
    convertMessage,
    onNew: async () => {},
    onCancel: async () => {},
  });
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <ThreadPrimitive.Root className="thread">
        <ThreadPrimitive.Viewport>
          <ThreadPrimitive.Messages components={{ AssistantMessage, SystemMessage, UserMessage: AssistantMessage }} />
        </ThreadPrimitive.Viewport>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}

function AssistantMessage() {
  return (
    <MessagePrimitive.Root className="message">
      <MessagePrimitive.Parts components={{ Text: TextPart, tools: { Fallback: ToolRow } }} />
      {bug === 'twice' ? <MessagePrimitive.Parts components={{ Text: () => null, tools: { Fallback: ToolRow } }} /> : null /* planted: the parts drawn twice */}
    </MessagePrimitive.Root>
  );
}

function SystemMessage() {
  return (
    <MessagePrimitive.Root className="system">
      <MessagePrimitive.Parts components={{ Text: SystemRow }} />
    </MessagePrimitive.Root>
  );
}

// A text part; the last part of a cancelled message says it was cut off.
function TextPart({ text, status }) {
  const cut = status?.type === 'incomplete' && status.reason === 'cancelled';
  return <p data-row="assistant" data-interrupted={cut ? 'true' : undefined}>{text}{cut ? <span className="cut"> (interrupted)</span> : null}</p>;
}

// The app's notices and separators, carried as system messages.
function SystemRow({ text }) {
  const [kind, level, body] = JSON.parse(text);
  if (kind === 'separator') return <hr data-row="separator" aria-label={body} />;
  return <div data-row="notice" role="status" data-level={level}>{level === 'interrupted' ? 'Interrupted' : 'Error'}{body ? `: ${body}` : ''}</div>;
}

// The tool row. Its header is what the documented ToolFallback shows:
// "Used tool:" with a check, "Cancelled tool:" for status incomplete /
// cancelled; a call waiting on a decision offers Allow and Deny; a call
// whose status settled on another incomplete reason is a failure
// (elements/tool-error); a running call says so. The result stays in the
// collapsed body, as in ToolFallback. A call the app's server left without
// a result when its run ended (`unanswered`, store.js) is interrupted, not
// awaiting the user.
export function ToolRow({ toolCallId, toolName, status, result, approval, unanswered }) {
  const [open, setOpen] = React.useState(false);
  const header = unanswered && result === undefined ? { icon: '✗', label: 'Interrupted tool:' } : headerOf(status, approval);
  return (
    <div data-row="tool" data-tool-call-id={toolCallId} role="group" aria-label={`${header.label} ${toolName}`} className="tool">
      <div className="tool-header">
        <span className="icon" aria-hidden="true">{header.icon}</span>
        <p><span className="tool-label">{header.label}</span> <b className="tool-name">{toolName}</b></p>
        {header.ask ? <><button type="button">Allow</button><button type="button">Deny</button></> : null}
        <button type="button" onClick={() => setOpen(!open)} aria-expanded={open}>{open ? 'Hide' : 'Show'}</button>
      </div>
      {open ? <pre className="tool-body">{result === undefined ? '' : JSON.stringify(result)}</pre> : null}
    </div>
  );
}

function headerOf(status, approval) {
  const type = status?.type;
  if (approval?.approved === false) return { icon: '⊘', label: 'Denied tool:' };
  if (type === 'requires-action') return { icon: '?', label: 'Approval needed:', ask: true };
  if (type === 'running') return { icon: '…', label: 'Running tool:' };
  if (type === 'incomplete' && status.reason === 'cancelled') {
    if (bug === 'cancelled-as-done') return { icon: '✓', label: 'Used tool:' }; // planted: the cancelled branch forgotten
    return { icon: '✗', label: 'Cancelled tool:' };
  }
  if (type === 'incomplete') return { icon: '!', label: 'Failed tool:' };
  return { icon: '✓', label: 'Used tool:' };
}
