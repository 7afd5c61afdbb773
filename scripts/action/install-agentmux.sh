#!/usr/bin/env bash
# Step of action.yml: install the agentmux release of this action's ref, verified against the
# release's SHA256SUMS by install.sh, into $RUNNER_TEMP/agentmux-bin, and put it on PATH.
#   AGENTMUX_VERSION_INPUT      the agentmux_version input: empty (the ref's version), X.Y.Z, or "source"
#   AGENTMUX_ACTION_REPOSITORY  owner/name of the action (github.action_repository)
#   AGENTMUX_RELEASE_URL        optional: where the release files are (a mirror; file:// in tests)
set -euo pipefail

here="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set: this script is a step of action.yml}"
dest="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agentmux-bin"
version="${AGENTMUX_VERSION_INPUT:-}"

# The folder goes on PATH for the next steps (GITHUB_PATH, below); install.sh may know it already.
export PATH="$dest:$PATH"
if [ "$version" = source ]; then
  sh "$here/install.sh" --source "$here" --dir "$dest"
else
  if [ -z "$version" ]; then
    # The action's checkout is agentmux at the ref the workflow named: its package.json says
    # which release that is (v1 → the newest 1.x.y the tag points at).
    version=$(sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$here/package.json" | head -n 1)
    [ -n "$version" ] || { echo "agentmux: cannot read the version from $here/package.json" >&2; exit 1; }
  fi
  repo="${AGENTMUX_ACTION_REPOSITORY:-}"
  if [ -z "$repo" ]; then
    # Inside composite actions github.action_repository can be empty: the runner keeps actions
    # under _actions/<owner>/<name>/<ref>.
    case "$here" in
      */_actions/*/*/*) rest=${here#*/_actions/}; repo="${rest%%/*}/$(echo "${rest#*/}" | cut -d/ -f1)" ;;
    esac
  fi
  AGENTMUX_REPO="${repo:-agentmux/agentmux}" sh "$here/install.sh" --version "$version" --dir "$dest"
fi

echo "$dest" >> "${GITHUB_PATH:?GITHUB_PATH is not set}"
