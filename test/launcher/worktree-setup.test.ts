import { afterAll, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWorktreeSetup } from "../../src/launcher/worktree-setup.ts";
import { processIdentity } from "../../src/effects/process/identity.ts";
import type { Logger } from "../../src/effects/log.ts";
type LogFields = NonNullable<Parameters<Logger>[1]>;
import { Config } from "../../src/schema/config.ts";
import { AgentmuxError } from "../../src/errors.ts";
import { makeTmpDir, removeDir, REPO_ROOT } from "../helpers/tmp.ts";

/** #31 scope 4: `worktree.setup` on the bounded runner (real processes). */
const dir = makeTmpDir("amx-setup-");
const strays: number[] = [];
afterAll(() => {
  for (const pid of strays) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  removeDir(dir);
});

const worktree = (setup: string[], setup_timeout_s = 60) => Config.parse({ worktree: { setup, setup_timeout_s } }).worktree;
const alive = (pid: number) => {
  const id = processIdentity(pid);
  return !!id && !id.zombie;
};
function collect() {
  const records: { msg: string; fields?: LogFields }[] = [];
  return { records, log: (msg: string, fields?: LogFields) => void records.push({ msg, fields }) };
}
async function setupError(p: Promise<void>): Promise<AgentmuxError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AgentmuxError);
    return e as AgentmuxError;
  }
  throw new Error("expected the setup to fail");
}

test("a setup that starts a service in the background completes when its shell exits, and the launcher exits; the service keeps running", async () => {
  const script = join(dir, "launcher.ts");
  writeFileSync(
    script,
    `import { runWorktreeSetup } from ${JSON.stringify(join(REPO_ROOT, "src/launcher/worktree-setup.ts"))};
import { Config } from ${JSON.stringify(join(REPO_ROOT, "src/schema/config.ts"))};
const wt = Config.parse({ worktree: { setup: ["sleep 120 & echo $! > db.pid; echo db started", "echo migrated"] } }).worktree;
await runWorktreeSetup(${JSON.stringify(dir)}, wt, {}, () => {}, ${JSON.stringify(join(dir, "logs-bg"))});
console.log("setup done");`,
  );
  const launcher = Bun.spawn([process.execPath, script], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const exit = await Promise.race([launcher.exited, Bun.sleep(30_000).then(() => "still running after 30 s")]);
  if (exit !== 0) launcher.kill("SIGKILL");
  expect(exit).toBe(0);
  expect(await new Response(launcher.stdout).text()).toBe("setup done\n");
  const db = Number(readFileSync(join(dir, "db.pid"), "utf8"));
  strays.push(db);
  expect(alive(db)).toBe(true);
  expect(readFileSync(join(dir, "logs-bg/1.log"), "utf8")).toBe("db started\n");
  expect(readFileSync(join(dir, "logs-bg/2.log"), "utf8")).toBe("migrated\n");
}, 60_000);

test("400 MB of setup output completes; the log stays capped and the session log gets the tail", async () => {
  const { records, log } = collect();
  await runWorktreeSetup(
    dir,
    worktree(["echo start; yes 'npm WARN deprecated something@1.0.0' | head -c 400000000; echo; echo added 1200 packages"]),
    {},
    log,
    join(dir, "logs-big"),
  );
  expect(statSync(join(dir, "logs-big/1.log")).size).toBeLessThan(2 * 1024 * 1024);
  const done = records.at(-1)!.fields!.data as { code: number; truncated: boolean; output: string[] };
  expect(done.code).toBe(0);
  expect(done.truncated).toBe(true);
  expect(done.output.at(-1)).toBe("added 1200 packages");
  expect(done.output.length).toBeLessThanOrEqual(200);
}, 120_000);

test("a setup that outlives its timeout is killed with its whole process group, background children too", async () => {
  const e = await setupError(
    runWorktreeSetup(dir, worktree(["sleep 300 & echo $! > child.pid; echo waiting; sleep 300"], 1), {}, collect().log, join(dir, "logs-timeout")),
  );
  expect(e.message).toBe(
    "worktree setup command 1 (sleep 300 & echo $! > child.pid; echo waiting; sleep 300) did not finish within 1 s (its whole process group was killed); its last output:\nwaiting",
  );
  expect(alive(Number(readFileSync(join(dir, "child.pid"), "utf8")))).toBe(false);
}, 30_000);

test("a failing command stops the setup with its exit code and output; the next is not run", async () => {
  const e = await setupError(
    runWorktreeSetup(dir, worktree(["echo fetching; echo unreachable >&2; exit 3", "touch second-ran"]), {}, collect().log, join(dir, "logs-fail")),
  );
  expect(e.message).toBe(
    "worktree setup command 1 (echo fetching; echo unreachable >&2; exit 3) failed with exit code 3; its last output:\nfetching\nunreachable",
  );
  expect(() => statSync(join(dir, "second-ran"))).toThrow();
});
