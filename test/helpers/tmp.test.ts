import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { killTmuxServer, privateSocket, tmuxSocketFile } from "./tmp.ts";

// tmux 3.3a leaves its socket file after kill-server: every test's private server left one in
// /tmp/tmux-<uid> (10,147 of them on a developer machine after a few days of runs)
test("killTmuxServer stops the server and removes its socket file", () => {
  const socket = privateSocket();
  const env = { ...process.env, TMUX: "" };
  expect(Bun.spawnSync(["tmux", "-L", socket, "new-session", "-d", "sh", "-c", "exec tail -f /dev/null"], { env }).exitCode).toBe(0);
  expect(existsSync(tmuxSocketFile(socket))).toBe(true);
  killTmuxServer(socket);
  expect(Bun.spawnSync(["tmux", "-L", socket, "list-sessions"], { env, stderr: "ignore" }).exitCode).not.toBe(0);
  expect(existsSync(tmuxSocketFile(socket))).toBe(false);
});
