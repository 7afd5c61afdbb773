import { afterEach, describe, expect, test } from "bun:test";
import { DuplicatePane, StartDirMissing } from "../../src/effects/tmux/errors.ts";
import { MIN_PANE_ROWS } from "../../src/effects/tmux/layout.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { killTmuxServer } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { ARGV_DUMP, BUN, HOSTILE, startFixture, type TmuxFixture } from "./setup.ts";

const RESIZE_RECORDER = join(import.meta.dir, "fixtures", "resize-recorder.ts");

let fixtures: TmuxFixture[] = [];
afterEach(() => {
  for (const f of fixtures) killTmuxServer(f.socket);
  fixtures = [];
});

async function fixture(size: { width: number; height: number } = { width: 200, height: 50 }): Promise<TmuxFixture> {
  const f = await startFixture({ controlWidth: 40, ...size });
  fixtures.push(f);
  return f;
}

/**
 * The control pane's width at every layout change from now on, as tmux runs a hook right after
 * the command that changed the layout (so a width that lasts only between two commands shows).
 */
async function recordControlWidths(f: TmuxFixture): Promise<() => number[]> {
  const log = join(f.dir, "control-widths");
  await f.tmux.run(["set-hook", "-t", f.session, "window-layout-changed", `run-shell "echo '#{pane_id} #{pane_width}' >> ${log}"`]);
  return () =>
    (existsSync(log) ? readFileSync(log, "utf8") : "")
      .split("\n")
      .filter((l) => l.startsWith(`${f.controlPane} `))
      .map((l) => Number(l.split(" ")[1]));
}

type Row = { pane: string; left: number; top: number; width: number; height: number; label: string };

async function pipelineRows(f: TmuxFixture): Promise<Row[]> {
  const out = await f.tmux.run(["list-panes", "-t", f.window, "-F", "#{pane_id}\t#{pane_left}\t#{pane_top}\t#{pane_width}\t#{pane_height}\t#{@label}"]);
  return out.split("\n").map((l) => {
    const [pane, left, top, width, height, label] = l.split("\t");
    return { pane: pane!, left: +left!, top: +top!, width: +width!, height: +height!, label: label ?? "" };
  });
}

const idle = (f: TmuxFixture, label: string) => f.layout.createPane({ command: ["sh", "-c", "exec tail -f /dev/null"], env: {}, cwd: f.dir, label });

describe("Layout", () => {
  test("a fresh layout shows the placeholder right of the control pane", async () => {
    const f = await fixture();
    const rows = await pipelineRows(f);
    expect(rows.length).toBe(2);
    expect(rows[0]!.pane).toBe(f.controlPane);
    expect(rows[0]!.width).toBe(40);
    const text = await waitFor("placeholder text", async () => {
      const s = await f.layout.capture(rows[1]!.pane);
      return s.includes("no agent shown here") ? s : null;
    });
    // it shows while the run waits for agents, for the user's approval or for a usage limit:
    // it claims none of them, the monitor beside it says which
    expect(text.replace(/\s+/g, " ")).toContain("no agent shown here · the monitor says what the run waits for");
    expect(text).not.toContain("waiting for agents");
    expect(f.layout.visiblePanes()).toEqual([]);
  });

  test("createPane starts parked with hostile argv/env intact, its cwd verified and a pid", async () => {
    const f = await fixture();
    const out = join(f.dir, "dump.json");
    const env = { AMX_HOSTILE: "v'al\"ue $(x) ;" };
    const { pane, pid } = await f.layout.createPane({ command: [BUN, ARGV_DUMP, out, ...HOSTILE], env, cwd: f.dir, label: "[coder] plan one" });
    expect(pane).toMatch(/^%\d+$/);
    expect(pid).toBeGreaterThan(0);
    const dump = JSON.parse(String(await waitFor("dump", () => existsSync(out) && readFileSync(out, "utf8"))));
    expect(dump).toEqual({ args: HOSTILE, env: env.AMX_HOSTILE, cwd: f.dir });
    expect((await pipelineRows(f)).map((r) => r.pane)).not.toContain(pane);
    const where = await f.tmux.run(["display-message", "-p", "-t", pane, "#{window_name} #{window_width}x#{window_height}"]);
    expect(where).toBe("_hidden 200x50");
    await expect(f.layout.createPane({ command: ["true"], env: {}, cwd: join(f.dir, "nope"), label: "x" })).rejects.toBeInstanceOf(StartDirMissing);
  });

  test("a pane parked at soloSize keeps its size when shown alone: its program gets no resize to redraw for", async () => {
    const f = await fixture();
    const size = await f.layout.soloSize();
    const { pane } = await f.layout.createPane({ command: ["sh", "-c", "exec tail -f /dev/null"], env: {}, cwd: f.dir, label: "[pre-started] planner", size });
    const dims = () => f.tmux.run(["display-message", "-p", "-t", pane, "#{pane_width}x#{pane_height}"]);
    const parked = await dims();
    expect(parked.startsWith(`${size.width}x`)).toBe(true);
    await f.layout.show([pane]);
    expect((await pipelineRows(f)).map((r) => r.pane)).toEqual([f.controlPane, pane]);
    expect(await dims()).toBe(parked);
  });

  test("a pane parked at soloSize that takes the place of the one leaving (a handoff, with a kill or without) gets no resize: a settled CLI has nothing to redraw", async () => {
    const f = await fixture();
    const size = await f.layout.soloSize();
    const idleAt = (label: string) => f.layout.createPane({ command: ["sh", "-c", "exec tail -f /dev/null"], env: {}, cwd: f.dir, label, size });
    const recorder = async (label: string) => {
      const file = join(f.dir, `${label}.sizes`);
      const { pane } = await f.layout.createPane({ command: [BUN, RESIZE_RECORDER, file], env: {}, cwd: f.dir, label, size });
      const sizes = () => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : []);
      // a known resize once it listens (the pin right after its start may come before that), then back
      await waitFor(`${label} started`, () => sizes().length > 0);
      const win = await f.tmux.run(["display-message", "-p", "-t", pane, "#{window_id}"]);
      await f.tmux.run(["resize-window", "-t", win, "-x", String(size.width + 1), "-y", String(size.height)]);
      await waitFor(`${label} resized`, () => sizes().at(-1) === `${size.width + 1}x${size.height - 1}`);
      await f.tmux.run(["resize-window", "-t", win, "-x", String(size.width), "-y", String(size.height)]);
      await waitFor(`${label} back at its size`, () => sizes().at(-1) === `${size.width}x${size.height - 1}`);
      const from = sizes().length;
      return { pane, since: () => sizes().slice(from) };
    };
    const a = (await idleAt("a")).pane;
    await f.layout.show([a]);
    const b = await recorder("b");
    const c = await recorder("c");
    await f.layout.show([b.pane]);
    await f.layout.batch(async () => {
      await f.layout.kill(b.pane);
      await f.layout.show([c.pane]);
    });
    expect((await pipelineRows(f)).map((r) => r.pane)).toEqual([f.controlPane, c.pane]);
    // a resize tmux would send reaches the program at once: a marker pane resized now shows it has arrived
    const marker = await recorder("marker");
    await f.tmux.run(["resize-window", "-t", await f.tmux.run(["display-message", "-p", "-t", marker.pane, "#{window_id}"]), "-x", "100", "-y", "30"]);
    await waitFor("the marker's resize", () => marker.since().length > 0);
    expect(b.since()).toEqual([]);
    expect(c.since()).toEqual([]);
  });

  test("show: exact panes, in order, stacked evenly, labels in borders, control width kept", async () => {
    const f = await fixture();
    const a = (await idle(f, "[coder] plan A")).pane;
    const b = (await idle(f, "[coder] plan B")).pane;
    const c = (await idle(f, "[reviewer] logic")).pane;
    await f.layout.show([a, b, c]);
    let rows = await pipelineRows(f);
    expect(rows.map((r) => r.pane)).toEqual([f.controlPane, a, b, c]);
    expect(rows[0]!.width).toBe(40);
    const right = rows.slice(1);
    for (const r of right) expect(r.left).toBe(41);
    expect(right.map((r) => r.top)).toEqual([...right.map((r) => r.top)].sort((x, y) => x - y));
    const heights = right.map((r) => r.height);
    // the column's 50 rows hold three panes and their top borders; tmux gives the rest to the last
    expect(heights.reduce((x, y) => x + y, 0) + heights.length).toBe(50);
    expect(Math.max(...heights) - Math.min(...heights)).toBeLessThanOrEqual(2);
    expect(right.map((r) => r.label)).toEqual(["[coder] plan A", "[coder] plan B", "[reviewer] logic"]);
    expect(await f.tmux.run(["show-options", "-g", "-w", "-v", "pane-border-format"])).toContain("#{@label}");

    // reorder and drop one: c parked, order follows the list
    await f.layout.show([b, a]);
    rows = await pipelineRows(f);
    expect(rows.map((r) => r.pane)).toEqual([f.controlPane, b, a]);
    expect(rows[0]!.width).toBe(40);
    expect(await f.layout.isAlive(c)).toBe(true);
    expect(await f.tmux.run(["display-message", "-p", "-t", c, "#{window_name}"])).toBe("_hidden");

    // relabel shows in the border option and the pane title
    await f.layout.setLabel(a, "[coder] fix 2");
    expect((await pipelineRows(f)).find((r) => r.pane === a)!.label).toBe("[coder] fix 2");
    expect(await f.layout.title(a)).toBe("[coder] fix 2");

    // empty list → placeholder back
    await f.layout.show([]);
    rows = await pipelineRows(f);
    expect(rows.length).toBe(2);
    expect(await f.layout.capture(rows[1]!.pane)).toContain("no agent shown here");
    await expect(f.layout.show([a, a])).rejects.toBeInstanceOf(DuplicatePane);
  });

  test("a label with escape sequences and controls loses them whole (the one sanitizer), in the border and the title", async () => {
    const f = await fixture();
    const a = (await idle(f, "a")).pane;
    await f.layout.show([a]);
    await f.layout.setLabel(a, "[coder] \x1b]0;pwned\x07fix\x1b[2J \x1b]52;c;ZXZpbA==\x07it\u202e\tnow\rok");
    expect((await pipelineRows(f)).find((r) => r.pane === a)!.label).toBe("[coder] fix it now ok");
    expect(await f.layout.title(a)).toBe("[coder] fix it now ok");
  });

  test("relabelIfAlive labels a pane taken over and says whether its program runs: true for a live one, false once it exited or the pane is gone", async () => {
    const f = await fixture();
    const live = (await idle(f, "[pre-started] coder")).pane;
    expect(await f.layout.relabelIfAlive(live, "[coder] plan A;")).toBe(true);
    expect(await f.tmux.run(["display-message", "-p", "-t", live, "#{@label}"])).toBe("[coder] plan A;");
    expect(await f.layout.title(live)).toBe("[coder] plan A;");
    const exited = (await f.layout.createPane({ command: ["true"], env: {}, cwd: f.dir, label: "[pre-started] planner" })).pane;
    await waitFor("the program's exit", async () => !(await f.layout.isAlive(exited)));
    expect(await f.layout.relabelIfAlive(exited, "[planner] planning")).toBe(false);
    await f.layout.kill(live);
    expect(await f.layout.relabelIfAlive(live, "[coder] plan A")).toBe(false);
  });

  test("kill removes a visible pane, rebalances, and marks the exit expected", async () => {
    const f = await fixture();
    const a = (await idle(f, "a")).pane;
    const b = (await idle(f, "b")).pane;
    await f.layout.show([a, b]);
    await f.layout.kill(a);
    expect(f.layout.isExpectedExit(a)).toBe(true);
    expect(f.layout.isExpectedExit(b)).toBe(false);
    expect(await f.layout.isAlive(a)).toBe(false);
    const rows = await pipelineRows(f);
    expect(rows.map((r) => r.pane)).toEqual([f.controlPane, b]);
    expect(rows[1]!.height).toBe(49); // the whole column minus its top border
    expect(rows[0]!.width).toBe(40);
  });

  test("batch: a visible pane killed and the next one shown in one step take one layout (only the next one is brought in); a step that only kills shows the placeholder at its end", async () => {
    const f = await fixture();
    const a = (await idle(f, "a")).pane;
    const b = (await idle(f, "b")).pane;
    await f.layout.show([a]);
    const joined: string[] = [];
    const run = f.tmux.run.bind(f.tmux);
    f.tmux.run = (args: string[], stdin?: string) => {
      args.forEach((x, i) => (x === "join-pane" || x === "swap-pane") && joined.push(args[args.indexOf("-s", i) + 1]!));
      return run(args, stdin);
    };
    await f.layout.batch(async () => {
      await f.layout.kill(a);
      await f.layout.show([b]);
    });
    expect(joined).toEqual([b]);
    expect((await pipelineRows(f)).map((r) => r.pane)).toEqual([f.controlPane, b]);
    expect(f.layout.isExpectedExit(a)).toBe(true);
    expect(await f.layout.isAlive(a)).toBe(false);

    await f.layout.batch(() => f.layout.kill(b));
    const rows = await pipelineRows(f);
    expect(rows.length).toBe(2);
    expect(rows[1]!.pane).not.toBe(b);
    expect(await f.layout.capture(rows[1]!.pane)).toContain("no agent shown here");
    expect(f.layout.visiblePanes()).toEqual([]);
    expect(rows[0]!.width).toBe(40);
  });

  test("the control pane keeps its width through every change: a handoff (the last shown pane killed, the next shown), a new order, nothing shown (the monitor is never reflowed and redrawn twice)", async () => {
    const f = await fixture();
    const [a, b, c] = [(await idle(f, "a")).pane, (await idle(f, "b")).pane, (await idle(f, "c")).pane];
    await f.layout.show([a]);
    const widths = await recordControlWidths(f);
    await f.layout.batch(async () => {
      await f.layout.kill(a);
      await f.layout.show([b]);
    });
    await f.layout.show([c, b]);
    await f.layout.show([b, c]);
    await f.layout.show([c]);
    await f.layout.batch(() => f.layout.kill(c));
    await f.layout.show([b]);
    await f.layout.kill(b);
    expect(widths().length).toBeGreaterThan(0);
    expect([...new Set(widths())]).toEqual([40]);
    const rows = await pipelineRows(f);
    expect(rows.length).toBe(2);
    expect(await f.layout.capture(rows[1]!.pane)).toContain("no agent shown here");
  });

  test("more panes than fit one above the other: the first ones that fit are shown, in order, the others stay parked (six coders in a 24-row window do not fail the layout)", async () => {
    const f = await fixture({ width: 80, height: 24 });
    const panes: string[] = [];
    for (let i = 1; i <= 6; i++) panes.push((await idle(f, `[coder] plan ${i}`)).pane);
    const shown = await f.layout.show(panes);
    expect(shown).toEqual(panes.slice(0, 2));
    const rows = await pipelineRows(f);
    expect(rows.map((r) => r.pane)).toEqual([f.controlPane, ...panes.slice(0, 2)]);
    expect(Math.min(...rows.slice(1).map((r) => r.height))).toBeGreaterThanOrEqual(MIN_PANE_ROWS - 1);
    for (const p of panes.slice(2)) expect(await f.tmux.run(["display-message", "-p", "-t", p, "#{window_name}"])).toBe("_hidden");
    expect(f.layout.visiblePanes()).toEqual(panes.slice(0, 2));
    // a taller window shows more: nine in 100 rows, each still MIN_PANE_ROWS high
    const tall = await fixture({ width: 80, height: 100 });
    const more: string[] = [];
    for (let i = 1; i <= 9; i++) more.push((await idle(tall, `[coder] plan ${i}`)).pane);
    expect(await tall.layout.show(more)).toEqual(more);
    expect(Math.min(...(await pipelineRows(tall)).slice(1).map((r) => r.height))).toBeGreaterThanOrEqual(MIN_PANE_ROWS - 1);
  });

  test("the pane with the keyboard leaving (replaced at a handoff, killed last, parked) hands it to the control pane, never to the pane coming or the placeholder", async () => {
    const f = await fixture();
    const [a, b, c] = [(await idle(f, "a")).pane, (await idle(f, "b")).pane, (await idle(f, "c")).pane];
    const active = async () =>
      (await f.tmux.run(["list-panes", "-t", f.window, "-F", "#{pane_active} #{pane_id}"]))
        .split("\n")
        .find((l) => l.startsWith("1 "))!
        .slice(2);
    await f.layout.show([a]);
    await f.tmux.run(["select-pane", "-t", a]); // the user clicked into the agent's pane
    await f.layout.show([b]);
    expect(await active()).toBe(f.controlPane);
    await f.tmux.run(["select-pane", "-t", b]);
    await f.layout.kill(b); // the completion panel closing: a in the monitor must reach the monitor
    expect(await active()).toBe(f.controlPane);
    await f.layout.show([a, c]);
    await f.tmux.run(["select-pane", "-t", c]);
    await f.layout.show([a]);
    expect(await active()).toBe(f.controlPane);
  });

  test("reopening a Layout on an existing session keeps what is shown and reuses the placeholder", async () => {
    const f = await fixture();
    const a = (await idle(f, "a")).pane;
    await f.layout.show([a]);
    const { Layout } = await import("../../src/effects/tmux/layout.ts");
    const again = await Layout.open(f.tmux, { session: f.session, controlPane: f.controlPane, controlWidth: 40, envDir: f.envDir });
    expect(again.visiblePanes()).toEqual([a]);
    const placeholders = await f.tmux.run(["list-panes", "-s", "-t", "=amx-test", "-F", "#{@amx_role}"]);
    expect(placeholders.split("\n").filter((r) => r === "placeholder").length).toBe(1);
  });
});
