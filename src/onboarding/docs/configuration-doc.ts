import { parse } from "yaml";
import { BUILTIN_CONFIG_TEXT } from "../../config/load.ts";
import { Config, type Provider } from "../../schema/config.ts";
import { fieldRows, jsonSchemaOf, markdownTable, rowsTable } from "./schema-table.ts";

/**
 * What each config key means, where the schema itself carries no `.describe()` text.
 * The docs test fails when a key of the schema has no description here or in the schema.
 */
export const CONFIG_DESCRIPTIONS: Record<string, string> = {
  version: "config format version; must be 2",
  defaults: "what every role uses unless `roles.<role>` says otherwise",
  "defaults.provider": "provider (a key of `providers`) for every role without its own",
  "defaults.model": "model for roles that run on the default provider; null = the CLI's own default",
  "defaults.max_review_iterations": "review → fix rounds before the run stops asking for more fixes",
  "defaults.completion": "the completion phase",
  "defaults.completion.skip_final_approval": "commit without the approval panel (headless runs always skip it)",
  "defaults.completion.commit_on_loop_cap": "when nobody approves (headless, or skip_final_approval) and the review loop cap ends with failing reviews: commit anyway instead of failing the run",
  "defaults.keep_session": "keep the session folder after a successful commit",
  github: "branch, commit and pull request settings",
  "github.base_branch": "branch pull requests target; null = the repository's default branch",
  "github.draft": "open pull requests as drafts",
  "github.branch_prefix": "prefix of the feature branch agentmux creates",
  "github.pull_request": "open a pull request with gh after the commit",
  "github.push": "push the feature branch after the commit",
  tmux: "the tmux server and window agentmux creates",
  "tmux.socket": "tmux socket name (the server agentmux starts with tmux's -L option); AGENTMUX_TMUX_SOCKET overrides it",
  "tmux.width": "window width in columns (agents never start smaller than 80×24)",
  "tmux.height": "window height in rows",
  "tmux.control_width": "width of the monitor pane on the left",
  watchdog: "time limits and how agents that misbehave are handled",
  "watchdog.stuck_after_s": "an agent with no screen output and no tool call for this long is reported stuck (0 = off); a headless run then fails",
  "watchdog.phase_timeout_s": "fail a phase that runs longer than this (0 = no limit; headless runs use `headless.phase_timeout_s`)",
  "watchdog.run_timeout_s": "fail the run after this long, counted across resumes (0 = no limit; headless runs use `headless.run_timeout_s`)",
  "watchdog.nudges": "reminders to an agent whose turn ended without its submit tool (naming the tool and file) before it is marked stuck",
  "watchdog.nudge_backoff_s": "wait before the second reminder, doubling for each further one; the first goes at once",
  "watchdog.restarts": "restarts (same prompt, same conversation) of an agent whose pane exited unexpectedly before the run fails",
  "watchdog.limit_retry_s": "a usage limit that shows no reset time is retried after this long",
  headless: "headless runs (`--ci`): nobody watches the panes",
  "headless.questions": "an agent that asks: `decide` tells it to decide and note the assumption in `assumptions.md`; `fail` fails the run",
  "headless.phase_timeout_s": "phase limit when `watchdog.phase_timeout_s` is 0 (0 = no limit)",
  "headless.run_timeout_s": "run limit when `watchdog.run_timeout_s` is 0 (0 = no limit)",
  sim: "the simulated agent (provider `sim`)",
  "sim.think_ms": "pause before each step of the simulated agent",
  "sim.scenario": "misbehaviours to act out (see `agentmux demo --help`)",
  providers: "agent CLIs by name; built-in entries merge with yours key by key",
  "providers.<name>.command": "program to run; `@self` is agentmux itself",
  "providers.<name>.npm_package": "npm package that installs the CLI (the GitHub Action installs it; `doctor` names it); null when it is not on npm",
  "providers.<name>.args": "args on every launch, right after the command",
  "providers.<name>.model_flag": "flag that selects the model; null when the CLI has none",
  "providers.<name>.default_model": "model when neither the role nor defaults name one",
  "providers.<name>.default_role_args": "args for every role",
  "providers.<name>.role_args": "args appended for one role",
  "providers.<name>.model_args": "args appended when a given model is selected",
  "providers.<name>.env": "environment variables for the CLI",
  "providers.<name>.mcp": "how agentmux's MCP server is wired into this CLI",
  "providers.<name>.trust": "folder-trust dialogs agentmux answers",
  "providers.<name>.trust[].detect": "regex of the dialog text on screen",
  "providers.<name>.trust[].keys": "tmux keys that accept it",
  "providers.<name>.pre_trust": "pre-trust the working folder where the CLI allows it",
  "providers.<name>.batch": "how researchers run non-interactively; null = in a pane like other roles",
  "providers.<name>.batch.args": "args of the batch invocation",
  "providers.<name>.batch.mode": "how the prompt is passed: as a flag value, a positional argument or stdin",
  "providers.<name>.single_coder": "give the whole plan to one coder (the CLI runs its own sub-agents)",
  "providers.<name>.sub_agent_tool": "the CLI's sub-agent tool, named in the single-coder prompt",
  "providers.<name>.ask_tool": "the CLI's native ask-the-user tool, named in prompts",
  "providers.<name>.session_dir_args": "args that let the CLI write to the session folder in a worktree run; `{dir}` becomes the folder (e.g. claude `--add-dir {dir}`)",
  "providers.<name>.submit": "prompt delivery",
  "providers.<name>.submit.delay_ms": "wait after the pasted text shows before pressing the submit key",
  "providers.<name>.submit.keys": "tmux key names that submit",
  "providers.<name>.submit.retries": "extra submit attempts when the text is still in the input box",
  "providers.<name>.submit.verify_ms": "how long to wait for the submit to show before retrying",
  "providers.<name>.submit.escape_safe": "whether Escape may be sent (some CLIs cancel on it)",
  "providers.<name>.ready": "when the CLI is ready for the first prompt",
  "providers.<name>.ready.pattern": "regex matched against the screen when the CLI is idle at its prompt",
  "providers.<name>.ready.busy_pattern": "regex matched while the CLI is busy",
  "providers.<name>.ready.settle_ms": "the screen must stay unchanged this long before the first prompt",
  "providers.<name>.ready.timeout_ms": "give up waiting and report the agent stuck",
  "providers.<name>.dialogs": "dialogs that wait for a person (the agent is then `needs_input`; headless runs dismiss them)",
  "providers.<name>.dialogs[].detect": "regex of the dialog text on screen (or in the pane title)",
  "providers.<name>.dialogs[].kind": "`question` (the CLI asks the user) or `permission` (it wants to run something)",
  "providers.<name>.dialogs[].dismiss": "tmux keys that dismiss it when nobody can answer",
  "providers.<name>.limits": "regexes of the CLI's usage-limit, rate-limit and overload screens",
  "providers.<name>.conversation": "the CLI's conversation ids, continued on a restart, `agentmux resume` and the next serial plan; null = always fresh",
  "providers.<name>.conversation.start": "args that start a conversation with an id agentmux picks (`{id}`); empty when the CLI picks it",
  "providers.<name>.conversation.resume": "args that continue conversation `{id}` (placed right after the command)",
  "providers.<name>.conversation.capture": "where to read the id the CLI picked: `none` or `codex` (`$CODEX_HOME/sessions`)",
  roles: "per-role overrides (product-manager, architect, planner, designer, coder, reviewer_logic, reviewer_quality, reviewer_expert, code-researcher, web-researcher)",
  "roles.<role>.provider": "provider for this role; null = `defaults.provider`",
  "roles.<role>.model": "model for this role; null = the default",
  "roles.<role>.args": "replaces the provider's role args entirely",
  "roles.<role>.fallback": "providers to move this role to, in order, when its CLI hits a usage limit (none: wait for the reset)",
};

export function configRows() {
  return fieldRows(jsonSchemaOf(Config), "", CONFIG_DESCRIPTIONS);
}

function providersTable(): string {
  const providers = (parse(BUILTIN_CONFIG_TEXT) as { providers: Record<string, Provider> }).providers;
  const rows = Object.entries(providers).map(([name, p]) => [
    `\`${name}\``,
    p.command === "@self" ? "agentmux sim-agent (built in)" : `\`${[p.command, ...(p.args ?? [])].join(" ")}\``,
    p.mcp ?? "none",
    (p.trust ?? []).length ? `answers ${(p.trust ?? []).length} dialog(s)` : "none shown",
    p.pre_trust === false ? "no" : "yes",
    p.batch ? `${p.batch.mode}${p.batch.args?.length ? ` (\`${p.batch.args.join(" ")}\`)` : ""}` : "pane",
    p.single_coder ? "yes" : "no",
  ]);
  return markdownTable(["provider", "command", "MCP wiring", "trust dialog", "pre-trust", "research batch mode", "single coder"], rows);
}

/** docs/configuration.md, generated from the Config schema and assets/config.yaml. */
export function configurationDoc(): string {
  return [
    "<!-- GENERATED by scripts/gen-docs.ts from src/schema/config.ts and assets/config.yaml. Do not edit; run: bun scripts/gen-docs.ts -->",
    "# Configuration",
    "",
    "Layers, lowest first (maps merge key by key, lists and scalars replace):",
    "",
    "1. built-in defaults (assets/config.yaml, inside the binary)",
    "2. `~/.config/agentmux/config.yaml` (or `$XDG_CONFIG_HOME/agentmux/config.yaml`)",
    "3. `<project>/.agentmux/config.yaml` (or `.yml`, `.json`)",
    "4. `--config PATH`",
    "",
    "Every file is checked on its own: an unknown key or a wrong type is an error naming the file and the key path, and agentmux exits 2.",
    "`agentmux config` prints the resolved values and the layer each came from; `agentmux init` writes a project file with only what differs",
    "from the defaults; `agentmux configure --role R --provider P --model M` edits it in place (comments kept).",
    "Editors that speak yaml-language-server complete keys from `.agentmux/config.schema.json`, which `init` writes.",
    "",
    "## Keys",
    "",
    rowsTable(configRows()),
    "",
    "## Built-in providers",
    "",
    providersTable(),
    "",
    "A provider you define needs at least `command`; a role is pointed at it with `roles.<role>.provider`.",
    "",
  ].join("\n");
}
