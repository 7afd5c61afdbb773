import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { killTmuxServer } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { startFixture, type TmuxFixture } from "./setup.ts";

let fixtures: TmuxFixture[] = [];
afterEach(() => {
  for (const f of fixtures) killTmuxServer(f.socket);
  fixtures = [];
});

test("a pane with an exit file reports its own exit there, with no hook installed", async () => {
  const f = await startFixture();
  fixtures.push(f);
  // no installExitHooks: only the pane's own report can write this file; the path is hostile
  const file = join(f.dir, "ex'it $(x) #{pane_id};", "pane_exits");
  mkdirSync(join(f.dir, "ex'it $(x) #{pane_id};"), { recursive: true });
  const { pane } = await f.layout.createPane({ command: ["sh", "-c", "exit 3"], env: { A: "b;" }, cwd: f.dir, label: "exits", exitFile: file });
  await waitFor("the pane to report its exit", () => existsSync(file) && readFileSync(file, "utf8").includes(pane), { timeoutMs: 5000 });
  // with its exit status (#17.8)
  expect(readFileSync(file, "utf8")).toBe(`${pane} 3\n`);
  expect(existsSync(join(f.dir, "x"))).toBe(false);
});
