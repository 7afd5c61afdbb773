import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { F } from "../../src/session/paths.ts";
import { BINARY } from "../helpers/tmp.ts";
import { SimWorld } from "./harness.ts";

let w: SimWorld;
afterEach(() => w?.cleanup());

// The compiled binary is what `agentmux demo` and CI run; build it first with `bun build.ts`.
test.skipIf(!existsSync(BINARY))("compiled binary: sim-agent + mcp-server run a task with node_modules out of reach", async () => {
  w = await SimWorld.create();
  w.setState("planning");
  const pane = await w.launch("planner", { binary: BINARY, scenario: "parallel" });
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, w.prompt(F.plannerPrompt));
  const [ev] = await w.waitTool("submit_plan");
  expect(ev!.payload).toEqual({});
  expect(w.read(F.planYaml)).toContain("mode: parallel");
}, 30000);
