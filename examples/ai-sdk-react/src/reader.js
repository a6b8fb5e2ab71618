// The row reader of this page: what a user (or a screen reader) sees,
// read from the DOM in document order — each row's data-row role, the
// tool row's visible label and name, the notice's text — as
// toolsim-browser rows (browser/doc.go): {kind, id, name, status, text,
// level, interrupted}. The label decides a tool's status, never the
// chat's messages.
const LABELS = {
  'Preparing tool:': 'running',
  'Running tool:': 'running',
  'Approval needed:': 'pending',
  'Used tool:': 'ok',
  'Failed tool:': 'failed',
  'Denied tool:': 'denied',
};

export function readRows(root) {
  return [...root.querySelectorAll('[data-row]')].filter(visible).map((el) => {
    switch (el.dataset.row) {
      case 'tool': {
        const label = el.querySelector('.tool-label')?.textContent ?? '';
        return { kind: 'tool', id: el.dataset.toolCallId ?? '', name: el.querySelector('.tool-name')?.textContent ?? '', status: LABELS[label] ?? `unknown label ${JSON.stringify(label)}` };
      }
      case 'assistant':
        return { kind: 'assistant', text: el.firstChild?.nodeType === 3 ? el.firstChild.textContent : '', interrupted: el.dataset.interrupted === 'true' };
      case 'user':
        return { kind: 'user', text: el.textContent };
      case 'notice':
        return { kind: 'notice', level: el.dataset.level ?? '', text: el.textContent.replace(/^(Interrupted|Error)(: )?/, '') };
      case 'separator':
        return { kind: 'separator', text: el.getAttribute('aria-label') ?? '' };
      default:
        return { kind: el.dataset.row };
    }
  });
}

// visible drops the app's empty prompt (sendMessage with no text: the
// traces carry no user turns). An empty text part stays a row: useChat
// keeps it, and the page draws its paragraph.
function visible(el) {
  return !(el.dataset.row === 'user' && el.textContent === '');
}
