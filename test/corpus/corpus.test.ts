import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { basename, dirname, join } from "node:path";
import git from "isomorphic-git";
import YAML from "yaml";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { CorpusFile, type CorpusCase } from "./case-schema.ts";
import { PREPARE, RUNNERS, type Ctx } from "./runners.ts";
import { diffSnapshots, snapshot } from "./snapshot.ts";

const CASES_DIR = join(import.meta.dir, "cases");
/** The minimum number of cases per category (issue #7 §4). */
const MINIMUM: Record<string, number> = { plan: 10, review: 6, approval: 6, done: 6, changes: 1, "tool-events": 6, config: 10, cli: 8, hostile: 8 };

const files = fs
  .readdirSync(CASES_DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort();
const categories = files.map((f) => ({ name: basename(f, ".yaml"), cases: CorpusFile.parse(YAML.parse(fs.readFileSync(join(CASES_DIR, f), "utf8"))) }));

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function writeTree(root: string, tree: Record<string, string>, expand: (s: string) => string): void {
  for (const [rel, content] of Object.entries(tree)) {
    fs.mkdirSync(dirname(join(root, rel)), { recursive: true });
    fs.writeFileSync(join(root, rel), expand(content));
  }
}

async function setUp(c: CorpusCase): Promise<Ctx & { base: string; canary: string }> {
  const base = makeTmpDir("amx-corpus-");
  const socket = privateSocket();
  cleanups.push(
    () => killTmuxServer(socket),
    () => removeDir(base),
  );
  const work = join(base, "work");
  const home = join(base, "home");
  const canary = join(base, "pwned");
  fs.mkdirSync(work);
  fs.mkdirSync(home);
  const expand = (s: string) =>
    s
      .replace(/\{\{(.)\*(\d+)\}\}/g, (_m, ch: string, n: string) => ch.repeat(Number(n)))
      .replaceAll("{work}", work)
      .replaceAll("{canary}", canary);
  writeTree(work, c.files, expand);
  if (c.repo) {
    await git.init({ fs, dir: work, defaultBranch: "main" });
    await git.setConfig({ fs, dir: work, path: "user.name", value: "Corpus" });
    await git.setConfig({ fs, dir: work, path: "user.email", value: "corpus@example.com" });
    const paths = Object.keys(c.files);
    if (paths.length) await git.add({ fs, dir: work, filepath: paths });
    await git.commit({ fs, dir: work, message: "initial", author: { name: "Corpus", email: "corpus@example.com" } });
  }
  writeTree(work, c.worktree, expand);
  for (const [link, target] of Object.entries(c.symlinks)) {
    fs.mkdirSync(dirname(join(work, link)), { recursive: true });
    fs.symlinkSync(expand(target), join(work, link));
  }
  for (const fifo of c.fifos) {
    fs.mkdirSync(dirname(join(work, fifo)), { recursive: true });
    if (Bun.spawnSync(["mkfifo", join(work, fifo)]).exitCode !== 0) throw new Error(`mkfifo ${fifo} failed`);
  }
  writeTree(home, c.home_files, expand);
  const ctx = { base, work, home, socket, canary, expand };
  PREPARE[c.run]?.(c, ctx);
  return ctx;
}

/** `path` is under the allowed prefix, or is a folder on the way to it. */
const allowed = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + "/") || prefix.startsWith(path + "/");

const STACK_FRAME = /\n\s+at .+:\d+:\d+/;

describe("bad-input corpus", () => {
  test("every category has its minimum number of cases, ids are unique", () => {
    const counts = Object.fromEntries(categories.map((c) => [c.name, c.cases.length]));
    for (const [name, min] of Object.entries(MINIMUM))
      expect({ name, count: counts[name] ?? 0, ok: (counts[name] ?? 0) >= min }).toEqual({ name, count: counts[name] ?? 0, ok: true });
    const ids = categories.flatMap((c) => c.cases.map((x) => x.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(60);
  });

  test("the snapshot sees a changed byte, a new file, a removed file and a retargeted symlink", () => {
    const dir = makeTmpDir("amx-corpus-snap-");
    cleanups.push(() => removeDir(dir));
    writeTree(dir, { "a.txt": "one", "sub/b.txt": "two", "c.txt": "three" }, (s) => s);
    fs.symlinkSync("a.txt", join(dir, "link"));
    const before = snapshot(dir);
    fs.writeFileSync(join(dir, "a.txt"), "onE");
    fs.writeFileSync(join(dir, "sub/new.txt"), "");
    fs.rmSync(join(dir, "c.txt"));
    fs.rmSync(join(dir, "link"));
    fs.symlinkSync("sub/b.txt", join(dir, "link"));
    expect(diffSnapshots(before, snapshot(dir))).toEqual(["+ sub/new.txt", "- c.txt", "~ a.txt", "~ link"]);
  });

  for (const { name, cases } of categories) {
    describe(name, () => {
      for (const c of cases) {
        test(`${c.id}: ${c.about}`, async () => {
          const x = await setUp(c);
          const before = snapshot(x.work);
          const r = await RUNNERS[c.run](c, x);
          const output = r.output;
          if (process.env.CORPUS_PRINT) console.log(`--- ${name}/${c.id} (exit ${r.code ?? r.outcome})\n${output.slice(0, 2000)}`);
          const context = `case ${name}/${c.id} output:\n${output}`;
          if (c.exit !== undefined) expect({ exit: r.code, context }).toEqual({ exit: c.exit, context });
          if (c.outcome !== undefined) expect({ outcome: r.outcome, context }).toEqual({ outcome: c.outcome, context });
          for (const fragment of c.expect) expect(output).toContain(x.expand(fragment));
          for (const fragment of c.reject) expect(output).not.toContain(x.expand(fragment));
          expect(output).not.toContain("internal error");
          expect(STACK_FRAME.test(output)).toBe(false);
          // nothing was executed: the canary exists only if a hostile string ran as a command
          expect(fs.existsSync(x.canary)).toBe(false);
          const changed = diffSnapshots(before, snapshot(x.work)).filter((l) => !c.may_change.some((p) => allowed(l.slice(2), p)));
          expect(changed).toEqual([]);
        }, 60000);
      }
    });
  }
});
