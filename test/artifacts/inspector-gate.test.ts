import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkInspectorRecord } from "../../src/artifacts/inspector-gate.ts";
import { scratch } from "../helpers/tmp.ts";

/** The seeds' verification gate on the Inspector record agentmux wrote, as the commit runs it. */
const record = (over: object = {}) => ({
  story_key: "greeting",
  agent: "inspector",
  status: "PASS",
  quality_checks: { type_check: "NOT_RUN", lint: "PASS", build: "NOT_RUN" },
  tests: { passing: 2, failing: 0, total: 2 },
  files_verified: ["src/greeting.js"],
  timestamp: "2024-01-01T00:00:00.000Z",
  checks: [{ name: "test", kind: "test", status: "passed", required: true, round: 0 }],
  ...over,
});

test("a PASS record whose files exist lets the commit go; missing, invalid, a vanished file or FAIL stop it", () => {
  using s = scratch();
  const session = s.dir("amx-gate-s-");
  const work = s.dir("amx-gate-w-");
  mkdirSync(join(work, "src"));
  writeFileSync(join(work, "src/greeting.js"), "export {};\n");
  const write = (v: object | string) => {
    mkdirSync(join(session, "06_checks"), { recursive: true });
    writeFileSync(join(session, "06_checks/inspector.json"), typeof v === "string" ? v : JSON.stringify(v));
  };
  expect(checkInspectorRecord(session, work, { failAccepted: false })).toEqual([
    { path: "06_checks/inspector.json", message: "is missing: the run ran checks but their record was never written" },
  ]);
  write(record());
  expect(checkInspectorRecord(session, work, { failAccepted: false })).toEqual([]);
  write(record({ files_verified: ["src/greeting.js", "src/gone.js"] }));
  expect(checkInspectorRecord(session, work, { failAccepted: false })).toEqual([
    { path: "06_checks/inspector.json.files_verified[1]", message: '"src/gone.js" does not exist in the working tree' },
  ]);
  const fail = record({
    status: "FAIL",
    checks: [
      { name: "test", kind: "test", status: "failed", required: true, round: 1 },
      { name: "lint", kind: "lint", status: "failed", required: true, pre_existing: true, round: 1 },
    ],
  });
  write(fail);
  expect(checkInspectorRecord(session, work, { failAccepted: false })).toEqual([
    { path: "06_checks/inspector.json.status", message: "is FAIL: required check(s) test fail and nobody approved over them" },
  ]);
  // a person approved over it at the loop cap: the record still has to be there and true
  expect(checkInspectorRecord(session, work, { failAccepted: true })).toEqual([]);
  write("{ not json");
  expect(checkInspectorRecord(session, work, { failAccepted: true }).length).toBeGreaterThan(0);
  write(record({ agent: "builder" }));
  expect(checkInspectorRecord(session, work, { failAccepted: true })[0]!.path).toContain("06_checks/inspector.json");
});
