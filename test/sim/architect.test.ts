import { afterEach, expect, test } from "bun:test";
import { SimWorld } from "./harness.ts";
import { F } from "../../src/protocol/paths.ts";

let w: SimWorld;
afterEach(() => w?.cleanup());

test("architect writes architecture.md and calls submit_architecture through the real MCP server", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect");
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, w.prompt(F.architectPrompt));
  const [ev] = await w.waitTool("submit_architecture");
  expect(ev!.payload).toEqual({ reviewers: ["reviewer_logic"] });
  const arch = w.read(F.architecture);
  expect(arch).toContain("## Solution overview");
  expect(arch).toContain("src/greeting.js");
  await w.waitScreen(pane, "✓ architect done");
  await w.waitScreen(pane, "[sim] ready");
}, 30000);
