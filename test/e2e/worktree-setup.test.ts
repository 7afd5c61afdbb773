import { expect, test } from "bun:test";
import { privateMcpDir } from "../../src/providers/mcp.ts";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { readLog } from "../../src/session/log.ts";
import { waitFor } from "../helpers/wait.ts";
import { fsckProblems, jsonEvents, readState, spawnBinary } from "../fault/harness.ts";
import { git, privateSocket, processesMentioning } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { processIdentity } from "../../src/effects/process/identity.ts";

/** #14.3: `worktree.copy`, `worktree.setup` and AGENTMUX_PORT_OFFSET for --worktree runs. */
const scope = binaryScope();
const { sockets, dirs } = scope;

const SETUP = `echo "installing deps"; printf '%s' "$AGENTMUX_PORT_OFFSET" > .setup-port; test -f .env`;

function project(scenario: string[]) {
  const repo = simProject({ dirs }, 0, scenario);
  writeFileSync(join(repo, ".env"), "API_KEY=local-only\n");
  mkdirSync(join(repo, "config"));
  writeFileSync(join(repo, "config/dev.local.json"), '{"port": 3000}\n');
  return repo;
}

function config(repo: string, name: string, extra: object): string {
  const path = join(repo, "..", `${name}.yaml`);
  writeFileSync(path, stringify(extra));
  return path;
}

/** The environment of the sim agent process launched for `agent` in session `dir`. */
function agentEnv(dir: string, agent: string): Record<string, string> | null {
  // the agent itself (argv: …/agentmux sim-agent …), not the pane's shell around it
  const proc = processesMentioning(join(privateMcpDir(dir), `${agent}.sim.json`)).find((p) => /^\d+ \S*agentmux sim-agent /.test(p));
  if (!proc) return null;
  const pid = proc.split(" ")[0]!;
  const raw = readFileSync(`/proc/${pid}/environ`, "utf8");
  return Object.fromEntries(
    raw
      .split("\0")
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
}

test("files are copied and setup runs in the worktree before the first agent; each live run has its own port offset", async () => {
  const repo = project(["stall=architect"]);
  const socket = privateSocket();
  sockets.push(socket);
  const worktree = { copy: [".env", "config/*.local.json", "missing/*.txt"], setup: [SETUP] };
  const a = spawnBinary(scope.bin, ["run", "Add alpha", "--worktree", "--ci", "--name", "stalled", "--config", config(repo, "a", { worktree })], {
    cwd: repo,
    socket,
  });
  const dirA = join(repo, ".agentmux/.sessions/stalled");
  const envA = await waitFor("the stalled run's architect", () => (existsSync(join(dirA, "state.json")) ? agentEnv(dirA, "architect") : null), {
    timeoutMs: 60_000,
    intervalMs: 50,
  });
  const wtA = readState(dirA).worktree_path;
  expect(readFileSync(join(wtA, ".env"), "utf8")).toBe("API_KEY=local-only\n");
  expect(readFileSync(join(wtA, "config/dev.local.json"), "utf8")).toBe('{"port": 3000}\n');
  expect(readFileSync(join(wtA, ".setup-port"), "utf8")).toBe("10");
  expect(envA).toMatchObject({ AGENTMUX_PORT_OFFSET: "10", AGENTMUX_MAIN_CHECKOUT: repo, AGENTMUX_WORK_DIR: wtA });
  const log = await waitFor("the architect's launch in the log", () => {
    const records = readLog(dirA);
    return records.some((r) => r.event === "agent_launched" && r.agent === "architect") ? records : null;
  });
  const setup = log.filter((r) => r.event === "worktree_setup");
  expect(setup.map((r) => r.data)).toEqual([
    { index: 1, of: 1, command: SETUP },
    {
      index: 1,
      of: 1,
      command: SETUP,
      code: 0,
      timed_out: false,
      seconds: expect.any(Number),
      output: expect.arrayContaining(["installing deps"]),
      log: join(dirA, ".runtime/setup/1.log"),
      truncated: false,
    },
  ]);
  expect(log.indexOf(setup[1]!)).toBeLessThan(log.findIndex((r) => r.event === "agent_launched" && r.agent === "architect"));

  // a second run while the first is live: offset 20; the copied .env is not part of its commit
  const b = await spawnBinary(
    scope.bin,
    ["run", "Add beta", "--worktree", "--ci", "--json", "--keep-session", "--config", config(repo, "b", { worktree, sim: { scenario: [] } })],
    { cwd: repo, socket },
  ).done;
  if (b.code !== 0) console.error(b.stdout, b.stderr);
  expect(b.code).toBe(0);
  expect(b.stdout).toContain(`{"kind":"notice","message":"copied into the worktree: .env, config/dev.local.json`);
  expect(b.stdout).toContain(`{"kind":"notice","message":"1 other session(s) of this project are running: stalled (see agentmux status)`);
  const result = jsonEvents(b.stdout).find((e) => e.kind === "result");
  const dirB = join(repo, ".agentmux/.sessions", result.session);
  expect(readState(dirB).port_offset).toBe(20);
  expect(git(repo, "show", "--name-only", "--format=", result.branch).split("\n").sort()).toEqual(["src/beta.js", "test/beta.test.js"]);

  writeFileSync(join(dirA, ".runtime/cancel_request"), JSON.stringify({ at: new Date().toISOString(), by: "test" }));
  expect((await a.done).code).toBe(130);
  expect(fsckProblems(repo)).toBe("");
}, 180_000);

test("a failing setup command stops the run before any agent starts, with its output and exit code; nothing is left", async () => {
  const repo = project([]);
  const socket = privateSocket();
  sockets.push(socket);
  const before = git(repo, "branch", "--list");
  const r = await spawnBinary(
    scope.bin,
    [
      "run",
      "Add alpha",
      "--worktree",
      "--ci",
      "--config",
      config(repo, "bad", { worktree: { setup: ["echo fetching; echo 'registry unreachable' >&2; exit 3"] } }),
    ],
    { cwd: repo, socket },
  ).done;
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("worktree setup command 1 (echo fetching; echo 'registry unreachable' >&2; exit 3) failed with exit code 3; its last output:");
  expect(r.stderr).toContain("registry unreachable");
  expect(r.stderr).toContain("worktree.setup[0]");
  // no agent ran, and the worktree, its branch and the session folder are gone
  expect(processesMentioning(repo).filter((p) => p.includes("sim-agent"))).toEqual([]);
  expect(existsSync(join(repo, "..", "proj-worktrees", "add-alpha"))).toBe(false);
  expect(git(repo, "worktree", "list").split("\n")).toHaveLength(1);
  expect(git(repo, "branch", "--list")).toBe(before);
  const sessions = join(repo, ".agentmux/.sessions");
  expect(existsSync(sessions) ? readdirSync(sessions).filter((n) => !n.startsWith(".")) : []).toEqual([]);
  expect(fsckProblems(repo)).toBe("");
}, 120_000);

test("#31: a setup that leaves a service running in the background (`db-start &`) lets the run go on, and the binary exits at the end", async () => {
  const repo = project([]);
  const socket = privateSocket();
  sockets.push(socket);
  const pidFile = join(repo, "..", "db.pid");
  const setup = [`sleep 300 & echo $! > ${pidFile}; echo db started`];
  const r = await spawnBinary(scope.bin, ["run", "Add alpha", "--worktree", "--ci", "--json", "--config", config(repo, "bg", { worktree: { setup } })], {
    cwd: repo,
    socket,
  }).done;
  const db = Number(readFileSync(pidFile, "utf8"));
  try {
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    expect(jsonEvents(r.stdout).find((e) => e.kind === "result")).toBeTruthy();
    // the service was left to the run (detached from the setup), not killed with it
    expect(processIdentity(db)?.zombie).toBe(false);
  } finally {
    try {
      process.kill(db, "SIGKILL");
    } catch {}
  }
  expect(fsckProblems(repo)).toBe("");
}, 120_000);
