import { expect, test } from "bun:test";
import { runProcess } from "../../src/effects/process/run.ts";
import { findOnPath } from "../../src/providers/doctor.ts";
import { sandboxAvailability, sandboxedRoles } from "../../src/sandbox/available.ts";
import { BWRAP_BASE } from "../../src/sandbox/bwrap.ts";

/** Whether this system can make an agent's sandbox: a real trial of bubblewrap, not only a look at PATH. */
const bwrap = findOnPath("bwrap", process.env.PATH ?? "");

test.skipIf(!bwrap)("with bubblewrap on a Linux that allows it: available, with its version and path", async () => {
  const a = await sandboxAvailability({ bwrap, exec: runProcess });
  expect(a).toMatchObject({ ok: true, bwrap });
  if (a.ok) expect(a.version).toMatch(/^bubblewrap \d/);
});

test("without bwrap, or off Linux: not available, saying why and what to do", async () => {
  expect(await sandboxAvailability({ bwrap: null, exec: runProcess, platform: "linux" })).toEqual({
    ok: false,
    reason: "bubblewrap (bwrap) is not on PATH",
    fix: expect.stringContaining("apt-get install bubblewrap"),
  });
  const mac = await sandboxAvailability({ bwrap, exec: runProcess, platform: "darwin" });
  expect(mac).toMatchObject({ ok: false, reason: "the sandbox needs Linux (bubblewrap); this system is darwin" });
});

test.skipIf(!bwrap)("a bwrap that cannot make the sandbox is not available, in its own words", async () => {
  // a program that is not bubblewrap at all stands for one that fails: its trial exits non-zero
  const a = await sandboxAvailability({ bwrap: findOnPath("false", process.env.PATH ?? ""), exec: runProcess });
  expect(a).toMatchObject({ ok: false, reason: expect.stringContaining("cannot make a sandbox here: exit 1") });
});

test("which roles the config puts in the sandbox: the top-level switch, each role's word winning", () => {
  const roles = ["architect", "coder", "reviewer_logic"];
  expect(sandboxedRoles({ sandbox: false, roles: {} }, roles)).toEqual([]);
  expect(sandboxedRoles({ sandbox: true, roles: { reviewer_logic: { sandbox: false } } }, roles)).toEqual(["architect", "coder"]);
  expect(sandboxedRoles({ sandbox: false, roles: { coder: { sandbox: true } } }, roles)).toEqual(["coder"]);
});

test("the trial makes the namespaces every launch makes (IPC and host name too): what it passes, a launch can make", async () => {
  const seen: string[][] = [];
  const exec = async (argv: string[]) => (seen.push(argv), { code: 0, stdout: "bubblewrap 0.8.0\n", stderr: "" });
  await sandboxAvailability({ bwrap: "/usr/bin/bwrap", exec: exec as never, platform: "linux" });
  const trial = seen.find((a) => a.includes("--"))!;
  expect(trial.slice(1, 1 + BWRAP_BASE.length)).toEqual([...BWRAP_BASE]);
  for (const flag of ["--unshare-pid", "--unshare-ipc", "--unshare-uts"]) expect(BWRAP_BASE).toContain(flag);
});
