import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROLE_TOOLS, TOOLS } from "../../src/schema/catalog.ts";
import { mcpReadyFile } from "../../src/session/paths.ts";
import { waitFor } from "../helpers/wait.ts";
import { BUN, connect, makeFixture, readEvents, textOf, write, type Connected, type Fixture } from "./harness.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

let fx: Fixture;
let open: Connected[] = [];
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
  fx.cleanup();
});
const conn = async (env: Record<string, string>) => {
  const c = await connect(fx, env);
  open.push(c);
  return c;
};

describe("tools/list", () => {
  test("lists exactly the role's tools, with JSON Schemas derived from the zod inputs", async () => {
    const { client } = await conn({ AGENTMUX_ROLE: "planner" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ROLE_TOOLS.planner].sort());
    const dispatch = tools.find((t) => t.name === "research_dispatch_code")!;
    expect(dispatch.inputSchema.type).toBe("object");
    expect(dispatch.inputSchema.required).toEqual(["topic", "context", "questions"]);
    expect((dispatch.inputSchema.properties as any).topic.pattern).toBe("^[a-z0-9]+(-[a-z0-9]+)*$");
    expect(dispatch.description).toContain("code researcher");
  });

  test("AGENTMUX_ALLOWED_TOOLS narrows the list", async () => {
    const { client } = await conn({ AGENTMUX_ROLE: "architect", AGENTMUX_ALLOWED_TOOLS: "submit_architecture" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["submit_architecture"]);
  });

  test("without a role or list, every tool is served; each schema carries the input fields", async () => {
    const { client } = await conn({});
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    const done = tools.find((t) => t.name === "submit_done")!;
    expect(done.inputSchema.required).toEqual(["subplan_index"]);
    expect((done.inputSchema.properties as any).subplan_index).toMatchObject({ type: "integer", minimum: 1 });
  });

  test("the readiness marker appears after tools/list, naming pid and tools", async () => {
    const { client } = await conn({ AGENTMUX_ROLE: "coder", AGENTMUX_AGENT: "coder 2" });
    const marker = join(fx.sessionDir, mcpReadyFile("coder 2"));
    expect(existsSync(marker)).toBe(false);
    await client.listTools();
    const ready = await waitFor("readiness marker", () => existsSync(marker) && JSON.parse(readFileSync(marker, "utf8")));
    expect(ready.tools).toEqual(["submit_done"]);
    expect(typeof ready.pid).toBe("number");
    expect(Date.parse(ready.at)).not.toBeNaN();
  });
});

describe("refusals change nothing", () => {
  test("a tool outside the role is refused", async () => {
    write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
    const { client } = await conn({ AGENTMUX_ROLE: "coder", AGENTMUX_ALLOWED_TOOLS: "submit_done,submit_architecture" });
    const r = await client.callTool({ name: "submit_architecture", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("submit_architecture is not allowed for the coder role. The coder may call: submit_done. Nothing was recorded.");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("a tool in the wrong phase is refused with the current phase named", async () => {
    write(fx.sessionDir, "04_planning/plan.yaml", "version: 2\n");
    fx.setState("implementing");
    const { client } = await conn({ AGENTMUX_ROLE: "planner" });
    const r = await client.callTool({ name: "submit_plan", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('the pipeline is in the "implementing" phase, and submit_plan is only accepted during planning');
    expect(textOf(r)).toContain("stop and wait");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("invalid arguments name the field", async () => {
    const { client } = await conn({ AGENTMUX_ROLE: "architect" });
    const r = await client.callTool({ name: "research_dispatch_code", arguments: { topic: "Bad Topic", context: "c", questions: [] } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("topic: must be a lowercase slug");
    expect(textOf(r)).toContain("questions:");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });

  test("a missing state.json refuses instead of guessing", async () => {
    const { client } = await conn({ AGENTMUX_ROLE: "architect" });
    Bun.spawnSync(["rm", join(fx.sessionDir, "state.json")]);
    const r = await client.callTool({ name: "research_dispatch_web", arguments: { topic: "x", context: "c", questions: ["q"] } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("file not found");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });
});

describe("preferences", () => {
  test("are appended under ## Approved Preferences, deduplicated against the batch and the file", async () => {
    write(fx.projectDir, ".agentmux/prompts/agents/coder.md", "# Coder notes\n\nKeep it short.\n\n## Approved Preferences\n\n- Use tabs\n\n## Other\n\ntext\n");
    write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
    const { client } = await conn({ AGENTMUX_ROLE: "architect" });
    const r = await client.callTool({
      name: "submit_architecture",
      arguments: {
        preferences: [
          { target_role: "coder", bullet: "* use   TABS" },
          { target_role: "coder", bullet: "Write tests first" },
          { target_role: "coder", bullet: "- write tests  first" },
          { target_role: "planner", bullet: "Small subplans" },
        ],
      },
    });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain("2 new preferences saved (2 already known)");
    const coder = readFileSync(join(fx.projectDir, ".agentmux/prompts/agents/coder.md"), "utf8");
    expect(coder).toBe("# Coder notes\n\nKeep it short.\n\n## Approved Preferences\n\n- Use tabs\n- Write tests first\n\n## Other\n\ntext\n");
    expect(readFileSync(join(fx.projectDir, ".agentmux/prompts/agents/planner.md"), "utf8")).toBe("## Approved Preferences\n\n- Small subplans\n");
    expect(readEvents(fx.sessionDir)).toHaveLength(1);
  });

  test("a target_role that is not a file name is refused before anything is written", async () => {
    write(fx.sessionDir, "02_architecting/architecture.md", "# Arch\n");
    const { client } = await conn({ AGENTMUX_ROLE: "architect" });
    const r = await client.callTool({ name: "submit_architecture", arguments: { preferences: [{ target_role: "../../evil", bullet: "x" }] } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('preferences[0]: target_role "../../evil" must be a role name');
    expect(readEvents(fx.sessionDir)).toEqual([]);
    expect(existsSync(join(fx.projectDir, ".agentmux/prompts"))).toBe(false);
  });
});

test("unicode, backticks and $HOME round-trip into the event payload unchanged", async () => {
  const { client } = await conn({ AGENTMUX_ROLE: "architect" });
  const context = "Ünïcödé ✓ 日本語 `rm -rf $HOME` \"quoted\" \\ $(whoami)";
  const r = await client.callTool({ name: "research_dispatch_web", arguments: { topic: "odd-input", context, questions: ["what is `$PATH`?"], scope_hints: "ñ" } });
  expect(r.isError).toBeFalsy();
  const [ev] = readEvents(fx.sessionDir);
  expect(ev.payload).toEqual({ topic: "odd-input", context, questions: ["what is `$PATH`?"], scope_hints: ["ñ"], research_type: "web" });
});

describe("process", () => {
  test("exits on stdin EOF", async () => {
    const proc = Bun.spawn([BUN, "src/main.ts", "mcp-server"], {
      cwd: REPO_ROOT,
      env: { ...process.env, AGENTMUX_SESSION_DIR: fx.sessionDir },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).toBe("");
  });

  test("a missing or bad AGENTMUX_SESSION_DIR exits 2 with the reason on stderr", () => {
    for (const [value, msg] of [[undefined, "AGENTMUX_SESSION_DIR: is not set"], ["/nonexistent/x", "/nonexistent/x is not a directory"]] as const) {
      const env: Record<string, string | undefined> = { ...process.env, AGENTMUX_SESSION_DIR: value };
      if (value === undefined) delete env.AGENTMUX_SESSION_DIR;
      const r = Bun.spawnSync([BUN, "src/main.ts", "mcp-server"], { cwd: REPO_ROOT, env: env as Record<string, string>, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      expect(r.exitCode).toBe(2);
      expect(r.stderr.toString()).toContain(msg);
      expect(r.stdout.toString()).toBe("");
    }
  });
});
