/**
 * `resume --from-python` converts only a session the Python agentmux wrote: named on one of
 * agentmux's own (never converted, or converted before), or with no Python session to pick,
 * it says so and changes nothing, where it used to resume the session as if the flag were not there.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minimalState } from "../helpers/minimal-state.ts";
import { git, isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "../e2e/harness.ts";
import { removeDir } from "../helpers/tmp.ts";

const made = { dirs: [] as string[], sockets: [] as string[] };
afterAll(() => {
  made.sockets.forEach(killTmuxServer);
  made.dirs.forEach(removeDir);
});

const ID = "20260517-103000-add-farewell";

/** Every file under `dir` with its bytes and mtime: what "changes nothing" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    const st = statSync(p);
    out[name] = st.isDirectory() ? "dir" : `${st.mtimeMs} ${readFileSync(p, "utf8")}`;
  }
  return out;
}

function agentmuxSession(converted: boolean) {
  const repo = makeTmpDir("amx-from-python-");
  made.dirs.push(repo);
  git(repo, "init", "-q", "-b", "main");
  writeFileSync(join(repo, "README.md"), "# r\n");
  git(repo, "add", ".");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init");
  const dir = join(repo, ".agentmux/.sessions", ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "state.json"),
    JSON.stringify(
      { ...minimalState(dir, `agentmux-${ID}`), phase: "failed", last_event: "run_canceled", project_dir: repo, feature_name: "add-farewell" },
      null,
      2,
    ),
  );
  if (converted) writeFileSync(join(dir, "state.python.json"), JSON.stringify({ phase: "failed", feature_dir: dir }));
  const socket = privateSocket();
  made.sockets.push(socket);
  return { repo, socket };
}

for (const converted of [false, true])
  test(`resume <id> --from-python on agentmux's own session (${converted ? "converted before" : "never Python's"}) is refused and changes nothing`, async () => {
    const { repo, socket } = agentmuxSession(converted);
    const before = snapshot(repo);
    const r = await runBinary(isolatedBinary(), ["resume", ID, "--from-python", "--ci"], { cwd: repo, socket });
    if (r.code !== 2) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(repo, ".agentmux/.sessions", ID)}: not a Python agentmux session: its state.json is agentmux's own`);
    expect(r.stderr).toContain(converted ? "converted from the Python agentmux before" : "");
    expect(r.stderr).toContain(`agentmux resume ${ID}\n`.replace("\n", ""));
    expect(r.stdout).not.toContain("resuming");
    expect(snapshot(repo)).toEqual(before);
  }, 60_000);

test("resume --from-python with no Python session in the project says so and changes nothing", async () => {
  const { repo, socket } = agentmuxSession(false);
  const before = snapshot(repo);
  const r = await runBinary(isolatedBinary(), ["resume", "--from-python", "--ci"], { cwd: repo, socket });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain("no session of the Python agentmux");
  expect(r.stderr).toContain(`agentmux resume ${ID}`);
  expect(r.stdout).not.toContain("resuming");
  expect(snapshot(repo)).toEqual(before);
}, 60_000);

test("resume of a state.json without its project (project_dir) takes the project from where the session folder is, not an internal error", async () => {
  const { repo, socket } = agentmuxSession(false);
  const file = join(repo, ".agentmux/.sessions", ID, "state.json");
  const { project_dir: _, ...state } = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(file, JSON.stringify(state, null, 2));
  const before = snapshot(repo);
  // a --config that is not there stops it once the project is known, before anything changes
  const r = await runBinary(isolatedBinary(), ["resume", ID, "--ci", "--config", join(repo, "nope.yaml")], { cwd: repo, socket });
  expect(r.stderr).not.toContain("internal error");
  expect(r.stderr).toContain("nope.yaml: file not found");
  expect(r.code).toBe(2);
  expect(snapshot(repo)).toEqual(before);
}, 60_000);
