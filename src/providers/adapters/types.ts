import type { Parsed } from "../usage/claude.ts";
import type { LaunchContext, LaunchPart } from "../mcp.ts";
import type { ResolvedAgent } from "../resolve.ts";

/** What agentmux does about a CLI's folder-trust dialog (for `doctor` and logs), with what it passes. */
export type PreTrust = LaunchPart & { note: string };

/** A CLI's own token records: where they live and how one conversation's figures are read. */
export type UsageReader = {
  /** the CLI's home folder as the launched CLI sees it (its env, else the process env, else the default) */
  home: (env: Record<string, string>) => string;
  /** the record file of conversation `id` under `home`, or null */
  find: (home: string, id: string) => string | null;
  parse: (text: string) => Parsed | null;
};

/** The CLI versions an adapter's facts come from. */
export type Checked = {
  /** "measured": run in tmux against a mock model (test/real-cli); "published": from other tools' recorded screens and docs, not run here */
  how: "measured" | "published";
  versions: string[];
};

/**
 * Everything one agent CLI needs, in one place. `config` is its built-in provider block (the
 * YAML a user may override key by key: argv, env, dialogs and their keys, ready/busy/paste
 * screens, usage limits, conversation args, usage sources, submit timing, ready timeout); the
 * functions are what config cannot say. Selected by a provider's `mcp` key, so a custom
 * provider reuses a built-in CLI's wiring.
 */
export type CliAdapter = {
  /** the adapter's key: the built-in provider's name and its `mcp` value */
  name: string;
  /** the built-in `providers.<name>` block, YAML (merged into the built-in config layer) */
  config: string;
  checked: Checked;
  /** how to install the CLI when no npm package ships it (doctor's fix for a CLI not on PATH) */
  install?: string;
  /** agentmux's MCP endpoint wired into one launch (argv, env, 0600 files) */
  mcp: (agent: ResolvedAgent, ctx: LaunchContext) => LaunchPart;
  /** how the launch is described by `doctor` */
  mcpNote: string;
  /** the folder pre-trusted where the CLI allows it (only called with `pre_trust: true`); null: no switch */
  preTrust?: (agent: ResolvedAgent, workDir: string, home: string) => PreTrust | null;
  /** the name the CLI's model sees for one of agentmux's MCP tools */
  toolName: (tool: string) => string;
  /**
   * role args with the role's agentmux tools allowed, for a CLI that asks before each MCP call
   * (and its read-only git in the agent's own folder, in the forms models write)
   */
  allowTools?: (args: readonly string[], tools: readonly string[], workDir: string) => string[];
  /** usage records of this format (`usage: [{format: <name>}]`) */
  usage?: UsageReader;
  /** the conversation id the CLI picked for a launch (`conversation.capture: <name>`): found by what only that agent sent */
  captureConversation?: (o: { env: Record<string, string>; sinceMs: number; promptLine: string }) => string | null;
  /**
   * the CLI's own end-of-turn signal wired to run TURN_END_COMMAND (claude's Stop hook, codex's
   * notify program), per invocation: never in the user's settings
   */
  turnEndHook?: (ctx: LaunchContext) => LaunchPart;
  /**
   * what the CLI's version changes (a flag accepted only from some version on): `--version` is
   * asked once per run before its first start (bounded); `adapt` gives the args that version
   * takes and notes for the log and `doctor`
   */
  version?: {
    parse: (output: string) => string | null;
    adapt: (version: string) => { argv: string[]; notes: string[] };
  };
  /** extra `doctor` lines for this CLI */
  doctor?: (env: Record<string, string | undefined>) => { ok: boolean; label: string; detail: string; fix?: string }[];
};
