import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processIdentity } from "../../src/effects/process/identity.ts";
import { acquireCheckout, checkoutHolder, checkoutLockPath, releaseCheckout } from "../../src/session/checkout-lock.ts";
import { sessionsRoot } from "../../src/protocol/paths.ts";
import { makeZombie } from "../helpers/processes.ts";
import { makeTmpDir, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { timeoutFor, trialCount } from "../helpers/trials.ts";

const procs: { kill(): void }[] = [];
const dirs: string[] = [];
afterEach(() => {
  procs.splice(0).forEach((p) => p.kill());
  dirs.splice(0).forEach(removeDir);
});
const project = () => {
  const d = makeTmpDir("amx-lock-");
  dirs.push(d);
  mkdirSync(sessionsRoot(d), { recursive: true });
  mkdirSync(join(d, ".git"));
  return d;
};
const lockOf = (project: string, o: { session: string; pid: number; start?: string }) =>
  writeFileSync(checkoutLockPath(project), JSON.stringify({ ...o, dir: join(sessionsRoot(project), o.session), at: "2025-01-01T00:00:00Z" }));

function liveLauncher(): { pid: number; start: string } {
  const p = Bun.spawn(["sleep", "60"]);
  procs.push(p);
  return { pid: p.pid, start: processIdentity(p.pid)!.start };
}

test("a live holder keeps the checkout; its session and pid are reported", () => {
  const p = project();
  lockOf(p, { session: "s-live", ...liveLauncher() });
  const r = acquireCheckout(p, join(sessionsRoot(p), "s-new"));
  expect(r).toMatchObject({ ok: false, holder: { session: "s-live" } });
  expect(checkoutHolder(p)?.session).toBe("s-live");
});

test("a stale lock (dead launcher, no orchestrator; a zombie; a reused pid) is broken", async () => {
  const p = project();
  const mine = join(sessionsRoot(p), "s-new");
  lockOf(p, { session: "s-dead", pid: 2 ** 22 + 4321, start: "1" });
  expect(acquireCheckout(p, mine)).toEqual({ ok: true });
  const z = await makeZombie();
  procs.push({ kill: z.stop });
  lockOf(p, { session: "s-zombie", pid: z.pid });
  expect(acquireCheckout(p, mine)).toEqual({ ok: true });
  lockOf(p, { session: "s-reused", pid: liveLauncher().pid, start: "12345" });
  expect(acquireCheckout(p, mine)).toEqual({ ok: true });
  expect(checkoutHolder(p)).toBeNull(); // held by this very process, which is never "another" run
});

test("release gives up only this session's lock; a resume renews its own", () => {
  const p = project();
  const a = join(sessionsRoot(p), "s-a");
  expect(acquireCheckout(p, a)).toEqual({ ok: true });
  releaseCheckout(p, join(sessionsRoot(p), "s-b"));
  expect(existsSync(checkoutLockPath(p))).toBe(true);
  expect(acquireCheckout(p, a)).toEqual({ ok: true });
  releaseCheckout(p, a);
  expect(existsSync(checkoutLockPath(p))).toBe(false);
});

// AGENTMUX_TEST_TRIALS=20 runs more by hand (test/helpers/trials.ts)
const RACE_TRIALS = trialCount(1);
test(
  `eight processes racing for a checkout with a stale lock: exactly one wins (${RACE_TRIALS} trial(s))`,
  async () => {
    for (let trial = 0; trial < RACE_TRIALS; trial++) await staleLockRace();
  },
  timeoutFor(RACE_TRIALS, 30_000, 60_000),
); // eight bun processes starting at once: seconds on a loaded 2-core machine

async function staleLockRace(): Promise<void> {
  const p = project();
  lockOf(p, { session: "s-dead", pid: 2 ** 22 + 4321, start: "1" });
  const script = `
    import { acquireCheckout } from ${JSON.stringify(join(REPO_ROOT, "src/session/checkout-lock.ts"))};
    const r = acquireCheckout(process.argv[2], process.argv[3]);
    console.log(r.ok ? "won" : "lost");
    await Bun.stdin.text();`;
  const file = join(p, "race.ts");
  writeFileSync(file, script);
  const racers = Array.from({ length: 8 }, (_, i) =>
    Bun.spawn([process.execPath, file, p, join(sessionsRoot(p), `s-${i}`)], { stdin: "pipe", stdout: "pipe" }),
  );
  racers.forEach((r) => procs.push(r));
  const outcomes = await Promise.all(
    racers.map(async (r) => {
      const reader = r.stdout.getReader();
      const { value } = await reader.read();
      return new TextDecoder().decode(value).trim();
    }),
  );
  expect(outcomes.filter((o) => o === "won")).toHaveLength(1);
  expect(outcomes.filter((o) => o === "lost")).toHaveLength(7);
  racers.forEach((r) => r.stdin.end());
}

test("#31: a live pid without a start token that is no agentmux (a reused pid) does not hold the checkout", () => {
  const p = project();
  const mine = join(sessionsRoot(p), "s-new");
  lockOf(p, { session: "s-old", pid: liveLauncher().pid }); // an older agentmux's lock: no start token
  expect(acquireCheckout(p, mine)).toEqual({ ok: true });
});

test("#31: a lock path that is a folder is an error naming it, never a run holding no lock", () => {
  const p = project();
  mkdirSync(checkoutLockPath(p));
  expect(() => acquireCheckout(p, join(sessionsRoot(p), "s-new"))).toThrow(/the checkout lock is a folder, not a lock file/);
  expect(existsSync(join(checkoutLockPath(p)))).toBe(true);
});
