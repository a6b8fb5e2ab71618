// The kit's settle rule for a page under toolsim-browser (browser/doc.go),
// shared by every example page: import it by its relative path and the
// page's bundler (esbuild) takes it in. No wall-clock sleep anywhere.

// turn resolves after one task turn: a MessageChannel message, the queue
// React's scheduler commits in, without the 4 ms clamp of setTimeout or
// the 16 ms of an animation frame. Waiters resolve in the order they
// asked.
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();
export const turn = () => new Promise((resolve) => { waiting.push(resolve); channel.port2.postMessage(0); });

// quiet resolves once el saw no DOM change (a MutationObserver on the
// whole subtree) over three task turns in a row; it rejects after 10,000
// turns that all changed something, naming the rule.
export async function quiet(el) {
  let changed = false;
  const mo = new MutationObserver(() => { changed = true; });
  mo.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    for (let calm = 0, turns = 0; calm < 3; turns++) {
      if (turns > 10000) throw new Error('the page never settled: 10,000 task turns each changed the DOM');
      await turn();
      mo.takeRecords().length && (changed = true);
      calm = changed ? 0 : calm + 1;
      changed = false;
    }
  } finally {
    mo.disconnect();
  }
}
