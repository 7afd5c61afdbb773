import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PaneWriter, type DeliverOptions } from "../../src/effects/tmux/deliver.ts";
import { paneActivity } from "../../src/effects/tmux/screen.ts";
import { ReadyGate, SubmitStrategy } from "../../src/schema/config.ts";
import { loadConfig } from "../../src/config/load.ts";
import { killTmuxServer, REPO_ROOT } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { receiverCommand, startFixture, type TmuxFixture } from "./setup.ts";

let fixtures: TmuxFixture[] = [];
afterEach(() => {
  for (const f of fixtures) killTmuxServer(f.socket);
  fixtures = [];
});

const TEXT = "Read and follow the instructions in /tmp/amx session/it's $(x) #{y}/prompt_1.md";
const GATE = ReadyGate.parse({ pattern: "^›\\s*$", busy_pattern: "\\[sim\\] working", settle_ms: 200, timeout_ms: 10000 });

type Over = Omit<Partial<DeliverOptions>, "submit" | "ready"> & { submit?: Partial<SubmitStrategy>; ready?: Partial<ReadyGate> };

function options(over: Over = {}): DeliverOptions {
  return {
    first: over.first ?? true,
    trust: over.trust ?? [],
    waitFirst: over.waitFirst,
    ...(over.acted ? { acted: over.acted } : {}),
    submit: SubmitStrategy.parse({ delay_ms: 50, verify_ms: 400, retries: 2, ...over.submit }),
    ready: ReadyGate.parse({ ...GATE, ...over.ready }),
  };
}

async function receiver(flags: string[] = []) {
  const f = await startFixture();
  fixtures.push(f);
  const record = join(f.dir, "submitted.jsonl");
  const { pane } = await f.layout.createPane({ command: receiverCommand(record, flags), env: {}, cwd: f.dir, label: "[sim] receiver" });
  await f.layout.show([pane]);
  const submitted = () =>
    existsSync(record)
      ? readFileSync(record, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as string)
      : [];
  return { f, pane, submitted, writer: new PaneWriter(f.tmux) };
}

describe("PaneWriter.deliver", () => {
  test("a ready receiver gets the text byte-exact on the first Enter", async () => {
    const { pane, submitted, writer } = await receiver();
    const r = await writer.deliver(pane, TEXT, options());
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    expect(submitted()).toEqual([TEXT]);
  });

  test("an Enter inside the early-enter window becomes a newline; the retry submits exactly", async () => {
    // the window stays open until the test closes it, after the receiver saw the first Enter
    const { f, pane, submitted, writer } = await receiver(["--early-enter-until", "window-closed"]);
    const closed = join(f.dir, "window-closed");
    const delivery = writer.deliver(pane, TEXT, options({ submit: { delay_ms: 0, verify_ms: 500, retries: 10 } }));
    await waitFor("an Enter that became a newline", () => existsSync(`${closed}.enters`));
    writeFileSync(closed, "");
    const r = await delivery;
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.attempts).toBeGreaterThan(1);
    expect(submitted()).toEqual([TEXT]);
  });

  test("the trust dialog is answered, never pasted into", async () => {
    const { pane, submitted, writer } = await receiver(["--trust"]);
    const r = await writer.deliver(pane, TEXT, options({ trust: [{ detect: "Trust this folder\\? \\(sim\\)", keys: ["Enter"] }] }));
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    expect(submitted()).toEqual([TEXT]);
  });

  test("a slow start (input dropped while starting) is waited out", async () => {
    const { pane, submitted, writer } = await receiver(["--slow-start", "800"]);
    const r = await writer.deliver(pane, TEXT, options());
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    expect(submitted()).toEqual([TEXT]);
  });

  test("a CLI that answers the prompt at once with a usage limit took it: no retry Enter, not stuck", async () => {
    // a status line that always says ready and a transcript that repeats the whole prompt (a
    // wide pane): only the new limit line shows that the prompt was taken
    const { pane, submitted, writer } = await receiver(["--limit-after-submit"]);
    const limit = /usage limit reached/g;
    const count = (s: string) => s.match(limit)?.length ?? 0;
    const r = await writer.deliver(pane, TEXT, {
      ...options({ ready: { pattern: "\\[sim\\] ready", busy_pattern: null } }),
      answered: (pasted, now) => count(now) > count(pasted),
    });
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    expect(submitted()).toEqual([TEXT]);
  });

  test("an ignored first Enter is resent", async () => {
    const { pane, submitted, writer } = await receiver(["--ignore-first-enter"]);
    const r = await writer.deliver(pane, TEXT, options());
    expect(r).toMatchObject({ ok: true, attempts: 2 });
    expect(submitted()).toEqual([TEXT]);
  });

  test("a receiver that never accepts → ok:false with the screen, never a silent loss", async () => {
    const { pane, submitted, writer } = await receiver(["--ignore-enter"]);
    const r = await writer.deliver(pane, TEXT, options({ submit: { retries: 1, verify_ms: 200 } }));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toMatch(/not accepted after 2 submit attempts/);
      expect(r.screen).toContain("prompt_1.md");
    }
    expect(submitted()).toEqual([]);
  });

  test("an agent that acted on the prompt and had its pane closed between two looks: delivered, not failed", async () => {
    const { f, pane } = await receiver(["--ignore-enter"]);
    const logs: string[] = [];
    const writer = new PaneWriter(f.tmux, (m) => void logs.push(m));
    const gone = () => !Bun.spawnSync(["tmux", "-L", f.socket, "display", "-p", "-t", pane, "#{pane_id}"]).stdout.toString().includes(pane);
    let looks = 0;
    // the first look after the Enter: the agent acts and its pane is closed (as the orchestrator closes a finished agent's)
    const acted = () => {
      if (looks++ === 0) Bun.spawnSync(["tmux", "-L", f.socket, "kill-pane", "-t", pane]);
      return looks > 1 && gone();
    };
    const r = await writer.deliver(pane, TEXT, options({ submit: { retries: 1, verify_ms: 2000 }, acted }));
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    expect(logs.filter((l) => l.startsWith(`delivered to ${pane}`)).length).toBe(1);
  });

  test("never-ready panes and waitFirst time out with a reason", async () => {
    const { pane, writer } = await receiver();
    let asked = 0;
    const r = await writer.deliver(pane, TEXT, options({ ready: { timeout_ms: 1000 }, waitFirst: () => ++asked < 0 }));
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.reason).toMatch(/MCP server never became ready/);
    expect(asked).toBeGreaterThan(1);
    const gone = await writer.deliver("%999", TEXT, options());
    expect(gone.ok).toBe(false);
  });

  test("one writer per pane: 5 concurrent deliveries arrive whole and in call order", async () => {
    const { pane, submitted, writer } = await receiver(["--busy-ms", "150"]);
    const texts = [1, 2, 3, 4, 5].map((n) => `Read and follow the instructions in /tmp/s/prompt_${n}.md`);
    const results = await Promise.all(texts.map((t, i) => writer.deliver(pane, t, options({ first: i === 0 }))));
    for (const r of results) expect(r.ok).toBe(true);
    expect(submitted()).toEqual(texts);
  });

  test("a pane prepared ahead (a pre-start) has settled when its first prompt comes: the prompt does not wait settle_ms again", async () => {
    // a first delivery that counted the settle time from its own start could not take less
    const ready = { settle_ms: 5000, timeout_ms: 60_000 };
    const trust = [{ detect: "Trust this folder\\? \\(sim\\)", keys: ["Enter"] }];
    const { pane, submitted, writer } = await receiver(["--trust"]);
    expect(await writer.prepare(pane, options({ ready, trust, waitFirst: () => true }))).toBe(true);
    const r = await writer.deliver(pane, TEXT, options({ ready, trust, waitFirst: () => true }));
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    if (r.ok) expect(r.ms).toBeLessThan(ready.settle_ms);
    expect(submitted()).toEqual([TEXT]);
  }, 30_000);

  test("a delivery ends a preparation still under way and waits on its own; a prepare of a pane that never gets ready says so", async () => {
    const { pane, submitted, writer } = await receiver();
    let mcp = false;
    const prepared = writer.prepare(pane, options({ waitFirst: () => mcp }));
    const delivery = writer.deliver(pane, TEXT, options({ waitFirst: () => mcp }));
    expect(await prepared).toBe(false);
    mcp = true;
    expect(await delivery).toMatchObject({ ok: true, attempts: 1 });
    expect(submitted()).toEqual([TEXT]);
    expect(await writer.prepare("%999", options())).toBe(false);
    expect(await writer.prepare(pane, options({ ready: { pattern: "never shown", timeout_ms: 1000 } }))).toBe(false);
  });

  test("copy mode is left before pasting", async () => {
    const { f, pane, submitted, writer } = await receiver();
    await f.tmux.run(["copy-mode", "-t", pane]);
    expect(await f.tmux.run(["display-message", "-p", "-t", pane, "#{pane_in_mode}"])).toBe("1");
    const r = await writer.deliver(pane, TEXT, options());
    expect(r.ok).toBe(true);
    expect(submitted()).toEqual([TEXT]);
  });

  test("paneActivity reads busy and idle from the screen and title", async () => {
    const { f, pane, writer } = await receiver(["--busy-until", "done"]);
    await waitFor("idle", async () => (await paneActivity(f.layout, pane, GATE)) === "idle");
    const r = await writer.deliver(pane, TEXT, options());
    expect(r.ok).toBe(true);
    expect(await paneActivity(f.layout, pane, GATE)).toBe("busy");
    writeFileSync(join(f.dir, "done"), "");
    await waitFor("idle again", async () => (await paneActivity(f.layout, pane, GATE)) === "idle", { timeoutMs: 5000 });
    expect(await paneActivity(f.layout, "%999", GATE)).toBe("unknown");
  });
});

describe("delivery that recovers (#27)", () => {
  test("a paste the CLI lost (the box stayed empty) is pasted again, and the text is submitted once", async () => {
    const { pane, submitted, writer } = await receiver(["--drop-pastes", "1"]);
    const r = await writer.deliver(pane, TEXT, options());
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    expect(submitted()).toEqual([TEXT]);
  }, 30_000);

  test("pastes are bounded: a CLI that loses every paste fails the delivery after three, naming them", async () => {
    const { pane, submitted, writer } = await receiver(["--drop-pastes", "10"]);
    const r = await writer.deliver(pane, TEXT, options());
    expect(r).toMatchObject({ ok: false, reason: "the pasted text never showed in the input box (pasted 3 times)" });
    expect(submitted()).toEqual([]);
  }, 30_000);

  test("opencode's '[Pasted ~1 lines]' for a one-line paste is the paste showing: submitted on the first Enter", async () => {
    const { pane, submitted, writer } = await receiver(["--paste-placeholder"]);
    const r = await writer.deliver(pane, TEXT, options({ ready: { paste_placeholder: "\\[Pasted ~\\d+ lines?\\]" } }));
    expect(r).toMatchObject({ ok: true, attempts: 1 });
    expect(submitted()).toEqual([TEXT]);
  }, 30_000);

  test("opencode stalled 5 s after a paste (a loaded machine): its own submit timing waits it out and submits once (#27.8)", async () => {
    const { pane, submitted, writer } = await receiver(["--paste-placeholder", "--stall-after-paste", "5000"]);
    const { config } = loadConfig({ projectDir: REPO_ROOT, env: { HOME: "/nonexistent-home" } });
    const opencode = config.providers.opencode!;
    const r = await writer.deliver(pane, TEXT, options({ submit: opencode.submit, ready: { paste_placeholder: opencode.ready.paste_placeholder } }));
    expect(r).toMatchObject({ ok: true });
    expect(submitted()).toEqual([TEXT]);
  }, 30_000);

  test("a placeholder the provider does not name is not taken for the paste: never pasted twice into a box that holds one", async () => {
    const { pane, submitted, writer } = await receiver(["--paste-placeholder"]);
    const r = await writer.deliver(pane, TEXT, options({ ready: { paste_placeholder: "\\[Pasted text #\\d+" } }));
    expect(r).toMatchObject({ ok: false, reason: "the pasted text never showed in the input box" });
    expect(submitted()).toEqual([]);
  }, 30_000);
});

describe("a pane that never gets ready is named with what it showed (#27)", () => {
  async function pane(command: string[]) {
    const f = await startFixture();
    fixtures.push(f);
    const { pane } = await f.layout.createPane({ command, env: {}, cwd: f.dir, label: "[sim] cli" });
    return { pane, writer: new PaneWriter(f.tmux) };
  }

  test("a blank pane: 'the pane stayed blank'", async () => {
    const { pane: p, writer } = await pane(["sh", "-c", "exec sleep 60"]);
    const r = await writer.deliver(p, TEXT, options({ ready: { timeout_ms: 1000 } }));
    expect(r).toMatchObject({ ok: false, reason: "not ready after 1000 ms: the pane stayed blank (the CLI drew nothing)" });
  }, 30_000);

  test("a pane that shows something else: its last lines", async () => {
    const { pane: p, writer } = await pane(["sh", "-c", "printf 'Fetching provider package...\\nstill fetching (40s)\\n'; exec sleep 60"]);
    const r = await writer.deliver(p, TEXT, options({ ready: { timeout_ms: 1000 } }));
    expect(r).toMatchObject({
      ok: false,
      reason: "not ready after 1000 ms: the ready prompt never showed; its screen ends: Fetching provider package... / still fetching (40s)",
    });
  }, 30_000);
});
