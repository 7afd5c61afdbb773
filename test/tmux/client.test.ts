import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { prefixFor } from "../../src/effects/tmux/client.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

describe("prefixFor: agentmux's prefix inside the user's own tmux", () => {
  test("outside tmux it is Ctrl-b", async () => {
    expect(await prefixFor({})).toBe("C-b");
  });

  test("inside a tmux whose prefix is Ctrl-b it is Ctrl-a; inside one with another prefix it stays Ctrl-b", async () => {
    const socket = privateSocket();
    cleanups.push(() => killTmuxServer(socket));
    const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-L", socket, ...args], { env: { PATH: process.env.PATH, TMUX: "" }, stdout: "pipe" });
    expect(tmux("-f", "/dev/null", "new-session", "-d", "-s", "outer").exitCode).toBe(0);
    const path = tmux("display-message", "-p", "#{socket_path}").stdout.toString().trim();
    const env = { TMUX: `${path},1,0` };
    expect(await prefixFor(env)).toBe("C-a");
    tmux("set-option", "-g", "prefix", "C-a");
    expect(await prefixFor(env)).toBe("C-b");
  });

  test("a user's tmux server that never answers does not hang agentmux (it assumes Ctrl-b and picks Ctrl-a)", async () => {
    const dir = makeTmpDir();
    const path = join(dir, "silent.sock");
    // accepts the client's connection and never replies, like a server stuck on something else
    const server = Bun.listen({ unix: path, socket: { data() {}, open() {} } });
    cleanups.push(() => {
      server.stop(true);
      removeDir(dir);
    });
    expect(await prefixFor({ TMUX: `${path},1,0` })).toBe("C-a");
  }, 20_000);
});
