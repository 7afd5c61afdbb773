import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROLE_TOOLS } from "../../src/schema/catalog.ts";
import { PROPOSED_PREFERENCES } from "../../src/protocol/paths.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { connect, connectWithToken, makeFixture, readEvents, startEndpoint, textOf, write, type Connected, type Endpoint, type Fixture } from "./harness.ts";

let fx: Fixture;
let ep: Endpoint;
let open: Connected[] = [];
beforeEach(async () => {
  fx = await makeFixture();
  ep = startEndpoint(fx);
});
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
  ep.stop();
  fx.cleanup();
});
const conn = async (role: Parameters<typeof connect>[1], o: Parameters<typeof connect>[2] = {}) => {
  const c = await connect(ep, role, { fx, ...o });
  open.push(c);
  return c;
};
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(ep.endpoint.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });

describe("tools/list", () => {
  test("lists exactly the role's tools, with JSON Schemas derived from the zod inputs", async () => {
    const { client } = await conn("planner");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ROLE_TOOLS.planner].sort());
    const dispatch = tools.find((t) => t.name === "research_dispatch_code")!;
    expect(dispatch.inputSchema.type).toBe("object");
    expect(dispatch.inputSchema.required).toEqual(["topic", "context", "questions"]);
    expect((dispatch.inputSchema.properties as any).topic.pattern).toBe("^[a-z0-9]+(-[a-z0-9]+)*$");
    expect(dispatch.description).toContain("code researcher");
  });

  test("the launch record can narrow the list; each schema carries the input fields", async () => {
    const { client } = await conn("coder", { tools: ["submit_done"] });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["submit_done"]);
    expect(tools[0]!.inputSchema.required).toEqual(["subplan_index"]);
    expect((tools[0]!.inputSchema.properties as any).subplan_index).toMatchObject({ type: "integer", minimum: 1 });
  });

  test("the MCP-ready gate opens when the endpoint has seen this agent's initialize and tools/list", async () => {
    const token = ep.tokens.issue("coder:2", "coder", fx.projectDir);
    expect(ep.tokens.ready("coder:2")).toBe(false);
    const client = await connectWithToken(ep.endpoint.url, token); // initialize + initialized
    expect(ep.tokens.link("coder:2")?.initializedAt).toBeNumber();
    expect(ep.tokens.ready("coder:2")).toBe(false);
    await client.listTools();
    expect(ep.tokens.ready("coder:2")).toBe(true);
    expect(ep.tokens.ready("coder:1")).toBe(false);
    await client.close();
  });
});

describe("who is calling: the token, nothing the agent can edit", () => {
  test("no token, an unknown token and a revoked token are refused (401) and nothing runs", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "0" } },
    };
    expect((await post(init)).status).toBe(401);
    expect((await post(init, { authorization: `Bearer ${"ab".repeat(32)}` })).status).toBe(401);
    const old = ep.tokens.issue("architect", "architect", fx.projectDir);
    expect((await post(init, { authorization: `Bearer ${old}` })).status).toBe(200);
    ep.tokens.issue("architect", "architect", fx.projectDir); // relaunched: the old token is dead
    const r = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "research_dispatch_code", arguments: { topic: "t", context: "c", questions: ["q"] } } },
      { authorization: `Bearer ${old}` },
    );
    expect(r.status).toBe(401);
    expect(((await r.json()) as any).error.message).toContain("no valid agent token");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("browsers and other hosts are refused (DNS rebinding); only POST is served", async () => {
    const token = ep.tokens.issue("architect", "architect", fx.projectDir);
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect((await post(ping, { authorization: `Bearer ${token}`, origin: "https://evil.example" })).status).toBe(403);
    expect((await post(ping, { authorization: `Bearer ${token}`, host: "evil.example" })).status).toBe(403);
    expect((await fetch(ep.endpoint.url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
    expect(await (await post(ping, { authorization: `Bearer ${token}` })).json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  test("a coder's token cannot submit as the architect, whatever else it claims", async () => {
    write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
    const { client } = await conn("coder", { agent: "coder:1" });
    const r = await client.callTool({ name: "submit_architecture", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("submit_architecture is not allowed for the coder role. The coder may call: submit_done. Nothing was recorded.");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("an accepted line names the agent and role the token identified, never the token", async () => {
    const c = await conn("architect");
    await c.client.callTool({ name: "research_dispatch_code", arguments: { topic: "t", context: "c", questions: ["q"] } });
    const [line] = readEvents(fx.sessionDir);
    expect(line).toMatchObject({ agent: "architect", role: "architect", seq: 1 });
    expect(line.seal).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(fx.sessionDir, "tool_events.jsonl"), "utf8")).not.toContain(c.token);
  });
});

describe("refusals change nothing", () => {
  test("a tool in the wrong phase is refused with the current phase named", async () => {
    write(fx.sessionDir, "04_planning/plan.yaml", "version: 2\n");
    fx.setState("implementing");
    const { client } = await conn("planner");
    const r = await client.callTool({ name: "submit_plan", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('the pipeline is in the "implementing" phase, and submit_plan is only accepted during planning');
    expect(textOf(r)).toContain("stop and wait");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("invalid arguments name the field", async () => {
    const { client } = await conn("architect");
    const r = await client.callTool({ name: "research_dispatch_code", arguments: { topic: "Bad Topic", context: "c", questions: [] } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("topic: must be a lowercase slug");
    expect(textOf(r)).toContain("questions:");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });
});

describe("preferences an agent proposes stay proposals (#18.12)", () => {
  test("they are kept in proposed_preferences.json, deduplicated, and never reach a prompt file", async () => {
    write(fx.projectDir, ".agentmux/prompts/agents/coder.md", "# Coder notes\n");
    write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
    const { client } = await conn("architect");
    const prefs = [
      { target_role: "coder", bullet: "* use   TABS" },
      { target_role: "coder", bullet: "Use tabs" },
      { target_role: "planner", bullet: "Small subplans" },
    ];
    const r = await client.callTool({ name: "submit_architecture", arguments: { preferences: prefs } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain("3 preferences proposed (1 already proposed); the user decides with `agentmux preferences`");
    expect(readFileSync(join(fx.projectDir, ".agentmux/prompts/agents/coder.md"), "utf8")).toBe("# Coder notes\n");
    expect(existsSync(join(fx.projectDir, ".agentmux/prompts/agents/planner.md"))).toBe(false);
    const file = JSON.parse(readFileSync(join(fx.projectDir, PROPOSED_PREFERENCES), "utf8"));
    expect(file.proposals.map((p: any) => [p.target_role, p.bullet, p.proposed_by.role])).toEqual([
      ["coder", "use TABS", "architect"],
      ["planner", "Small subplans", "architect"],
    ]);
    expect(readEvents(fx.sessionDir)).toHaveLength(1);
  });

  test("a path in agent-writable state.json never steers where the endpoint writes", async () => {
    const elsewhere = makeTmpDir("amx-elsewhere-");
    try {
      fx.setState("architecting", { main_repo_dir: elsewhere, project_dir: elsewhere });
      write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
      const { client } = await conn("architect");
      const r = await client.callTool({ name: "submit_architecture", arguments: { preferences: [{ target_role: "coder", bullet: "x" }] } });
      expect(r.isError).toBeFalsy();
      expect(existsSync(join(elsewhere, ".agentmux"))).toBe(false);
      expect(existsSync(join(fx.projectDir, PROPOSED_PREFERENCES))).toBe(true);
    } finally {
      removeDir(elsewhere);
    }
  });

  test("a target_role that is not a file name is refused before anything is written", async () => {
    write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
    const { client } = await conn("architect");
    const r = await client.callTool({ name: "submit_architecture", arguments: { preferences: [{ target_role: "../../evil", bullet: "x" }] } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('preferences[0]: target_role "../../evil" must be a role name');
    expect(readEvents(fx.sessionDir)).toEqual([]);
    expect(existsSync(join(fx.projectDir, PROPOSED_PREFERENCES))).toBe(false);
  });
});

test("unicode, backticks and $HOME round-trip into the event payload unchanged", async () => {
  const { client } = await conn("architect");
  const context = 'Ünïcödé ✓ 日本語 `rm -rf $HOME` "quoted" \\ $(whoami)';
  const r = await client.callTool({
    name: "research_dispatch_web",
    arguments: { topic: "odd-input", context, questions: ["what is `$PATH`?"], scope_hints: "ñ" },
  });
  expect(r.isError).toBeFalsy();
  const [ev] = readEvents(fx.sessionDir);
  expect(ev.payload).toEqual({ topic: "odd-input", context, questions: ["what is `$PATH`?"], scope_hints: ["ñ"], research_type: "web" });
});

describe("#31: requests a client may send", () => {
  /** One raw HTTP/1.1 exchange: what fetch would never send (no Host header). */
  async function raw(request: string): Promise<string> {
    const { port } = new URL(ep.endpoint.url);
    let text = "";
    const done = Promise.withResolvers<string>();
    await Bun.connect({
      hostname: "127.0.0.1",
      port: Number(port),
      socket: {
        open: (s) => void s.write(request),
        data: (_s, d) => void (text += d.toString()),
        close: () => done.resolve(text),
        error: () => done.resolve(text),
      },
    });
    return done.promise;
  }

  test("a request without a Host header is refused (403, a JSON-RPC error), not a 500", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const r = await raw(`POST /mcp HTTP/1.0\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    expect(r).toMatch(/^HTTP\/1\.[01] 403/);
    expect(r).toContain("wrong Host");
  });

  test("a 120 MB body with a valid token is refused with 413 before it is read whole", async () => {
    const token = ep.tokens.issue("architect", "architect", fx.projectDir);
    const big = new Uint8Array(120 * 1024 * 1024).fill(0x20);
    const res = await fetch(ep.endpoint.url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: big });
    expect(res.status).toBe(413);
    expect(JSON.stringify(await res.json())).toContain("larger than");
    expect(ep.logs.join("\n")).toContain("too large");
  });
});
