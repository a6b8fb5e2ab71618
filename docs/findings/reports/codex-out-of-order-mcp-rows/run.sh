#!/usr/bin/env bash
# Runs Codex CLI against the scripted model and the stdio MCP server, in
# tmux, and prints its screen while the slow call runs and after both
# returned. Needs codex (npm i -g @openai/codex@0.169.0), python3, tmux.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
home=$(mktemp -d) work=$(mktemp -d) port=${PORT:-18181}
"$here/config.sh" "$home" "$work" "$port"
python3 "$here/model.py" "$port" & model=$!
trap 'kill $model; tmux kill-session -t repro 2>/dev/null || true' EXIT
tmux new-session -d -s repro -x 120 -y 40 -c "$work" \
  "env CODEX_HOME=$home REPRO_API_KEY=dummy ${CODEX:-codex} --no-daemon"
sleep 4; tmux send-keys -t repro "wait twice"; sleep 1; tmux send-keys -t repro Enter
sleep 2.5; echo "== 2.5 s in: fast returned, slow still running"; tmux capture-pane -p -t repro | grep -v '^ *$'
sleep 4; echo "== 6.5 s in: both returned, turn over"; tmux capture-pane -p -t repro | grep -v '^ *$'
