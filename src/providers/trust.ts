import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LaunchPart } from "./mcp.ts";
import type { ResolvedAgent } from "./resolve.ts";

export type PreTrust = LaunchPart & {
  /** what agentmux does about this CLI's folder-trust dialog, for `doctor` and logs */
  note: string;
};

/**
 * Pre-trust the agent's working folder where the CLI allows it. Measured facts
 * (reference/real-cli-behaviour.md §1.2, §2.2, §3.2): "yolo" flags do not skip trust dialogs.
 *   codex   `-c projects={"<dir>"={trust_level="trusted"}}`: per invocation, nothing written.
 *   gemini  GEMINI_CLI_TRUST_WORKSPACE=true (env, per invocation; worktrees are new folders).
 *   claude  only ~/.claude.json `projects[dir].hasTrustDialogAccepted` works: a global file that
 *           claude itself rewrites, so this runs only with `pre_trust: true` (off by default)
 *           and the entry stays; otherwise the trust dialog is detected and answered.
 *   copilot only its global config can pre-trust: the dialog is answered instead.
 *   qwen, opencode, sim: no pre-trust switch (qwen and opencode showed no dialog).
 * Returns nothing when `pre_trust` is false for the provider.
 */
export function preTrust(agent: ResolvedAgent, workDir: string, home: string): PreTrust {
  const none = (note: string): PreTrust => ({ argv: [], env: {}, files: [], note });
  const dialog = agent.provider.trust.length ? "trust dialog answered when it shows" : "no trust dialog expected";
  if (!agent.provider.pre_trust) return none(`pre-trust off; ${dialog}`);
  switch (agent.provider.mcp) {
    case "codex":
      return {
        argv: ["-c", `projects={${JSON.stringify(workDir)}={trust_level="trusted"}}`],
        env: {},
        files: [],
        note: "pre-trusted per invocation (-c projects override)",
      };
    case "gemini":
      return { argv: [], env: { GEMINI_CLI_TRUST_WORKSPACE: "true" }, files: [], note: "pre-trusted per invocation (GEMINI_CLI_TRUST_WORKSPACE)" };
    case "claude":
      return claudeTrust(workDir, home);
    default:
      return none(`no pre-trust switch; ${dialog}`);
  }
}

/** Adds `projects[workDir].hasTrustDialogAccepted: true` to ~/.claude.json, keeping all else. */
function claudeTrust(workDir: string, home: string): PreTrust {
  const path = join(home, ".claude.json");
  let text: string | null = null;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    text = null;
  }
  let state: Record<string, any> = {};
  if (text !== null && text.trim() !== "") {
    try {
      state = JSON.parse(text);
    } catch {
      return { argv: [], env: {}, files: [], note: `${path} is not valid JSON; left alone, trust dialog answered instead` };
    }
    if (typeof state !== "object" || state === null || Array.isArray(state)) {
      return { argv: [], env: {}, files: [], note: `${path} is not a JSON object; left alone, trust dialog answered instead` };
    }
  }
  const projects = typeof state.projects === "object" && state.projects !== null ? state.projects : {};
  if (projects[workDir]?.hasTrustDialogAccepted === true) {
    return { argv: [], env: {}, files: [], note: `already trusted in ${path}` };
  }
  const next = { ...state, projects: { ...projects, [workDir]: { ...(projects[workDir] ?? {}), hasTrustDialogAccepted: true } } };
  return { argv: [], env: {}, files: [{ path, content: JSON.stringify(next, null, 2) + "\n" }], note: `pre-trusted in ${path} (global file, entry kept)` };
}
