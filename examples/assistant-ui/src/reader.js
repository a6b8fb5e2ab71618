// The row reader of this page: the kit's (browser/page/rows.js), with the
// labels this page's tool row shows. The label decides a tool's status,
// never the app's store.
import { readRows as read } from '../../../browser/page/rows.js';

const LABELS = {
  'Running tool:': 'running',
  'Approval needed:': 'pending',
  'Used tool:': 'ok',
  'Failed tool:': 'failed',
  'Cancelled tool:': 'interrupted',
  'Denied tool:': 'denied',
  'Interrupted tool:': 'interrupted',
};

export const readRows = (root) => read(root, LABELS, visible);

// visible drops what shows nothing: an empty text part (the runtime renders
// one while a message runs, with no text to show).
function visible(el) {
  return !(el.dataset.row === 'assistant' && el.textContent === '');
}
