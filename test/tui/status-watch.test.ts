import { expect, test } from "bun:test";
import { join } from "node:path";
import { writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import { makeTmpDir, REPO_ROOT } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { stateIn, writeSession } from "./fixtures.ts";

test("status --watch redraws as the session changes and ends once the run is finished", async () => {
  const project = makeTmpDir("amx-watch-");
  const dir = writeSession(project, "20250301-100000-alpha", stateIn("implementing"));
  const p = Bun.spawn([process.execPath, join(REPO_ROOT, "src/main.ts"), "status", "--watch", "20250301-100000-alpha"], {
    cwd: project,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1", AGENTMUX_TMUX_SOCKET: "amx-none-" + process.pid },
  });
  let out = "";
  const reader = (async () => {
    for await (const chunk of p.stdout) out += new TextDecoder().decode(chunk);
  })();
  await waitFor("the first frame", () => /Phase\s+implementing/.test(out), { timeoutMs: 10000 });
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("reviewing"), feature_dir: dir });
  await waitFor("a redraw", () => /Phase\s+reviewing/.test(out), { timeoutMs: 10000 });
  writeJsonAtomic(join(dir, "state.json"), { ...stateIn("done"), feature_dir: dir });
  const code = await Promise.race([p.exited, Bun.sleep(10000).then(() => "still running")]);
  p.kill();
  await reader;
  expect(code).toBe(0);
  expect(out).toMatch(/Phase\s+done/);
});
