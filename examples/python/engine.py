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
            self.items.append({"kind": "separator", "text": "Turn complete"})
        self.role, self.cancelled = None, False

    def on_user(self, ev):
        self.open_text = None
        self.items.append({"kind": "user", "text": ev["text"]})

    def on_text(self, ev):
        self.add_text("assistant", ev["text"])

    def on_thinking(self, ev):
        self.add_text("thinking", ev["text"])

    def on_error(self, ev):
        self.open_text = None
        self.items.append({"kind": "notice", "level": "error", "text": ev["message"]})

    def on_cancel(self, ev):
        if self.open_text is not None and self.open_text["kind"] == "assistant" and self.items and self.items[-1] is self.open_text:
            self.open_text["interrupted"] = True
        self.open_text = None
        spinner = self.live()[-1:] if self.bug == "spinner" else []
        self.interrupt_live()
        for tool in spinner:
            tool["status"] = "running"  # the planted bug: one spinner survives
        self.items.append({"kind": "notice", "level": "interrupted", "text": ev.get("reason", "")})
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
        self.place(container, tool)
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
            container.append(item)
            return
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
            container.append(join)
        elif join["kind"] == "tool":
            first = join.pop("tool")
            join["kind"], join["tools"] = "tool_group", ([tool] if self.bug == "upgrade" else [first, tool])
        else:
            join["tools"].append(tool)
        self.run = (container, join)

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

    def on_tool_update(self, ev):
        tool = self.live_tool(ev)
        if tool is not None and ev.get("name"):
            tool["name"] = ev["name"]

    def on_compact(self, ev):
        self.open_text = None
        item = {"kind": "compaction"}
        if ev.get("text"):
            item["text"] = ev["text"]
        self.items.append(item)

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

    def result(self, tool, ev):
        if ev.get("output"):
            tool["output"] = ev["output"]
        if not ev.get("ok"):
            tool["error"] = ev.get("error", "")
        self.end(tool, "ok" if ev.get("ok") else "failed")
        if ev.get("duration_ms") is not None:
            tool["duration_ms"] = ev["duration_ms"]

    def end(self, tool, status):
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
            return
        self.open_text = {"kind": kind, "text": text}
        self.items.append(self.open_text)

    def timeline(self):
        return {"diagnostics": [], "format": "toolsim-timeline/1", "items": self.items, "now": self.now}
