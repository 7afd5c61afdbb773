import { createHash, randomBytes } from "node:crypto";
import { ROLE_TOOLS, type Role, type ToolName } from "../schema/catalog.ts";

/** Who an endpoint request comes from, as the orchestrator launched it. */
export type AgentIdentity = {
  /** the agent key, e.g. "architect", "coder:2", "reviewer_logic" */
  agent: string;
  role: Role;
  /** the tools listed to and accepted from this agent */
  tools: readonly ToolName[];
  /** the agent's working directory (project or worktree): the done-gate checks files there */
  workDir: string;
};

/** What the endpoint has seen of one agent's MCP client. */
export type AgentLink = {
  identity: AgentIdentity;
  issuedAt: number;
  initializedAt?: number;
  /** first `tools/list` answered after `initialize`: the MCP-ready gate */
  readyAt?: number;
  /**
   * the process agentmux started the agent in (its pane's): requests must come from it or a
   * process below it (peer.ts); bound once the pane exists
   */
  rootPid?: number;
  /** the `agentmux mcp-server` stdio bridge serving this agent: a verified peer process, never a pid a request names */
  bridgePid?: number;
  lastSeenAt?: number;
};

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Per-agent secret tokens. `issue` makes a fresh unguessable token (256 random bits) for a
 * launch and revokes that agent's previous one; the endpoint maps a presented token to the
 * identity. Tokens are kept only as hashes here and reach the agent CLI only through its 0600
 * MCP config file or its environment — never argv, logs or tool_events.jsonl.
 */
export class AgentTokens {
  private readonly byHash = new Map<string, AgentLink>();
  private readonly hashOf = new Map<string, string>();

  issue(agent: string, role: Role, workDir: string, tools: readonly ToolName[] = ROLE_TOOLS[role]): string {
    this.revoke(agent);
    const token = randomBytes(32).toString("hex");
    const h = digest(token);
    this.byHash.set(h, { identity: { agent, role, tools: [...tools], workDir }, issuedAt: Date.now() });
    this.hashOf.set(agent, h);
    return token;
  }

  revoke(agent: string): void {
    const h = this.hashOf.get(agent);
    if (h) this.byHash.delete(h);
    this.hashOf.delete(agent);
  }

  /**
   * Hand a live token over to another agent key (a pane pre-started by role is taken over by the
   * agent the phase launches, #15.3): its link, with what the endpoint has seen of the client,
   * now identifies `to`; `to`'s previous token is revoked and `from` names nothing any more.
   * False when `from` holds no token or its role differs (its tools would).
   */
  rekey(from: string, to: string, role: Role): boolean {
    const h = this.hashOf.get(from);
    const link = h ? this.byHash.get(h) : undefined;
    if (!h || !link || link.identity.role !== role) return false;
    if (from === to) return true;
    this.revoke(to);
    this.hashOf.delete(from);
    link.identity = { ...link.identity, agent: to };
    this.hashOf.set(to, h);
    return true;
  }

  /** The agent's process now exists: its requests must come from `pid` or below it. False when the agent holds no token. */
  bindProcess(agent: string, pid: number): boolean {
    const link = this.link(agent);
    if (!link) return false;
    link.rootPid = pid;
    return true;
  }

  /** The link a token belongs to (undefined: unknown or revoked). */
  lookup(token: string): AgentLink | undefined {
    return /^[0-9a-f]{64}$/.test(token) ? this.byHash.get(digest(token)) : undefined;
  }

  link(agent: string): AgentLink | undefined {
    const h = this.hashOf.get(agent);
    return h ? this.byHash.get(h) : undefined;
  }

  /** True once the agent's client has initialized and listed the tools. */
  ready(agent: string): boolean {
    return this.link(agent)?.readyAt !== undefined;
  }

  links(): AgentLink[] {
    return [...this.byHash.values()];
  }
}
