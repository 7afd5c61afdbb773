import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { removeDir } from "../helpers/tmp.ts";
import { canMountTmpfs, fillUntil, mountTmpfs } from "../helpers/tmpfs.ts";
import { git, isolatedBinary, killTmuxServer, privateSocket, runBinary } from "./harness.ts";

/**
 * #18.9: ENOSPC at start gave "internal error" with a stack trace and left a half-made session
 * folder and zero-length temp files. Now: exit 1 with the reason, nothing left behind — tried
 * with the disk full and with a little room left (the failure lands on another write).
 */
let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  sockets.forEach(killTmuxServer);
  removeDir(join(bin, ".."));
});

function tmpFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...tmpFiles(p));
    else if (e.name.endsWith(".tmp")) out.push(p);
  }
  return out;
}

test.skipIf(!canMountTmpfs())(
  "a full disk at start: exit 1 naming the cause, no session folder, no temp file",
  async () => {
    for (const leave of [0, 8 * 1024, 20 * 1024]) {
      const fs = mountTmpfs(768 * 1024)!;
      try {
        const repo = join(fs.dir, "repo");
        mkdirSync(join(repo, "src"), { recursive: true });
        mkdirSync(join(repo, ".agentmux"));
        writeFileSync(join(repo, "src/index.js"), "export const a = 1;\n");
        writeFileSync(join(repo, ".gitignore"), ".agentmux/.sessions/\n.agentmux/.last_completion.json\n");
        writeFileSync(
          join(repo, ".agentmux/config.yaml"),
          stringify({ version: 2, defaults: { provider: "sim" }, github: { pull_request: false, push: false } }),
        );
        git(repo, "init", "-q", "-b", "main");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "add", ".");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "-m", "init");
        fillUntil(fs.dir, leave);
        const socket = privateSocket();
        sockets.push(socket);
        const r = await runBinary(bin, ["run", "--ci", "Add alpha"], { cwd: repo, socket });
        expect({ leave, code: r.code }).toEqual({ leave, code: 1 });
        expect(r.stderr).not.toContain("internal error");
        expect(r.stderr).toContain("no space left on device");
        const sessions = join(repo, ".agentmux/.sessions");
        expect({ leave, left: existsSync(sessions) ? readdirSync(sessions) : [] }).toEqual({ leave, left: [] });
        expect({ leave, tmp: tmpFiles(fs.dir) }).toEqual({ leave, tmp: [] });
      } finally {
        fs.dispose();
      }
    }
  },
  120_000,
);
