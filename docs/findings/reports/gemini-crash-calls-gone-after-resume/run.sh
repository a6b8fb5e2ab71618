#!/usr/bin/env bash
# Runs Gemini CLI against this folder's scripted Gemini API endpoint and
# the stdio MCP server of ../codex-out-of-order-mcp-rows (one response,
# two calls of the MCP tool wait: fast 1 s, then slow 4 s), in tmux;
# kills every Gemini CLI process of the run with SIGKILL while the slow
# call runs (a crash), starts `gemini --resume latest` in the same home,
# and prints the screen before the kill and after the resume; then types
# "again" and prints the contents of the model request it makes, and the
# chat file's messages.
# ./run.sh quit: the control: lets both calls end, quits with /quit, then
# resumes the same way.
# The home and workspace (mktemp) are kept, to read the chat file again.
# Needs gemini (npm i -g @google/gemini-cli@0.61.0, or GEMINI=path),
# python3, tmux.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
home=$(mktemp -d) work=$(mktemp -d) port=${PORT:-18183}
mkdir -p "$home/.gemini"
cat > "$home/.gemini/settings.json" <<JSON
{"security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
 "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
 "privacy": {"usageStatisticsEnabled": false},
 "mcpServers": {"repro": {"command": "python3", "args": ["$here/../codex-out-of-order-mcp-rows/mcp_server.py"], "timeout": 600000}}}
JSON
session=repro-gemini-$$
python3 "$here/model.py" "$port" "$home/requests.jsonl" & model=$!
trap 'kill "$model" 2>/dev/null || true; tmux kill-session -t "$session" 2>/dev/null || true' EXIT
sleep 0.5; kill -0 "$model" 2>/dev/null || { echo "model.py did not start (is port $port free? PORT=... picks another)"; exit 1; }
gemini="env GEMINI_CLI_HOME=$home GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:$port GEMINI_API_KEY=dummy GEMINI_CLI_NO_RELAUNCH=true ${GEMINI:-gemini} --approval-mode yolo"
tmux new-session -d -s "$session" -x 120 -y 40 -c "$work" "$gemini; touch '$home/first-ended'; clear; $gemini --resume latest; sleep 60"
screen() { tmux capture-pane -p -t "$session" | grep -v '^ *$' || true; }
ready() { # waits (up to 60 s) for the empty input box, no turn running
  for _ in $(seq 120); do
    if screen | grep -q 'Type your message' && ! screen | grep -q 'esc to cancel\|Initializing'; then return; fi
    sleep 0.5
  done
  echo "Gemini CLI never showed its prompt:"; screen; exit 1
}
ready
tmux send-keys -t "$session" "wait twice"; sleep 0.5; tmux send-keys -t "$session" Enter
for _ in $(seq 40); do screen | grep -q 'wait (repro MCP Server)' && break; sleep 0.25; done
screen | grep -q 'wait (repro MCP Server)' || { echo "no tool row within 10 s:"; screen; exit 1; }
sleep 2.5
echo "== before the kill: fast returned, slow running"; screen
if [ "${1:-kill}" = quit ]; then # the control: let the calls end, quit with /quit
  for _ in $(seq 60); do screen | grep -q 'Done\.' && break; sleep 0.25; done # the model's last answer
  ready; sleep 0.5
  for _ in 1 2 3; do # typed keys are dropped while Gemini CLI redraws: type again until they show
    tmux send-keys -t "$session" "/quit"; sleep 0.5
    if screen | grep -q '> */quit\|\* */quit'; then break; fi
    tmux send-keys -t "$session" C-u
  done
  tmux send-keys -t "$session" Enter
else
  pids=() # this run's processes: those with its GEMINI_CLI_HOME (Gemini CLI and its MCP server)
  for p in $(pgrep -f 'gemini|mcp_server.py'); do
    if grep -qzxF "GEMINI_CLI_HOME=$home" "/proc/$p/environ" 2>/dev/null; then pids+=("$p"); fi
  done
  [ ${#pids[@]} -gt 0 ] || { echo "no Gemini CLI process of this run found to kill"; exit 1; }
  kill -KILL "${pids[@]}" 2>/dev/null || true
fi
for _ in $(seq 40); do [ -e "$home/first-ended" ] && break; sleep 0.25; done
[ -e "$home/first-ended" ] || { echo "the first Gemini CLI did not end:"; screen; exit 1; }
sleep 1; ready; sleep 2
echo "== after ${1:-kill} and gemini --resume latest"; screen
done_before=$(( $(screen | grep -c 'Done\.' || true) + 1 ))
tmux send-keys -t "$session" "again"; sleep 0.5; tmux send-keys -t "$session" Enter
for _ in $(seq 40); do [ "$(screen | grep -c 'Done\.')" -ge "$done_before" ] && break; sleep 0.25; done
echo "== the contents of the model request after the resume (a prompt \"again\")"
tail -n 1 "$home/requests.jsonl" | python3 -c 'import json, sys; print("\n".join("  " + c for c in json.load(sys.stdin)))'
echo "== the chat file's message records (id, type, text, tool calls; a record replaces the earlier one of its id)"
python3 - "$home"/.gemini/tmp/*/chats/session-* <<'PY'
import json, sys
def show(m):
    text = m.get("content")
    if isinstance(text, list):
        text = " ".join(p.get("text", "") for p in text if isinstance(p, dict))
    calls = [(c.get("id"), c.get("status")) for c in m.get("toolCalls") or []]
    print(" ", m["id"][:8], m["type"], repr((text or "")[:30]), "toolCalls:", calls)
for path in sys.argv[1:]:
    for n, line in enumerate(open(path), 1):
        try:
            r = json.loads(line)
        except ValueError:
            print("  line %d of %s is not JSON: %r" % (n, path, line[:60]))
            continue
        if r.get("type") in ("user", "gemini"):
            show(r)
PY
echo "(home kept: $home)"
