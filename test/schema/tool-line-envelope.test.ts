import { expect, test } from "bun:test";
import { ROLES, TOOLS } from "../../src/schema/catalog.ts";
import { ToolEventLine } from "../../src/schema/tool-events.ts";

// The envelope of a tool_events.jsonl line, as the replay reads it: ToolEventLine alone.

const SEAL = "a".repeat(64);
const base: Record<string, unknown> = {
  tool: "submit_done",
  timestamp: "2026-01-01T00:00:00.000Z",
  payload: { subplan_index: 1 },
  agent: "coder:1",
  role: "coder",
  seq: 7,
  seal: SEAL,
};

/** Every field given each of a set of values, valid and not, on top of a valid line. */
function variants(): Record<string, unknown>[] {
  const values: Record<string, unknown[]> = {
    tool: [...TOOLS, "submit_everything", "", null, 1, ["submit_done"], "Submit_done"],
    timestamp: ["x", "", " ", null, 0, {}, ["t"]],
    payload: [
      {},
      { a: 1, b: { c: [1] } },
      [],
      [1, 2],
      null,
      "x",
      3,
      true,
      JSON.parse('{"__proto__":{"subplan_index":2}}'),
      JSON.parse('{"constructor":1,"toString":"x"}'),
    ],
    agent: ["a", "", null, 1, ["a"]],
    role: [...ROLES, "reviewer", "", null, 1, "CODER"],
    seq: [1, 2, 2 ** 53 - 1, 2 ** 53, 0, -1, 1.5, "1", null, 1e300, -0],
    seal: [
      SEAL,
      "0123456789abcdef".repeat(4),
      "A".repeat(64),
      "a".repeat(63),
      "a".repeat(65),
      "none",
      "",
      null,
      1,
      `${"a".repeat(64)}\n`,
      "g".repeat(64),
      "/".repeat(64),
      ":".repeat(64),
      "`".repeat(64),
      `${"f".repeat(63)}F`,
    ],
  };
  const out: Record<string, unknown>[] = [];
  for (const [field, vs] of Object.entries(values)) {
    for (const v of vs) out.push({ ...base, [field]: v });
    const { [field]: _gone, ...without } = base;
    out.push(without);
  }
  out.push({ ...base, extra: 1, another: { x: 1 } }, { tool: "submit_pm_done", timestamp: "t", payload: {} }, {}, { payload: {} });
  return out;
}

test("the envelope: each malformed field of a line is named, a well-formed line reads", () => {
  let refused = 0;
  for (const raw of variants()) {
    const r = ToolEventLine.safeParse(raw);
    if (r.success) continue;
    refused++;
    const fields = r.error.issues.map((i) => String(i.path[0] ?? ""));
    expect(fields.every((f) => ["", "tool", "timestamp", "payload", "agent", "role", "seq", "seal"].includes(f))).toBe(true);
  }
  expect(refused).toBeGreaterThan(30);
  expect(ToolEventLine.safeParse(base).success).toBe(true);
});

test("a seal of the wrong form still reads (it is refused as unsealed when applied), a seal that is not a string does not", () => {
  for (const seal of ["none", "", "A".repeat(64), `${"a".repeat(64)}\n`]) expect(ToolEventLine.safeParse({ ...base, seal }).success).toBe(true);
  expect(ToolEventLine.safeParse({ ...base, seal: 1 }).error!.issues[0]!.path).toEqual(["seal"]);
});

test("a payload with an own __proto__ key gives no prototype: the key is dropped, nothing is inherited", () => {
  const r = ToolEventLine.parse({ ...base, payload: JSON.parse('{"__proto__":{"subplan_index":2}}') });
  expect(Object.getPrototypeOf(r.payload)).toBe(Object.prototype);
  expect((r.payload as { subplan_index?: number }).subplan_index).toBeUndefined();
});
