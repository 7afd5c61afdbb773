import type { Config } from "../schema/config.ts";
import type { Role } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import type { Layout } from "../effects/tmux/layout.ts";
import type { PaneWriter } from "../effects/tmux/deliver.ts";
import type { Tmux } from "../effects/tmux/runner.ts";
import type { AgentTokens } from "../mcp/identity.ts";
import type { ResolvedAgent } from "../providers/resolve.ts";
import type { Logger } from "../effects/log.ts";
import type { Clock } from "../effects/clock.ts";

/** What the agent runtime (agents.ts) and its parts are given by the orchestrator. */
export type AgentRuntimeOptions = {
  sessionDir: string;
  projectDir: string;
  workDir: string;
  sessionName: string;
  config: Config;
  tmux: Tmux;
  layout: Layout;
  writer: PaneWriter;
  controlPane: string;
  selfCommand: string[];
  log: Logger;
  /** the orchestrator's current state (an agent's status decides whether a reminder still goes in) */
  state?: () => State;
  /** a delivery was accepted: the agent's turn begins (TurnWatcher) */
  onTurn?: (agent: string) => void;
  /** a delivery to the agent starts (true) or ends (false): a turn ending meanwhile is the previous task's (TurnWatcher) */
  onDelivering?: (agent: string, under: boolean) => void;
  /** when `agent` last called a tool (ToolCallTail): a call after a paste is an accepted prompt */
  lastToolCall?: (agent: string) => number;
  /** the agent is at its idle prompt with no turn under way (TurnWatcher) */
  isIdle?: (agent: string) => boolean;
  /** when the agent's last turn ended and its screen had settled (TurnWatcher, on `clock`) */
  turnEnd?: (agent: string) => { endedAt: number; settledAt: number } | null;
  /** added to every agent's environment (session/run-env.ts: AGENTMUX_PORT_OFFSET, …) */
  runEnv?: Record<string, string>;
  /** the run's MCP endpoint: each launch gets a fresh token for it (revoked when the agent goes) */
  mcp: { tokens: AgentTokens; url: () => string };
  /** the clock of a reminder's delay, the TurnWatcher's (performance.now() unless given) */
  clock?: Clock;
  /** wall time: when a pane was launched (compared with the CLI's files) and a delivery started (with events' stamps); Date.now() unless given */
  wallClock?: Clock;
};

export type LaunchOptions = { batchPrompt?: string; provider?: string; conversation?: string };

/** An agent's pane as the runtime keeps it. */
export type AgentPane = {
  pane: string;
  /** the pane's own process (its shell); the CLI runs below it */
  pid: number;
  role: Role;
  resolved: ResolvedAgent;
  /** a first prompt went to it (the first waits for the ready and MCP gates) */
  prompted: boolean;
  /** the CLI's environment (where its own files are found: a conversation, usage) */
  env: Record<string, string>;
  /** wall time of its launch */
  launchedAt: number;
  /** its CLI picks its own conversation id, to be found after its first prompt */
  capture: boolean;
  /** the id its CLI's own turn-end hook reports */
  turnId: string;
};
/** A CLI started in a pane, not yet an agent of the run. */
export type Started = { pane: AgentPane; conversation?: { id: string; resume: boolean }; argv: string[] };
