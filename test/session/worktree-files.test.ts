/**
 * #27.5: what agentmux created in an agent's working folder is recorded before it is written and
 * removed when the run ends: a file only while it has the content agentmux wrote, a folder only
 * when agentmux made it and it is empty; a file that was there before is never recorded.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { F } from "../../src/protocol/paths.ts";
import { writeLaunchFiles } from "../../src/providers/launch.ts";
import { recordWorktreeFiles, removeWorktreeFiles } from "../../src/session/worktree-files.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const root = makeTmpDir("amx-wt-files-");
afterAll(() => removeDir(root));

test("created files and folders go at the end; a changed one, one that was there, and a folder with other files stay", () => {
  const work = join(root, "work");
  const session = join(root, "session");
  mkdirSync(join(work, ".cursor"), { recursive: true });
  writeFileSync(join(work, ".cursor", "notes.txt"), "mine\n");
  writeFileSync(join(work, "there-before.json"), "{}\n");
  const files = [
    { path: join(work, ".opencode", "plugins", "a.js"), content: "// a\n", local: true as const },
    { path: join(work, ".cursor", "hooks.json"), content: "{}\n", local: true as const },
    { path: join(work, ".agents", "mcp_config.json"), content: "{}\n", local: true as const },
    { path: join(work, "there-before.json"), content: "{}\n", local: true as const },
    { path: join(root, "private.json"), content: "{}\n" }, // not in the working folder: not recorded
  ];
  recordWorktreeFiles(session, files);
  writeLaunchFiles({ files });
  const lines = readFileSync(join(session, F.worktreeFiles), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.path)).toEqual(files.slice(0, 3).map((f) => f.path));
  expect(lines[0].dirs).toEqual([join(work, ".opencode"), join(work, ".opencode", "plugins")]);
  expect(lines[1].dirs).toEqual([]); // .cursor was there
  writeFileSync(join(work, ".agents", "mcp_config.json"), '{"mine": true}\n'); // changed since: the user's now

  const notes = removeWorktreeFiles(session);
  expect(notes).toEqual([`${join(work, ".agents", "mcp_config.json")} changed since agentmux wrote it: left alone`]);
  expect(existsSync(join(work, ".opencode"))).toBe(false);
  expect(existsSync(join(work, ".cursor", "hooks.json"))).toBe(false);
  expect(readFileSync(join(work, ".cursor", "notes.txt"), "utf8")).toBe("mine\n");
  expect(readFileSync(join(work, ".agents", "mcp_config.json"), "utf8")).toBe('{"mine": true}\n');
  expect(readFileSync(join(work, "there-before.json"), "utf8")).toBe("{}\n");
  expect(existsSync(join(root, "private.json"))).toBe(true);
  expect(existsSync(join(session, F.worktreeFiles))).toBe(false);
  // a folder agentmux made where the CLI left only what its own .gitignore names (opencode's caches): it goes;
  // one holding anything else stays
  for (const [name, extra] of [
    ["cli-a", null],
    ["cli-b", "notes.md"],
  ] as const) {
    const f = { path: join(work, `.${name}`, "plugins", "p.js"), content: "// p\n", local: true as const };
    recordWorktreeFiles(session, [f]);
    writeLaunchFiles({ files: [f] });
    writeFileSync(join(work, `.${name}`, ".gitignore"), "node_modules\npackage.json\nbun.lock\n.gitignore\n");
    mkdirSync(join(work, `.${name}`, "node_modules", "x"), { recursive: true });
    writeFileSync(join(work, `.${name}`, "package.json"), "{}\n");
    if (extra) writeFileSync(join(work, `.${name}`, extra), "mine\n");
  }
  expect(removeWorktreeFiles(session)).toEqual([]);
  expect(existsSync(join(work, ".cli-a"))).toBe(false);
  expect(existsSync(join(work, ".cli-b", "plugins"))).toBe(false);
  expect(readFileSync(join(work, ".cli-b", "notes.md"), "utf8")).toBe("mine\n");
  // a session without the record (nothing created): nothing to do
  expect(removeWorktreeFiles(session)).toEqual([]);
});
