#!/usr/bin/env bash
# Runs Codex CLI against the scripted model and the stdio MCP server of
# ../codex-out-of-order-mcp-rows (one response, two parallel calls of the
# MCP tool wait: slow 4 s, fast 1 s), in tmux; presses Esc while the slow
# call runs, quits with /quit, resumes with `codex resume --last`, and
# prints the screen before the quit and after the resume.
# ./run.sh kill: instead of Esc and /quit, kills every Codex process with
# SIGKILL while the slow call runs (a crash), then resumes the same way.
# Needs codex (npm i -g @openai/codex@0.169.0), python3, tmux.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shared=$here/../codex-out-of-order-mcp-rows
home=$(mktemp -d) work=$(mktemp -d) port=${PORT:-18182}
"$shared/config.sh" "$home" "$work" "$port"
python3 "$shared/model.py" "$port" & model=$!
trap 'kill $model; tmux kill-session -t repro-resume 2>/dev/null || true' EXIT
codex="env CODEX_HOME=$home REPRO_API_KEY=dummy ${CODEX:-codex}"
tmux new-session -d -s repro-resume -x 120 -y 40 -c "$work" "$codex --no-daemon; $codex --no-daemon resume --last"
sleep 4; tmux send-keys -t repro-resume "wait twice"; sleep 1; tmux send-keys -t repro-resume Enter
sleep 2.5
if [ "${1:-esc}" = kill ]; then
  echo "== before the kill: fast returned, slow running"; tmux capture-pane -p -t repro-resume | grep -v '^ *$'
  for p in $(pgrep -f codex); do # this run's Codex processes: those with its CODEX_HOME
    if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "CODEX_HOME=$home"; then kill -KILL "$p" 2>/dev/null || true; fi
  done
  sleep 6; echo "== after SIGKILL and codex resume --last"; tmux capture-pane -p -t repro-resume | grep -v '^ *$'
else
  tmux send-keys -t repro-resume Escape
  sleep 1.5; echo "== after Esc: fast returned, slow cancelled"; tmux capture-pane -p -t repro-resume | grep -v '^ *$'
  tmux send-keys -t repro-resume "/quit"; sleep 1; tmux send-keys -t repro-resume Enter
  sleep 6; echo "== after /quit and codex resume --last"; tmux capture-pane -p -t repro-resume | grep -v '^ *$'
fi
echo "== the rollout's function calls and outputs"
grep -ho '"type":"function_call[^,]*,[^,]*,[^,]*' "$home"/sessions/*/*/*/rollout-*.jsonl || true
