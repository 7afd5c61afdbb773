/**
 * Screens the real CLIs showed to the opt-in real-CLI suite (test/real-cli), kept as fixtures
 * (test/fixtures/cli-screens/<cli>-<case>.txt: comment lines, a `title:` line, the screen) and
 * read by agentmux's own TurnWatcher with the built-in provider catalog, from a real tmux pane
 * that shows the recorded screen. A CLI update that changes one of these screens is caught by
 * the real-CLI suite; this keeps what it taught us in the default suite.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { TurnWatcher } from "../../src/daemon/turns.ts";
import { compileGate } from "../../src/effects/tmux/screen.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import type { Provider } from "../../src/schema/config.ts";
import type { Event } from "../../src/schema/events.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir, REPO_ROOT } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "cli-screens");

function fixture(name: string): { title: string; screen: string } {
  const lines = readFileSync(join(FIXTURES, name), "utf8").replace(/\n$/, "").split("\n");
  const body = lines.filter((l, i) => !(l.startsWith("# ") && lines.slice(0, i).every((p) => p.startsWith("# "))));
  const title = body[0]!.replace(/^title: /, "");
  return { title, screen: body.slice(1).join("\n") };
}

let root: string;
let socket: string;
let tmux: Tmux;
let providers: Record<string, Provider>;

beforeAll(async () => {
  root = makeTmpDir("amx-cli-screens-");
  socket = privateSocket();
  tmux = new Tmux(socket);
  providers = loadConfig({ projectDir: root, env: { HOME: root } }).config.providers;
  await tmux.run(["new-session", "-d", "-s", "screens", "-x", "200", "-y", "50", "sh", "-c", "exec tail -f /dev/null"]);
});
afterAll(() => {
  killTmuxServer(socket);
  removeDir(root);
});

const SHOW = `printf '\\033]2;%s\\033\\\\' "$1"; clear; cat "$2"; exec tail -f /dev/null`;

function screenArgs(name: string): string[] {
  const { title, screen } = fixture(name);
  const file = join(root, name);
  writeFileSync(file, screen);
  return ["sh", "-c", SHOW, "sh", title, file];
}

/**
 * A pane that shows the fixture's screen under its title, then waits. Returned once the screen
 * is there: a watcher's single look (lookSoon, with no poll after it) must not land on the
 * blank pane before `cat` ran (a loaded machine).
 */
async function showScreen(name: string): Promise<string> {
  const pane = (await tmux.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "screens", ...screenArgs(name)])).trim();
  const last = fixture(name)
    .screen.split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1)!;
  await waitFor(`the pane showing ${name}`, async () => (await tmux.run(["capture-pane", "-p", "-t", pane])).includes(last), { timeoutMs: 10_000 });
  return pane;
}

/** The same pane shows another recorded screen (the CLI moved on). */
async function switchScreen(pane: string, name: string): Promise<void> {
  await tmux.run(["respawn-pane", "-k", "-t", pane, ...screenArgs(name)]);
}

/** The first turn event agentmux's TurnWatcher reports for a turn that ends on this screen. */
async function turnEventFor(cli: string, name: string): Promise<Event> {
  const pane = await showScreen(name);
  const events: Event[] = [];
  const watcher = new TurnWatcher({
    tmux,
    watched: () => [{ agent: "architect", pane, provider: providers[cli]! }],
    push: (e) => events.push(e),
    log: () => {},
    stuckAfterMs: 0,
    pollMs: 50,
  });
  watcher.turnStarted("architect"); // a prompt was accepted; this is the screen its turn ended on
  watcher.workSeen("architect"); // after it did work (a tool call): its end is seen once the screen settles
  watcher.start();
  try {
    return await waitFor(`a turn event for ${name}`, () => events.find((e) => e.type === "agent_rate_limited" || e.type === "agent_turn_ended"), {
      timeoutMs: 15_000,
    });
  } finally {
    watcher.stop();
  }
}

describe("usage limits the real CLIs showed are seen at the turn's end (#12.4)", () => {
  test("claude: 'API Error: Request rejected (429)' above the 'Resend your message' placeholder", async () => {
    const e = await turnEventFor("claude", "claude-429.txt");
    expect(e).toMatchObject({ type: "agent_rate_limited", agent: "architect" });
    const limited = e as Extract<Event, { type: "agent_rate_limited" }>;
    expect(limited.text).toContain("API Error: Request rejected (429)");
    expect(Date.parse(limited.reset_at!) - Date.parse(limited.at)).toBeLessThan(10_000); // "try again in 2s"
  }, 20_000);

  test("codex: 'exceeded retry limit, last status: 429 Too Many Requests' above its idle prompt", async () => {
    const e = await turnEventFor("codex", "codex-429.txt");
    expect(e).toMatchObject({ type: "agent_rate_limited", agent: "architect", reset_at: null });
    expect((e as Extract<Event, { type: "agent_rate_limited" }>).text).toBe("■ exceeded retry limit, last status: 429 Too Many Requests");
  }, 20_000);
});

describe("claude's input box: empty, a placeholder, or text", () => {
  const box = (line: string) => ["● Done.", "─".repeat(40), line, "─".repeat(40), "  ⏵⏵ accept edits on (shift+tab to cycle) · ← for agents"].join("\n");
  test("empty and 'Resend your message to try again' are ready; typed or pasted text is not", () => {
    const ready = compileGate(providers.claude!.ready).ready!;
    expect(ready.test(box("❯\u00a0"))).toBe(true);
    expect(ready.test(box("❯\u00a0Resend your message to try again"))).toBe(true);
    expect(ready.test(box('❯ Read and follow the instructions in "/x/p.md"'))).toBe(false);
    expect(ready.test(box("❯\u00a0[Pasted text #1]"))).toBe(false);
  });
});

describe("a prompt the CLI holds back is not a finished turn", () => {
  test("gemini: 'Queued (press ↑ to edit)' while its MCP servers start is busy, though the title says Ready", () => {
    const { title, screen } = fixture("gemini-queued.txt");
    expect(compileGate(providers.gemini!.ready).isBusy({ title, screen })).toBe(true);
  });

  test("gemini: the prompt out of the queue but no turn started yet (no '> ' echo below 'Prompts will be queued') is busy", () => {
    const gate = compileGate(providers.gemini!.ready);
    expect(gate.isBusy(fixture("gemini-dequeued.txt"))).toBe(true);
    // once the prompt shows in the transcript, the line above no longer says busy
    expect(gate.isBusy(fixture("gemini-question.txt"))).toBe(false);
  });
});

describe("a turn that ends with a question is seen as one (#12.3)", () => {
  test("claude: the answer's last line asks, above 'Churned for 0s · done' and the empty box", async () => {
    const e = await turnEventFor("claude", "claude-question.txt");
    expect(e).toMatchObject({ type: "agent_turn_ended", question: "MOCK-ASK Should the greeting say Hello or Hi?" });
  }, 20_000);

  test("gemini: the answer's last line asks, above its '? for shortcuts' and 'YOLO Ctrl+Y … 1 MCP server' lines", async () => {
    const e = await turnEventFor("gemini", "gemini-question.txt");
    expect(e).toMatchObject({ type: "agent_turn_ended", question: "MOCK-ASK Should the greeting say Hello or Hi?" });
  }, 20_000);

  test("codex: the answer's last line asks, above 'Worked for <1s • 14:05'", async () => {
    const e = await turnEventFor("codex", "codex-question.txt");
    expect(e).toMatchObject({ type: "agent_turn_ended", question: "MOCK-ASK Should the greeting say Hello or Hi?" });
  }, 20_000);
});

describe("a CLI busy before its first prompt is starting, not in a turn", () => {
  test("codex: the title spinner while its MCP servers boot ends no turn; the prompt's turn does", async () => {
    const pane = await showScreen("codex-starting.txt");
    const events: Event[] = [];
    let looks = 0;
    const watched = () => (looks++, [{ agent: "coder-1", pane, provider: providers.codex! }]);
    const watcher = new TurnWatcher({ tmux, watched, push: (e) => events.push(e), log: () => {}, stuckAfterMs: 0, pollMs: 50 });
    watcher.start();
    try {
      await waitFor("the starting screen seen busy", () => events.some((e) => e.type === "agent_active"), { timeoutMs: 15_000 });
      await switchScreen(pane, "codex-idle.txt");
      // the idle screen, looked at for well over codex's settle time (500 ms): no turn ended
      const from = looks;
      const since = performance.now();
      await waitFor("the idle screen looked at for 2 s", () => looks - from >= 10 && performance.now() - since > 2_000, { timeoutMs: 20_000 });
      expect(events.filter((e) => e.type === "agent_turn_ended")).toEqual([]);
      expect(watcher.isIdle("coder-1")).toBe(true);
      // the first prompt is accepted: its turn ends when the screen settles idle
      watcher.turnStarted("coder-1");
      watcher.workSeen("coder-1");
      await waitFor("the prompt's turn end", () => events.some((e) => e.type === "agent_turn_ended"), { timeoutMs: 15_000 });
    } finally {
      watcher.stop();
    }
  }, 60_000);
});

describe("a turn's end is seen once the screen has been still for settle_ms, not at the next poll", () => {
  test("with a poll that never comes: lookSoon (the owed file was written) and the follow-up look find the end", async () => {
    const pane = await showScreen("codex-idle.txt");
    const events: Event[] = [];
    // an hour between polls: only the look asked for and the follow-up it schedules can see the end
    const watcher = new TurnWatcher({
      tmux,
      watched: () => [{ agent: "architect", pane, provider: providers.codex! }],
      push: (e) => events.push(e),
      log: () => {},
      stuckAfterMs: 0,
      pollMs: 3_600_000,
    });
    watcher.turnStarted("architect");
    watcher.workSeen("architect");
    watcher.start();
    try {
      watcher.lookSoon();
      await waitFor("the turn end", () => events.find((e) => e.type === "agent_turn_ended"), { timeoutMs: 15_000 });
    } finally {
      watcher.stop();
    }
  }, 20_000);
});
