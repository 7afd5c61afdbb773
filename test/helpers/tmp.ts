import { mkdtempSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temp dir (realpath'd, so paths compare equal to what processes report). */
export function makeTmpDir(prefix = "amx-test-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A tmux socket name unique to this test, for `tmux -L <name>`; kill its server when done. */
export function privateSocket(): string {
  return `amx-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

export function killTmuxServer(socket: string): void {
  Bun.spawnSync(["tmux", "-L", socket, "kill-server"], { stdout: "ignore", stderr: "ignore", env: { ...process.env, TMUX: "" } });
}

export const REPO_ROOT = join(import.meta.dir, "..", "..");
export const BINARY = join(REPO_ROOT, "dist", "agentmux");
