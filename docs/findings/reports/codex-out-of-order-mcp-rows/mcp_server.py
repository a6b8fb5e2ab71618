#!/usr/bin/env python3
"""A stdio MCP server with one tool, wait(seconds, label), that answers
each call on its own thread after `seconds` (stdlib only)."""
import json, sys, threading, time

lock = threading.Lock()

def send(msg):
    with lock:
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()

def call(mid, args):
    time.sleep(float(args.get("seconds", 1)))
    send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": "waited " + str(args.get("label"))}]}})

for line in sys.stdin:
    m = json.loads(line)
    method, mid = m.get("method"), m.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": m["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "repro", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{"name": "wait", "description": "Wait, then answer.", "annotations": {"readOnlyHint": True},
              "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}, "label": {"type": "string"}}}}]}})
    elif method == "tools/call":
        threading.Thread(target=call, args=(mid, m["params"].get("arguments") or {}), daemon=True).start()
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
