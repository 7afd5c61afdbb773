import { expect, test } from "bun:test";
import { copyFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isAgentmuxError } from "../../src/errors.ts";
import { selfCommand } from "../../src/effects/process/self.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/**
 * On Linux a running program whose file was replaced (a rebuild, a reinstall) reads its own
 * path as "<path> (deleted)": the home screen, left open across a reinstall, started
 * "…/agentmux (deleted)" and died with ENOENT. A real process's /proc/<pid>/exe gives that text.
 */
async function deletedExecPath(): Promise<{ dir: string; bin: string; execPath: string; stop: () => void }> {
  const dir = makeTmpDir("amx-self-");
  const bin = join(dir, "agentmux");
  copyFileSync("/bin/sleep", bin);
  const child = Bun.spawn([bin, "60"], { stdout: "ignore", stderr: "ignore" });
  rmSync(bin); // what an installer does: the old file goes, a new one takes its path
  const execPath = readlinkSync(`/proc/${child.pid}/exe`);
  return { dir, bin, execPath, stop: () => child.kill() };
}

test.skipIf(process.platform !== "linux")("a binary replaced while agentmux runs: agentmux starts the one now at its path", async () => {
  const { dir, bin, execPath, stop } = await deletedExecPath();
  try {
    expect(execPath).toBe(`${bin} (deleted)`);
    copyFileSync("/bin/echo", bin);
    const command = selfCommand(execPath);
    expect(command[0]).toBe(bin);
    const started = Bun.spawnSync([command[0]!, "still here"]);
    expect(started.exitCode).toBe(0);
    expect(started.stdout.toString()).toBe("still here\n");
  } finally {
    stop();
    removeDir(dir);
  }
});

test.skipIf(process.platform !== "linux")("a binary removed while agentmux runs: a named error that says so and to restart agentmux", async () => {
  const { dir, bin, execPath, stop } = await deletedExecPath();
  try {
    let error: unknown;
    try {
      selfCommand(execPath);
    } catch (e) {
      error = e;
    }
    expect(isAgentmuxError(error) && error.name).toBe("BinaryRemoved");
    const e = error as Error & { where?: string; hint?: string };
    expect(e.where).toBe(bin);
    expect(e.message).toContain("removed");
    expect(e.hint).toContain("restart agentmux");
  } finally {
    stop();
    removeDir(dir);
  }
});

test("a path that is there is used as it is", () => {
  expect(selfCommand(process.execPath)[0]).toBe(process.execPath);
});
