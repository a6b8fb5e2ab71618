#!/usr/bin/env python3
"""A scripted Gemini API endpoint for the repro (stdlib only).

The first streamGenerateContent request that offers the MCP tool wait
gets one response with two calls of it: fast (1 s), then slow (4 s).
Every later request that offers tools gets the text "Done.". A request
without tools (Gemini CLI's routing, next-speaker and loop checks) gets
a value of the JSON schema it asks for, else the text "repro".
countTokens gets a count. With a second argument, a file, each request
that offers tools is logged there as a line: its contents, each as its
role and its parts' kinds (functionCall and functionResponse with their
ids), so what the model was told of earlier calls can be read.
"""
import http.server, json, sys, threading

TOOL = "mcp_repro_wait"  # Gemini CLI's name for the MCP tool wait of server repro
state = {"sent_calls": False, "n": 0}
lock = threading.Lock()


def sample(s, depth=0):
    """A value valid for JSON schema node s (first enum, every property)."""
    if not isinstance(s, dict) or depth > 10:
        return {}
    if "enum" in s and s["enum"]:
        return s["enum"][0]
    for k in ("anyOf", "oneOf", "allOf"):
        if s.get(k):
            return sample(s[k][0], depth + 1)
    t = str(s.get("type", "object")).lower()
    if t == "object":
        return {k: sample(v, depth + 1) for k, v in (s.get("properties") or {}).items()}
    if t == "array":
        return []
    if t in ("number", "integer"):
        return 0
    if t == "boolean":
        return False
    return "repro"


def offers_wait(body):
    """Whether the request declares the MCP tool wait."""
    return any(decl.get("name") == TOOL for tool in body.get("tools") or []
               for decl in tool.get("functionDeclarations") or [])


def parts_for(body):
    cfg = body.get("generationConfig") or {}
    schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
    if not body.get("tools"):
        if schema is not None:
            return [{"text": json.dumps(sample(schema))}]
        return [{"text": "repro"}]
    with lock:
        first = offers_wait(body) and not state["sent_calls"]
        state["sent_calls"] = state["sent_calls"] or first
    if first:
        return [{"functionCall": {"id": "call_fast", "name": TOOL, "args": {"seconds": 1, "label": "fast"}}},
                {"functionCall": {"id": "call_slow", "name": TOOL, "args": {"seconds": 4, "label": "slow"}}}]
    return [{"text": "Done."}]


def part_kind(p):
    for k in ("functionCall", "functionResponse"):
        if k in p:
            return "%s(%s)" % (k, p[k].get("id", ""))
    return "text(%r)" % p.get("text", "")[:20] if "text" in p else "+".join(sorted(p))


def log(body):
    if len(sys.argv) < 3 or not body.get("tools"):
        return
    contents = [c.get("role", "") + ": " + ", ".join(part_kind(p) for p in c.get("parts") or [])
                for c in body.get("contents") or []]
    with lock, open(sys.argv[2], "a") as f:
        f.write(json.dumps(contents) + "\n")


class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        log(body)
        if ":countTokens" in self.path:
            return self.reply("application/json", json.dumps({"totalTokens": 10}).encode())
        with lock:
            state["n"] += 1
            n = state["n"]
        chunk = {"candidates": [{"content": {"role": "model", "parts": parts_for(body)}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                 "modelVersion": "repro-model", "responseId": "repro-%d" % n}
        if ":streamGenerateContent" not in self.path:
            return self.reply("application/json", json.dumps(chunk).encode())
        if "alt=sse" in self.path:
            return self.reply("text/event-stream", ("data: " + json.dumps(chunk) + "\r\n\r\n").encode())
        self.reply("application/json", json.dumps([chunk]).encode())

    def reply(self, kind, data):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
