import { afterAll, beforeAll, expect, test } from "bun:test";
import { readLog } from "../../src/session/log.ts";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

/** A scratch repository made by `demo`, then reused for `agentmux run` with a sim scenario. */
async function scratch(scenario: string[]) {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir();
  const repo = join(root, "repo");
  expect((await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket })).code).toBe(0);
  writeFileSync(join(root, "sim.yaml"), stringify({ sim: { scenario } }));
  return { socket, repo, config: join(root, "sim.yaml") };
}

const jsonLines = (out: string) =>
  out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));

test("product manager, research on demand and a designer, all played by the simulated agent", async () => {
  const s = await scratch(["design", "research"]);
  const r = await runBinary(bin, ["run", "--ci", "--json", "--keep-session", "--product-manager", "--config", s.config, "Add a settings page"], {
    cwd: s.repo,
    socket: s.socket,
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const phases = jsonLines(r.stdout)
    .filter((e) => e.kind === "phase")
    .map((e) => e.phase);
  expect(phases.slice(0, 5)).toEqual(["product_management", "architecting", "planning", "designing", "implementing"]);
  const dir = join(
    s.repo,
    ".agentmux",
    ".sessions",
    readdirSync(join(s.repo, ".agentmux", ".sessions")).find((d) => d.includes("settings-page"))!,
  );
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(state.research_tasks).toEqual({ "existing-code": "done" });
  expect(existsSync(join(dir, "03_research/code-existing-code/summary.md"))).toBe(true);
  expect(existsSync(join(dir, "05_design/design.md"))).toBe(true);
  expect(readFileSync(join(dir, "requirements.md"), "utf8")).toContain("## Acceptance Criteria"); // rewritten by the PM
  // the researcher ran in its own pane and left the agents list once its topic was done
  expect(state.agents["code-researcher:existing-code"]).toBeUndefined();
  expect(
    readLog(dir)
      .filter((r) => r.event === "agent_launched")
      .map((r) => r.agent),
  ).toContain("code-researcher:existing-code");
  // completed research is handed to the planner
  expect(readFileSync(join(dir, "04_planning/planner_prompt.md"), "utf8")).toContain("existing-code");
}, 180_000);

test("agents that are hard to talk to: a trust dialog, a slow start, an early Enter turned into a newline, an ignored first Enter", async () => {
  const s = await scratch(["trust_dialog", "slow_start=700", "early_enter_ms=60", "ignore_first_enter"]);
  const r = await runBinary(bin, ["run", "--ci", "--json", "--keep-session", "--config", s.config, "Add a farewell module"], { cwd: s.repo, socket: s.socket });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const dir = join(
    s.repo,
    ".agentmux",
    ".sessions",
    readdirSync(join(s.repo, ".agentmux", ".sessions")).find((d) => d.includes("farewell"))!,
  );
  const log = readLog(dir);
  // every interactive agent's trust dialog was answered (architect, planner, coder, reviewer)
  expect(log.filter((r) => r.event === "dialog_answered" && String(r.data?.dialog).startsWith("Trust this folder")).length).toBeGreaterThanOrEqual(4);
  // no delivery failed
  expect(log.filter((r) => r.event === "delivery_failed")).toEqual([]);
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  expect(Object.values(state.agents as Record<string, { status: string }>).some((a) => a.status === "stuck")).toBe(false);
}, 180_000);
