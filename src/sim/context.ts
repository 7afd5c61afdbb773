import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { SimFileUnreadable, SimSessionUnknown, SimThinkInvalid } from "./errors.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import type { State } from "../schema/state.ts";
import { readOptionalSessionFile } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { PHASE_DIRS } from "../protocol/paths.ts";
import { yamlLib } from "../session/yaml-lib.ts";
import type { SimScenario } from "../schema/sim-scenario.ts";
import { OnceState, parseScenario } from "./scenario.ts";

/** Where the simulated agent runs and what it was told (launch contract: env + cwd). */
export type SimEnv = {
  sessionDir: string;
  projectDir: string;
  workDir: string;
  role: string;
  agent: string;
  scenario: SimScenario;
  thinkMs: number;
  /** the conversation this agent continues or starts (--resume / --session-id) */
  conversation?: { id: string; resumed: boolean };
  /** how it records its token usage per turn (sim/transcript.ts) */
  transcript?: "claude" | "codex";
  /** its tmux pane (TMUX_PANE): the run's runtime file names the agent that holds it (agentOfPane) */
  pane?: string;
  /** the MCP config it was started with (--mcp-config): its own, not another agent's */
  mcpConfig?: string;
};

/** Where a simulated conversation keeps its turns (one line per submitted prompt). */
export const conversationFile = (sessionDir: string, id: string) => join(sessionDir, ".runtime", "sim", "conversations", `${id}.log`);

export function simEnvFromProcess(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): SimEnv {
  const thinkRaw = env.AGENTMUX_SIM_THINK_MS ?? "0";
  const thinkMs = Number(thinkRaw);
  if (!Number.isFinite(thinkMs) || thinkMs < 0) {
    throw new SimThinkInvalid({ raw: thinkRaw });
  }
  const role = env.AGENTMUX_ROLE || "agent";
  return {
    sessionDir: env.AGENTMUX_SESSION_DIR ? resolve(env.AGENTMUX_SESSION_DIR) : "",
    projectDir: resolve(env.AGENTMUX_PROJECT_DIR || cwd),
    workDir: resolve(cwd),
    role,
    agent: env.AGENTMUX_AGENT || role,
    scenario: parseScenario(env.AGENTMUX_SIM_SCENARIO),
    thinkMs,
    ...(env.TMUX_PANE ? { pane: env.TMUX_PANE } : {}),
  };
}

/**
 * The agent key the run gave this pane (runtime_state.json's panes), or null. A pane pre-started
 * by role was launched under a provisional key and taken over by the agent the phase launched:
 * like a real CLI, the sim learns what it is for only then, and its scenario switches aimed at an
 * agent (crash_once=coder:1) go by that key.
 */
export function agentOfPane(sessionDir: string, pane: string | undefined): string | null {
  if (!pane || !sessionDir) return null;
  const panes = readOptionalSessionFile(sessionDir, SESSION_FILES.runtime)?.panes ?? {};
  return Object.entries(panes).find(([, p]) => p === pane)?.[0] ?? null;
}

/** The session folder a prompt file belongs to: the env's, or the parent of its phase folder. */
export function sessionOf(promptPath: string, fallback: string): string {
  const abs = resolve(promptPath);
  if (fallback && (abs + sep).startsWith(fallback + sep)) return fallback;
  const parts = abs.split(sep);
  const i = parts.findIndex((p) => (PHASE_DIRS as readonly string[]).includes(p));
  if (i > 0) return parts.slice(0, i).join(sep) || sep;
  if (fallback) return fallback;
  throw new SimSessionUnknown({ prompt: promptPath });
}

/** File access for one task: session-relative reads and atomic writes, work-dir access for code. */
export class SimSession {
  readonly once: OnceState;
  constructor(
    readonly env: SimEnv,
    readonly dir: string,
  ) {
    this.once = new OnceState(dir);
  }

  path(rel: string): string {
    return join(this.dir, rel);
  }
  rel(abs: string): string {
    return relative(this.dir, abs);
  }
  has(rel: string): boolean {
    return existsSync(this.path(rel));
  }
  read(rel: string): string {
    try {
      return readFileSync(this.path(rel), "utf8");
    } catch (e) {
      throw new SimFileUnreadable({ path: this.path(rel) }, { cause: e });
    }
  }
  readOr(rel: string, fallback: string): string {
    return this.has(rel) ? this.read(rel) : fallback;
  }
  readYaml(rel: string): unknown {
    return yamlLib().parse(this.read(rel));
  }
  /** Every artifact write into the session folder is atomic (temp + rename). */
  write(rel: string, content: string): void {
    writeFileAtomic(this.path(rel), content);
  }
  /** The session's state.json when it reads as valid (the sim only reads a few fields). */
  state(): Partial<State> {
    return readOptionalSessionFile(this.dir, SESSION_FILES.state) ?? {};
  }
}
