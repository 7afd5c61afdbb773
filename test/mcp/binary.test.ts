import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mcpReadyFile } from "../../src/session/paths.ts";
import { BINARY } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { connect, makeFixture, readEvents, textOf, type Connected, type Fixture } from "./harness.ts";

let fx: Fixture;
let c: Connected | undefined;
beforeEach(async () => {
  fx = await makeFixture();
});
afterEach(async () => {
  await c?.close();
  c = undefined;
  fx.cleanup();
});

test.skipIf(!existsSync(BINARY))("the compiled binary serves the same tools, marker and events", async () => {
  c = await connect(fx, { AGENTMUX_ROLE: "architect", AGENTMUX_AGENT: "architect" }, { binary: BINARY });
  const { tools } = await c.client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["research_dispatch_code", "research_dispatch_web", "submit_architecture"]);
  const marker = join(fx.sessionDir, mcpReadyFile("architect"));
  await waitFor("readiness marker", () => existsSync(marker));
  expect(JSON.parse(readFileSync(marker, "utf8")).tools).toHaveLength(3);
  const r = await c.client.callTool({ name: "research_dispatch_code", arguments: { topic: "bin", context: "ctx `$HOME` ✓", questions: ["q"] } });
  expect(textOf(r)).toContain('code research on "bin" dispatched');
  expect(readEvents(fx.sessionDir).map((e) => e.payload.context)).toEqual(["ctx `$HOME` ✓"]);
  fx.setState("planning");
  const refused = await c.client.callTool({ name: "submit_architecture", arguments: {} });
  expect(refused.isError).toBe(true);
  expect(readEvents(fx.sessionDir)).toHaveLength(1);
});

test.skipIf(!existsSync(BINARY))("the compiled mcp-server runs on JSC's interpreter (#15.2): restarted in place with BUN_JSC_useJIT=0, it answers on the same stdio", async () => {
  c = await connect(fx, { AGENTMUX_ROLE: "architect", AGENTMUX_AGENT: "architect" }, { binary: BINARY });
  const { tools } = await c.client.listTools();
  expect(tools.length).toBe(3);
  const pid = c.pid()!;
  expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(1, 2)).toEqual(["mcp-server"]);
  expect(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")).toContain("BUN_JSC_useJIT=0");
});
