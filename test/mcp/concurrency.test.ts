import { afterEach, beforeEach, expect, test } from "bun:test";
import { ToolEventLine } from "../../src/schema/tool-events.ts";
import { connect, makeFixture, readEvents, startEndpoint, type Connected, type Endpoint, type Fixture } from "./harness.ts";

let fx: Fixture;
let ep: Endpoint;
let open: Connected[] = [];
beforeEach(async () => {
  fx = await makeFixture();
  ep = startEndpoint(fx);
});
afterEach(async () => {
  await Promise.all(open.map((c) => c.close()));
  open = [];
  ep.stop();
  fx.cleanup();
});

test("5 agents calling the endpoint concurrently append whole, parseable lines in seq order — none lost, none interleaved", async () => {
  fx.setState("planning");
  open = await Promise.all([1, 2, 3, 4, 5].map((n) => connect(ep, "planner", { agent: `planner-${n}`, fx })));
  const perClient = 20;
  // a long context makes each line several KB, so torn writes would show
  const context = "x".repeat(6000);
  await Promise.all(
    open.map((c, ci) =>
      Promise.all(
        Array.from({ length: perClient }, (_, k) =>
          c.client.callTool({ name: "research_dispatch_code", arguments: { topic: `t-${ci}-${k}`, context, questions: ["q"] } }).then((r) => {
            if (r.isError) throw new Error(JSON.stringify(r.content));
          }),
        ),
      ),
    ),
  );
  const events = readEvents(fx.sessionDir);
  expect(events).toHaveLength(5 * perClient);
  for (const e of events) expect(ToolEventLine.safeParse(e).success).toBe(true);
  const topics = new Set(events.map((e) => e.payload.topic));
  expect(topics.size).toBe(5 * perClient);
  for (let ci = 0; ci < 5; ci++) for (let k = 0; k < perClient; k++) expect(topics.has(`t-${ci}-${k}`)).toBe(true);
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 5 * perClient }, (_, i) => i + 1));
}, 30000);
