import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { jsonEvents, readState } from "../fault/harness.ts";
import { isolatedBinary, killTmuxServer, runBinary } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

/** #17.7: `resume --config PATH` was silently ignored (the stored config always won); `resume --keep-session` did not exist. */
let bin: string;
const track = { sockets: [] as string[], dirs: [] as string[] };
beforeAll(() => {
  bin = isolatedBinary();
  track.dirs.push(join(bin, ".."));
});
afterAll(() => {
  track.sockets.forEach(killTmuxServer);
  track.dirs.forEach(removeDir);
});

async function canceledDemo() {
  const demo = startSlowDemo(bin, { track, keepSession: false });
  const dir = await waitForPhase(demo.repo, "planning");
  demo.proc.kill("SIGINT");
  expect((await demo.done).code).toBe(130);
  return { demo, dir };
}

test("resume --config applies the file as the run's last layer (here: wait for approval) and records it", async () => {
  const { demo, dir } = await canceledDemo();
  const extra = join(demo.root, "approve.yaml");
  writeFileSync(extra, stringify({ defaults: { completion: { skip_final_approval: false } } }));
  const resumed = runBinary(bin, ["resume", "--ci", "--json", "--config", extra], { cwd: demo.repo, socket: demo.socket });
  await waitFor("the resumed run to wait for a decision", () => readState(dir)?.awaiting_decision === true, { timeoutMs: 60_000, intervalMs: 20 });
  expect(readState(dir).config_path).toBe(extra);
  writeFileSync(join(dir, "08_completion/approval.json"), JSON.stringify({ action: "approve", exclude_files: [] }));
  const r = await resumed;
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`{"kind":"notice","message":"${extra} is the run's last config layer from now on`);
  expect(jsonEvents(r.stdout).filter((e) => e.kind === "awaiting_decision")).toHaveLength(1);
}, 120_000);

test("resume --config with a bad file is refused before anything changes; --keep-session keeps the folder after the commit", async () => {
  const { demo, dir } = await canceledDemo();
  const before = readState(dir);
  const bad = join(demo.root, "bad.yaml");
  writeFileSync(bad, "defaults:\n  providr: sim\n");
  const refused = await runBinary(bin, ["resume", "--ci", "--config", bad], { cwd: demo.repo, socket: demo.socket });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("defaults.providr");
  expect(readState(dir)).toEqual(before);
  // the demo was started without --keep-session
  const kept = await runBinary(bin, ["resume", "--ci", "--keep-session"], { cwd: demo.repo, socket: demo.socket });
  expect(kept.code).toBe(0);
  expect(existsSync(join(dir, "state.json"))).toBe(true);
  expect(readState(dir)).toMatchObject({ phase: "done", keep_session: true });
}, 120_000);
