#!/usr/bin/env bash
# Installs the real agent CLIs (claude, codex, gemini, qwen, opencode, copilot) from npm into a local prefix so the
# opt-in suite test/real-cli/ can find them:
#   bash scripts/install-real-clis.sh            # -> <repo>/.real-cli (git-ignored)
#   REAL_CLI_PREFIX=/some/dir bash scripts/install-real-clis.sh
#   AGENTMUX_REAL_CLI=1 ./node_modules/.bin/bun test test/real-cli
# Idempotent: a package already installed at the pinned (or latest) version is skipped.
# Nothing is installed globally; the CLIs' own auto-updaters are switched off by the tests.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${REAL_CLI_PREFIX:-$repo/.real-cli}"
mkdir -p "$prefix"

# Versions: override with e.g. CLAUDE_CODE_VERSION=2.1.197; default "latest".
packages=(
  "@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION:-latest}"
  "@openai/codex@${CODEX_VERSION:-latest}"
  "@google/gemini-cli@${GEMINI_CLI_VERSION:-latest}"
  "@qwen-code/qwen-code@${QWEN_CODE_VERSION:-latest}"
  "opencode-ai@${OPENCODE_VERSION:-latest}"
  "@github/copilot@${COPILOT_VERSION:-latest}"
)
# REAL_CLIS="qwen opencode": install only these (by binary name)
only="${REAL_CLIS:-}"
bin_of() { case "$1" in @anthropic-ai/claude-code) echo claude ;; @openai/codex) echo codex ;; @google/gemini-cli) echo gemini ;; @qwen-code/qwen-code) echo qwen ;; opencode-ai) echo opencode ;; @github/copilot) echo copilot ;; esac; }

installed_version() { # <name> -> version or empty
  local pj="$prefix/lib/node_modules/$1/package.json"
  [ -f "$pj" ] && node -e 'process.stdout.write(require(process.argv[1]).version)' "$pj" || true
}

status=0
for spec in "${packages[@]}"; do
  name="${spec%@*}"
  want="${spec##*@}"
  if [ -n "$only" ] && [[ " $only " != *" $(bin_of "$name") "* ]]; then continue; fi
  have="$(installed_version "$name")"
  if [ -n "$have" ] && { [ "$want" = "$have" ] || [ "$want" = "latest" ]; }; then
    echo "ok    $name@$have (already in $prefix)"
    continue
  fi
  echo "npm   install -g --prefix $prefix $spec"
  # --prefix with -g puts bin/ and lib/node_modules under the prefix, never the global tree.
  if ! npm install -g --prefix "$prefix" --no-fund --no-audit "$spec"; then
    echo "FAIL  $spec could not be installed (see npm output above)" >&2
    status=1
    continue
  fi
  echo "ok    $name@$(installed_version "$name")"
done

# `--version` still creates ~/.codex, ~/.gemini, ~/.qwen: run it with a throwaway HOME.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for bin in ${only:-claude codex gemini qwen opencode copilot}; do
  if [ -x "$prefix/bin/$bin" ]; then
    version="$(HOME="$scratch" CODEX_HOME="$scratch/.codex" DISABLE_AUTOUPDATER=1 "$prefix/bin/$bin" --version 2>/dev/null | head -n1 || echo '?')"
    echo "bin   $prefix/bin/$bin -> $version"
  else
    echo "miss  $prefix/bin/$bin" >&2
  fi
done
exit $status
