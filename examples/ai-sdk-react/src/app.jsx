// The app: useChat over the driver's Chat, the messages in order, and the
// tool row written from the AI SDK's "Chatbot Tool Usage" page
// (ai-sdk.dev/docs/ai-sdk-ui/chatbot-tool-usage): a tool part is
// `tool-NAME`, and its `state` says what to show. Beside each response,
// the app shows what useChat's onError and onFinish told it (notes).
import React from 'react';
import { useChat } from '@ai-sdk/react';
import { getToolName, isToolUIPart } from 'ai';

const bug = new URLSearchParams(globalThis.location?.search ?? '').get('bug') ?? '';

export function ChatView({ chat, notes }) {
  const { messages } = useChat({ chat });
  const noted = React.useSyncExternalStore(notes.subscribe, notes.get);
  return <div className="chat">{messages.map((m) => <Message key={m.id} message={m} note={noted[m.id]} />)}</div>;
}

function Message({ message, note }) {
  if (message.role === 'user') {
    return <p data-row="user">{message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('')}</p>;
  }
  const last = message.parts.length - 1;
  return (
    <div className="message">
      {message.parts.map((p, i) => {
        if (p.type === 'text') return <TextPart key={i} text={p.text} cut={note?.aborted && i === last} />;
        if (isToolUIPart(p)) return <ToolRow key={i} part={p} ended={note?.ended} />;
        return null;
      })}
      {(note?.errors ?? []).map((e, i) => <div key={`e${i}`} data-row="notice" role="alert" data-level="error">Error: {e}</div>)}
      {note?.aborted ? <div data-row="notice" role="status" data-level="interrupted">Interrupted{note.reason ? `: ${note.reason}` : ''}</div> : null}
      {note?.finished ? <hr data-row="separator" aria-label="Turn complete" /> : null}
    </div>
  );
}

// A text part; the last part of a stopped response (onFinish's isAbort)
// says it was cut off.
function TextPart({ text, cut }) {
  return <p data-row="assistant" data-interrupted={cut ? 'true' : undefined}>{text}{cut ? <span className="cut"> (interrupted)</span> : null}</p>;
}

// The tools the app answers itself (client-side tools, addToolOutput).
// None here: every tool of this page runs on the server.
const CLIENT_TOOLS = new Set();

// The tool row: one branch per documented part state. A call waiting on a
// decision offers Approve and Deny (addToolApprovalResponse in a real app);
// the output stays in a collapsed body. Once its response ended (ended:
// onFinish with neither isAbort nor isError), a server-side call the
// library still shows in progress has lost its result: the app says it
// was interrupted.
export function ToolRow({ part, ended }) {
  const [open, setOpen] = React.useState(false);
  const name = getToolName(part);
  const header = ended && !CLIENT_TOOLS.has(name) && inProgress(part) ? { icon: '✗', label: 'Interrupted tool:' } : headerOf(part);
  return (
    <div data-row="tool" data-tool-call-id={part.toolCallId} data-state={part.state} role="group" aria-label={`${header.label} ${name}`} className="tool">
      <div className="tool-header">
        <span className="icon" aria-hidden="true">{header.icon}</span>
        <p><span className="tool-label">{header.label}</span> <b className="tool-name">{name}</b></p>
        {header.ask ? <><button type="button">Approve</button><button type="button">Deny</button></> : null}
        <button type="button" onClick={() => setOpen(!open)} aria-expanded={open}>{open ? 'Hide' : 'Show'}</button>
      </div>
      {open ? <pre className="tool-body">{part.state === 'output-error' ? part.errorText : JSON.stringify(part.output ?? null)}</pre> : null}
    </div>
  );
}

// inProgress: a state the library shows as a call still going (its input,
// an approved call, a preliminary output).
function inProgress(part) {
  return part.state === 'input-streaming' || part.state === 'input-available' ||
    (part.state === 'approval-responded' && part.approval?.approved !== false) ||
    (part.state === 'output-available' && part.preliminary === true);
}

function headerOf(part) {
  switch (part.state) {
    case 'input-streaming': return { icon: '…', label: 'Preparing tool:' };
    case 'input-available': return { icon: '…', label: 'Running tool:' };
    case 'approval-requested': return { icon: '?', label: 'Approval needed:', ask: true };
    case 'approval-responded':
      return part.approval?.approved === false ? { icon: '⊘', label: 'Denied tool:' } : { icon: '…', label: 'Running tool:' };
    case 'output-available':
      return part.preliminary ? { icon: '…', label: 'Running tool:' } : { icon: '✓', label: 'Used tool:' };
    case 'output-error':
      if (bug === 'failed-as-done') return { icon: '✓', label: 'Used tool:' }; // planted: the error branch forgotten
      return { icon: '!', label: 'Failed tool:' };
    case 'output-denied': return { icon: '⊘', label: 'Denied tool:' };
    default: return { icon: '?', label: `${part.state}:` };
  }
}
