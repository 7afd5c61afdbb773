import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { privateMcpDir } from "../../src/session/private-dir.ts";
import { waitFor } from "../helpers/wait.ts";
import { release, startDemo, waitForState } from "../fault/harness.ts";
import { isolatedBinary, killTmuxServer } from "./harness.ts";

/**
 * #31.1, no token in an agent's environment once the CLI has what it needs: with the stdio bridge
 * (`agentmux mcp-server`, what agy and any CLI with `mcp_transport: stdio` run) the token is in a
 * 0600 file of the run's private folder that the bridge's environment names. While the agents
 * are live, every process's /proc/<pid>/environ is read: none holds any agent's token, and the
 * bridges' name their token file (so the scan did see them). Compiled binary, the simulated agent.
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

const pids = () => readdirSync("/proc").filter((n) => /^\d+$/.test(n));
const read = (pid: string, what: string) => {
  try {
    return readFileSync(`/proc/${pid}/${what}`, "latin1");
  } catch {
    return ""; // gone, or not ours
  }
};

test("over the stdio bridge no process's environment holds an agent's token; the bridges' name their 0600 token file", async () => {
  const run = startDemo(bin, { scenario: "hold=review_logic_prompt", thinkMs: 0, sockets, config: { providers: { sim: { mcp_transport: "stdio" } } } });
  const { dir } = await waitForState(run, "the review under way", (s) => s.phase === "reviewing" && s.agents?.reviewer_logic?.status === "working");
  const priv = privateMcpDir(dir);
  const files = readdirSync(priv).filter((n) => n.endsWith(".token"));
  const tokens = files.map((n) => readFileSync(join(priv, n), "utf8").trim());
  expect(tokens.length).toBeGreaterThanOrEqual(2);
  for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{64}$/);
  // the live bridges: their environment names their file
  const bridges = await waitFor("a live bridge", () => {
    const found = pids().filter((p) => read(p, "cmdline").includes("mcp-server") && read(p, "environ").includes("AGENTMUX_MCP_TOKEN_FILE="));
    return found.length ? found : null;
  });
  expect(read(bridges[0]!, "environ")).toContain(`AGENTMUX_MCP_TOKEN_FILE=${priv}/`);
  // no environment at all holds a token (the agents', their bridges', tmux's, the orchestrator's)
  const holding = pids().filter((p) => tokens.some((t) => read(p, "environ").includes(t)));
  expect(holding.map((p) => `${p}: ${read(p, "cmdline").replace(/\0/g, " ").slice(0, 120)}`)).toEqual([]);

  release(dir, ["review_logic_prompt"]);
  const r = await run.done;
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
}, 180_000);
