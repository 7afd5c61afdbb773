/**
 * A run in place keeps its session folder inside the checkout, which the project's own checks
 * may walk whole (`node --test` with no folder, a test runner's glob). agentmux's atomic writes
 * used to make their temp files beside their target there: a walker that listed one and then
 * looked at it after the rename failed (ENOENT), which cost runs a fix round. Through the
 * binary: during a whole demo run no temp file of an atomic write appears in the checkout.
 */
import { afterAll, expect, test } from "bun:test";
import { watch } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";
import { removeDir } from "../helpers/tmp.ts";

const made = { dirs: [] as string[], sockets: [] as string[] };
afterAll(() => {
  made.sockets.forEach(killTmuxServer);
  made.dirs.forEach(removeDir);
});

test("a demo run in place: no atomic-write temp file appears anywhere in the checkout, its session folder included", async () => {
  const tmp = makeTmpDir("amx-churn-");
  made.dirs.push(tmp);
  const socket = privateSocket();
  made.sockets.push(socket);
  const seen = new Set<string>();
  const watcher = watch(tmp, { recursive: true }, (_event, name) => {
    if (name) seen.add(String(name));
  });
  try {
    const r = await runBinary(isolatedBinary(), ["demo", "--ci", "--keep-session", "--dir", join(tmp, "repo")], { socket, timeoutMs: 150_000 });
    if (r.code !== 0) console.error(r.stdout, r.stderr);
    expect(r.code).toBe(0);
  } finally {
    watcher.close();
  }
  const names = [...seen];
  // the watcher saw the run's files being written (else this test could not fail)
  expect(names.some((n) => /^repo\/\.agentmux\/\.sessions\/[^/]+\/state\.json$/.test(n))).toBe(true);
  expect(names.filter((n) => n.endsWith(".tmp"))).toEqual([]);
}, 200_000);
