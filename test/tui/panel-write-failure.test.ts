import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir } from "../helpers/tmp.ts";
import { canMountTmpfs } from "../helpers/tmpfs.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #31: the approval panel's decision is a file; when it cannot be written (here its folder is
 * made read-only under the panel: EROFS) the panel used to die with the error and the decision
 * was gone. Now the header names the failure and the panel stays with the decision; once the
 * folder is writable again the same key approves and the run commits. Compiled binary.
 */
const scope = binaryScope();
const PANEL = "Commit message (e: edit)";

const sessionDir = (repo: string) => {
  const root = join(repo, ".agentmux", ".sessions");
  const id = existsSync(root) ? readdirSync(root).find((n) => !n.startsWith(".")) : undefined;
  return id ? join(root, id) : null;
};
const sh = (cmd: string) => Bun.spawnSync(["sh", "-c", cmd], { stdout: "pipe", stderr: "pipe" });

// mounting needs root (CAP_SYS_ADMIN): the same machines the tmpfs tests run on
test.skipIf(!canMountTmpfs())(
  "a read-only decision folder: the panel names EROFS and keeps the decision; approving again once writable commits",
  async () => {
    const root = makeTmpDir("amx-panel-ro-");
    scope.dirs.push(root);
    const repo = join(root, "repo");
    const innerSocket = scope.socket();
    const run = new Screen(scope.socket());
    await run.start(
      [scope.bin, "demo", "--approve", "--dir", repo, "--think-ms", "0"],
      root,
      { width: 200, height: 45 },
      {
        AGENTMUX_TMUX_SOCKET: innerSocket,
        CI: "",
        NO_COLOR: "1",
      },
    );
    await run.until("the approval panel", (x) => x.includes(PANEL), 90_000);
    const decisions = join(sessionDir(repo)!, "08_completion");
    expect(sh(`mount --bind '${decisions}' '${decisions}' && mount -o remount,ro,bind '${decisions}'`).exitCode).toBe(0);
    try {
      await run.keys("a");
      const said = await run.until("the failure in the header", (x) => x.includes("could not write 08_completion/approval.json"), 15_000);
      expect(said).toContain("EROFS");
      expect(said).toContain(PANEL); // still the panel, decision and all
      expect(existsSync(join(decisions, "approval.json"))).toBe(false);
    } finally {
      sh(`umount '${decisions}'`);
    }
    await run.keys("a");
    const bye = await run.until("the goodbye after approving", (x) => x.includes("EXIT="), 60_000);
    expect(bye).toContain("Implementation complete");
    expect(bye).toContain("EXIT=0");
    expect(JSON.parse(readFileSync(join(root, "repo", ".agentmux", ".last_completion.json"), "utf8"))).toBeTruthy();
  },
  180_000,
);
