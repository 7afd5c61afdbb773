import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/effects/fs/atomic.ts";
import { killTmuxServer, makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(40_000);

/** The approval panel's boxes keep their titles inside their borders at 80 columns. */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

const LONG = "src/components/notifications/preferences/notification-preferences-form.tsx";

test("a diff of a file with a long path: its title is cut inside the box (it ran past the corner)", async () => {
  socket = privateSocket();
  const repo = makeTmpDir("amx-box-titles-");
  dirs.push(repo);
  const git = (...a: string[]) => Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: repo });
  writeFileSync(join(repo, "a.txt"), "a\n");
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "init");
  mkdirSync(join(repo, LONG, ".."), { recursive: true });
  writeFileSync(join(repo, LONG), "export const form = 1;\n");
  const dir = writeSession(repo, "s1", stateIn("completing", { project_dir: repo, awaiting_decision: true }));
  writeFileAtomic(join(dir, "08_completion/summary.md"), "# What changed\n\nA form.\n");
  const scr = new Screen(socket);
  await scr.start([scope.bin, "panel", dir], repo, { width: 80, height: 24 });
  await scr.until("the panel", (x) => x.includes("a approve"));
  await scr.keys("Enter");
  const shown = await scr.until("the diff", (x) => x.includes("export const form"));
  const title = shown.split("\n").find((l) => l.includes("notification"))!;
  expect(title).toMatch(/… ─*┐/);
  expect(shown.split("\n").filter((l) => l.includes("Esc back"))).toEqual([]);
});
