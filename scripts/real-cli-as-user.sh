#!/usr/bin/env bash
# Runs the opt-in real-CLI suite the way users run agentmux: as an ordinary (non-root) user
# whose HOME is outside /tmp. gemini, for one, treats root and /tmp specially (its system
# settings layers load only root-owned files), so a root run proves nothing for everyone else.
#   sudo bash scripts/real-cli-as-user.sh [bun test args…]     # creates the user amx-real-cli once
#   REAL_CLI_USER=me bash scripts/real-cli-as-user.sh            # an existing user
# REAL_CLI_PREFIX (default <repo>/.real-cli) must hold the CLIs (scripts/install-real-clis.sh).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
user="${REAL_CLI_USER:-amx-real-cli}"
prefix="${REAL_CLI_PREFIX:-$repo/.real-cli}"
if ! id "$user" >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "real-cli-as-user: user $user does not exist; run as root once to create it" >&2; exit 2; }
  useradd --create-home --home-dir "/home/$user" --shell /bin/bash "$user"
fi
home="$(getent passwd "$user" | cut -d: -f6)"
case "$home" in /tmp/*) echo "real-cli-as-user: $user's HOME ($home) is under /tmp" >&2; exit 2 ;; esac
# a test file named first runs alone (bun test runs a folder and a file in it both)
where=("$repo/test/real-cli")
case "${1:-}" in test/real-cli/*) where=("$repo/$1"); shift ;; esac
cmd=(env -i "HOME=$home" "USER=$user" "PATH=$PATH" "TERM=${TERM:-xterm-256color}" "LANG=${LANG:-C.UTF-8}" AGENTMUX_REAL_CLI=1 "REAL_CLI_PREFIX=$prefix" \
  ${AGENTMUX_REAL_CLI_KEEP:+"AGENTMUX_REAL_CLI_KEEP=$AGENTMUX_REAL_CLI_KEEP"} \
  "$repo/node_modules/.bin/bun" test --timeout 600000 "${where[@]}" "$@")
if [ "$(id -un)" = "$user" ]; then exec "${cmd[@]}"; fi
exec runuser -u "$user" -- "${cmd[@]}"
