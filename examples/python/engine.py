"""A small agent-UI engine in Python: SPEC §2 of toolsim in ~150 lines.

It turns tool-call events into a timeline (items, tool groups, statuses),
pairing results by id, never by position. It knows nothing of the protocol:
adapter.py puts it behind toolsim-engine/1. `bug` plants one of the classic
mistakes, so you can watch toolsim catch and shrink it.
"""

TERMINAL = {"ok", "failed", "interrupted", "denied"}
KINDS = {"turn_start", "user", "thinking", "text", "tool_start", "tool_progress",
         "tool_done", "permission", "cancel", "error", "turn_end",
         "tool_update", "compact"}  # the last two: trace format v1 revision 2


class Engine:
    def __init__(self, meta_tools=(), bug=None):
        self.meta = set(meta_tools)
        self.bug = bug
        self.items = []      # top-level items, in display order
        self.slots = {}      # id -> {"live": [tools, oldest first], "last": tool}
        self.early = {}      # id -> results that came before their start
        self.started = []    # tools in start order
        self.run = None      # (container, item) of the current run of starts
        self.open_text = None
        self.now = 0
        self.role = None
        self.cancelled = False
        # What changed, for an adapter that sends only that: the indices of
        # the top-level items touched since take_changed, and the top-level
        # item each tool lives under (by the tool's identity).
        self.changed = set()
        self.index_of = {}   # id(top-level item) -> its index
        self.top_of = {}     # id(tool) -> its top-level item

    def take_changed(self):
        """The indices of the top-level items added or changed since the
        last call, in order; an adapter encodes only those."""
        out, self.changed = sorted(self.changed), set()
        return out

    def append(self, item):
        self.index_of[id(item)] = len(self.items)
        self.changed.add(len(self.items))
        self.items.append(item)

    def touch(self, tool):
        self.changed.add(self.index_of[id(self.top_of[id(tool)])])

    def touch_item(self, item):
        self.changed.add(self.index_of[id(item)])

    # --- events -----------------------------------------------------------
    def apply(self, ev):
        self.now = ev["t"]
        kind = ev["kind"]
        if kind not in ("tool_start", "tool_update") and kind in KINDS:
            self.run = None  # unknown kinds only move the clock; an update amends a call
        handler = getattr(self, "on_" + kind, None)
        if handler:
            handler(ev)

    def on_turn_start(self, ev):
        self.open_text, self.role, self.cancelled = None, ev.get("role"), False

    def on_turn_end(self, ev):
        self.open_text = None
        self.early.clear()
        self.interrupt_live()
        if self.role != "user" and not self.cancelled:
            self.append({"kind": "separator", "text": "Turn complete"})
        self.role, self.cancelled = None, False

    def on_user(self, ev):
        self.open_text = None
        self.append({"kind": "user", "text": ev["text"]})

    def on_text(self, ev):
        self.add_text("assistant", ev["text"])

    def on_thinking(self, ev):
        self.add_text("thinking", ev["text"])

    def on_error(self, ev):
        self.open_text = None
        self.append({"kind": "notice", "level": "error", "text": ev["message"]})

    def on_cancel(self, ev):
        if self.open_text is not None and self.open_text["kind"] == "assistant" and self.items and self.items[-1] is self.open_text:
            self.open_text["interrupted"] = True
            self.touch_item(self.open_text)
        self.open_text = None
        spinner = self.live()[-1:] if self.bug == "spinner" else []
        self.interrupt_live()
        for tool in spinner:
            tool["status"] = "running"  # the planted bug: one spinner survives
            self.touch(tool)
        self.append({"kind": "notice", "level": "interrupted", "text": ev.get("reason", "")})
        self.cancelled = True

    def finish(self):
        self.early.clear()
        self.interrupt_live()
        self.run = None

    # --- tools ------------------------------------------------------------
    def on_tool_start(self, ev):
        tid = ev.get("id", "")
        if not tid:
            return
        self.open_text = None
        tool = {"id": tid, "name": ev["name"], "status": "running", "start_t": ev["t"]}
        if ev.get("batch"):
            tool["batch"] = ev["batch"]
        container = self.items
        parent = self.parent_of(ev.get("parent", ""))
        if parent is not None:
            tool["parent"] = ev["parent"]
            container = parent.setdefault("children", [])
        item = self.place(container, tool)
        top = item if parent is None else self.top_of[id(parent)]
        self.top_of[id(tool)] = top
        self.touch_item(top)
        slot = self.slots.setdefault(tid, {"live": [], "last": None})
        slot["live"].append(tool)
        slot["last"] = tool
        self.started.append(tool)
        if self.early.get(tid):
            self.result(tool, self.early[tid].pop(0))

    def place(self, container, tool):
        if tool["name"] in self.meta:
            item = {"kind": "meta_tool", "tool": tool}
            if tool.get("batch"):
                item["batch"] = tool["batch"]  # batch adjacency looks past it
            self.add_item(container, item)
            return item
        join = None
        batch = tool.get("batch", "")
        if not batch:
            if self.run and self.run[0] is container and not self.run[1].get("batch"):
                join = self.run[1]
        else:
            for item in reversed(container):
                if item.get("batch") == batch and item["kind"] == "meta_tool":
                    continue
                if item.get("batch") == batch and item["kind"] in ("tool", "tool_group"):
                    join = item
                break
        if join is None:
            join = {"kind": "tool", "tool": tool}
            if batch:
                join["batch"] = batch
            self.add_item(container, join)
        elif join["kind"] == "tool":
            first = join.pop("tool")
            join["kind"], join["tools"] = "tool_group", ([tool] if self.bug == "upgrade" else [first, tool])
        else:
            join["tools"].append(tool)
        self.run = (container, join)
        return join

    def add_item(self, container, item):
        if container is self.items:
            self.append(item)
        else:
            container.append(item)

    def parent_of(self, pid):
        slot = self.slots.get(pid) if pid else None
        if slot is None:
            return None
        return slot["live"][0] if slot["live"] else slot["last"]

    def live_tool(self, ev):
        """The oldest live tool with the event's id (or what a bug picks)."""
        live = self.live()
        if self.bug == "last-item" and live:
            return live[-1]
        slot = self.slots.get(ev.get("id", ""))
        if self.bug == "name-fifo" and slot and ev["kind"] == "tool_done":
            same = [t for t in live if t["name"] == slot["last"]["name"]]
            if same:
                return same[0]
        return slot["live"][0] if slot and slot["live"] else None

    def on_tool_progress(self, ev):
        tool = self.live_tool(ev)
        if tool is not None:
            tool["output"] = tool.get("output", "") + ev.get("output", "")
            tool["update_seq"] = tool.get("update_seq", 0) + 1
            self.touch(tool)

    def on_tool_update(self, ev):
        tool = self.live_tool(ev)
        if tool is not None and ev.get("name"):
            tool["name"] = ev["name"]
            self.touch(tool)

    def on_compact(self, ev):
        self.open_text = None
        item = {"kind": "compaction"}
        if ev.get("text"):
            item["text"] = ev["text"]
        self.append(item)

    def on_tool_done(self, ev):
        tid = ev.get("id", "")
        if tid and tid not in self.slots:
            self.early.setdefault(tid, []).append(ev)  # its start may still come
            return
        tool = self.live_tool(ev)
        if tool is not None:
            self.result(tool, ev)

    def on_permission(self, ev):
        tool = self.live_tool(ev)
        if tool is None:
            return
        state = ev["state"]
        if state == "denied":
            self.end(tool, "denied")
        else:
            tool["status"] = "pending" if state == "asked" else "running"
            self.touch(tool)

    def result(self, tool, ev):
        if ev.get("output"):
            tool["output"] = ev["output"]
        if not ev.get("ok"):
            tool["error"] = ev.get("error", "")
        self.end(tool, "ok" if ev.get("ok") else "failed")
        if ev.get("duration_ms") is not None:
            tool["duration_ms"] = ev["duration_ms"]
        self.touch(tool)

    def end(self, tool, status):
        self.touch(tool)
        tool["status"], tool["end_t"] = status, self.now
        tool["duration_ms"] = max(self.now - tool["start_t"], 0)
        live = self.slots[tool["id"]]["live"]
        if tool in live:
            live.remove(tool)

    def live(self):
        return [t for t in self.started if t["status"] not in TERMINAL]

    def interrupt_live(self):
        for tool in self.live():
            self.end(tool, "interrupted")
        self.started = []

    def add_text(self, kind, text):
        if self.open_text is not None and self.open_text["kind"] == kind and self.items and self.items[-1] is self.open_text:
            self.open_text["text"] += text
            self.touch_item(self.open_text)
            return
        self.open_text = {"kind": kind, "text": text}
        self.append(self.open_text)

    def timeline(self):
        return {"diagnostics": [], "format": "toolsim-timeline/1", "items": self.items, "now": self.now}

    # --- reload -----------------------------------------------------------
    def each_tool(self, items=None):
        for item in self.items if items is None else items:
            tools = item.get("tools") or ([item["tool"]] if "tool" in item else [])
            for tool in tools:
                yield tool
                yield from self.each_tool(tool.get("children", []))


def reconstruct(log, meta_tools=(), bug=None):
    """Rebuild an engine from a persisted log (toolsim's docs/persisted-log.md):
    order the records (by seq, else by parent links, else by time), drop
    retried writes and a torn last line, expand them into events, apply
    them and end the stream. With bug "reload-cancelled-as-failed", tools
    that were cancelled or interrupted come back as failed (gemini-cli did).
    """
    engine = Engine(meta_tools, bug)
    t = 0
    for seq, (ms, ev) in enumerate(log_events(log), 1):
        t = max(t, ms)  # a time going back: keep the previous one
        engine.apply(dict(ev, seq=seq, t=t))
    engine.finish()
    if bug == "reload-cancelled-as-failed":
        for tool in engine.each_tool():
            if tool["status"] == "interrupted":
                tool["status"] = "failed"
    return engine


def log_events(log):
    """The canonical events of a log, in order, each with its time in ms."""
    import json
    from datetime import datetime

    def ms(ts):
        return round((datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ") - t0).total_seconds() * 1000)

    t0, parts, seen = None, [], set()
    for line in log.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue  # a torn last line
        if "log" in rec:
            t0 = datetime.strptime(rec["t0"], "%Y-%m-%dT%H:%M:%S.%fZ")
            continue
        if t0 is None or rec.get("id") in seen:
            continue  # no header yet, or a retried write
        seen.add(rec.get("id"))
        parts.extend(record_parts(rec, len(parts)))
    for part in order(parts):
        for ev in part["events"]:
            yield ms(part["ts"]), ev


def record_parts(rec, n):
    """A record as one or two parts (a lifecycle's result sits apart) of
    {id, parent, seq, ts, file, events}."""
    kind, cid = rec.get("type"), rec.get("call_id", "")
    part = {"id": rec.get("id"), "parent": rec.get("parent"), "seq": rec.get("seq"), "ts": rec.get("ts"), "file": n}
    simple = {"turn_start": lambda: {"kind": "turn_start", "role": rec.get("role", "assistant")},
              "turn_end": lambda: {"kind": "turn_end"},
              "user_message": lambda: {"kind": "user", "text": rec.get("text", "")},
              "assistant_message": lambda: {"kind": "text", "text": rec.get("text", "")},
              "text_delta": lambda: {"kind": "text", "text": rec.get("text", "")},
              "thinking": lambda: {"kind": "thinking", "text": rec.get("text", "")},
              "thinking_delta": lambda: {"kind": "thinking", "text": rec.get("text", "")},
              "tool_call": lambda: start_event(rec),
              "tool_progress": lambda: {"kind": "tool_progress", "id": cid, "output": rec.get("output", "")},
              "tool_result": lambda: done_event(rec),
              "permission": lambda: {"kind": "permission", "id": cid, "state": rec.get("state")},
              "cancel": lambda: {"kind": "cancel", "reason": rec.get("reason", "")},
              "error": lambda: {"kind": "error", "message": rec.get("message", "")},
              "raw_event": lambda: rec.get("event") or {}}
    if kind in simple:
        return [dict(part, events=[simple[kind]()])]
    if kind != "tool_lifecycle":
        return []
    end = {"id": rec.get("id") + "#end", "parent": rec.get("end_parent"), "seq": rec.get("end_seq"),
           "ts": rec.get("end_ts") or rec.get("ts"), "file": n + 1, "events": []}
    for i in range(rec.get("updates", 0)):
        last = i == rec["updates"] - 1
        end["events"].append({"kind": "tool_progress", "id": cid, "output": rec.get("progress", "") if last else ""})
    if "ok" in rec:
        end["events"].append(done_event(rec))
    return [dict(part, events=[start_event(rec)]), end]


def start_event(rec):
    ev = {"kind": "tool_start", "id": rec.get("call_id", ""), "name": rec.get("name", ""), "args": rec.get("args") or {}}
    for key, src in (("batch", "batch"), ("parent", "parent_call")):
        if rec.get(src):
            ev[key] = rec[src]
    return ev


def done_event(rec):
    ev = {"kind": "tool_done", "id": rec.get("call_id", ""), "ok": bool(rec.get("ok"))}
    for key in ("output", "error", "duration_ms"):
        if rec.get(key) is not None:
            ev[key] = rec[key]
    return ev


def order(parts):
    """Parts in event order: by seq when the log numbers records, else by
    walking parent links from the roots, else by time and file order."""
    by_time = sorted(parts, key=lambda p: (p["ts"] or "", p["file"]))
    if parts and parts[0]["seq"] is not None:
        used = {}
        for p in parts:
            if p["seq"] is not None:
                used.setdefault(p["seq"], p)  # a seq already used: a retried write
        return [used[s] for s in sorted(used)]
    if not any(p["parent"] for p in parts):
        return by_time
    ids = {p["id"] for p in parts}
    children = {}
    for p in by_time:
        children.setdefault(p["parent"], []).append(p)
    out = []
    for root in (p for p in by_time if p["parent"] not in ids):
        stack = [root]
        while stack:
            p = stack.pop()
            out.append(p)
            stack.extend(reversed(children.get(p["id"], [])))
    return out
