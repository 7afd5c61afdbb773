import { describe, expect, test } from "bun:test";
import { buildInspectorCompletion, latestResults } from "../../src/checks/inspector.ts";
import { checkKind } from "../../src/checks/kind.ts";
import { InspectorCompletion } from "../../src/schema/artifacts/inspector.ts";
import type { CheckResultInput } from "../../src/schema/checks.ts";
import { checkResult } from "../helpers/check-result.ts";

const result = (over: Partial<CheckResultInput>) => checkResult({ status: "passed", exit_code: 0, ...over });
const input = { storyKey: "add-login", files: ["src/login.ts"], at: "2026-11-28T15:01:00.000Z" };

describe("checkKind", () => {
  test("reads the kind from the name, then the command; an explicit kind wins", () => {
    expect(checkKind("typecheck", { command: "npm run typecheck" })).toBe("type_check");
    expect(checkKind("lint", { command: "npm run lint" })).toBe("lint");
    expect(checkKind("build", { command: "npm run build" })).toBe("build");
    expect(checkKind("test", { command: "npm test" })).toBe("test");
    expect(checkKind("ci", { command: "cargo clippy -- -D warnings" })).toBe("lint");
    expect(checkKind("ci", { command: "go test ./..." })).toBe("test");
    expect(checkKind("py", { command: "mypy src" })).toBe("type_check");
    expect(checkKind("smoke", { command: "./scripts/smoke.sh" })).toBe("other");
    expect(checkKind("smoke", { command: "./scripts/smoke.sh", kind: "test" })).toBe("test");
  });
});

describe("buildInspectorCompletion", () => {
  test("all green: PASS with the seed's shape, counts from the parsed summary, NOT_RUN where no check covers it", () => {
    const rec = buildInspectorCompletion(
      [result({ tests: { passing: 45, failing: 0, total: 45 } }), result({ name: "lint", kind: "lint" }), result({ name: "tsc", kind: "type_check" })],
      input,
    );
    expect(InspectorCompletion.parse(rec)).toEqual(rec);
    expect(rec).toMatchObject({
      story_key: "add-login",
      agent: "inspector",
      status: "PASS",
      quality_checks: { type_check: "PASS", lint: "PASS", build: "NOT_RUN" },
      tests: { passing: 45, failing: 0, total: 45 },
      files_verified: ["src/login.ts"],
      timestamp: input.at,
    });
  });

  test("a failing required check fails it; an advisory or pre-existing failure fails its quality check but does not block", () => {
    const failing = buildInspectorCompletion(
      [result({ status: "failed", tests: { passing: 40, failing: 5, total: 45 } }), result({ name: "lint", kind: "lint" })],
      input,
    );
    expect(failing.status).toBe("FAIL");
    expect(failing.tests).toEqual({ passing: 40, failing: 5, total: 45 });

    const advisory = buildInspectorCompletion([result({}), result({ name: "lint", kind: "lint", status: "failed", required: false })], input);
    expect(advisory.status).toBe("PASS");
    expect(advisory.quality_checks.lint).toBe("FAIL");

    const pre = buildInspectorCompletion([result({ name: "build", kind: "build", status: "failed", pre_existing: true })], input);
    expect(pre.status).toBe("PASS");
    expect(pre.quality_checks.build).toBe("FAIL");
    expect(pre.checks).toEqual([{ name: "build", kind: "build", status: "failed", required: true, pre_existing: true, round: 0 }]);
  });

  test("only the latest round of each check counts; a test check without counts counts as one test", () => {
    const rs = [result({ status: "failed", round: 0 }), result({ status: "passed", round: 1 }), result({ name: "e2e", status: "timed_out", exit_code: null })];
    expect(latestResults(rs).map((r) => [r.name, r.round])).toEqual([
      ["test", 1],
      ["e2e", 0],
    ]);
    const rec = buildInspectorCompletion(rs, input);
    expect(rec.tests).toEqual({ passing: 1, failing: 1, total: 2 });
    expect(rec.status).toBe("FAIL");
  });
});
