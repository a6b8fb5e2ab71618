#!/usr/bin/env bash
# config.sh HOME WORK PORT: writes HOME/config.toml for the repros: the
# scripted Responses endpoint on PORT as the model provider, this folder's
# stdio MCP server (parallel calls on), WORK trusted.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cat > "$1/config.toml" <<TOML
model_provider = "repro"
model = "repro-model"
check_for_update_on_startup = false
[model_providers.repro]
name = "repro"
base_url = "http://127.0.0.1:$3/v1"
env_key = "REPRO_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
[mcp_servers.repro]
command = "python3"
args = ["$here/mcp_server.py"]
supports_parallel_tool_calls = true
[projects."$2"]
trust_level = "trusted"
TOML
