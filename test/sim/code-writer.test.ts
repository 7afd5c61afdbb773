import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeOwnedFile } from "../../src/sim/code-writer.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

test("writeOwnedFile is idempotent: a task re-run after a restart leaves the same files", () => {
  const dir = makeTmpDir();
  const opts = { title: "Greeting module", owned: ["src/greeting.js"] };
  expect(writeOwnedFile(dir, "src/greeting.js", opts)).toBe("created");
  const created = readFileSync(join(dir, "src/greeting.js"), "utf8");
  expect(writeOwnedFile(dir, "src/greeting.js", opts)).toBe("created");
  expect(readFileSync(join(dir, "src/greeting.js"), "utf8")).toBe(created);
  const change = { ...opts, change: "fix: handle empty names" };
  expect(writeOwnedFile(dir, "src/greeting.js", change)).toBe("changed");
  const changed = readFileSync(join(dir, "src/greeting.js"), "utf8");
  expect(changed).not.toBe(created);
  expect(writeOwnedFile(dir, "src/greeting.js", change)).toBe("changed");
  expect(readFileSync(join(dir, "src/greeting.js"), "utf8")).toBe(changed);
});
