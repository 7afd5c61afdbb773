import { afterAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { toolLineToEvent } from "../../src/bus/tool-events.ts";
import { loadSealKey, sealLine } from "../../src/bus/tool-seal.ts";
import { TOOL_PHASES, type Role } from "../../src/schema/catalog.ts";
import { ResearchRequest } from "../../src/schema/artifacts/research.ts";
import { Event } from "../../src/schema/events.ts";
import { State } from "../../src/schema/state.ts";
import { ToolEventLine, ToolInputs, ToolPayloads } from "../../src/schema/tool-events.ts";
import { freshState } from "../orchestrator/fixtures.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const dir = makeTmpDir("amx-tool-events-");
mkdirSync(join(dir, "s"));
afterAll(() => removeDir(dir));

const key = loadSealKey(join(dir, "s"));
let seq = 0;
/** A line as the run's endpoint writes it (sealed), turned into an event as the orchestrator applies it. */
const apply = async (tool: ToolEventLine["tool"], payload: Record<string, unknown>, role: Role) => {
  const text = sealLine(key, JSON.stringify({ tool, timestamp: "2026-01-01T00:00:00.000Z", payload, agent: role, role, seq: ++seq }));
  const r = toolLineToEvent(ToolEventLine.parse(JSON.parse(text)), text, { sessionDir: join(dir, "s"), key, phase: TOOL_PHASES[tool][0]!, appliedSeq: 0 });
  if ("skip" in r) throw new Error("skipped");
  return r.event;
};

test("a research dispatch: the tool input normalizes to the payload, and the event carries exactly that request", async () => {
  const input = ToolInputs.research_dispatch_web.parse({ topic: "rate-limits", context: "  why  ", questions: [" which? "], scope_hints: " docs/ " });
  expect(input).toEqual({ topic: "rate-limits", context: "why", questions: ["which?"], scope_hints: ["docs/"] });
  const payload = ToolPayloads.research_dispatch_web.parse({ ...input, research_type: "web" });
  const event = await apply("research_dispatch_web", payload, "architect");
  expect(Event.parse(event)).toEqual({ type: "research_dispatched", at: "2026-01-01T00:00:00.000Z", research_type: "web", ...input });
  // one schema: the event's request fields are ResearchRequest's
  const { type: _t, at: _a, research_type: _r, ...request } = event as Extract<Event, { type: "research_dispatched" }>;
  expect(Object.keys(request).sort()).toEqual(Object.keys(ResearchRequest.shape).sort());
});

test("a payload that does not fit its tool becomes tool_rejected naming the field", async () => {
  const ev = await apply("submit_review", { verdict: "pass" }, "reviewer_logic");
  expect(ev).toMatchObject({ type: "tool_rejected", tool: "submit_review" });
  expect(ev.type === "tool_rejected" && ev.reason).toContain("payload.role");
  const web = await apply("research_dispatch_web", { topic: "x", context: "c", questions: ["q"], scope_hints: null, research_type: "code" }, "architect");
  expect(web.type === "tool_rejected" && web.reason).toContain("payload.research_type");
});

test("state.outbox holds effects: an entry that is not an Effect makes state.json invalid", () => {
  const good = { ...freshState(), outbox: [{ type: "log", message: "hi" }] };
  expect(State.safeParse(good).success).toBe(true);
  const bad = State.safeParse({ ...freshState(), outbox: [{ type: "launch_missiles" }] });
  expect(bad.success).toBe(false);
  expect(bad.error?.issues[0]?.path).toEqual(["outbox", 0, "type"]);
});
