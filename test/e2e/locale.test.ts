import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket } from "./harness.ts";
import { removeDir } from "../helpers/tmp.ts";

/**
 * A job without a UTF-8 locale — a GitHub container job, cron, `env -i` — has no LANG. tmux
 * then prints the control character that separates the columns of a -F format as "_", and the
 * run could not start ("format new pane: tmux printed 1 column").
 */
const socket = privateSocket();
const dirs: string[] = [];
afterAll(() => {
  killTmuxServer(socket);
  dirs.forEach(removeDir);
});

test("a headless run starts and commits without LANG, LC_ALL or LC_CTYPE", async () => {
  const bin = isolatedBinary();
  const root = makeTmpDir("amx-locale-");
  dirs.push(root, join(bin, ".."));
  const p = Bun.spawn([bin, "demo", "--ci", "--dir", join(root, "repo")], {
    env: { PATH: process.env.PATH!, HOME: root, CI: "true", AGENTMUX_TMUX_SOCKET: socket },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) console.error(stdout, stderr);
  expect(stderr).not.toContain("tmux printed");
  expect(code).toBe(0);
}, 120_000);
