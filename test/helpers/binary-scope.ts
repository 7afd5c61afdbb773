import { afterAll, beforeAll } from "bun:test";
import { join } from "node:path";
import { isolatedBinary, killTmuxServer, privateSocket, removeDir } from "./tmp.ts";

/**
 * A test file's compiled binary (a private copy, out of node_modules' reach) and what its tests
 * start: private tmux sockets and folders, all disposed of after the file's tests.
 * `bin` is set once the file's tests begin.
 */
export function binaryScope(): { readonly bin: string; sockets: string[]; dirs: string[]; socket(): string } {
  const sockets: string[] = [];
  const dirs: string[] = [];
  let bin = "";
  beforeAll(() => {
    bin = isolatedBinary();
    dirs.push(join(bin, ".."));
  });
  afterAll(() => {
    sockets.forEach(killTmuxServer);
    dirs.forEach(removeDir);
  });
  return {
    get bin() {
      return bin;
    },
    sockets,
    dirs,
    socket() {
      const s = privateSocket();
      sockets.push(s);
      return s;
    },
  };
}
