import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { F } from "../../src/protocol/paths.ts";
import { BINARY } from "../helpers/tmp.ts";
import { SimWorld } from "./harness.ts";

let w: SimWorld;
afterEach(() => w?.cleanup());

// The compiled binary is what `agentmux demo` and CI run; build it first with `bun build.ts`.
for (const stdio of [false, true]) {
  test.skipIf(!existsSync(BINARY))(
    `compiled binary: sim-agent (${stdio ? "through the mcp-server stdio bridge" : "over HTTP"}) runs a task with node_modules out of reach`,
    async () => {
      w = await SimWorld.create();
      w.setState("planning");
      const pane = await w.launch("planner", { binary: BINARY, scenario: "parallel", stdio });
      await w.waitScreen(pane, "[sim] ready");
      await w.deliver(pane, w.prompt(F.plannerPrompt));
      const [ev] = await w.waitTool("submit_plan");
      expect(Object.keys(ev!.payload)).toEqual(["snapshot"]);
      expect(w.read(F.planYaml)).toContain("mode: parallel");
      expect(w.tokens.link("planner")?.bridgePid !== undefined).toBe(stdio);
    },
    30000,
  );
}
