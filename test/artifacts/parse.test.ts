import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inferKind, parseArtifact, readArtifact, type Problem } from "../../src/artifacts/index.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { json, validDone, validPlan, yaml } from "./fixtures.ts";

function problems(r: { ok: boolean; problems?: Problem[] }): Problem[] {
  expect(r.ok).toBe(false);
  return (r as { problems: Problem[] }).problems;
}

describe("inferKind", () => {
  test("protocol names map to kinds", () => {
    const cases: Record<string, string | undefined> = {
      "s/04_planning/plan.yaml": "plan",
      "execution_plan.yaml": "execution_plan",
      "07_review/review_reviewer_logic.yaml": "review",
      "08_completion/approval.json": "approval",
      "changes.md": "changes",
      "06_implementation/done_3.json": "done",
      "state.json": "state",
      "proj/.agentmux/config.yaml": "config",
      "proj/.agentmux/config.yml": "config",
      "proj/.agentmux/config.json": "config",
      "proj/config.yaml": undefined,
      "architecture.md": "architecture",
      "design.md": "design",
      "summary.md": "summary",
      "requirements.md": "requirements",
      "done_x.json": undefined,
      "README.md": undefined,
    };
    for (const [file, kind] of Object.entries(cases)) expect([file, inferKind(file)]).toEqual([file, kind as any]);
  });
});

describe("plan", () => {
  test("a valid plan parses with defaults filled", () => {
    const r = parseArtifact("plan", yaml(validPlan()));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.needs_docs).toBe(false);
  });
  test("duplicate subplan index", () => {
    const p = validPlan();
    p.subplans[1].index = 1;
    p.groups[0].plans[1].index = 1;
    const ps = problems(parseArtifact("plan", yaml(p)));
    expect(ps).toContainEqual({ path: "subplans[1].index", message: "duplicate subplan index 1" });
    expect(ps).toContainEqual({ path: "groups[0].plans[1].index", message: "plan 1 is referenced by more than one group entry" });
  });
  test("gap in subplan indices", () => {
    const p = validPlan();
    p.subplans[1].index = 3;
    p.groups[0].plans[1].index = 3;
    expect(problems(parseArtifact("plan", yaml(p)))).toContainEqual({ path: "subplans", message: "subplan indices must run 1..3 without gaps; 2 is missing" });
  });
  test("unreferenced subplan", () => {
    const p = validPlan();
    p.groups[0].plans.pop();
    expect(problems(parseArtifact("plan", yaml(p)))).toEqual([{ path: "subplans[1].index", message: "subplan 2 is not in any group" }]);
  });
  test("bad mode", () => {
    const p = validPlan();
    p.groups[0].mode = "concurrent";
    const ps = problems(parseArtifact("plan", yaml(p)));
    expect(ps.map((x) => x.path)).toEqual(["groups[0].mode"]);
    expect(ps[0]!.message).toContain('"serial"');
  });
  test("missing field", () => {
    const p = validPlan();
    delete p.subplans[0].scope;
    expect(problems(parseArtifact("plan", yaml(p)))).toEqual([{ path: "subplans[0].scope", message: "required field is missing (expected string)" }]);
  });
  test("version 1 is refused", () => {
    const p = validPlan();
    p.version = 1;
    expect(problems(parseArtifact("plan", yaml(p)))).toEqual([{ path: "version", message: "must be 2 (plan.yaml v2)" }]);
  });
  test("unknown field is named", () => {
    const p = validPlan();
    p.groups[0].colour = "red";
    expect(problems(parseArtifact("plan", yaml(p)))).toEqual([{ path: "groups[0].colour", message: "unknown field" }]);
  });
  test("parallel subplans that share owned files are refused with the plans and the files", () => {
    const p = validPlan();
    p.subplans[0].owned_files = ["src/shared.ts", "src/p1.ts", "./src/util.ts", "src/lim/"];
    p.subplans[1].owned_files = ["src/p2.ts", "src/util.ts", "src/shared.ts", "src/lim/bucket.ts"];
    expect(problems(parseArtifact("plan", yaml(p)))).toEqual([
      {
        path: "groups[0].plans",
        message:
          'plans 1 ("one") and 2 ("two") run in parallel in group "g1" but both own src/shared.ts, src/util.ts, src/lim/bucket.ts (inside src/lim/ of plan 1): give each file to one plan, or put the plans in a serial group',
      },
    ]);
  });
  test("every sharing pair of a parallel group is named; serial groups and plans of different groups may share files", () => {
    const p = validPlan();
    p.subplans.push({ ...p.subplans[0], index: 3, title: "Part 3", owned_files: ["src/p3.ts", "src/x.ts"] });
    p.subplans.push({ ...p.subplans[0], index: 4, title: "Part 4", owned_files: ["src/x.ts"] });
    p.subplans[0].owned_files = ["src/x.ts"];
    p.groups[0].plans.push({ index: 3, name: "three" });
    p.groups.push({ group_id: "g2", mode: "serial", plans: [{ index: 4, name: "four" }] });
    expect(problems(parseArtifact("plan", yaml(p)))).toEqual([
      {
        path: "groups[0].plans",
        message:
          'plans 1 ("one") and 3 ("three") run in parallel in group "g1" but both own src/x.ts: give each file to one plan, or put the plans in a serial group',
      },
    ]);
    p.groups[0].mode = "serial";
    expect(parseArtifact("plan", yaml(p)).ok).toBe(true);
  });
  test("YAML syntax errors carry line and column", () => {
    const ps = problems(parseArtifact("plan", "version: 2\ngroups: [1, 2\nsubplans: 3\n"));
    expect(ps[0]!.path).toBe("");
    expect(ps[0]!.message).toMatch(/^YAML syntax error at line 3, column 1: /);
  });
  test("duplicate YAML keys are syntax errors", () => {
    expect(problems(parseArtifact("plan", "version: 2\nversion: 2\n"))[0]!.message).toMatch(/line 2, column 1: Map keys must be unique/);
  });
  test("a list at the top level is refused", () => {
    expect(problems(parseArtifact("plan", "- a\n- b\n"))).toEqual([{ path: "", message: "top level must be a mapping of fields, got a list" }]);
  });
});

describe("review", () => {
  test("pass without findings is valid", () => {
    const r = parseArtifact("review", yaml({ verdict: "pass", summary: "fine" }));
    expect(r.ok && r.value.findings).toEqual([]);
  });
  test("fail without findings", () => {
    expect(problems(parseArtifact("review", yaml({ verdict: "fail", summary: "bad" })))).toEqual([
      { path: "findings", message: "a failing review must list at least one finding (or a line comment)" },
    ]);
  });
  test("bad verdict", () => {
    const ps = problems(parseArtifact("review", yaml({ verdict: "maybe", summary: "x" })));
    expect(ps.map((p) => p.path)).toEqual(["verdict"]);
    expect(ps[0]!.message).toContain('"pass"');
  });
  test("finding without recommendation", () => {
    const ps = problems(parseArtifact("review", yaml({ verdict: "fail", summary: "x", findings: [{ issue: "bug" }] })));
    expect(ps).toEqual([{ path: "findings[0].recommendation", message: "required field is missing (expected string)" }]);
  });
});

describe("approval", () => {
  test("valid", () => expect(parseArtifact("approval", json({ action: "approve", exclude_files: [] })).ok).toBe(true));
  test("wrong action", () => {
    expect(problems(parseArtifact("approval", json({ action: "reject", exclude_files: [] })))).toEqual([{ path: "action", message: 'must be "approve"' }]);
  });
  test("exclude_files not an array", () => {
    expect(problems(parseArtifact("approval", json({ action: "approve", exclude_files: "debug.log" })))).toEqual([
      { path: "exclude_files", message: "must be a list, got string" },
    ]);
  });
  test("JSON syntax errors carry line and column", () => {
    expect(problems(parseArtifact("approval", '{\n  "action": "approve",\n  "exclude_files": [],\n}'))).toEqual([
      { path: "", message: 'JSON syntax error at line 4, column 1: unexpected "}" (trailing comma)' },
    ]);
    expect(problems(parseArtifact("approval", '{"action": tru}'))[0]!.message).toBe(
      'JSON syntax error at line 1, column 12: unexpected "t" (expected a value)',
    );
  });
});

describe("done", () => {
  test("valid", () => expect(parseArtifact("done", json(validDone({ subplan_index: 2 }))).ok).toBe(true));
  test("missing fields", () => {
    const ps = problems(parseArtifact("done", json({ status: "SUCCESS" })));
    expect(ps.map((p) => p.path).sort()).toEqual(["files_created", "files_modified", "tasks_completed", "tests"]);
    for (const p of ps) expect(p.message).toStartWith("required field is missing");
  });
  test("bad status and negative counts", () => {
    const ps = problems(parseArtifact("done", json(validDone({ status: "OK", tests: { files: -1, cases: 0 } }))));
    expect(ps.map((p) => p.path)).toEqual(["status", "tests.files"]);
  });
});

describe("markdown, state and config", () => {
  test("markdown kinds must be non-empty", () => {
    for (const k of ["architecture", "design", "summary", "requirements", "changes"] as const) {
      expect(problems(parseArtifact(k, "  \n\n"))).toEqual([{ path: "", message: `${k} is empty; it must have content` }]);
      expect(parseArtifact(k, "# Title\n").ok).toBe(true);
    }
  });
  test("state: last_event must be in the catalog", () => {
    const ps = problems(parseArtifact("state", json({ phase: "planning", last_event: "made_up" })));
    expect(ps.map((p) => p.path)).toContain("last_event");
    expect(ps.map((p) => p.path)).toContain("session_name");
  });
  test("config: unknown keys and bad values are named by path", () => {
    expect(parseArtifact("config", "defaults:\n  provider: codex\n").ok).toBe(true);
    expect(problems(parseArtifact("config", "tmux:\n  width: 10\n  colour: red\n"))).toEqual([
      { path: "tmux.width", message: expect.stringContaining(">=80") },
      { path: "tmux.colour", message: "unknown field" },
    ]);
  });
});

describe("readArtifact", () => {
  test("a missing file is a problem; an existing one is validated", async () => {
    const dir = makeTmpDir();
    try {
      expect(await readArtifact("plan", join(dir, "plan.yaml"))).toEqual({ ok: false, problems: [{ path: "", message: "file not found" }] });
      writeFileSync(join(dir, "plan.yaml"), yaml(validPlan()));
      expect((await readArtifact("plan", join(dir, "plan.yaml"))).ok).toBe(true);
    } finally {
      removeDir(dir);
    }
  });
});
