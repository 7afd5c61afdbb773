import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { disposeAll, leftovers, makeTmpDir, privateSocket, REPO_ROOT, scratch } from "../helpers/tmp.ts";
import { lineViolations, sources } from "./imports.ts";

/**
 * Tests leave nothing behind and share no global state: they pass environments to the code
 * and children they start instead of changing process.env (one test's change leaks into every
 * later test of the run), and make temp dirs (binary copies live in them) and tmux servers
 * through test/helpers/tmp.ts, which disposes of what they did not.
 */
const TESTS = join(REPO_ROOT, "test");

const RULES: [RegExp, string][] = [
  [/\bprocess\.env(\.[A-Za-z_]\w*|\[[^\]]+\])\s*(=(?!=)|\+=|\?\?=|\|\|=)/, "assigns to process.env"],
  [/\bdelete\s+process\.env\b/, "deletes from process.env"],
  [/Object\.assign\(\s*process\.env\b/, "assigns to process.env"],
  [/\bmkdtempSync\(/, "makes a temp dir the disposal does not know (use makeTmpDir)"],
];

export const hygieneViolations = (files: { path: string; text: string }[]) => lineViolations(files, RULES);

describe("test hygiene", () => {
  test("no test changes process.env or makes temp dirs and binary copies outside the disposal", () => {
    const files = sources(TESTS)
      .filter((p) => !p.endsWith("test/helpers/tmp.ts") && !p.endsWith("test/architecture/test-hygiene.test.ts"))
      .map((p) => ({ path: relative(TESTS, p), text: readFileSync(p, "utf8") }));
    expect(hygieneViolations(files)).toEqual([]);
  });

  test("the check sees what it forbids", () => {
    const bad = 'process.env.HOME = home;\ndelete process.env.X;\nprocess.env["A"] ??= "b";\nconst d = mkdtempSync(p);\nif (process.env.CI === "1") {}';
    expect(hygieneViolations([{ path: "x.test.ts", text: bad }]).map((v) => v.split(" ")[0])).toEqual([
      "x.test.ts:1",
      "x.test.ts:2",
      "x.test.ts:3",
      "x.test.ts:4",
    ]);
  });

  test("what a test did not dispose of is disposed of after the run; a scratch scope disposes of its own", () => {
    const dir = makeTmpDir("amx-hygiene-");
    const socket = privateSocket();
    Bun.spawnSync(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "sleep 60"], { env: { ...process.env, TMUX: "" } });
    expect(leftovers().dirs).toContain(dir);
    let inner = "";
    {
      using s = scratch();
      inner = s.dir("amx-hygiene-inner-");
      expect(existsSync(inner)).toBe(true);
    }
    expect(existsSync(inner)).toBe(false);
    expect(leftovers().dirs).not.toContain(inner);
    disposeAll();
    expect(existsSync(dir)).toBe(false);
    expect(Bun.spawnSync(["tmux", "-L", socket, "has-session"], { stderr: "ignore", env: { ...process.env, TMUX: "" } }).exitCode).not.toBe(0);
    expect(leftovers()).toEqual({ dirs: [], sockets: [] });
  });
});
