import { z } from "zod";
import { Pricing, UsageLimits, UsageSource } from "./usage.ts";
import { ROLES } from "./catalog.ts";
import { SOCKET_NAME_RE } from "./tmux-names.ts";
import { Checks } from "./checks.ts";

const str = z.string().min(1);

/** A JavaScript regular expression given as a string; checked when the config loads. */
const regex = z
  .string()
  .min(1)
  .refine((p) => {
    try {
      new RegExp(p, "m");
      return true;
    } catch {
      return false;
    }
  }, "is not a valid regular expression");

export const SubmitStrategy = z.strictObject({
  /** ms to wait after the pasted text shows before pressing the submit key */
  delay_ms: z.number().int().min(0).max(10000).default(100),
  /** tmux key names sent to submit, e.g. ["Enter"] or ["C-m"] */
  keys: z.array(str).min(1).default(["Enter"]),
  /** extra submit attempts when the text is still in the input box */
  retries: z.number().int().min(0).max(10).default(2),
  /** ms to wait for the submit to show before retrying */
  verify_ms: z.number().int().min(100).max(60000).default(1500),
});
export type SubmitStrategy = z.infer<typeof SubmitStrategy>;

/** A JavaScript regular expression given as text; an invalid one is a config error at load time. */
const regexText = z.string().superRefine((s, ctx) => {
  try {
    new RegExp(s, "m");
  } catch (e) {
    ctx.addIssue({ code: "custom", message: `is not a valid regular expression: ${(e as Error).message}` });
  }
});

export const ReadyGate = z.strictObject({
  /** regex (JavaScript syntax) matched against the pane screen when the CLI is idle at its prompt */
  pattern: regexText.nullable().default(null),
  /** regex matched against the pane screen (or title) while the CLI is busy */
  busy_pattern: regexText.nullable().default(null),
  /**
   * regex of what the CLI's input box shows instead of a pasted text (claude `[Pasted text #1]`,
   * opencode `[Pasted ~1 lines]`); null: the texts every known CLI uses
   */
  paste_placeholder: regexText.nullable().optional(),
  /**
   * a sidebar at the right of the main column shares each screen line (opencode 1.18.33): a run
   * of at least this many spaces followed by text ends a line's main-column part, so the question
   * a turn ended with is read from the main column only; null: no sidebar
   */
  sidebar_gap: z.number().int().min(2).max(80).nullable().optional(),
  /** regex for main-column lines that are the CLI's own decoration (status, input box), skipped when reading the question a turn ended with */
  chrome: regexText.nullable().optional(),
  /** the screen must stay unchanged this long before the first prompt */
  settle_ms: z.number().int().min(0).max(30000).default(500),
  /** give up waiting for readiness after this long and report the agent stuck */
  timeout_ms: z.number().int().min(1000).max(600000).default(60000),
});
export type ReadyGate = z.infer<typeof ReadyGate>;

export const TrustDialog = z.strictObject({
  /** regex (JavaScript syntax) matched against the pane screen that identifies the dialog */
  detect: regex,
  /** tmux keys that accept it */
  keys: z.array(str).min(1).default(["Enter"]),
});

/** A dialog of the CLI that waits for a person: a question it asks, or a permission it wants. */
export const InputDialog = z.strictObject({
  /** regex (JavaScript syntax) matched against the pane screen (and title) */
  detect: regex,
  kind: z.enum(["question", "permission"]),
  /** tmux keys that dismiss it when nobody can answer (headless runs) */
  dismiss: z.array(str).min(1).default(["Escape"]),
});

/** The CLI's own conversation ids: continued on a crash restart, `agentmux resume` and the next serial plan. */
export const Conversation = z.strictObject({
  /** args for a new conversation with an id agentmux picks (`{id}`); empty when the CLI picks it (see capture) */
  start: z.array(z.string()).default([]),
  /**
   * args of the CLI's own command that makes a new conversation and prints its id (cursor:
   * `create-chat`), run before a launch that starts one (bounded); the launch then continues that
   * id with `resume`. Empty: none (the id comes from `start` or `capture`)
   */
  create: z.array(z.string()).default([]),
  /** args that continue conversation `{id}`, placed right after the command (codex: a subcommand) */
  resume: z.array(z.string()).min(1),
  /** where to read the id the CLI picked: none (agentmux picks it with `start`), codex ($CODEX_HOME/sessions), agy (its brain folder), opencode (what agentmux's plugin wrote at session.created) */
  capture: z.enum(["none", "codex", "agy", "opencode"]).default("none"),
});
export type Conversation = z.infer<typeof Conversation>;

export const Provider = z.strictObject({
  command: str,
  /** the npm package that installs this CLI (the GitHub Action installs it; doctor names it), or null */
  npm_package: z.string().nullable().default(null),
  /** args passed on every launch of this CLI (interactive and batch), right after the command; not replaced by roles.<r>.args */
  args: z.array(z.string()).default([]),
  /** flag that selects the model, or null when the CLI has none */
  model_flag: z.string().nullable().default("--model"),
  default_model: z.string().nullable().default(null),
  /** args for every role, then `role_args[role]` is appended */
  default_role_args: z.array(z.string()).default([]),
  role_args: z.partialRecord(z.enum(ROLES), z.array(z.string())).default({}),
  model_args: z.record(z.string(), z.array(z.string())).default({}),
  env: z.record(z.string(), z.string()).default({}),
  /**
   * which CLI adapter (src/providers/adapters) this provider is: how agentmux's MCP server is
   * wired in, the folder pre-trusted, tool names, allowances; `none` for a CLI agentmux has no
   * adapter for
   */
  mcp: z.enum(["claude", "codex", "gemini", "opencode", "copilot", "qwen", "cursor", "agy", "sim", "none"]).default("none"),
  /**
   * how the CLI reaches the run's MCP endpoint: `http` (streamable HTTP on 127.0.0.1, with the
   * agent's token in a header) or `stdio` (the CLI spawns `agentmux mcp-server`, which forwards
   * to the endpoint) for a CLI that cannot use HTTP
   */
  mcp_transport: z.enum(["http", "stdio"]).default("http"),
  /**
   * start this CLI for the next phase while the current one works, so a handoff costs only the
   * prompt (#15.3); false for a provider that bills for a start that is never used
   */
  prestart: z.boolean().default(true),
  /**
   * the second start of this CLI in a run waits until its first shows its ready prompt (at most
   * 90 s): for a CLI whose first start fills caches that two starts at once fight over (opencode:
   * one pane stayed blank for 4 minutes); other CLIs start at once, pre-starts beside the first agent
   */
  first_start_alone: z.boolean().default(false),
  trust: z.array(TrustDialog).default([]),
  /** pre-trust the working directory where the CLI supports it */
  pre_trust: z.boolean().default(true),
  /** how researchers run non-interactively: prompt path passed per `mode` */
  batch: z
    .strictObject({ args: z.array(z.string()).default([]), mode: z.enum(["flag", "positional", "stdin"]).default("positional") })
    .nullable()
    .default(null),
  single_coder: z.boolean().default(false),
  sub_agent_tool: z.string().nullable().default(null),
  /**
   * args that let the CLI write to the session folder when it runs in a git worktree (the
   * session folder stays in the main repository); `{dir}` is replaced by the folder
   */
  session_dir_args: z.array(z.string()).default([]),
  /**
   * what this CLI keeps in the user's home (relative paths: its config, login and data): the only
   * part of the home an agent sees, read-write, when it runs in the sandbox (`sandbox: true`)
   */
  sandbox_home: z.array(z.string().regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).+$/, "must be a path relative to the home folder, without '..'")).default([]),
  /** the CLI's native "ask the user" tool, named in prompts (e.g. claude's AskUserQuestion) */
  ask_tool: z.string().nullable().default(null),
  submit: SubmitStrategy.default(SubmitStrategy.parse({})),
  ready: ReadyGate.default(ReadyGate.parse({})),
  /** dialogs that wait for a person (the agent is then `needs_input`) */
  dialogs: z.array(InputDialog).default([]),
  /** regexes (JavaScript syntax) for the CLI's usage-limit, rate-limit and overload screens */
  limits: z.array(regex).default([]),
  conversation: Conversation.nullable().default(null),
  /** where the CLI records its token usage per conversation (read by conversation id; tried in order) */
  usage: z.array(UsageSource).default([]),
});
export type Provider = z.infer<typeof Provider>;

export const RoleConfig = z.strictObject({
  provider: z.string().nullable().default(null),
  model: z.string().nullable().default(null),
  /** replaces the provider's role args entirely */
  args: z.array(z.string()).nullable().default(null),
  /** providers to move this role to, in order, when its CLI hits a usage limit (empty: wait for the reset) */
  fallback: z.array(str).optional(),
  /** run this role's agents in the sandbox (or not), whatever the top-level `sandbox` says */
  sandbox: z.boolean().optional(),
});
export type RoleConfig = z.infer<typeof RoleConfig>;

export const Config = z.strictObject({
  version: z.literal(2, { error: "must be 2" }).default(2),
  defaults: z
    .strictObject({
      provider: str.default("claude"),
      model: z.string().nullable().default(null),
      max_review_iterations: z.number().int().min(0).max(20).default(3),
      completion: z
        .strictObject({ skip_final_approval: z.boolean().default(false), commit_on_loop_cap: z.boolean().default(false) })
        .default({ skip_final_approval: false, commit_on_loop_cap: false }),
      /** keep the session folder after a successful commit */
      keep_session: z.boolean().default(false),
      /**
       * `with_reviewers`: a round's checks run while its reviewers read (the verdict waits for
       * both); `before_reviewers`: reviewers start once no required check fails, a failing one
       * goes to the fixer without a review (docs/checks.md)
       */
      checks_order: z.enum(["with_reviewers", "before_reviewers"]).default("with_reviewers"),
    })
    .default({
      provider: "claude",
      model: null,
      max_review_iterations: 3,
      completion: { skip_final_approval: false, commit_on_loop_cap: false },
      keep_session: false,
      checks_order: "with_reviewers",
    }),
  github: z
    .strictObject({
      base_branch: z.string().nullable().default(null),
      draft: z.boolean().default(true),
      branch_prefix: z.string().default("feature/"),
      pull_request: z.boolean().default(true),
      push: z.boolean().default(true),
      /** after the pull request is opened, follow its CI and run fix rounds on the branch while it fails */
      watch_ci: z.boolean().default(false),
      /** at most this many CI fix rounds; then the run ends "CI still failing after N rounds" */
      ci_fix_rounds: z.number().int().min(0).max(10).default(2),
      /** stop following CI after this long (each wait for a result) */
      ci_timeout_s: z.number().int().min(60).max(86400).default(3600),
      /** between two looks at the pull request's checks */
      ci_poll_s: z.number().int().min(1).max(600).default(30),
    })
    .default({
      base_branch: null,
      draft: true,
      branch_prefix: "feature/",
      pull_request: true,
      push: true,
      watch_ci: false,
      ci_fix_rounds: 2,
      ci_timeout_s: 3600,
      ci_poll_s: 30,
    }),
  tmux: z
    .strictObject({
      /** a plain name (tmux keeps the socket in its private folder): letters, digits, . _ - */
      socket: str
        .regex(SOCKET_NAME_RE, "must be a plain socket name: letters, digits, '.', '_' and '-' (no '/' or '..'); tmux keeps it in its own private folder")
        .default("agentmux"),
      width: z.number().int().min(80).max(1000).default(240),
      height: z.number().int().min(24).max(500).default(64),
      control_width: z.number().int().min(30).max(120).default(44),
      /** the orchestrator speaks to tmux through one control-mode client (off: tmux 3.3a crashes with several runs on one server) */
      control_mode: z.boolean().default(false),
    })
    .default({ socket: "agentmux", width: 240, height: 64, control_width: 44, control_mode: false }),
  watchdog: z
    .strictObject({
      /** an agent with no screen output and no tool call for this long is reported stuck (0 = off) */
      stuck_after_s: z.number().int().min(0).default(900),
      /** fail a phase that runs longer than this (0 = no limit) */
      phase_timeout_s: z.number().int().min(0).default(0),
      /** fail the run after this long, counted across resumes (0 = no limit) */
      run_timeout_s: z.number().int().min(0).default(0),
      /** reminders to an agent whose turn ended without its submit tool, before it is marked stuck */
      nudges: z.number().int().min(0).max(10).default(2),
      /** wait before the second reminder (doubling for each further one); the first goes at once */
      nudge_backoff_s: z.number().int().min(0).max(3600).default(5),
      /** restarts of an agent whose pane exited unexpectedly, before the run fails */
      restarts: z.number().int().min(0).max(10).default(2),
      /** a usage limit that shows no reset time is retried after this long */
      limit_retry_s: z.number().int().min(1).max(86400).default(300),
    })
    .default({ stuck_after_s: 900, phase_timeout_s: 0, run_timeout_s: 0, nudges: 2, nudge_backoff_s: 5, restarts: 2, limit_retry_s: 300 }),
  /** headless runs (--ci): nobody watches, so limits are finite and questions get an answer by policy */
  headless: z
    .strictObject({
      /** an agent that asks: `decide` tells it to decide itself and note the assumption in assumptions.md; `fail` fails the run */
      questions: z.enum(["decide", "fail"]).default("decide"),
      /** used when watchdog.phase_timeout_s is 0 (0 = no limit) */
      phase_timeout_s: z.number().int().min(0).default(3600),
      /** used when watchdog.run_timeout_s is 0 (0 = no limit) */
      run_timeout_s: z.number().int().min(0).default(14400),
    })
    .default({ questions: "decide", phase_timeout_s: 3600, run_timeout_s: 14400 }),
  /** how a `--worktree` run's new worktree is made ready before any agent starts */
  worktree: z
    .strictObject({
      setup: z.array(str).default([]),
      setup_timeout_s: z.number().int().min(1).max(86400).default(600),
      copy: z.array(str).default([]),
    })
    .default({ setup: [], setup_timeout_s: 600, copy: [] }),
  /** the project's own commands agentmux runs and records (docs/checks.md): name → command, when, required */
  checks: Checks.default({}),
  /** USD per million tokens by model, for the estimated cost of a run (shown in the monitor, status and summaries) */
  pricing: Pricing.default({ checked: "2026-11-23", models: {} }),
  /** a command told when a run needs you, is done or failed (ntfy, a Slack webhook, a desktop notifier): docs/web.md */
  notify: z
    .strictObject({
      /** run by `sh -c` in the project with the event as one JSON object on stdin (never in its command line); empty: no command */
      command: z.string().default(""),
      /** which events: needs_you (approval, a question, a stuck agent, a budget pause), done, failed */
      on: z.array(z.enum(["needs_you", "done", "failed"])).default(["needs_you", "done", "failed"]),
      /** the command is killed with its process group after this long */
      timeout_s: z.number().int().min(1).max(600).default(30),
    })
    .default({ command: "", on: ["needs_you", "done", "failed"], timeout_s: 30 }),
  /** a per-run budget: at the limit the agents are paused and you are asked; a headless run fails with the figure */
  limits: UsageLimits.default({ max_cost_usd: null, max_tokens: null }),
  /** pre-started handoffs: agents of the next phase started ahead, parked in the hidden window */
  prestart: z
    .strictObject({
      /** at most this many pre-started panes at once (each is a live CLI: memory); 0 never pre-starts */
      max_panes: z.number().int().min(0).max(8).default(2),
      /**
       * also start the fixer before the review round's verdict says whether a fix round comes
       * (from the last coder on), so a failing verdict's fix starts at once; closed unused when
       * the review passes (a CLI started for nothing). false: the fixer starts on a failing verdict
       */
      fixer: z.boolean().default(true),
    })
    .default({ max_panes: 2, fixer: true }),
  /** the simulated agent (provider `sim`): scenario switches for tests and the demo */
  sim: z
    .strictObject({
      think_ms: z.number().int().min(0).max(60000).default(0),
      scenario: z.array(z.string()).default([]),
    })
    .default({ think_ms: 0, scenario: [] }),
  /**
   * run every agent in a sandbox (Linux, bubblewrap): it sees its worktree, its session folder
   * without the run's runtime files, and its CLI's own part of the home; a role's `sandbox` wins
   */
  sandbox: z.boolean().default(false),
  providers: z.record(z.string(), Provider).default({}),
  roles: z.partialRecord(z.enum(ROLES), RoleConfig).default({}),
});
export type Config = z.infer<typeof Config>;
export type ConfigInput = z.input<typeof Config>;
