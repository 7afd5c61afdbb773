import { afterEach, expect, test } from "bun:test";
import { F } from "../../src/protocol/paths.ts";
import { SimWorld } from "./harness.ts";
import { PLAN_ONE } from "./plans.ts";
import { waitFor } from "../helpers/wait.ts";

let w: SimWorld;
afterEach(() => w?.cleanup());

/** The input box line of a captured screen. */
const inputLine = (screen: string) => screen.split("\n").findLast((l) => l.startsWith("›")) ?? "";

test("screen contract: header, input box, status line, OSC 0 title idle/working; Ctrl-C exits 130", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  w.setState("implementing");
  const pane = await w.launch("coder", { scenario: "stall=coder" });
  const screen = await w.waitScreen(pane, "[sim] ready");
  const lines = screen.split("\n");
  expect(lines[0]).toBe("sim agent · coder");
  expect(lines.findLast((l) => l.trim())).toBe("[sim] ready");
  expect(inputLine(screen)).toBe("› ");
  expect(await w.title(pane)).toBe("sim: idle");
  // stall: accepts the prompt, then works forever without touching anything
  await w.deliver(pane, w.prompt("06_implementation/coder_prompt_1.md"));
  await w.waitScreen(pane, "[sim] working");
  await waitFor("title sim: working", async () => (await w.title(pane)) === "sim: working");
  expect(inputLine(await w.screen(pane))).toBe("› ");
  expect(w.has("06_implementation/done_1.json")).toBe(false);
  await w.keys(pane, "C-c");
  expect(await waitFor("pane exit", () => w.exitStatus(pane))).toBe(130);
}, 30000);

test("a multi-line paste lands on the input line with spaces; typing and Backspace edit it", async () => {
  w = await SimWorld.create();
  const pane = await w.launch("architect");
  await w.waitScreen(pane, "[sim] ready");
  await w.paste(pane, "first line\nsecond line\r\nthird");
  await w.waitScreen(pane, "› first line second line  third");
  await w.keys(pane, "-l", "XY");
  await w.waitScreen(pane, "› first line second line  thirdXY");
  await w.keys(pane, "BSpace", "BSpace", "BSpace");
  await waitFor("backspaces applied", async () => inputLine(await w.screen(pane)) === "› first line second line  thir");
  // a line that names no prompt is a notice: echoed, nothing done
  await w.enter(pane);
  await w.waitScreen(pane, "● noted: first line second line thir");
  expect(inputLine(await w.screen(pane))).toBe("› ");
}, 30000);

test("input submitted while busy is queued and handled after the current task", async () => {
  w = await SimWorld.create();
  w.setState("product_management", { product_manager: true });
  const pm = await w.launch("product-manager", { thinkMs: 400 });
  await w.waitScreen(pm, "[sim] ready");
  await w.deliver(pm, w.prompt(F.pmPrompt));
  await w.waitScreen(pm, "[sim] working");
  await w.deliver(pm, w.prompt(F.pmPrompt));
  await w.waitScreen(pm, "● queued until the current task is done");
  await w.waitTool("submit_pm_done", 2);
  const screen = await w.waitScreen(pm, /product manager done[\s\S]*product manager done[\s\S]*\[sim\] ready/);
  expect(screen.indexOf("● queued")).toBeLessThan(screen.indexOf("✓ product manager done"));
}, 30000);

test("crash=<role>: the agent exits with code 3 right after accepting its prompt; other roles are unaffected", async () => {
  w = await SimWorld.create();
  w.write(F.planYaml, PLAN_ONE);
  w.setState("implementing");
  const coder = await w.launch("coder", { scenario: "crash=coder" });
  await w.waitScreen(coder, "[sim] ready");
  await w.deliver(coder, w.prompt("06_implementation/coder_prompt_1.md"));
  expect(await waitFor("coder pane exit", () => w.exitStatus(coder))).toBe(3);
  expect(w.toolEvents()).toEqual([]);
  expect(w.has("06_implementation/done_1.json")).toBe(false);
  w.setState("architecting");
  const architect = await w.launch("architect", { scenario: "crash=coder" });
  await w.waitScreen(architect, "[sim] ready");
  await w.deliver(architect, w.prompt(F.architectPrompt));
  await w.waitTool("submit_architecture");
  expect(await w.exitStatus(architect)).toBeNull();
}, 30000);

test("crash_once=<role>: crashes the first time only (state kept in .runtime/sim)", async () => {
  w = await SimWorld.create();
  const first = await w.launch("architect", { scenario: "crash_once=architect" });
  await w.waitScreen(first, "[sim] ready");
  await w.deliver(first, w.prompt(F.architectPrompt));
  expect(await waitFor("pane exit", () => w.exitStatus(first))).toBe(3);
  const second = await w.launch("architect", { scenario: "crash_once=architect" });
  await w.waitScreen(second, "[sim] ready");
  await w.deliver(second, w.prompt(F.architectPrompt));
  await w.waitTool("submit_architecture");
}, 30000);
