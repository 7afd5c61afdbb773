import { COMPLETION_LINES } from "../../onboarding/completions.ts";
import { command, CONFIG_FLAG } from "../spec.ts";

export const init = command({
  name: "init",
  summary: "set up agentmux in this repository",
  about: `Set up agentmux in this repository: detect the agent CLIs on PATH, choose the default
provider and per-role overrides, GitHub pull request settings, then write
.agentmux/config.yaml (only values that differ from the defaults), add agentmux's runtime
files to .gitignore, and offer an instructions file for the agents (CLAUDE.md, AGENTS.md, …),
prompt extension stubs and shell completions. Running it again shows the current values and
writes nothing unless something changed.`,
  flags: {
    defaults: {
      type: "boolean",
      help: "ask nothing: the first CLI found (claude, codex, gemini, opencode, copilot, qwen) becomes the default provider; also what happens when not in a terminal",
    },
  },
  args: [],
});

export const configure = command({
  name: "configure",
  summary: "change providers and models per role",
  usage: ["configure --role ROLE [--provider P] [--model M]", "configure            (in a terminal: asks role by role)"],
  about: `Change which provider and model a role uses, in .agentmux/config.yaml (created when
missing). The file is edited in place: comments and key order are kept. The result is
validated before it is written; on an error nothing changes.`,
  flags: {
    role: { type: "string", value: "ROLE", values: "roles", help: "the role to change" },
    provider: {
      type: "string",
      value: "P",
      values: "providers",
      also: ["default"],
      help: 'a configured provider; "default" removes the override so the role follows defaults.provider',
    },
    model: { type: "string", value: "M", also: ["default"], help: 'a model name for that CLI; "default" removes the override' },
  },
  args: [],
});

export const config = command({
  name: "config",
  summary: "print the resolved configuration, or convert the Python agentmux's config",
  usage: ["config [--json] [--config PATH]", "config migrate <file> [--write]"],
  about: `Print the resolved configuration and where each value came from:
built-in → ~/.config/agentmux/config.yaml → .agentmux/config.yaml → --config PATH.

config migrate <file> converts a config of the Python agentmux to this one: the converted
YAML goes to stdout (comments kept), and each key that was renamed, left out or could not be
carried over is named on stderr with why. Values equal to the Python tool's built-in ones are
left out, so agentmux's own settings for that CLI apply. --write replaces the file instead (the
original is kept as <file>.bak). Exit 1 when the result would not load as a run loads it (on
the built-in config and your user config), or names a provider agentmux does not have; nothing
is written then. See docs/migrating.md.`,
  flags: {
    json: { type: "boolean", help: 'print {"config": …, "origins": {"<key path>": {"layer", "file"}}}' },
    write: { type: "boolean", help: "migrate: replace the file with the converted config (the original is kept as <file>.bak)" },
    ...CONFIG_FLAG,
  },
  args: [
    { name: "action", about: "what to do", choices: ["migrate"] },
    { name: "file", about: "the Python agentmux config to convert", values: "files" },
  ],
});

export const doctor = command({
  name: "doctor",
  summary: "check tmux, the configured agent CLIs, their MCP and trust wiring, and gh",
  about: `Check what the configured pipeline needs: tmux 3.2+, each configured agent CLI on PATH and
answering --version, how agentmux wires MCP and folder trust into it, and gh with a login.
Exit 0 when everything needed is there, else 1.`,
  flags: { ...CONFIG_FLAG },
  args: [],
});

export const checks = command({
  name: "checks",
  summary: "run the project's checks (tests, lint, …) here, as a run does",
  usage: ["checks [name…] [--json] [--base BRANCH] [--config PATH]"],
  about: `Run the checks configured under checks: in .agentmux/config.yaml (all of them, or the ones
named) in this checkout, one after another, the way a run does: each in its own process group
with its timeout, its output in .agentmux/.sessions/.checks/<name>.log (capped, the tail kept).
One line per check, with the file:line anchors of what failed; never the raw output.
A check whose program is not found, or whose folder is missing, is named before any runs.
With --base BRANCH the checks that failed run again on that branch's commit in a temporary
worktree (your checkout and index are not touched); a failure that was already there is marked
"already failing on the base" and does not count against the exit status.`,
  flags: {
    json: { type: "boolean", help: "print the results as one JSON array of check results (the schema in docs/checks.md)" },
    base: {
      type: "string",
      value: "BRANCH",
      help: "run the failing checks again on BRANCH (in a temporary worktree) and mark the failures that were already there",
    },
    ...CONFIG_FLAG,
  },
  args: [{ name: "name", about: "a configured check", variadic: true }],
  notes: "Exit status: 0 every required check passed, 1 a required check did not, 2 usage or config error (an unknown check name, a program not found).",
});

export const validate = command({
  name: "validate",
  summary: "check one artifact file against its contract",
  about: `Check one artifact file against its contract. The kind is inferred from the file name
(plan.yaml, review_<role>.yaml, done_<N>.json, approval.json, state.json, .agentmux/config.yaml, …)
or given with --kind.`,
  flags: { kind: { type: "string", value: "KIND", alias: "k", values: "artifact-kinds", help: "the artifact kind" } },
  args: [{ name: "file", about: "the file to check", required: true, values: "files" }],
  notes: "Exit status: 0 valid, 1 invalid, 2 usage error (unknown kind, missing file).",
});

export const completions = command({
  name: "completions",
  summary: "print a shell completion script (bash, zsh or fish)",
  usage: ["completions <bash|zsh|fish>"],
  about: `Prints a shell completion script: commands, every option and its values (roles, providers,
artifact kinds, shells, demo scenario switches), and session ids for status, resume, attach and clean (from
.agentmux/.sessions/ of the nearest project).`,
  flags: {
    list: { type: "string", value: "SET", hidden: true, help: "print the values of a dynamic set (providers), one per line" },
  },
  args: [{ name: "shell", about: "the shell (bash, zsh or fish)", values: "shells" }],
  notes: `Install (one line in your shell's startup file; agentmux init offers to add it):
${Object.entries(COMPLETION_LINES)
  .map(([shell, { rc, line }]) => `  ${shell}, in ${rc}:\n    ${line}`)
  .join("\n")}`,
});

export const preferences = command({
  name: "preferences",
  summary: "review the standing preferences agents proposed: approve or reject them",
  usage: ["preferences [list] [--json]", "preferences approve <id>… | --all", "preferences reject <id>… | --all"],
  about: `Agents may propose standing preferences for a role (a bullet such as "Write tests first" for
the coder) when they submit their work. A proposal changes nothing until you approve it here: an
approved preference is added to .agentmux/prompts/agents/<role>.md under "## Approved Preferences",
which every later run's prompt for that role includes. Rejected proposals are dropped.`,
  flags: {
    all: { type: "boolean", help: "approve or reject every pending proposal" },
    json: { type: "boolean", help: "list the proposals as JSON" },
  },
  args: [
    { name: "action", about: "list, approve or reject", choices: ["list", "approve", "reject"] },
    { name: "id", about: "a proposal id (as listed)", variadic: true },
  ],
});
