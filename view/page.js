"use strict";
window.addEventListener("error", (e) => {
  const p = document.createElement("pre");
  p.id = "script-error";
  p.textContent = "the page's script failed: " + e.message;
  document.body.prepend(p);
});
(function () {
  const M = JSON.parse(document.getElementById("data").textContent);
  const N = M.ek.length; // events; step N is after the end-of-stream rule
  const SVG = "http://www.w3.org/2000/svg";
  const H = 18, LABEL = 190, MARGIN = 120; // lane height, label width, lanes drawn beyond the visible ones
  const $ = (id) => document.getElementById(id);

  // Lines: a string, or [base, prefix, suffix, middle] (an edit of base).
  const L = new Array(M.lines.length);
  for (let i = 0; i < M.lines.length; i++) {
    const c = M.lines[i];
    if (typeof c === "string") { L[i] = c; continue; }
    const b = L[c[0]];
    L[i] = b.slice(0, c[1]) + c[3] + b.slice(b.length - c[2]);
  }
  const itemText = new Array(M.items.length);
  function textOf(id) {
    let t = itemText[id];
    if (t === undefined) {
      t = "";
      for (const l of M.items[id]) t += L[l] + "\n";
      itemText[id] = t;
    }
    return t;
  }

  // Render state: the item ids after a step, rebuilt from checkpoints.
  const EVERY = 2048;
  const checkpoints = [[]]; // checkpoints[k] = state after step k*EVERY-1 (k=0: before any event)
  let state = [], at = -1; // state after step `at` (-1: nothing applied)
  function apply(s, d) {
    s.length = d[0];
    for (let j = 1; j < d.length; j += 2) s[d[j]] = d[j + 1];
  }
  function seekState(i) {
    const k = Math.min(Math.floor((i + 1) / EVERY), checkpoints.length - 1);
    if (i < at || k * EVERY - 1 > at) {
      state = checkpoints[k].slice();
      at = k * EVERY - 1;
    }
    while (at < i) {
      at++;
      apply(state, M.steps[at]);
      if ((at + 1) % EVERY === 0 && checkpoints.length === (at + 1) / EVERY) checkpoints.push(state.slice());
    }
    return state;
  }
  function renderAt(i) { return seekState(i).map(textOf).join("\n"); }

  // Views of the trace.
  const tools = M.tools, nt = tools.length;
  const lanesOf = new Array(N).fill(-1);
  const diagsByTool = new Map(), globalDiags = [];
  for (const d of M.diags) {
    if (d.tool >= 0) { if (!diagsByTool.has(d.tool)) diagsByTool.set(d.tool, []); diagsByTool.get(d.tool).push(d); }
    else globalDiags.push(d);
  }
  const kind = (i) => M.kinds[M.ek[i]];
  const cancels = [], turnEnds = [];
  for (let i = 0; i < N; i++) {
    if (kind(i) === "cancel") cancels.push(i);
    else if (kind(i) === "turn_end") turnEnds.push(i);
  }
  const rows = nt + 1; // row 0: the trace itself (errors, diagnostics without a tool)

  let x0 = 0, x1 = N + 1, cur = 0;
  const scroll = $("scroll"), spacer = $("spacer"), svg = $("lanes"), axis = $("axis");
  spacer.style.height = rows * H + "px";
  scroll.style.height = Math.min(rows * H + 4, Math.max(window.innerHeight * 0.72, 200)) + "px";

  // The panel's width, read once per drawing: reading it after changing
  // the DOM would force a layout for every coordinate.
  let W = 300;
  function width() { return W; }
  function px(x) { return LABEL + (x - x0) / (x1 - x0) * (W - LABEL - 6); }
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  // perPixel keeps one x per pixel column of a sorted list of steps.
  function perPixel(xs, lo, hi) {
    const out = []; let last = -1;
    for (const x of xs) {
      if (x < lo || x > hi) continue;
      const p = Math.round(px(x + 0.5));
      if (p !== last) { out.push(x); last = p; }
    }
    return out;
  }

  function drawLanes() {
    W = Math.max(scroll.clientWidth, 300);
    const w = W;
    svg.setAttribute("width", w);
    const first = Math.max(0, Math.floor(scroll.scrollTop / H) - MARGIN);
    const last = Math.min(rows - 1, Math.ceil((scroll.scrollTop + scroll.clientHeight) / H) + MARGIN);
    svg.style.top = first * H + "px";
    svg.setAttribute("height", (last - first + 1) * H);
    svg.replaceChildren();
    svg.dataset.first = first; svg.dataset.last = last;
    const lanesG = el("g", {}, svg);
    for (let r = first; r <= last; r++) drawRow(lanesG, r, (r - first) * H);
    const over = el("g", { class: "overlay" }, svg);
    const y1 = (last - first + 1) * H;
    // A kind of line denser than one per 4 pixels would hide the bars:
    // it is left out until zoomed in (the header says so).
    const room = (w - LABEL) / 4, hidden = [];
    for (const [xs, cls, name] of [[turnEnds, "turn-end", "turn ends"], [cancels, "cancel", "cancels"]]) {
      const shown = perPixel(xs, x0, x1);
      if (shown.length > room) { hidden.push(name); continue; }
      for (const x of shown) vline(over, x, cls, y1);
    }
    $("lanes-title").textContent = `tool calls (${nt} lanes; x = event order, events ${Math.floor(x0) + 1}–${Math.min(Math.ceil(x1), N)}; bar = start → final status)` +
      (hidden.length ? ` · too dense to draw: ${hidden.join(", ")} (zoom in)` : "");
    for (const g of M.groups) {
      if (g.to < first - 1 || g.from > last - 1) continue;
      const ya = (g.from + 1 - first) * H + 3, yb = (g.to + 2 - first) * H - 3;
      el("path", { class: "group", d: `M${LABEL - 2},${ya} h-5 V${yb} h5`, "data-batch": g.batch }, over);
    }
    if (M.failure && M.failure.ev >= 0) vline(over, M.failure.ev, "failure", y1);
    vline(over, cur, "cursor", y1);
    drawAxis(w);
  }
  function vline(parent, x, cls, y1) {
    const p = px(x + 0.5);
    el("line", { class: "vline " + cls, x1: p, x2: p, y1: 0, y2: y1, "data-ev": x }, parent);
  }
  function drawRow(parent, r, y) {
    const g = el("g", { class: "lane", transform: `translate(0,${y})` }, parent);
    el("rect", { class: "bg", x: 0, y: 0, width: width(), height: H }, g);
    if (r === 0) {
      g.setAttribute("class", "lane trace-row");
      el("text", { x: 4, y: 13 }, g).textContent = "(trace)";
      for (const d of globalDiags) diamond(g, d);
      return;
    }
    const ti = r - 1, t = tools[ti];
    g.setAttribute("class", "lane tool" + (ti === lanesOf[cur] ? " current" : ""));
    g.dataset.tool = t.id; g.dataset.status = t.status; g.dataset.lane = ti; g.dataset.depth = t.depth;
    if (t.parent >= 0) g.dataset.parent = tools[t.parent].id;
    const lx = 4 + 10 * Math.min(t.depth, 8), room = Math.max(4, Math.floor((LABEL - 12 - lx) / 6.7));
    const full = (t.depth ? "↳ " : "") + t.name + " " + t.id;
    const label = el("text", { x: lx, y: 13 }, g);
    label.textContent = full.length > room ? full.slice(0, room - 1) + "…" : full;
    el("title", {}, label).textContent = t.name + " " + t.id;
    const end = t.end >= 0 ? t.end : N;
    const a = Math.max(px(t.start), LABEL), b = Math.min(px(end + 1), width());
    if (b >= LABEL && a <= width()) {
      const bar = el("rect", { class: "bar st-" + t.status, x: a, y: 3, width: Math.max(b - a, 2), height: H - 6, rx: 2, "data-lane": ti }, g);
      bar.addEventListener("click", () => showTool(ti));
      bar.addEventListener("mousemove", (e) => tip(e, t.name + " " + t.id + "\n" + t.status + " · events " + (t.start + 1) + "–" + (end + 1)));
      bar.addEventListener("mouseleave", hideTip);
      pendings(g, t);
      for (const k of perPixel(t.ticks || [], x0, x1)) {
        const p = px(k + 0.5);
        el("line", { class: "tick", x1: p, x2: p, y1: 4, y2: H - 4 }, g);
      }
    }
    for (const d of diagsByTool.get(ti) || []) diamond(g, d);
  }
  function pendings(g, t) {
    const c = t.changes;
    for (let j = 0; j < c.length; j += 2) {
      if (c[j + 1] !== "pending") continue;
      const to = j + 2 < c.length ? c[j + 2] : N;
      const a = Math.max(px(c[j] + 1), LABEL), b = Math.min(px(to + 1), width());
      if (b > a) el("rect", { class: "pend", x: a, y: 3, width: b - a, height: H - 6 }, g);
    }
  }
  function diamond(g, d) {
    if (d.ev < x0 || d.ev > x1) return;
    const p = px(d.ev + 0.5);
    const m = el("path", { class: "marker diag", d: `M${p},2 l5,7 l-5,7 l-5,-7 z`, "data-code": d.code, "data-seq": d.seq }, g);
    m.addEventListener("click", () => { seek(d.ev); showDiag(d); });
    m.addEventListener("mousemove", (e) => tip(e, "diagnostic " + d.code + (d.id ? " (" + d.id + ")" : "") + " at seq " + d.seq));
    m.addEventListener("mouseleave", hideTip);
  }
  function drawAxis(w) {
    axis.setAttribute("width", w);
    axis.replaceChildren();
    const span = x1 - x0, stepPx = 90, n = Math.max(1, Math.floor((w - LABEL) / stepPx));
    let unit = Math.pow(10, Math.floor(Math.log10(Math.max(span / n, 1))));
    while (span / unit > n) unit *= unit.toString()[0] === "2" ? 2.5 : 2;
    el("text", { x: 4, y: 13, class: "mono", "font-size": 11, fill: "#6a6f75" }, axis).textContent = "event";
    for (let x = Math.ceil(x0 / unit) * unit; x <= Math.min(x1, N); x += unit) {
      const p = px(x);
      el("line", { x1: p, x2: p, y1: 12, y2: 18, stroke: "#999" }, axis);
      el("text", { x: p + 2, y: 11, "font-size": 10, fill: "#6a6f75" }, axis).textContent = x < N ? String(x + 1) : "end";
    }
  }

  // Details and tooltips: all text goes through textContent.
  const tipEl = $("tip");
  function tip(e, s) { tipEl.textContent = s; tipEl.style.display = "block"; tipEl.style.left = e.clientX + 12 + "px"; tipEl.style.top = e.clientY + 12 + "px"; }
  function hideTip() { tipEl.style.display = "none"; }
  function field(dl, name, value, pre) {
    if (value === undefined || value === "" || value === null) return;
    el0("dt", dl).textContent = name;
    const dd = el0("dd", dl);
    if (pre) el0("pre", dd).textContent = value; else dd.textContent = value;
  }
  function el0(name, parent) { const e = document.createElement(name); parent.appendChild(e); return e; }
  function pretty(s) { try { return JSON.stringify(JSON.parse(s), null, 2); } catch (e) { return s; } }
  function raw(i) {
    if (i < 0 || i >= N) return "";
    const r = M.raw[i];
    return r.startsWith("{") ? r : `{"seq":${M.es[i]},"t":${M.et[i]},"kind":${JSON.stringify(kind(i))}` + r;
  }
  function showTool(ti) {
    const t = tools[ti], body = $("details-body");
    body.replaceChildren();
    body.dataset.tool = t.id;
    const dl = el0("dl", body);
    field(dl, "tool", t.name + " " + t.id + (t.meta ? " (meta)" : ""));
    field(dl, "status", t.status + (t.end >= 0 ? " at " + (t.end < N ? "event " + (t.end + 1) : "end of stream") : ""));
    const moves = [];
    for (let j = 0; j < t.changes.length; j += 2) moves.push(t.changes[j + 1] + "@" + (t.changes[j] < N ? t.changes[j] + 1 : "end"));
    field(dl, "status changes", moves.join(" → "));
    if (t.parent >= 0) field(dl, "parent", tools[t.parent].name + " " + tools[t.parent].id);
    field(dl, "batch", t.batch);
    field(dl, "summary", t.summary);
    field(dl, "args", pretty(t.args), true);
    field(dl, "output", t.output, true);
    field(dl, "error", t.error, true);
    field(dl, "start event", raw(t.start), true);
    field(dl, "done event", raw(t.done), true);
  }
  function showDiag(d) {
    const body = $("details-body");
    body.replaceChildren();
    const dl = el0("dl", body);
    field(dl, "diagnostic", d.code + (d.id ? " for " + d.id : ""));
    field(dl, "event", raw(d.ev), true);
  }

  function seek(i) {
    cur = Math.max(0, Math.min(N, i | 0));
    $("scrub").value = cur;
    const ev = $("event"), pos = $("pos");
    if (cur < N) {
      pos.textContent = `event ${cur + 1}/${N} · seq ${M.es[cur]} · t=${M.et[cur]}ms · ${kind(cur)}` + (M.failure && M.failure.ev === cur ? " · FAILING EVENT" : "");
      ev.textContent = raw(cur) + (M.raw[cur].endsWith("…") ? "  (cut: the page keeps " + M.rawcut + " bytes of each event)" : "");
    } else {
      pos.textContent = `end of stream (after event ${N}) · end-of-stream rule applied`;
      ev.textContent = "(end of stream: no event)";
    }
    ev.dataset.seq = cur < N ? M.es[cur] : "";
    if (x1 - x0 < N + 1 && (cur < x0 || cur > x1)) { const s = x1 - x0; x0 = Math.max(0, Math.min(N + 1 - s, cur - s / 2)); x1 = x0 + s; }
    let lane = cur < N ? lanesOf[cur] : -1;
    if (lane < 0 && i !== N) lane = tools.findIndex((t) => t.start >= cur); // the next call to start
    if (lane >= 0) { // keep the event's lane (or the next call's) in view
      const y = (lane + 1) * H;
      if (y < scroll.scrollTop || y + H > scroll.scrollTop + scroll.clientHeight) scroll.scrollTop = Math.max(0, y - scroll.clientHeight / 3);
    }
    drawLanes();
    showRender();
  }

  // showRender shows the render after the current step, the items this
  // step changed marked. A long render is shown as a window of about
  // LIMIT lines around the change (toolsimView.renderAt has all of it).
  // It runs after the lanes are drawn: it forces one layout.
  const LIMIT = 3000;
  let focus = -1;
  function showRender() {
    const items = seekState(cur), d = M.steps[cur], pre = $("render");
    let lo = Infinity, hi = -1;
    for (let j = 1; j < d.length; j += 2) { lo = Math.min(lo, d[j]); hi = Math.max(hi, d[j]); }
    const size = (k) => M.items[items[k]].length + 1;
    let total = 0;
    for (let k = 0; k < items.length; k++) total += size(k);
    let a = 0, b = items.length;
    if (total > LIMIT) {
      focus = hi >= 0 ? lo : Math.min(focus < 0 ? items.length - 1 : focus, items.length - 1);
      a = Math.max(focus, 0); b = hi >= 0 ? hi + 1 : a + 1;
      let n = 0;
      for (let k = a; k < b; k++) n += size(k);
      while (n < LIMIT && (a > 0 || b < items.length)) {
        if (a > 0) n += size(--a);
        if (b < items.length && n < LIMIT) n += size(b++);
      }
    }
    const join = (from, to) => items.slice(from, to).map(textOf).join("\n");
    pre.replaceChildren();
    const note = (text) => { const e = document.createElement("span"); e.className = "elided"; e.textContent = text; pre.append(e); };
    if (a > 0) note(`… ${a} items above (the render has ${total} lines; shown: the part around this event)\n\n`);
    let mark = null;
    if (hi < 0) pre.append(join(a, b));
    else {
      pre.append(join(a, lo) + (lo > a ? "\n" : ""));
      mark = document.createElement("mark");
      mark.textContent = join(lo, hi + 1);
      pre.append(mark, (hi + 1 < b ? "\n" : "") + join(hi + 1, b));
    }
    if (b < items.length) note(`\n… ${items.length - b} items below`);
    else if (cur === N && M.legend) pre.append((items.length ? "\n" : "") + M.legend + "\n");
    pre.dataset.step = cur;
    pre.dataset.window = a > 0 || b < items.length ? "1" : "";
    if (mark) {
      const top = mark.offsetTop - pre.offsetTop;
      if (top < pre.scrollTop || top > pre.scrollTop + pre.clientHeight - 20) pre.scrollTop = Math.max(0, top - 40);
    } else if (b === items.length && a > 0) {
      pre.scrollTop = pre.scrollHeight; // nothing changed: show the latest items
    }
  }

  function zoom(f) {
    const s = Math.max(8, Math.min(N + 1, (x1 - x0) * f));
    x0 = Math.max(0, Math.min(N + 1 - s, cur + 0.5 - s / 2)); x1 = x0 + s;
    drawLanes();
  }

  function header() {
    $("title").textContent = M.title + (M.source ? " (" + M.source + ")" : "");
    $("summary").textContent = `${N} events · ${nt} tool calls · ${M.groups.length} groups · ${M.diags.length} diagnostics · ${cancels.length} cancels · ${turnEnds.length} turn ends`;
    document.title = "toolsim view: " + M.title;
    $("render-title").textContent = `render (plain, width ${M.width}) after the selected event`;
    const f = M.failure;
    if (!f) return;
    $("failure").hidden = false;
    $("failure-title").textContent = `FAIL: oracle ${f.oracle} after seq ${f.seq}`;
    $("failure-detail").textContent = f.detail;
    $("failure-repro").textContent = f.reproduce || "";
    if (f.diff) {
      const pre = $("failure-diff");
      pre.hidden = false;
      el0("div", pre).textContent = "(-want +got):";
      for (const line of f.diff.replace(/\n$/, "").split("\n")) {
        const s = el0("div", pre);
        s.textContent = line;
        const c = line.trimStart()[0];
        if (c === "-") s.className = "del"; else if (c === "+") s.className = "add";
      }
    }
    if (f.engine !== undefined || f.reference !== undefined) {
      $("compare").hidden = false;
      $("engine-render").textContent = f.engine || "";
      $("reference-render").textContent = f.reference || "";
    }
  }

  for (let i = 0; i < N; i++) if (M.etool[i] >= 0) lanesOf[i] = M.etool[i];
  header();
  const scrub = $("scrub");
  scrub.max = N;
  scrub.addEventListener("input", () => seek(+scrub.value));
  $("prev").addEventListener("click", () => seek(cur - 1));
  $("next").addEventListener("click", () => seek(cur + 1));
  $("zoom-in").addEventListener("click", () => zoom(0.25));
  $("zoom-out").addEventListener("click", () => zoom(4));
  $("zoom-fit").addEventListener("click", () => { x0 = 0; x1 = N + 1; drawLanes(); });
  let pending = false;
  scroll.addEventListener("scroll", () => { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; drawLanes(); }); } });
  window.addEventListener("resize", () => drawLanes());
  document.addEventListener("keydown", (e) => {
    if (e.target === scrub) return;
    if (e.key === "ArrowLeft") seek(cur - 1); else if (e.key === "ArrowRight") seek(cur + 1);
  });
  window.toolsimView = { seek, renderAt, redraw: drawLanes, model: M, step: () => cur };
  // #event=K in the address opens the page at event K (1-based), and
  // &tool=ID with that tool's details shown. A long trace opens zoomed to
  // 2,000 events around that event.
  const linked = new URLSearchParams(location.hash.slice(1));
  const first = parseInt(linked.get("event"), 10);
  const start = first > 0 ? Math.min(first - 1, N) : M.failure && M.failure.ev >= 0 ? M.failure.ev : N;
  if (N > 4000) { x0 = Math.max(0, Math.min(N + 1 - 2000, start - 1000)); x1 = x0 + 2000; }
  seek(start);
  const shown = tools.findIndex((t) => t.id === linked.get("tool"));
  if (shown >= 0) showTool(shown);
  document.body.dataset.ready = "1";
})();
