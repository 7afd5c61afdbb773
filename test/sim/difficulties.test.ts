import { afterEach, expect, test } from "bun:test";
import { F } from "../../src/protocol/paths.ts";
import { SimWorld } from "./harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { questionAtEnd } from "../../src/daemon/screen-facts.ts";

let w: SimWorld;
afterEach(() => w?.cleanup());

const inputLine = (screen: string) => screen.split("\n").findLast((l) => l.startsWith("›")) ?? "";

test("trust_dialog: the first screen asks to trust the folder until Enter; pasted text there is ignored", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "trust_dialog" });
  const screen = await w.waitScreen(pane, "Press Enter to trust");
  expect(screen).toContain("Trust this folder? (sim)");
  expect(screen).not.toContain("[sim] ready");
  await w.paste(pane, "lost text");
  await w.enter(pane);
  const ready = await w.waitScreen(pane, "[sim] ready");
  expect(ready).not.toContain("Trust this folder?");
  expect(inputLine(ready)).toBe("› ");
  await w.deliver(pane, w.prompt(F.architectPrompt));
  await w.waitTool("submit_architecture");
}, 30000);

test("slow_start=<ms>: nothing is drawn and input is ignored for that long", async () => {
  w = await SimWorld.create();
  const started = Date.now();
  const pane = await w.launch("architect", { scenario: "slow_start=1500" });
  // the agent is running (its MCP connection is made) but its screen is still blank
  await waitFor("the endpoint to see the agent's initialize and tools/list", () => w.tokens.ready("architect"), { timeoutMs: 10000 });
  expect((await w.screen(pane)).trim()).toBe("");
  await w.paste(pane, "typed too early");
  await w.enter(pane);
  const ready = await w.waitScreen(pane, "[sim] ready");
  expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  expect(inputLine(ready)).toBe("› ");
  expect(ready).not.toContain("typed too early");
}, 30000);

test("ignore_first_enter: the first Enter after a paste is dropped; the next one submits", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "ignore_first_enter" });
  await w.waitScreen(pane, "[sim] ready");
  const line = w.prompt(F.architectPrompt);
  await w.pasteShown(pane, line);
  await w.enter(pane);
  // a key typed after the Enter lands behind the text: proof the Enter was read and dropped
  await w.keys(pane, "-l", "Z");
  await w.waitScreen(pane, `› ${line}Z`);
  expect(w.toolEvents()).toEqual([]);
  await w.keys(pane, "BSpace");
  await w.waitScreen(pane, new RegExp(`› ${line.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\n`));
  await w.enter(pane);
  await w.waitTool("submit_architecture");
  // only the first Enter is dropped
  await w.waitScreen(pane, /architect done[\s\S]*\[sim\] ready/);
  await w.deliver(pane, "hello again");
  await w.waitScreen(pane, "● noted: hello again");
}, 30000);

test("early_enter_ms=<n>: an Enter right after a paste inserts a newline; a later Enter submits", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "early_enter_ms=300" });
  await w.waitScreen(pane, "[sim] ready");
  const line = w.prompt(F.architectPrompt);
  await w.pasteOne(pane, line);
  await w.waitScreen(pane, `› ${line}⏎`);
  expect(w.toolEvents()).toEqual([]);
  // retry Enter (as the delivery recipe does) until the text leaves the input box
  await waitFor(
    "submitted",
    async () => {
      if (w.toolEvents().length) return true;
      if (inputLine(await w.screen(pane)) !== "› ") await w.enter(pane);
      return false;
    },
    { intervalMs: 150 },
  );
  await w.waitTool("submit_architecture");
}, 30000);

test("without difficulties, paste + Enter in one tmux call submits at once", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect");
  await w.waitScreen(pane, "[sim] ready");
  await w.pasteOne(pane, w.prompt(F.architectPrompt));
  await w.waitTool("submit_architecture");
}, 30000);

test("ask=<role>: the agent is busy for a while before its question, as a real CLI writing one is (the busy sign tells delivery the prompt was taken)", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("planner", { scenario: "ask=planner" });
  await w.waitScreen(pane, "[sim] ready");
  const line = w.prompt(F.plannerPrompt);
  await w.pasteShown(pane, line);
  const entered = Date.now();
  await w.enter(pane);
  const busy = await w.waitScreen(pane, "[sim] working");
  expect(busy).not.toContain("Should the greeting");
  await w.waitScreen(pane, /Should the greeting[\s\S]*\[sim\] ready/);
  expect(Date.now() - entered).toBeGreaterThanOrEqual(600);
}, 30000);

test("ask=<role> in a pane narrower than the question: the question wraps, so the turn still ends with it (it was cut off and taken for a turn without its submit call)", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "ask=architect", width: 49 });
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, w.prompt(F.architectPrompt));
  const screen = await w.waitScreen(pane, /one decision from you[\s\S]*\[sim\] ready/);
  expect(questionAtEnd(screen, /\[sim\] ready/)).toBe("Should the greeting also support other languages, or English only?");
}, 30000);

test("forget_submit=<role>: a turn that calls no tool stays busy long enough to be seen taking its prompt", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "forget_submit=architect" });
  await w.waitScreen(pane, "[sim] ready");
  const entered = Date.now();
  await w.deliver(pane, w.prompt(F.architectPrompt));
  await w.waitScreen(pane, /ending the turn without calling submit_architecture[\s\S]*\[sim\] working/);
  await w.waitScreen(pane, /ending the turn without calling submit_architecture[\s\S]*\[sim\] ready/);
  expect(Date.now() - entered).toBeGreaterThanOrEqual(600);
  expect(w.toolEvents()).toEqual([]);
}, 30000);

test("a note to an idle agent (no prompt, no answer) is a short turn: busy, then noted", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", {});
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, "the plan changed, read it again");
  const busy = await w.waitScreen(pane, "[sim] working");
  expect(busy).not.toContain("● noted");
  await w.waitScreen(pane, /● noted: the plan changed, read it again[\s\S]*\[sim\] ready/);
}, 30000);

// its screen says "send a message after the reset to continue", as claude's does; a message from
// the user ("continue please", typed in its pane) only got "● noted", and the agent was reminded
// until it was marked stuck (demo --scenario rate_limit=architect,limit_reset_s=600 at 80x24)
test("rate_limit: after the limit screen, any message continues the task, like a CLI continuing its conversation", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect", { scenario: "rate_limit=architect,limit_reset_s=600" });
  await w.waitScreen(pane, "[sim] ready");
  await w.deliver(pane, w.prompt(F.architectPrompt));
  await w.waitScreen(pane, "send a message after the reset to continue");
  await w.deliver(pane, "continue please");
  await w.waitTool("submit_architecture");
}, 30000);
