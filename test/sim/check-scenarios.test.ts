import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { flakyTest, hangingTest, mendHang } from "../../src/sim/check-scenarios.ts";
import { scratch } from "../helpers/tmp.ts";

test("check_hang's test sits between markers and the fixer takes exactly it out; check_flaky's fails once, then passes", async () => {
  using s = scratch();
  const dir = s.dir("amx-sim-checks-");
  const base = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n\ntest("a", () => assert.equal(1, 1));\n';
  writeFileSync(join(dir, "a.test.js"), base + hangingTest("greeting"));
  expect(readFileSync(join(dir, "a.test.js"), "utf8")).toContain("setTimeout(resolve, 3_600_000)");
  expect(mendHang(dir, "a.test.js")).toBe(true);
  expect(readFileSync(join(dir, "a.test.js"), "utf8")).toBe(base);
  expect(mendHang(dir, "a.test.js")).toBe(false);
  expect(mendHang(dir, "missing.test.js")).toBe(false);
  // the flaky test, run by node's own test runner twice: red, then green
  writeFileSync(join(dir, "f.test.mjs"), base + flakyTest(`flaky-${process.pid}-${Date.now()}`));
  const run = () => Bun.spawnSync(["node", "--test", "f.test.mjs"], { cwd: dir, stdout: "pipe", stderr: "pipe" }).exitCode;
  expect(run()).toBe(1);
  expect(run()).toBe(0);
});
