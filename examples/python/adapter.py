#!/usr/bin/env python3
"""toolsim-engine/1 adapter for engine.py: JSON lines on stdin and stdout.

    toolsim check --engine 'python3 examples/python/adapter.py' trace.jsonl
    toolsim fuzz  --engine 'python3 examples/python/adapter.py' --seeds 500
    toolsim fuzz  --engine 'python3 examples/python/adapter.py --bug spinner'

Every message gets exactly one reply with the same id (a batch: one timeline
per event, plus one for finish). Standard library only.
"""
import json
import sys

from engine import Engine

PROTOCOL = "toolsim-engine/1"


def main():
    bug = sys.argv[sys.argv.index("--bug") + 1] if "--bug" in sys.argv else None
    meta = []
    engine = Engine(meta, bug)
    out = sys.stdout

    def reply(**fields):
        out.write(json.dumps(fields, separators=(",", ":")) + "\n")

    def timeline(mid, index=0):
        reply(type="timeline", id=mid, index=index, timeline=engine.timeline())

    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind, mid = msg["type"], msg.get("id", 0)
        if kind == "init":
            if msg.get("protocol") != PROTOCOL:
                reply(type="error", id=mid, message="this adapter speaks " + PROTOCOL)
                continue
            meta = (msg.get("options") or {}).get("meta_tools") or []
            engine = Engine(meta, bug)
            reply(type="init_ok", id=mid, protocol=PROTOCOL, capabilities=["timeline", "batch"],
                  fields=["output", "update_seq", "error"])
        elif kind == "event":
            engine.apply(msg["event"])
            timeline(mid)
        elif kind == "batch":
            for i, ev in enumerate(msg["events"]):
                engine.apply(ev)
                timeline(mid, i)
            if msg.get("finish"):
                engine.finish()
                timeline(mid, len(msg["events"]))
        elif kind == "finish":
            engine.finish()
            timeline(mid)
        elif kind == "reset":
            engine = Engine(meta, bug)
            timeline(mid)
        else:
            reply(type="error", id=mid, message="unsupported message type " + kind)
        out.flush()


if __name__ == "__main__":
    main()
