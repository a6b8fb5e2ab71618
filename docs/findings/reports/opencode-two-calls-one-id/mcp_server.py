#!/usr/bin/env python3
"""A stdio MCP server with two tools, grep and read, that answer at once
and append each call to the log file named by its argument (stdlib only)."""
import json, sys

def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()

schema = {"type": "object", "properties": {"path": {"type": "string"}}}
for line in sys.stdin:
    m = json.loads(line)
    method, mid = m.get("method"), m.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": m["params"]["protocolVersion"],
              "capabilities": {"tools": {}}, "serverInfo": {"name": "repro", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [
            {"name": n, "description": n + " a file", "inputSchema": schema} for n in ("grep", "read")]}})
    elif method == "tools/call":
        name = m["params"]["name"]
        with open(sys.argv[1], "a") as log:
            log.write("mcp: tools/call %s %s\n" % (name, json.dumps(m["params"].get("arguments"))))
        send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": name + " done"}]}})
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
