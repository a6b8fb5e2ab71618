// The row reader of this page: the kit's (browser/page/rows.js), with the
// labels this page's tool row shows. The label decides a tool's status,
// never the chat's messages.
import { readRows as read } from '../../../browser/page/rows.js';

const LABELS = {
  'Preparing tool:': 'running',
  'Running tool:': 'running',
  'Approval needed:': 'pending',
  'Used tool:': 'ok',
  'Failed tool:': 'failed',
  'Denied tool:': 'denied',
  'Interrupted tool:': 'interrupted',
};

export const readRows = (root) => read(root, LABELS, visible);

// visible drops the app's empty prompt (sendMessage with no text: the
// traces carry no user turns). An empty text part stays a row: useChat
// keeps it, and the page draws its paragraph.
function visible(el) {
  return !(el.dataset.row === 'user' && el.textContent === '');
}
