import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processIdentity } from "../../src/effects/process/identity.ts";
import { acquireResume, releaseResume, RESUME_LOCK } from "../../src/session/resume-lock.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const procs: { kill(): void }[] = [];
const dirs: string[] = [];
afterEach(() => {
  procs.splice(0).forEach((p) => p.kill());
  dirs.splice(0).forEach(removeDir);
});
function session(): string {
  const d = makeTmpDir("amx-resume-lock-");
  dirs.push(d);
  mkdirSync(join(d, ".runtime"));
  return d;
}
const holder = (dir: string, text: string) => writeFileSync(join(dir, RESUME_LOCK), text);

test("a live launcher keeps the session; its pid is reported", () => {
  const dir = session();
  const p = Bun.spawn(["sleep", "60"]);
  procs.push(p);
  holder(dir, `${p.pid} ${processIdentity(p.pid)!.start}\n`);
  expect(acquireResume(dir)).toEqual({ ok: false, pid: p.pid });
});

test("a gone launcher, a reused pid and a pid without a start token that is no agentmux are broken", () => {
  const dir = session();
  const p = Bun.spawn(["sleep", "60"]);
  procs.push(p);
  for (const text of [`${2 ** 22 + 17} 1\n`, `${p.pid} 12345\n`, `${p.pid}\n`]) {
    holder(dir, text);
    expect(acquireResume(dir)).toEqual({ ok: true });
  }
  releaseResume(dir);
  expect(existsSync(join(dir, RESUME_LOCK))).toBe(false);
});

test("of two takers, one gets it; release gives it up", () => {
  const dir = session();
  expect(acquireResume(dir)).toEqual({ ok: true });
  // this very process holding it counts as not alive (recordAlive): a second launcher is another pid
  const other = Bun.spawnSync([
    process.execPath,
    "-e",
    `const m = await import(${JSON.stringify(join(import.meta.dir, "../../src/session/resume-lock.ts"))}); console.log(JSON.stringify(m.acquireResume(${JSON.stringify(dir)})))`,
  ]);
  expect(JSON.parse(other.stdout.toString())).toEqual({ ok: false, pid: process.pid });
  releaseResume(dir);
  expect(existsSync(join(dir, RESUME_LOCK))).toBe(false);
});
