import { join } from "node:path";
import { spawnDetached } from "../effects/process/detached.ts";
import { selfCommand } from "../effects/process/self.ts";
import { F } from "../protocol/paths.ts";
import { readServerFile } from "../session/serve-record.ts";

const WAIT_MS = 5000;

/**
 * `agentmux run --serve`: the run's web page (`agentmux serve`, read-only) beside it, in its own
 * process that stops a little after the run ends. Returns the link to print (with its token), or
 * why there is none; the run goes on either way.
 */
export async function serveRunPage(o: { sessionDir: string; projectDir: string }): Promise<{ link: string } | { problem: string }> {
  const out = join(o.sessionDir, F.runtimeDir, "serve.out");
  for (const port of ["7878", "0"]) {
    const d = spawnDetached([...selfCommand(), "serve", "--port", port, "--until", o.sessionDir, o.projectDir], { cwd: o.projectDir, outputFile: out });
    let ended = false;
    void d.exited.then(() => (ended = true));
    for (const stop = Date.now() + WAIT_MS; Date.now() < stop && !ended; await Bun.sleep(25)) {
      const r = readServerFile(o.projectDir);
      if (r && r.pid === d.child.pid) return { link: `${r.url}?token=${r.token}#/run/${r.index}/${encodeURIComponent(o.sessionDir.split("/").pop()!)}` };
    }
    if (!ended) {
      d.child.kill("SIGTERM");
      return { problem: `agentmux serve did not start in ${WAIT_MS / 1000} s (its output: ${out})` };
    }
  }
  return { problem: `agentmux serve could not listen (its output: ${out})` };
}
