// The kit's row reader for a page under toolsim-browser (browser/doc.go),
// shared by the example pages: import it by its relative path, as
// settle.js. It reads what a user (or a screen reader) sees, in document
// order: each [data-row] element's role; a tool row's visible label
// (.tool-label), name (.tool-name) and data-tool-call-id; an assistant
// row's own text and data-interrupted; a notice's data-level and text; a
// separator's aria-label. The rows are toolsim-browser's: {kind, id, name,
// status, text, level, interrupted}.
//
// labels maps each label a page's tool row shows to a timeline status (a
// label not in it is an "unknown label" status, which fails the engine);
// shows(el) keeps a row, dropping what the page draws but shows nothing
// (each page says which).
export function readRows(root, labels, shows) {
  return [...root.querySelectorAll('[data-row]')].filter(shows).map((el) => row(el, labels));
}

function row(el, labels) {
  switch (el.dataset.row) {
    case 'tool': {
      const label = el.querySelector('.tool-label')?.textContent ?? '';
      return { kind: 'tool', id: el.dataset.toolCallId ?? '', name: el.querySelector('.tool-name')?.textContent ?? '', status: labels[label] ?? `unknown label ${JSON.stringify(label)}` };
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
}
