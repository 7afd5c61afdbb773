import * as fs from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadSealKey, type SealKey } from "../../src/bus/tool-seal.ts";
import { McpEndpoint } from "../../src/mcp/endpoint.ts";
import { ToolEventLog } from "../../src/mcp/events.ts";
import { AgentTokens } from "../../src/mcp/identity.ts";
import { processTreeCheck } from "../../src/mcp/peer.ts";
import { agentHandlers } from "../../src/mcp/server.ts";
import type { Phase, Role, ToolName } from "../../src/schema/catalog.ts";
import { readState } from "../../src/session/read.ts";
import { F } from "../../src/protocol/paths.ts";
import { makeTmpDir, removeDir, REPO_ROOT } from "../helpers/tmp.ts";

export const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");

/** A project (real git repo with one commit) holding a session folder with a state.json. */
export type Fixture = { projectDir: string; sessionDir: string; setState(phase: Phase, over?: Record<string, unknown>): void; cleanup(): void };

export async function makeFixture(): Promise<Fixture> {
  const projectDir = makeTmpDir("amx-mcp-");
  await git.init({ fs, dir: projectDir, defaultBranch: "main" });
  fs.mkdirSync(join(projectDir, "src"));
  fs.writeFileSync(join(projectDir, "src/app.ts"), "export const app = 1;\n");
  await git.add({ fs, dir: projectDir, filepath: "src/app.ts" });
  await git.commit({ fs, dir: projectDir, message: "init", author: { name: "t", email: "t@example.com" } });
  const sessionDir = join(projectDir, ".agentmux", ".sessions", "20260101-000000-test");
  fs.mkdirSync(sessionDir, { recursive: true });
  const setState = (phase: Phase, over: Record<string, unknown> = {}) => {
    const state = {
      phase,
      last_event: "feature_created",
      product_manager: false,
      subplan_count: 2,
      completed_subplans: [],
      review_iteration: 0,
      implementation_group_total: 1,
      implementation_group_index: 1,
      implementation_group_mode: "parallel",
      implementation_active_plan_ids: ["1", "2"],
      implementation_completed_group_ids: [],
      updated_at: new Date().toISOString(),
      updated_by: "test",
      feature_dir: sessionDir,
      session_name: "agentmux-test",
      ...over,
    };
    fs.writeFileSync(join(sessionDir, F.state), JSON.stringify(state));
  };
  setState("architecting");
  return { projectDir, sessionDir, setState, cleanup: () => removeDir(projectDir) };
}

export type Endpoint = { endpoint: McpEndpoint; tokens: AgentTokens; key: SealKey; logs: string[]; stop(): void };

/**
 * Tokens as the orchestrator issues them, each bound at once to this test's process (the agent's
 * "pane process"): the test and the processes it starts are the agent's process tree. A test of
 * the peer check binds a token to another process with bindProcess.
 */
class TestTokens extends AgentTokens {
  override issue(...a: Parameters<AgentTokens["issue"]>): string {
    const token = super.issue(...a);
    this.bindProcess(a[0], process.pid);
    return token;
  }
}

/**
 * The run's real MCP endpoint (as the orchestrator hosts it, with the process-tree peer check)
 * for a fixture session: the state comes from the fixture's state.json (the orchestrator would
 * give its own in-memory state).
 */
export function startEndpoint(fx: Fixture, o: { port?: number } = {}): Endpoint {
  const key = loadSealKey(fx.sessionDir);
  const logs: string[] = [];
  const tokens = new TestTokens();
  const host = {
    sessionDir: fx.sessionDir,
    projectDir: fx.projectDir,
    state: () => readState(fx.sessionDir),
    events: new ToolEventLog(fx.sessionDir, key),
    log: (m: string) => void logs.push(m),
  };
  const endpoint = McpEndpoint.start({
    tokens,
    handlers: (link) => agentHandlers(host, link),
    log: host.log,
    peer: processTreeCheck({ bindWaitMs: 2000 }),
    ...(o.port ? { port: o.port } : {}),
  });
  return { endpoint, tokens, key, logs, stop: () => endpoint.stop() };
}

export type Connected = { client: Client; token: string; close(): Promise<void> };

/** A real SDK client over streamable HTTP, authenticated as a fresh agent of `role` (the token the orchestrator would issue at launch). */
export async function connect(
  ep: Endpoint,
  role: Role,
  o: { agent?: string; workDir?: string; fx?: Fixture; tools?: readonly ToolName[] } = {},
): Promise<Connected> {
  const token = ep.tokens.issue(o.agent ?? role, role, o.workDir ?? o.fx?.projectDir ?? "/nonexistent", o.tools);
  const client = await connectWithToken(ep.endpoint.url, token);
  return { client, token, close: () => client.close() };
}

export async function connectWithToken(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "agentmux-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

export function readEvents(sessionDir: string): any[] {
  const file = join(sessionDir, F.toolEvents);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, "utf8");
  if (text && !text.endsWith("\n")) throw new Error("tool_events.jsonl does not end with a newline");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

export const textOf = (r: any): string => (r.content as { text: string }[]).map((c) => c.text).join("\n");

export function write(dir: string, rel: string, content: string): void {
  fs.mkdirSync(join(dir, rel, ".."), { recursive: true });
  fs.writeFileSync(join(dir, rel), content);
}
