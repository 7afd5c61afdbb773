import { expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { env, sessionDir } from "../fault/harness.ts";
import { makeTmpDir, privateSocket, runBinary } from "./harness.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #11.15: a successful run removed its session folder, so `agentmux status` right after a run
 * said "no sessions". Now a compact archive stays; `status`, `sessions` show it, `clean` removes
 * it. #17.11: `status --watch` ended on a stale frame when the run removed its folder.
 */
const scope = binaryScope();
const { sockets, dirs } = scope;

test("after a successful run: its folder is gone, its archive answers status and sessions; clean removes it", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir("amx-archive-");
  dirs.push(root);
  const repo = join(root, "repo");
  const run = await runBinary(scope.bin, ["demo", "--ci", "--dir", repo], { socket });
  expect(run.code).toBe(0);
  const [, id, , commit] = run.stdout.match(/session (\S+)\s+branch (\S+)\s+commit (\S+)/)!;
  const sessions = join(repo, ".agentmux/.sessions");
  expect(readdirSync(sessions)).toEqual([".archive"]);
  const archive = join(sessions, ".archive", id!);
  for (const f of ["state.json", "requirements.md", "08_completion/summary.md", "07_review/review.md", "orchestrator.log"])
    expect(existsSync(join(archive, f))).toBe(true);

  const text = await runBinary(scope.bin, ["status"], { cwd: repo, socket });
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/Phase\s+done/);
  expect(text.stdout).toMatch(new RegExp(`Commit\\s+${commit}`));
  const json = JSON.parse((await runBinary(scope.bin, ["status", id!, "--json"], { cwd: repo, socket })).stdout);
  expect(json).toMatchObject({ id, phase: "done", commit_hash: commit, live: false, resume_command: null });
  // the tool calls of the run, though tool_events.jsonl is not archived (status said 0)
  expect(json.tool_events).toBeGreaterThanOrEqual(4); // architecture, plan, done, review
  expect(text.stdout).toMatch(new RegExp(`Tool calls\\s+${json.tool_events}\\b`));
  expect((await runBinary(scope.bin, ["sessions"], { cwd: repo, socket })).stdout).toContain(id!);

  const clean = await runBinary(scope.bin, ["clean", "--force"], { cwd: repo, socket });
  expect(clean.code).toBe(0);
  expect(existsSync(archive)).toBe(false);
  expect((await runBinary(scope.bin, ["status"], { cwd: repo, socket })).stderr).toContain("no sessions in this project");
}, 120_000);

test("status --watch of a run that ends with a commit draws the final state (done, commit) before it exits", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir("amx-watch-");
  dirs.push(root);
  const repo = join(root, "repo");
  const run = runBinary(scope.bin, ["demo", "--ci", "--dir", repo, "--think-ms", "200"], { socket });
  const dir = await waitFor("the session folder", () => sessionDir(repo), { timeoutMs: 30_000, intervalMs: 10 });
  const watch = Bun.spawn([scope.bin, "status", "--watch", dir.split("/").pop()!], { cwd: repo, stdout: "pipe", stderr: "pipe", env: env(socket) });
  const out = new Response(watch.stdout).text();
  const r = await run;
  expect(r.code).toBe(0);
  const code = await Promise.race([watch.exited, Bun.sleep(15_000).then(() => "still running")]);
  watch.kill();
  expect(code).toBe(0);
  const frames = (await out).split("\x1b[H\x1b[2J").filter(Boolean);
  const last = frames.at(-1)!;
  expect(last).toMatch(/Phase\s+done/);
  expect(last).toMatch(/Commit\s+[0-9a-f]{7}/);
}, 120_000);
