import { processIdentity } from "../../src/effects/process/identity.ts";
import { waitFor } from "./wait.ts";

/**
 * A zombie process for `pid`-liveness tests: a child whose parent (exec'd into sleep) never
 * reaps it; kill(pid, 0) still succeeds. `stop()` ends the parent (and with it the zombie).
 */
export async function makeZombie(): Promise<{ pid: number; stop: () => void }> {
  const p = Bun.spawn(["sh", "-c", "sleep 0.05 & echo $!; exec sleep 60"], { stdout: "pipe" });
  const reader = p.stdout.getReader();
  const pid = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  await waitFor("the child to become a zombie", () => processIdentity(pid)?.zombie, { timeoutMs: 5000 });
  return { pid, stop: () => p.kill() };
}
