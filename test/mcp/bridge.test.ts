import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BINARY, REPO_ROOT } from "../helpers/tmp.ts";
import { BUN, makeFixture, readEvents, startEndpoint, textOf, write, type Endpoint, type Fixture } from "./harness.ts";

// each test starts bun processes: on a loaded 2-core machine that alone can take seconds
setDefaultTimeout(30_000);

/**
 * The stdio fallback (`agentmux mcp-server`, for a CLI that cannot use HTTP): a bridge that
 * forwards every message to the run's endpoint with the agent's token from its env.
 */
let fx: Fixture;
let ep: Endpoint;
let clients: Client[] = [];
beforeEach(async () => {
  fx = await makeFixture();
  ep = startEndpoint(fx);
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  clients = [];
  ep.stop();
  fx.cleanup();
});

const cmd = (binary?: string) => (binary ? { command: binary, args: ["mcp-server"] } : { command: BUN, args: ["src/main.ts", "mcp-server"] });

async function bridge(env: Record<string, string>, binary?: string): Promise<{ client: Client; stderr: () => string; pid: () => number | null }> {
  const transport = new StdioClientTransport({ ...cmd(binary), cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", ...env }, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d) => (err += String(d)));
  const client = new Client({ name: "agentmux-test", version: "0" });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => err, pid: () => transport.pid };
}

for (const [label, binary] of [
  ["source", undefined],
  ["compiled binary", BINARY],
] as const) {
  describe.skipIf(binary !== undefined && !existsSync(binary))(`agentmux mcp-server (${label})`, () => {
    test("serves the token's agent: its tools, the MCP-ready gate, its calls recorded as that agent", async () => {
      const token = ep.tokens.issue("architect", "architect", fx.projectDir);
      // what agentmux gives it: the token in a 0600 file its env names, never the token itself (#31)
      const file = join(fx.projectDir, "architect.token");
      writeFileSync(file, token + "\n", { mode: 0o600 });
      const { client, pid } = await bridge({ AGENTMUX_MCP_URL: ep.endpoint.url, AGENTMUX_MCP_TOKEN_FILE: file }, binary);
      expect(readFileSync(`/proc/${pid()}/environ`, "utf8")).not.toContain(token);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["research_dispatch_code", "research_dispatch_web", "submit_architecture"]);
      expect(ep.tokens.ready("architect")).toBe(true);
      expect(ep.tokens.link("architect")?.bridgePid).toBeNumber();
      const r = await client.callTool({ name: "research_dispatch_code", arguments: { topic: "bin", context: "ctx `$HOME` ✓", questions: ["q"] } });
      expect(textOf(r)).toContain('code research on "bin" dispatched');
      expect(readEvents(fx.sessionDir).map((e) => [e.agent, e.role, e.payload.context])).toEqual([["architect", "architect", "ctx `$HOME` ✓"]]);
    });

    test("an HTTP(S) proxy in its env (qwen's, a CI runner's) does not take the loopback endpoint through it (#27)", async () => {
      const token = ep.tokens.issue("architect", "architect", fx.projectDir);
      // a proxy that refuses every connection: a request sent through it fails
      const dead = "http://127.0.0.1:9";
      const { client } = await bridge(
        {
          AGENTMUX_MCP_URL: ep.endpoint.url,
          AGENTMUX_MCP_TOKEN: token,
          HTTP_PROXY: dead,
          http_proxy: dead,
          HTTPS_PROXY: dead,
          ALL_PROXY: dead,
          NO_PROXY: "example.com",
        },
        binary,
      );
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("submit_architecture");
      expect(ep.tokens.ready("architect")).toBe(true);
    });

    test("a process with another agent's env cannot submit as that role: the token decides, AGENTMUX_ROLE is ignored", async () => {
      write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
      const coder = ep.tokens.issue("coder:1", "coder", fx.projectDir);
      const { client } = await bridge(
        { AGENTMUX_MCP_URL: ep.endpoint.url, AGENTMUX_MCP_TOKEN: coder, AGENTMUX_ROLE: "architect", AGENTMUX_AGENT: "architect" },
        binary,
      );
      const r = await client.callTool({ name: "submit_architecture", arguments: {} });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("not allowed for the coder role");
      expect(readEvents(fx.sessionDir)).toEqual([]);
    });

    test("when the endpoint is gone (orchestrator down), a call is answered with a clear retry-later error", async () => {
      const token = ep.tokens.issue("architect", "architect", fx.projectDir);
      const { client } = await bridge({ AGENTMUX_MCP_URL: ep.endpoint.url, AGENTMUX_MCP_TOKEN: token }, binary);
      ep.stop();
      const r = await client.callTool({ name: "submit_architecture", arguments: {} });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toStartWith("agentmux is not running (its orchestrator stopped), so submit_architecture was not recorded. Your files are kept.");
      expect(textOf(r)).toContain("call submit_architecture again");
    });
  });
}

describe("agentmux mcp-server process", () => {
  test.skipIf(!existsSync(BINARY))(
    "the compiled bridge runs on JSC's interpreter (#15.2): restarted in place with BUN_JSC_useJIT=0, it answers on the same stdio",
    async () => {
      const token = ep.tokens.issue("architect", "architect", fx.projectDir);
      const { client, pid } = await bridge({ AGENTMUX_MCP_URL: ep.endpoint.url, AGENTMUX_MCP_TOKEN: token }, BINARY);
      expect((await client.listTools()).tools.length).toBe(3);
      const p = pid()!;
      expect(readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").slice(1, 2)).toEqual(["mcp-server"]);
      expect(readFileSync(`/proc/${p}/environ`, "utf8").split("\0")).toContain("BUN_JSC_useJIT=0");
    },
  );

  test("exits on stdin EOF and writes nothing to stdout", async () => {
    const token = ep.tokens.issue("architect", "architect", fx.projectDir);
    const proc = Bun.spawn([BUN, "src/main.ts", "mcp-server"], {
      cwd: REPO_ROOT,
      env: { ...process.env, AGENTMUX_MCP_URL: ep.endpoint.url, AGENTMUX_MCP_TOKEN: token },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).toBe("");
  });

  test("a missing or bad endpoint or token exits 2 naming the variable", async () => {
    const good = { AGENTMUX_MCP_URL: "http://127.0.0.1:9/mcp", AGENTMUX_MCP_TOKEN: "ab".repeat(32) };
    const put = (name: string, text: string, mode: number) => {
      const f = join(fx.projectDir, name);
      writeFileSync(f, text, { mode });
      return f;
    };
    const open = put("open.token", "ab".repeat(32), 0o644);
    const empty = put("empty.token", "architect\n", 0o600);
    const missing = join(fx.projectDir, "missing.token");
    const cases: [Record<string, string | undefined>, string][] = [
      [{ ...good, AGENTMUX_MCP_URL: undefined }, "AGENTMUX_MCP_URL: is not set"],
      [{ ...good, AGENTMUX_MCP_URL: "http://example.com/mcp" }, "is not an http URL on 127.0.0.1"],
      [{ ...good, AGENTMUX_MCP_TOKEN: undefined }, "AGENTMUX_MCP_TOKEN_FILE: is not set (nor AGENTMUX_MCP_TOKEN)"],
      [{ ...good, AGENTMUX_MCP_TOKEN: "architect" }, "AGENTMUX_MCP_TOKEN: is not an agentmux agent token"],
      [{ ...good, AGENTMUX_MCP_TOKEN_FILE: missing }, `AGENTMUX_MCP_TOKEN_FILE: cannot read ${missing}: ENOENT`],
      [{ ...good, AGENTMUX_MCP_TOKEN_FILE: open }, `AGENTMUX_MCP_TOKEN_FILE: ${open} can be read by others (mode 0644)`],
      [{ ...good, AGENTMUX_MCP_TOKEN_FILE: empty }, "AGENTMUX_MCP_TOKEN_FILE: names a file that holds no agentmux agent token"],
    ];
    // one process per case, concurrently and without blocking the test's event loop
    const runs = cases.map(async ([vars, msg]) => {
      const env: Record<string, string> = { PATH: process.env.PATH ?? "" };
      for (const [k, v] of Object.entries(vars)) if (v !== undefined) env[k] = v;
      const p = Bun.spawn([BUN, "src/main.ts", "mcp-server"], { cwd: REPO_ROOT, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
      return { code, out, err, msg };
    });
    for (const r of await Promise.all(runs)) {
      expect(r.code).toBe(2);
      expect(r.err).toContain(r.msg);
      expect(r.out).toBe("");
    }
  });
});
