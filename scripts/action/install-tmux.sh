#!/usr/bin/env bash
# Step of action.yml: make sure tmux (3.2 or newer) is installed on the runner.
set -euo pipefail

if command -v tmux >/dev/null 2>&1; then
  echo "agentmux: $(tmux -V) is installed"
  exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq tmux >/dev/null
elif command -v brew >/dev/null 2>&1; then
  brew install tmux
else
  echo "agentmux: tmux is missing and neither apt-get nor brew is available; install tmux 3.2 or newer in an earlier step" >&2
  exit 1
fi
echo "agentmux: installed $(tmux -V)"
