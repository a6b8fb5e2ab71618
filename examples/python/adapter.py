#!/usr/bin/env python3
"""toolsim-engine/1 adapter for engine.py: JSON lines on stdin and stdout.

    toolsim check --engine 'python3 examples/python/adapter.py' trace.jsonl
    toolsim fuzz  --engine 'python3 examples/python/adapter.py' --seeds 500
    toolsim fuzz  --engine 'python3 examples/python/adapter.py --bug spinner'

Every message gets exactly one reply with the same id (a batch: one timeline
per event, plus one for finish). Timelines after events go out as deltas
(the "delta" capability): only the items the engine added or changed since
the previous reply, which it tracks as it changes them (Engine.take_changed),
so an event costs the items it touched, never an encoding of them all;
--no-delta sends whole timelines. A batch's replies are written to one
buffer and flushed once. Standard library only.
"""
import json
import sys

from engine import Engine, reconstruct

PROTOCOL = "toolsim-engine/1"
SEP = (",", ":")


class Adapter:
    def __init__(self, bug, delta):
        self.bug, self.delta, self.partial = bug, delta, False
        self.meta = []
        self.engine = Engine(self.meta, bug)
        self.out = sys.stdout

    def reply(self, **fields):
        self.out.write(json.dumps(fields, separators=SEP) + "\n")

    def timeline(self, mid, index=0, delta=True):
        """Answer with the timeline: the items the engine changed since the
        previous reply, or the whole timeline."""
        eng = self.engine
        changed = eng.take_changed()
        head = '{"type":"timeline","id":%d,"index":%d,' % (mid, index)
        if delta and self.delta:
            body = '"delta":{"len":%d,"now":%d,"items":{%s}}' % (len(eng.items), eng.now, ",".join(
                '"%d":%s' % (i, json.dumps(eng.items[i], separators=SEP)) for i in changed))
        else:
            body = '"timeline":{"diagnostics":[],"format":"toolsim-timeline/1","now":%d,"items":[%s]}' % (
                eng.now, ",".join(json.dumps(item, separators=SEP) for item in eng.items))
        self.out.write(head + body + "}\n")

    def handle(self, msg):
        kind, mid = msg["type"], msg.get("id", 0)
        if kind == "init":
            if msg.get("protocol") != PROTOCOL:
                self.reply(type="error", id=mid, message="this adapter speaks " + PROTOCOL)
                return
            self.meta = (msg.get("options") or {}).get("meta_tools") or []
            self.engine = Engine(self.meta, self.bug)
            caps = ["timeline", "batch", "reconstruct"] + (["delta"] if self.delta else [])
            if self.partial:  # a small UI: no optional field, only tools, text and cancel
                self.reply(type="init_ok", id=mid, protocol=PROTOCOL, capabilities=caps,
                           fields=[], features=["tools", "text", "cancel"])
            else:
                self.reply(type="init_ok", id=mid, protocol=PROTOCOL, capabilities=caps,
                           fields=["output", "update_seq", "error"])
        elif kind == "event":
            self.engine.apply(msg["event"])
            self.timeline(mid)
        elif kind == "batch":
            for i, ev in enumerate(msg["events"]):
                self.engine.apply(ev)
                self.timeline(mid, i)
            if msg.get("finish"):
                self.engine.finish()
                self.timeline(mid, len(msg["events"]))
        elif kind == "finish":
            self.engine.finish()
            self.timeline(mid)
        elif kind == "reset":
            self.engine = Engine(self.meta, self.bug)
            self.timeline(mid, delta=False)
        elif kind == "reconstruct":
            self.engine = reconstruct(msg.get("log", ""), self.meta, self.bug)
            self.timeline(mid, delta=False)
        else:
            self.reply(type="error", id=mid, message="unsupported message type " + kind)


def main():
    bug = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else None
    adapter = Adapter(bug, "--no-delta" not in sys.argv)
    adapter.partial = "--partial" in sys.argv
    for line in sys.stdin:
        if line.strip():
            adapter.handle(json.loads(line))
            adapter.out.flush()


if __name__ == "__main__":
    main()
