import * as fs from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Phase } from "../../src/schema/catalog.ts";
import { F } from "../../src/session/paths.ts";
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

export type Connected = { client: Client; stderr: () => string; close(): Promise<void>; pid: () => number | null };

/** Spawns the real `agentmux mcp-server` (source via bun, or the compiled binary) and connects a real SDK client. */
export async function connect(fx: Fixture, env: Record<string, string>, opts: { binary?: string } = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: opts.binary ?? BUN,
    args: opts.binary ? ["mcp-server"] : ["src/main.ts", "mcp-server"],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), AGENTMUX_SESSION_DIR: fx.sessionDir, AGENTMUX_PROJECT_DIR: fx.projectDir, ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d) => (err += String(d)));
  const client = new Client({ name: "agentmux-test", version: "0" });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close(), pid: () => transport.pid };
}

export function readEvents(sessionDir: string): any[] {
  const file = join(sessionDir, F.toolEvents);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, "utf8");
  if (text && !text.endsWith("\n")) throw new Error("tool_events.jsonl does not end with a newline");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

export const textOf = (r: any): string => (r.content as { text: string }[]).map((c) => c.text).join("\n");

export function write(dir: string, rel: string, content: string): void {
  fs.mkdirSync(join(dir, rel, ".."), { recursive: true });
  fs.writeFileSync(join(dir, rel), content);
}
