import { afterEach, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { fileDiff } from "../../src/effects/git/diff.ts";
import { lineDiff } from "../../src/effects/git/line-diff.ts";
import { completeApproval } from "../../src/effects/git/complete.ts";
import { draftCommitMessage, fitCommitMessage } from "../../src/effects/git/message.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { gitCli, gitCliResult, makeRepo } from "./fixture.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe("draftCommitMessage", () => {
  const req = "# Requirements\n\n## Initial Request\n\n\n- Add rate limiting to the public API.\nmore text\n\n## Context\nignored\n";
  test("summary from the Initial Request section, issue suffix, plan overview body", () => {
    expect(draftCommitMessage({ requirements: req, featureSlug: "x", issueNumber: 4 })).toBe("feat: add rate limiting to the public API (#4)");
    expect(draftCommitMessage({ requirements: req, planOverview: "Token bucket per key.\nTwo tasks.", featureSlug: "x" })).toBe(
      "feat: add rate limiting to the public API\n\nToken bucket per key.\nTwo tasks.",
    );
  });
  test("falls back to the plan overview, then the slug words", () => {
    expect(draftCommitMessage({ requirements: "no section here", planOverview: "## Overview\nCache the results.", featureSlug: "x" })).toBe(
      "feat: cache the results\n\n## Overview\nCache the results.",
    );
    expect(draftCommitMessage({ featureSlug: "20240101-120000-rate-limit_api" })).toBe("feat: rate limit api");
    expect(draftCommitMessage({ featureSlug: "" })).toBe("feat: update implementation");
  });
  test("subject never exceeds 72 characters, keeps the issue suffix, is deterministic", () => {
    const long = "## Initial Request\n" + "Implement a very long feature description that goes on and on beyond any limit.";
    const m = draftCommitMessage({ requirements: long, featureSlug: "x", issueNumber: 1234 });
    expect(m.length).toBeLessThanOrEqual(72);
    expect(m).toEndWith("... (#1234)");
    expect(m).toStartWith("feat: implement a very long");
    expect(m.split("\n")[0]).toMatch(/ [a-z]+\.\.\. \(#1234\)$/); // cut at a word boundary
    expect(draftCommitMessage({ requirements: long, featureSlug: "x", issueNumber: 1234 })).toBe(m);
  });
});

describe("a 1 MB request never becomes a 1 MB commit message (#18.20)", () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => ["rate", "limit", "token", "bucket"][i % 4]).join(" ");

  test("fitCommitMessage: subject cut at a word to 200, body to 16,000 at a line, each cut said; short ones unchanged", () => {
    expect(fitCommitMessage("feat: small\n\nbody\n")).toBe("feat: small\n\nbody");
    const huge = fitCommitMessage(`feat: ${words(200_000)}`);
    const [subject, ...rest] = huge.split("\n");
    expect(subject!.length).toBeLessThanOrEqual(200);
    expect(subject).toEndWith("...");
    expect(huge.length).toBeLessThan(16_400);
    expect(rest.join("\n")).toMatch(/\[… \d+ more characters cut\]$/);
    const body = fitCommitMessage(`feat: x\n\n${Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join("\n")}`);
    expect(body.length).toBeLessThan(16_400);
    expect(body).toContain("line 0\nline 1\n");
  });

  test("completeApproval commits a bounded message from a 1 MB request, plan and approval", async () => {
    const base = makeTmpDir("amx-bigmsg-");
    dirs.push(base);
    const dir = await makeRepo({ "a.txt": "a\n" }, base);
    const sessionDir = join(dir, ".agentmux/.sessions/s");
    fs.mkdirSync(sessionDir, { recursive: true });
    const request = words(250_000); // ~1.3 MB on one line
    for (const approval of [
      { action: "approve" as const, exclude_files: [] },
      { action: "approve" as const, exclude_files: [], commit_message: request },
    ]) {
      fs.writeFileSync(join(dir, "a.txt"), `${Math.random()}\n`);
      const r = await completeApproval({
        workDir: dir,
        mainRepoDir: dir,
        sessionDir,
        featureName: "big",
        branch: "feature/big",
        approval,
        draft: { requirements: `# Requirements\n\n## Initial Request\n\n${request}\n`, planOverview: request },
        push: false,
        pullRequest: { enabled: false, base: null, draft: false, title: "t", body: "b" },
      });
      const message = gitCli(dir, "log", "-1", "--format=%B", r.hash);
      expect(message.length).toBeLessThan(16_500);
      expect(message.split("\n")[0]!.length).toBeLessThanOrEqual(200);
    }
  });
});

describe("fileDiff", () => {
  async function repo() {
    const base = makeTmpDir("amx-diff-");
    dirs.push(base);
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    return makeRepo({ "f.txt": lines, "bin.dat": new Uint8Array([1, 0, 2]), "gone.txt": "a\nb\n" }, base);
  }

  test("modified file: the patch applies in reverse to give back HEAD (checked with git apply)", async () => {
    const dir = await repo();
    const lines = fs.readFileSync(join(dir, "f.txt"), "utf8").split("\n");
    lines[2] = "changed 3";
    lines.splice(20, 2, "replaced 21-22", "plus one");
    lines.splice(35, 0, "inserted");
    fs.writeFileSync(join(dir, "f.txt"), lines.join("\n"));
    const patch = await fileDiff(dir, "f.txt");
    expect(patch).toStartWith("--- a/f.txt\n+++ b/f.txt\n@@ -1,6 +1,6 @@\n");
    expect(patch).toContain("-line 3\n+changed 3\n");
    fs.writeFileSync(join(dir, "p.patch"), patch);
    const check = gitCliResult(dir, "apply", "--check", "-R", "p.patch");
    expect(check.err).toBe("");
    expect(check.code).toBe(0);
    expect(patch.match(/^@@/gm)).toHaveLength(3);
  });

  test("new, deleted, unchanged, binary, no trailing newline", async () => {
    const dir = await repo();
    fs.writeFileSync(join(dir, "new.txt"), "x\ny\n");
    expect(await fileDiff(dir, "new.txt")).toBe("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n");
    fs.rmSync(join(dir, "gone.txt"));
    expect(await fileDiff(dir, "gone.txt")).toBe("--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    expect(await fileDiff(dir, "f.txt")).toBe("");
    fs.writeFileSync(join(dir, "bin.dat"), new Uint8Array([1, 0, 3]));
    expect(await fileDiff(dir, "bin.dat")).toBe("Binary file changed");
    fs.writeFileSync(join(dir, "new.txt"), "x");
    gitCli(dir, "add", "new.txt");
    expect(await fileDiff(dir, "new.txt")).toBe("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n");
  });

  test("lineDiff hunks rebuild the new file from the old one", () => {
    const a = Array.from({ length: 200 }, (_, i) => `l${i % 17}`);
    const b = a.filter((_, i) => i % 13 !== 0).map((l, i) => (i % 29 === 0 ? l + "!" : l));
    const hunks = lineDiff(a, b);
    let minus = 0;
    let plus = 0;
    for (const h of hunks) {
      if (h.startsWith("-")) minus++;
      else if (h.startsWith("+")) plus++;
    }
    expect(a.length - minus).toBe(b.length - plus);
    // rebuild b from a by applying the hunks
    const out: string[] = [];
    let ai = 0;
    for (const h of hunks) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(h);
      if (m) {
        const start = Number(m[2] === "0" ? Number(m[1]) : Number(m[1]) - 1);
        while (ai < start) out.push(a[ai++]);
        continue;
      }
      if (h.startsWith(" ")) out.push(a[ai++]);
      else if (h.startsWith("-")) ai++;
      else out.push(h.slice(1));
    }
    while (ai < a.length) out.push(a[ai++]);
    expect(out).toEqual(b);
  });
});

test("draftCommitMessage keeps a whole clause when the request is long", () => {
  const req = "## Initial Request\n\nAdd a greeting module: a function greet(name) that returns a friendly greeting, with a unit test.\n";
  expect(draftCommitMessage({ requirements: req, featureSlug: "x" })).toBe("feat: add a greeting module");
  const acronym = "## Initial Request\n\nAPI keys must be rotated\n";
  expect(draftCommitMessage({ requirements: acronym, featureSlug: "x" })).toBe("feat: API keys must be rotated");
});
