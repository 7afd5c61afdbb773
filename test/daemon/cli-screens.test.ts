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

/** A pane that shows the fixture's screen under its title, then waits. */
async function showScreen(name: string): Promise<string> {
  const { title, screen } = fixture(name);
  const file = join(root, name);
  writeFileSync(file, screen);
  const script = `printf '\\033]2;%s\\033\\\\' "$1"; clear; cat "$2"; exec tail -f /dev/null`;
  return (await tmux.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "screens", "sh", "-c", script, "sh", title, file])).trim();
}

/** The first turn event agentmux's TurnWatcher reports for a turn that ends on this screen. */
async function turnEventFor(cli: string, name: string): Promise<Event> {
  const pane = await showScreen(name);
  const events: Event[] = [];
  const watcher = new TurnWatcher({ tmux, watched: () => [{ agent: "architect", pane, provider: providers[cli]! }], push: (e) => events.push(e), log: () => {}, stuckAfterMs: 0, pollMs: 50 });
  watcher.turnStarted("architect"); // a prompt was accepted; this is the screen its turn ended on
  watcher.start();
  try {
    return await waitFor(`a turn event for ${name}`, () => events.find((e) => e.type === "agent_rate_limited" || e.type === "agent_turn_ended"), { timeoutMs: 15_000 });
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
});
