import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { readLog } from "../../src/session/log.ts";
import type { LogRecord } from "../../src/schema/log.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

/**
 * Pre-started handoffs (#15.3) through the compiled binary: the simulated agent, switched to
 * `prestart: true`, with a slow start (as a real CLI has) so that a pre-start has something to win.
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

async function scratch(scenario: string[], maxPanes: number, fixer = false) {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir();
  const repo = join(root, "repo");
  expect((await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket })).code).toBe(0);
  writeFileSync(
    join(root, "prestart.yaml"),
    stringify({ sim: { scenario }, providers: { sim: { prestart: true } }, prestart: { max_panes: maxPanes, fixer } }),
  );
  return { socket, repo, config: join(root, "prestart.yaml") };
}

const sessionOf = (repo: string, slug: string) =>
  join(
    repo,
    ".agentmux",
    ".sessions",
    readdirSync(join(repo, ".agentmux", ".sessions")).find((d) => d.includes(slug))!,
  );

/** The most pre-started panes held at once, replaying the log's records in order. */
function peakHeld(log: LogRecord[]): number {
  const held = new Set<string>();
  let peak = 0;
  for (const r of log) {
    if (r.event === "agent_prestarted" && !r.error) held.add(r.agent!);
    if (r.event === "prestart_dropped") held.delete(r.agent!);
    // a pre-start by role is held under its own id until the agent the plan names takes it over
    if (r.event === "agent_launched" && r.data?.prestarted_ms !== undefined) held.delete(String(r.data.prestarted_as ?? r.agent));
    peak = Math.max(peak, held.size);
  }
  return peak;
}

test("the planner and the coders (by role, before the plan names them) start while the architect works, the reviewers while the planner works, the fixer before the verdict; the handoffs take them over; never more than max_panes at once", async () => {
  const s = await scratch(["parallel", "review_fail_once", "reviewers=logic+quality+expert", "slow_start=800"], 3, true);
  const r = await runBinary(bin, ["run", "--ci", "--json", "--keep-session", "--config", s.config, "Add a farewell module"], { cwd: s.repo, socket: s.socket });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const log = readLog(sessionOf(s.repo, "farewell"));
  const prestarted = log.filter((x) => x.event === "agent_prestarted").map((x) => x.agent);
  const adopted = log.filter((x) => x.event === "agent_launched" && x.data?.prestarted_ms !== undefined).map((x) => x.agent);
  const at = (type: string) => log.findIndex((x) => x.event === "transition" && x.data?.type === type);
  // the architect was started while the orchestrator started up, and its start step took it over
  expect(prestarted[0]).toBe("architect");
  expect(adopted[0]).toBe("architect");
  // the planner was started during architecting and taken over at the handoff
  expect(prestarted).toContain("planner");
  expect(adopted).toContain("planner");
  const archDone = at("architecture_submitted");
  expect(log.findIndex((x) => x.event === "agent_prestarted" && x.agent === "planner")).toBeLessThan(archDone);
  // the two parallel coders: started by role while the architect worked (two phases ahead), taken over under the keys the plan gave
  const byRole = log.filter((x) => x.event === "agent_prestarted" && x.data?.by_role === true && x.data?.role === "coder");
  expect(byRole.length).toBe(2);
  for (const x of byRole) expect(log.indexOf(x)).toBeLessThan(archDone);
  const coders = log.filter((x) => x.event === "agent_launched" && x.data?.prestarted_as !== undefined && x.agent?.startsWith("coder"));
  expect(coders.map((x) => x.agent).sort()).toEqual(["coder:1", "coder:2"]);
  expect(coders.map((x) => x.data?.prestarted_as).sort()).toEqual(byRole.map((x) => x.agent).sort());
  // reviewers: three nominated, all three pre-started in each round's run-up (the first while the planner worked; round 2's
  // first two by role during round 1, before its verdict) and taken over; round 3's two by role closed when round 2 passed
  expect(prestarted.filter((a) => a?.startsWith("reviewer_")).length).toBe(8);
  expect(adopted.filter((a) => a?.startsWith("reviewer_")).length).toBe(6);
  // the fixer (prestart.fixer): pre-started before each round's verdict; round 1 failed and took it over, round 2 passed and closed it
  // the round's verdict waits for the demo's own check too: whichever came last moved the run to fixing
  const fixRound = log.findIndex((x) => x.event === "transition" && x.phase === "fixing");
  expect(log.slice(fixRound).find((x) => x.event === "agent_launched" && x.agent === "coder")?.data?.prestarted_ms).toBeGreaterThan(0);
  expect(peakHeld(log)).toBeLessThanOrEqual(3);
  // every other pre-start was used (the second group's coder too); none left behind
  const dropped = log.filter((x) => x.event === "prestart_dropped").map((x) => String(x.agent).replace(/~p\d+$/, "~p"));
  expect(dropped.sort()).toEqual(["coder", "reviewer_logic~p", "reviewer_quality~p"]);
  expect(prestarted.length).toBe(adopted.length + 3);
}, 240_000);

test("a pre-start the run does not use is closed: the architect fails for good, the pre-started planner and coder go with the run", async () => {
  const s = await scratch(["crash=architect", "slow_start=300"], 2);
  const r = await runBinary(bin, ["run", "--ci", "--json", "--keep-session", "--config", s.config, "Add a goodbye module"], { cwd: s.repo, socket: s.socket });
  expect(r.code).toBe(1);
  const log = readLog(sessionOf(s.repo, "goodbye"));
  expect(log.some((x) => x.event === "agent_prestarted" && x.agent === "planner")).toBe(true);
  const dropped = log.filter((x) => x.event === "prestart_dropped");
  expect(dropped.map((x) => [x.agent, x.data?.why]).sort()).toEqual([
    ["coder~p1", "the run ended"],
    ["planner", "the run ended"],
  ]);
  expect(log.some((x) => x.event === "agent_launched" && x.agent === "planner")).toBe(false);
}, 240_000);
