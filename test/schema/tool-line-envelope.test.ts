import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { ROLES, TOOLS } from "../../src/schema/catalog.ts";
import { ToolEventLine, ToolPayloadSchema, validEnvelope, validPayload } from "../../src/schema/tool-events.ts";

// validEnvelope (validPayload) is ToolEventLine's (ToolPayloads') check without zod, the replay's
// hot path. It must never accept what the schema refuses, give the schema's value when it accepts, and accept every
// well-formed line (else the replay silently goes back to zod for it).

const SEAL = "a".repeat(64);
const base: Record<string, unknown> = { tool: "submit_done", timestamp: "2026-01-01T00:00:00.000Z", payload: { subplan_index: 1 }, agent: "coder:1", role: "coder", seq: 7, seal: SEAL };

/** Every field given each of a set of values, valid and not, on top of a valid line. */
function variants(): Record<string, unknown>[] {
  const values: Record<string, unknown[]> = {
    tool: [...TOOLS, "submit_everything", "", null, 1, ["submit_done"], "Submit_done"],
    timestamp: ["x", "", " ", null, 0, {}, ["t"]],
    payload: [{}, { a: 1, b: { c: [1] } }, [], [1, 2], null, "x", 3, true, JSON.parse('{"__proto__":{"subplan_index":2}}'), JSON.parse('{"constructor":1,"toString":"x"}')],
    agent: ["a", "", null, 1, ["a"]],
    role: [...ROLES, "reviewer", "", null, 1, "CODER"],
    seq: [1, 2, 2 ** 53 - 1, 2 ** 53, 0, -1, 1.5, "1", null, 1e300, -0],
    seal: [SEAL, "0123456789abcdef".repeat(4), "A".repeat(64), "a".repeat(63), "a".repeat(65), "none", "", null, 1, `${"a".repeat(64)}\n`, "g".repeat(64), "/".repeat(64), ":".repeat(64), "`".repeat(64), `${"f".repeat(63)}F`],
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

/** The lines of the corpus's tool_events.jsonl files that are JSON objects, as readToolLines sees them. */
function corpusLines(): Record<string, unknown>[] {
  const dir = join(import.meta.dir, "..", "corpus", "cases");
  const out: Record<string, unknown>[] = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
    for (const c of YAML.parse(readFileSync(join(dir, f), "utf8")) as { files?: Record<string, string> }[]) {
      for (const [path, text] of Object.entries(c.files ?? {})) {
        if (!path.endsWith("tool_events.jsonl")) continue;
        for (const line of text.split("\n")) {
          try {
            const v = JSON.parse(line);
            if (v && typeof v === "object" && !Array.isArray(v)) out.push(v);
          } catch {
            // not JSON: readToolLines rejects it before any envelope check
          }
        }
      }
    }
  }
  return out;
}

test("validEnvelope agrees with ToolEventLine: what it accepts the schema accepts with the same value", () => {
  const lines = [...variants(), ...corpusLines()];
  expect(lines.length).toBeGreaterThan(90);
  let accepted = 0;
  let refused = 0;
  for (const raw of lines) {
    const fast = validEnvelope(raw);
    const zod = ToolEventLine.safeParse(raw);
    if (zod.success) {
      accepted++;
      // accepting every valid line is what makes it fast (but the __proto__ case below); its value must be the schema's
      if (fast === null && Object.hasOwn(raw.payload as object, "__proto__")) continue;
      if (JSON.stringify(fast) !== JSON.stringify(zod.data)) throw new Error(`differs on ${JSON.stringify(raw)}: ${JSON.stringify(fast)} vs ${JSON.stringify(zod.data)}`);
      expect(fast).toEqual(zod.data);
    } else {
      refused++;
      if (fast !== null) throw new Error(`accepts a line the schema refuses: ${JSON.stringify(raw)}`);
    }
  }
  expect(accepted).toBeGreaterThan(30);
  expect(refused).toBeGreaterThan(30);
});

test("a payload with an own __proto__ key goes to the schema (its copy would turn the key into a prototype)", () => {
  expect(validEnvelope({ ...base, payload: JSON.parse('{"__proto__":{"subplan_index":2}}') })).toBeNull();
});

/** Payloads of every tool: a valid one per research tool, then each field given valid and invalid values. */
function payloads(): [string, Record<string, unknown>][] {
  const dispatch = (type: string) => ({ topic: "rate-limits", context: "c", questions: ["q", ""], scope_hints: ["src/"], research_type: type });
  const done = { topic: "rate-limits", type: "code" };
  const fields: Record<string, unknown[]> = {
    topic: ["a", "a-1", "9", "rate-limits", "a-b-c-0", "0-9z", "Rate", "a--b", "-a", "a-", "-", "--", "", " a", "a b", "a\n", "a_b", "é", "a.b", "a/b", "a:b", "a`b", "a{b", "z-0", null, 1, ["a"]],
    context: ["", " x ", null, 1, ["c"]],
    questions: [[], ["q"], [" q "], [1], ["q", null], "q", null, {}],
    scope_hints: [null, [], ["a", "b"], "src/", [1], undefined],
    research_type: ["code", "web", "both", null],
    type: ["code", "web", "Code", null, 1],
    role_type: ["x", "", undefined, null, 1],
  };
  const out: [string, Record<string, unknown>][] = [];
  const bases: [string, Record<string, unknown>][] = [["research_dispatch_code", dispatch("code")], ["research_dispatch_web", dispatch("web")], ["submit_research_done", done]];
  for (const [tool, base] of bases) {
    out.push([tool, base], [tool, { ...base, extra: 1 }], [tool, {}]);
    for (const [field, vs] of Object.entries(fields)) {
      for (const v of vs) out.push([tool, { ...base, [field]: v }]);
      const { [field]: _gone, ...without } = base;
      out.push([tool, without]);
    }
  }
  for (const tool of TOOLS) out.push([tool, {}], [tool, { subplan_index: 1, role: "reviewer_logic", reviewers: [] }]);
  return out;
}

test("validPayload agrees with ToolPayloads: what it accepts the schema accepts with the same value", () => {
  let accepted = 0;
  let refused = 0;
  for (const [tool, raw] of payloads()) {
    const fast = validPayload(tool as (typeof TOOLS)[number], raw);
    const zod = ToolPayloadSchema[tool as (typeof TOOLS)[number]].safeParse(raw);
    if (fast !== null) {
      if (!zod.success) throw new Error(`accepts a ${tool} payload the schema refuses: ${JSON.stringify(raw)}`);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
      expect(fast).toEqual(zod.data as typeof fast);
      accepted++;
    } else {
      // only the research tools have the fast check: every valid research payload must pass it
      if (zod.success && (tool.startsWith("research_dispatch") || tool === "submit_research_done")) throw new Error(`refuses a valid ${tool} payload: ${JSON.stringify(raw)}`);
      refused++;
    }
  }
  expect(accepted).toBeGreaterThan(30);
  expect(refused).toBeGreaterThan(30);
});
