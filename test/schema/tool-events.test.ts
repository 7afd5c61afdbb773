import { afterAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { toolLineToEvent } from "../../src/bus/tool-events.ts";
import { ResearchRequest } from "../../src/schema/artifacts/research.ts";
import { Event } from "../../src/schema/events.ts";
import { State } from "../../src/schema/state.ts";
import { ToolInputs, ToolPayloads, type ToolEventLine } from "../../src/schema/tool-events.ts";
import { freshState } from "../orchestrator/fixtures.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const dir = makeTmpDir("amx-tool-events-");
mkdirSync(join(dir, "s"));
afterAll(() => removeDir(dir));

const line = (tool: ToolEventLine["tool"], payload: Record<string, unknown>): ToolEventLine => ({ tool, timestamp: "2026-01-01T00:00:00.000Z", payload });

test("a research dispatch: the tool input normalizes to the payload, and the event carries exactly that request", async () => {
  const input = ToolInputs.research_dispatch_web.parse({ topic: "rate-limits", context: "  why  ", questions: [" which? "], scope_hints: " docs/ " });
  expect(input).toEqual({ topic: "rate-limits", context: "why", questions: ["which?"], scope_hints: ["docs/"] });
  const payload = ToolPayloads.research_dispatch_web.parse({ ...input, research_type: "web" });
  const event = await toolLineToEvent(line("research_dispatch_web", payload), join(dir, "s"));
  expect(Event.parse(event)).toEqual({ type: "research_dispatched", at: "2026-01-01T00:00:00.000Z", research_type: "web", ...input });
  // one schema: the event's request fields are ResearchRequest's
  const { type: _t, at: _a, research_type: _r, ...request } = event as Extract<Event, { type: "research_dispatched" }>;
  expect(Object.keys(request).sort()).toEqual(Object.keys(ResearchRequest.shape).sort());
});

test("a payload that does not fit its tool becomes tool_rejected naming the field", async () => {
  const ev = await toolLineToEvent(line("submit_review", { verdict: "pass" }), join(dir, "s"));
  expect(ev).toMatchObject({ type: "tool_rejected", tool: "submit_review" });
  expect(ev.type === "tool_rejected" && ev.reason).toContain("payload.role");
  const web = await toolLineToEvent(line("research_dispatch_web", { topic: "x", context: "c", questions: ["q"], scope_hints: null, research_type: "code" }), join(dir, "s"));
  expect(web.type === "tool_rejected" && web.reason).toContain("payload.research_type");
});

test("state.outbox holds effects: an entry that is not an Effect makes state.json invalid", () => {
  const good = { ...freshState(), outbox: [{ type: "log", message: "hi" }] };
  expect(State.safeParse(good).success).toBe(true);
  const bad = State.safeParse({ ...freshState(), outbox: [{ type: "launch_missiles" }] });
  expect(bad.success).toBe(false);
  expect(bad.error?.issues[0]?.path).toEqual(["outbox", 0, "type"]);
});
