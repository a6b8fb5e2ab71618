// Package browser drives a chat UI's page in headless Chromium as a
// toolsim engine: each event goes to the page, the page settles, and the
// rows it shows, read back from the DOM, become the timeline the harness
// checks. cmd/toolsim-browser serves it over toolsim-engine/1, one
// Chromium per process, so a campaign's workers each get their own.
//
// # The page contract
//
// A page is a directory holding index.html. Its script defines
// window.toolsim with:
//
//   - reset(): forget everything (a new scenario);
//   - apply(event): take one canonical event (docs/trace-format.md);
//   - finish(): the end of the stream;
//   - rows(): the rows on the screen, in document order;
//   - rebuild(events): mount a fresh page from the messages the events
//     stored, as an app reloads a conversation, and return its rows
//     (the reconstruct capability: toolsim's reload oracle compares them
//     with the live page).
//
// reset, apply, finish and rebuild return promises that resolve once the
// page settled: React (or whatever renders) committed, and the DOM stayed
// quiet for a rule of the page's own, never a wall-clock sleep. The
// kit's rule is browser/page/settle.js, which the example pages import:
// quiet(el) waits for three task turns in a row in which a
// MutationObserver saw no change. The kit loads the page with
// prefers-reduced-motion: reduce, so nothing animates in.
//
// A row is a JSON object {kind, id, name, status, text, level,
// interrupted}: kind is "tool", "assistant", "thinking", "user", "notice"
// or "separator"; a tool row has id, name and status (a timeline status:
// running, pending, ok, failed, interrupted, denied). The page's row
// reader decides them from what a user or a screen reader sees: roles,
// labels, data attributes. The kit's reader, browser/page/rows.js, reads
// the example pages' markup given each page's labels, and
// browser/page/build.mjs bundles an example page with esbuild.
//
// Uncaught exceptions and console errors of the page (React's warnings
// about duplicate keys or act are console errors in a development build)
// fail the engine with an error naming them: toolsim reports them as
// engine findings.
package browser
