import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { join } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { writeFault } from "../../src/effects/git/atomic-write.ts";
import { commitChanges } from "../../src/effects/git/commit.ts";
import { ObjectUnreadable } from "../../src/effects/git/errors.ts";
import { gitFs } from "../../src/effects/git/fs.ts";
import { forgetVerifiedObjects } from "../../src/effects/git/objects.ts";
import { verifyNewCommit } from "../../src/effects/git/verify.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { gitCli, gitCliResult, makeRepo, writeFiles } from "./fixture.ts";

const dirs: string[] = [];
afterEach(() => {
  writeFault.inject = null;
  dirs.splice(0).forEach(removeDir);
});
async function repo(files: Record<string, string>) {
  const base = makeTmpDir("amx-durable-");
  dirs.push(base);
  return makeRepo(files, base);
}

const wrap = (content: Buffer) => Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]);
const blobId = (content: Buffer) => createHash("sha1").update(wrap(content)).digest("hex");
const objectPath = (dir: string, oid: string) => join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2));

/** Every loose object file: name → "ok" or why it is bad; plus stray files in object folders. */
function looseObjects(dir: string): { bad: string[]; temps: string[]; count: number } {
  const root = join(dir, ".git", "objects");
  const out = { bad: [] as string[], temps: [] as string[], count: 0 };
  for (const sub of fs.readdirSync(root).filter((d) => /^[0-9a-f]{2}$/.test(d))) {
    for (const name of fs.readdirSync(join(root, sub))) {
      if (!/^[0-9a-f]{38}$/.test(name)) {
        out.temps.push(`${sub}/${name}`);
        continue;
      }
      out.count++;
      try {
        const wrapped = inflateSync(fs.readFileSync(join(root, sub, name)));
        if (createHash("sha1").update(wrapped).digest("hex") !== sub + name) out.bad.push(`${sub}${name}: wrong hash`);
      } catch (e) {
        out.bad.push(`${sub}${name}: ${(e as Error).message}`);
      }
    }
  }
  return out;
}

const fsckClean = (dir: string) => {
  const r = gitCliResult(dir, "fsck", "--strict", "--no-dangling");
  if (r.code !== 0) console.error(r.out, r.err);
  return r.code === 0;
};

describe("git objects are written atomically and read back before the branch moves", () => {
  for (const [what, torn] of [
    ["empty", () => Buffer.alloc(0)],
    ["truncated", (c: Buffer) => deflateSync(wrap(c)).subarray(0, 40)],
    ["garbage that inflates to other content", () => deflateSync(wrap(Buffer.from("something else\n")))],
  ] as const) {
    test(`an existing ${what} loose object of a changed file is repaired, not reused`, async () => {
      const dir = await repo({ "a.txt": "a\n" });
      const content = Buffer.from("the real content\n".repeat(500));
      const oid = blobId(content);
      fs.mkdirSync(join(objectPath(dir, oid), ".."), { recursive: true });
      fs.writeFileSync(objectPath(dir, oid), torn(content));
      forgetVerifiedObjects();
      writeFiles(dir, { "data/big.txt": content.toString() });
      const r = await commitChanges(dir, { branch: "main", message: "add data", excludeFiles: [] });
      expect(r.files).toEqual(["data/big.txt"]);
      expect(gitCli(dir, "cat-file", "blob", "HEAD:data/big.txt")).toBe(content.toString());
      expect(looseObjects(dir).bad).toEqual([]);
      expect(fsckClean(dir)).toBe(true);
    });
  }

  test("a full disk at each write of the commit in turn: no torn object, the branch stays; with space again the commit is right", async () => {
    const files = { "a.txt": "a\n", "gone.txt": "bye\n", "src/keep.ts": "export const k = 1;\n" };
    const change = (dir: string) => {
      writeFiles(dir, { "a.txt": "A\n", "src/new.ts": "export const n = 2;\n", "docs/deep/x.md": "# x\n".repeat(200) });
      fs.rmSync(join(dir, "gone.txt"));
    };
    // the reference: the same change committed with no fault, counting the writes into .git
    const ref = await repo(files);
    change(ref);
    let writes = 0;
    writeFault.inject = () => (writes++, null);
    await commitChanges(ref, { branch: "feature/x", message: "m", excludeFiles: [] });
    writeFault.inject = null;
    const refTree = gitCli(ref, "rev-parse", "feature/x^{tree}").trim();
    expect(writes).toBeGreaterThanOrEqual(8); // 3 blobs, 4 trees, the commit, the index, the ref

    for (let k = 0; k < writes; k++) {
      const dir = await repo(files);
      change(dir);
      const head = gitCli(dir, "rev-parse", "HEAD").trim();
      let n = 0;
      // from write k on, the disk is full (isomorphic-git retries once after mkdir: that fails too)
      writeFault.inject = () => (n++ >= k ? Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28 }) : null);
      const err = await commitChanges(dir, { branch: "feature/x", message: "m", excludeFiles: [] }).catch((e) => e);
      writeFault.inject = null;
      const where = `failing from write ${k + 1} of ${writes}`;
      if (!(err instanceof Error)) {
        // only the last write (the ref) may fail after the commit is complete: it must not have
        throw new Error(`${where}: the commit succeeded`);
      }
      expect(`${where}: ${err.message}`).toContain("ENOSPC");
      const objects = looseObjects(dir);
      expect({ where, bad: objects.bad, temps: objects.temps }).toEqual({ where, bad: [], temps: [] });
      const branch = gitCliResult(dir, "rev-parse", "-q", "--verify", "refs/heads/feature/x");
      expect({ where, branch: branch.out.trim() }).toEqual({ where, branch: branch.code === 0 ? head : "" });
      expect(fsckClean(dir)).toBe(true);
      expect(gitCliResult(dir, "status", "--porcelain").code).toBe(0);

      // space again: the commit goes through with the right tree
      const r = await commitChanges(dir, { branch: "feature/x", message: "m", excludeFiles: [] });
      expect({ where, tree: gitCli(dir, "rev-parse", `${r.hash}^{tree}`).trim() }).toEqual({ where, tree: refTree });
      expect(fsckClean(dir)).toBe(true);
      expect(gitCli(dir, "status", "--porcelain")).toBe("");
      gitCli(dir, "checkout", "-q", "main");
      gitCli(dir, "checkout", "-q", "feature/x");
      expect(fs.readFileSync(join(dir, "src/new.ts"), "utf8")).toBe("export const n = 2;\n");
    }
  }, 60_000);

  test("verifyNewCommit reads back what a commit adds and names the first object that does not", async () => {
    const dir = await repo({ "a.txt": "a\n", "lib/old.ts": "old\n" });
    const parent = gitCli(dir, "rev-parse", "HEAD").trim();
    writeFiles(dir, { "lib/deep/new.ts": "export const fresh = true;\n" });
    gitCli(dir, "add", "-A");
    gitCli(dir, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "-m", "new");
    const commit = gitCli(dir, "rev-parse", "HEAD").trim();
    const args = {
      commit,
      tree: gitCli(dir, "rev-parse", "HEAD^{tree}").trim(),
      parents: [parent],
      baseTree: gitCli(dir, "rev-parse", `${parent}^{tree}`).trim(),
    };
    const gitdir = join(dir, ".git");
    await verifyNewCommit(gitFs(dir), dir, gitdir, args);
    const blob = gitCli(dir, "rev-parse", "HEAD:lib/deep/new.ts").trim();
    fs.rmSync(objectPath(dir, blob), { force: true });
    fs.writeFileSync(objectPath(dir, blob), Buffer.alloc(0));
    const err = await verifyNewCommit(gitFs(dir), dir, gitdir, args).catch((e) => e);
    expect(err).toBeInstanceOf(ObjectUnreadable);
    expect(err.data).toMatchObject({ oid: blob, what: "lib/deep/new.ts" });
  });

  test("a killed writer's temp file is removed by the next write into its folder; a live one's is kept", async () => {
    const dir = await repo({ "a.txt": "a\n" });
    const content = Buffer.from("new\n");
    const folder = join(objectPath(dir, blobId(content)), "..");
    fs.mkdirSync(folder, { recursive: true });
    const dead = Bun.spawnSync(["true"]).pid; // exited: its pid is free
    fs.writeFileSync(join(folder, `tmp_obj_amx${dead}-0`), "half");
    fs.writeFileSync(join(folder, `tmp_obj_amx${process.ppid}-0`), "a live writer's");
    writeFiles(dir, { "b.txt": content.toString() });
    await commitChanges(dir, { branch: "main", message: "b", excludeFiles: [] });
    expect(
      fs
        .readdirSync(folder)
        .filter((n) => n.startsWith("tmp_obj_"))
        .sort(),
    ).toEqual([`tmp_obj_amx${process.ppid}-0`]);
    expect(fsckClean(dir)).toBe(true);
  });
});

test("#31: a wrapped file-system error names its code (ENOSPC, EROFS) even when the wrapper's message does not", async () => {
  const { wrapGitError } = await import("../../src/effects/git/repo.ts");
  const inner = Object.assign(new Error("EROFS: read-only file system, open '/r/.git/index'"), { code: "EROFS" });
  const wrapped = Object.assign(new Error("Could not write the index"), { cause: inner });
  expect(wrapGitError(wrapped, "commit", "/r").message).toBe("commit failed: Could not write the index (EROFS)");
  const full = Object.assign(new Error("no space"), { code: "ENOSPC" });
  expect(wrapGitError(full, "commit", "/r").message).toBe("commit failed: no space (ENOSPC)");
  expect(wrapGitError(inner, "commit", "/r").message).toBe("commit failed: EROFS: read-only file system, open '/r/.git/index'");
});
