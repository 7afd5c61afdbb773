import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { CLAUDE_TURN, CODEX_TURN } from "../../src/sim/transcript.ts";
import { git, isolatedBinary, killTmuxServer, privateSocket, runBinary } from "./harness.ts";
import { removeDir } from "../helpers/tmp.ts";
import { simProject } from "./sim-project.ts";

/**
 * #14.2 through the compiled binary: the simulated agents record their token usage the way
 * claude (transcripts) and codex (rollouts) do; agentmux reads them by conversation id and
 * reports tokens and estimated cost per agent and for the run — in `status --json`, the CI
 * result line and summary — and a headless run over its budget fails with the figure.
 */
const dirs: string[] = [];
const sockets: string[] = [];
let bin = "";
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  sockets.forEach(killTmuxServer);
  dirs.forEach(removeDir);
});

function project(extra: Record<string, unknown>): string {
  const repo = simProject({ dirs }, 0);
  const file = join(repo, ".agentmux/config.yaml");
  writeFileSync(file, stringify({ ...parse(readFileSync(file, "utf8")), ...extra }));
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "config");
  return repo;
}
const socket = () => {
  const s = privateSocket();
  sockets.push(s);
  return s;
};
const sessionOf = (repo: string) => {
  const root = join(repo, ".agentmux/.sessions");
  return join(
    root,
    readdirSync(root).find((n) => !n.startsWith("."))!,
  );
};
/** Turns each conversation had: the simulated CLI logs one line per prompt it was given. */
function turns(dir: string): Record<string, number> {
  const conv = join(dir, ".runtime/sim/conversations");
  return Object.fromEntries(readdirSync(conv).map((f) => [f.replace(/\.log$/, ""), readFileSync(join(conv, f), "utf8").split("\n").filter(Boolean).length]));
}

test("status --json reports tokens and cost per agent, from claude transcripts and codex rollouts", async () => {
  // the coder records like codex, every other agent like claude
  const repo = project({ providers: { sim: { role_args: { coder: ["--transcript", "codex"] } } } });
  const r = await runBinary(bin, ["run", "Add alpha", "--ci", "--json", "--keep-session"], { cwd: repo, socket: socket() });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const dir = sessionOf(repo);
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  const n = turns(dir);
  const status = JSON.parse(Bun.spawnSync([bin, "status", "--json"], { cwd: repo, stdout: "pipe", env: { ...process.env, NO_COLOR: "1" } }).stdout.toString());

  const coderId = state.agents.coder.conversation_id;
  const claudeAgents = Object.keys(state.agents).filter((a) => a !== "coder" && state.agents[a].conversation_id);
  expect(claudeAgents.length).toBeGreaterThanOrEqual(3);
  // codex: input counts the cached tokens, output the reasoning; $1.25 in, $0.125 cached, $10 out per million
  const c = n[coderId]!;
  expect(status.usage_by_agent.coder).toMatchObject({
    input: (CODEX_TURN.input - CODEX_TURN.cached) * c,
    cached: CODEX_TURN.cached * c,
    cache_write: 0,
    output: CODEX_TURN.output * c,
    models: ["gpt-5-codex"],
  });
  expect(status.usage_by_agent.coder.cost_usd).toBeCloseTo(
    (((CODEX_TURN.input - CODEX_TURN.cached) * 1.25 + CODEX_TURN.cached * 0.125 + CODEX_TURN.output * 10) * c) / 1e6,
    6,
  );
  // claude: a streamed message counts once; sonnet 4.5 at $3 in, $0.30 cache read, $3.75 cache write, $15 out
  let total = status.usage_by_agent.coder.cost_usd;
  for (const a of claudeAgents) {
    const t = n[state.agents[a].conversation_id]!;
    expect(status.usage_by_agent[a]).toMatchObject({
      input: CLAUDE_TURN.input * t,
      cached: CLAUDE_TURN.cache_read * t,
      cache_write: CLAUDE_TURN.cache_write * t,
      output: CLAUDE_TURN.output * t,
      models: ["claude-sonnet-4-5-20250929"],
    });
    const cost = ((CLAUDE_TURN.input * 3 + CLAUDE_TURN.cache_read * 0.3 + CLAUDE_TURN.cache_write * 3.75 + CLAUDE_TURN.output * 15) * t) / 1e6;
    expect(status.usage_by_agent[a].cost_usd).toBeCloseTo(cost, 6);
    total += cost;
  }
  expect(status.usage.cost_usd).toBeCloseTo(total, 6);
  expect(status.usage.unpriced).toBe(0);
  // the CI result line carries the same total; the text summary would print it too
  const result = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .find((e) => e.kind === "result");
  expect(result.usage.cost_usd).toBeCloseTo(total, 6);
  expect(result.usage.tokens).toBe(status.usage.tokens);
  const text = Bun.spawnSync([bin, "status"], { cwd: repo, stdout: "pipe", env: { ...process.env, NO_COLOR: "1" } }).stdout.toString();
  // the simulated agents' figures are priced like any, and say that nothing was spent
  expect(status.usage.simulated).toBe(true);
  expect(result.usage.simulated).toBe(true);
  expect(text).toMatch(/Usage\s+\S+ tokens \(.* in, .* cached, .* cache write, .* out\) · \$\d+\.\d\d \(simulated\)/);
  expect(text).toMatch(/\[coder\] .*\s\S+ tokens\s+\$\d+\.\d\d \(simulated\)\s+gpt-5-codex/);
}, 180_000);

test("a headless run over its budget fails with the figure", async () => {
  const repo = project({ limits: { max_tokens: 20000 } });
  const r = await runBinary(bin, ["run", "Add alpha", "--ci", "--keep-session"], { cwd: repo, socket: socket() });
  expect(r.code).not.toBe(0);
  expect(r.stdout).toMatch(/budget reached: the run has used \S+ tokens \(\d+\) of its 20k budget \(limits\.max_tokens\)/);
  expect(r.stdout).toMatch(/usage: \S+ tokens .* · \$\d+\.\d\d \(simulated\) \(budget reached/);
  const state = JSON.parse(readFileSync(join(sessionOf(repo), "state.json"), "utf8"));
  expect(state.phase).toBe("failed");
  expect(state.interruption_cause).toMatch(/^budget reached: /);
}, 180_000);
