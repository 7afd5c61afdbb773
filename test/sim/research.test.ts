import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { F, researchDir } from "../../src/protocol/paths.ts";
import { BUN, SimWorld } from "./harness.ts";
import { releaseFile } from "../../src/sim/scenario.ts";
import { parseScenarioText } from "../../src/schema/sim-scenario.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

let w: SimWorld;
afterEach(() => w?.cleanup());

test("batch mode (--prompt): a code researcher writes summary.md + detail.md, calls submit_research_done, exits 0", async () => {
  w = await SimWorld.create();
  const dir = researchDir("code", "auth-flow");
  w.write(
    `${dir}/request.md`,
    "# Research Request: auth-flow\n\n## Context\nLogin.\n\n## Questions\n- Where is the session stored?\n- Which tests cover login?\n",
  );
  const prompt = w.write(`${dir}/prompt.md`, "Research the request.\n");
  const p = Bun.spawn([BUN, join(REPO_ROOT, "src/main.ts"), "sim-agent", "--mcp-config", w.mcpConfig("code-researcher"), "--prompt", prompt], {
    cwd: w.projectDir,
    env: {
      ...process.env,
      AGENTMUX_SESSION_DIR: w.sessionDir,
      AGENTMUX_PROJECT_DIR: w.projectDir,
      AGENTMUX_ROLE: "code-researcher",
      AGENTMUX_AGENT: "code-researcher-auth-flow",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  // the researcher's process is its agent's process tree, as a pane's is at launch
  w.tokens.bindProcess("code-researcher", p.pid);
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  expect(code).toBe(0);
  expect(out).toContain("✓ submit_research_done");
  const summary = w.read(`${dir}/summary.md`);
  expect(summary).toContain("1. Where is the session stored?");
  expect(summary).toContain("2. Which tests cover login?");
  expect(w.read(`${dir}/detail.md`)).toContain("README.md");
  expect(w.toolEvents().map((e) => [e.tool, e.payload])).toEqual([
    ["submit_research_done", { topic: "auth-flow", type: "code", role_type: "code-researcher" }],
  ]);
}, 30000);

test("scenario research: the architect dispatches research, waits idle for the notice, then writes architecture.md", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "research" });
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, w.prompt(F.architectPrompt));
  const [dispatch] = await w.waitTool("research_dispatch_code");
  expect(dispatch!.payload.topic).toBe("existing-code");
  await w.waitScreen(pane, /waiting for research on existing-code[\s\S]*\[sim\] ready/);
  expect(w.has(F.architecture)).toBe(false);
  const summary = w.write(`${researchDir("code", "existing-code")}/summary.md`, "1. The code lives in src/.\n");
  await w.deliver(pane, `Research on existing-code is complete. Read ${summary}`);
  await w.waitTool("submit_architecture");
  expect(w.read(F.architecture)).toContain("## Research used\n\n1. The code lives in src/.");
  expect(w.toolEvents().map((e) => e.tool)).toEqual(["research_dispatch_code", "submit_architecture"]);
}, 30000);

test("scenario hold=<prompt>: the agent stays at work on that prompt until its release file appears, then finishes", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "hold=architect_prompt" });
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, w.prompt(F.architectPrompt));
  await w.waitScreen(pane, /held on architect_prompt until .*release\/architect_prompt exists/);
  expect(await w.title(pane)).toBe("sim: working");
  expect(w.toolEvents()).toEqual([]);
  expect(w.has(F.architecture)).toBe(false);
  w.write(".runtime/sim/release/architect_prompt", "");
  await w.waitTool("submit_architecture");
  expect(releaseFile(w.sessionDir, "architect_prompt")).toBe(join(w.sessionDir, ".runtime/sim/release/architect_prompt"));
  expect(parseScenarioText("hold=coder_prompt_1+fix_prompt")).toEqual({ ok: true, value: { hold: ["coder_prompt_1", "fix_prompt"] } });
  expect(parseScenarioText("hold=../x").ok).toBe(false);
}, 30000);
