#!/usr/bin/env bash
# Runs opencode against the scripted model and the stdio MCP server, in
# tmux, and prints its screen once the turn is over, then what reached the
# MCP server and the model. Needs opencode (npm i -g opencode-ai@1.18.33,
# or OPENCODE=path/to/opencode), python3, tmux and the npm registry (opencode
# installs @ai-sdk/openai-compatible on first use).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
home=$(mktemp -d) work=$(mktemp -d) port=${PORT:-18182}
cat > "$work/opencode.json" <<JSON
{"\$schema": "https://opencode.ai/config.json", "model": "repro/repro-model", "autoupdate": false,
 "provider": {"repro": {"npm": "@ai-sdk/openai-compatible", "name": "repro",
   "options": {"baseURL": "http://127.0.0.1:$port/v1", "apiKey": "dummy"},
   "models": {"repro-model": {"name": "repro-model", "tool_call": true}}}},
 "mcp": {"repro": {"type": "local", "command": ["python3", "$here/mcp_server.py", "$home/log"], "enabled": true}}}
JSON
log=$home/log
python3 "$here/model.py" "$port" 2>>"$log" & model=$!
trap 'kill $model; tmux kill-session -t repro 2>/dev/null || true' EXIT
tmux new-session -d -s repro -x 120 -y 40 -c "$work" \
  "env XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data XDG_STATE_HOME=$home/state XDG_CACHE_HOME=$home/cache \
   OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 ${OPENCODE:-opencode} 2>>$log"
for _ in $(seq 60); do tmux capture-pane -p -t repro | grep -q 'ctrl+p commands' && break; sleep 1; done
sleep 2; tmux send-keys -t repro "grep a.go and read b.go"; sleep 1; tmux send-keys -t repro Enter
for _ in $(seq 30); do sleep 1; tmux capture-pane -p -t repro | grep -q 'Done\.' && break; done
sleep 1; echo "== the turn is over"; tmux capture-pane -p -t repro | grep -v '^ *$' | grep -v '^ *┃ *$'
echo "== what the MCP server and the model saw"; grep -a '^mcp: \|^model request' "$log" || true
