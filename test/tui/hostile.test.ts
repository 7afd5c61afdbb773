import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { killTmuxServer, makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { HOSTILE, isInert } from "../helpers/hostile.ts";
import { at, stateIn, writeSession } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(30_000);

/**
 * #18.14 through the compiled binary: a request title, an agent's note and a review summary
 * full of terminal escapes (window title, clear screen, OSC 52 clipboard, C1, bidi) reach the
 * user's terminal only as inert text — in `agentmux status`, its JSON, `sessions` and the monitor.
 */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

const EVIL = Object.values(HOSTILE).join(" ");
const hostile = () =>
  stateIn("reviewing", {
    request_title: `Add ${HOSTILE.title} limits ${EVIL}`,
    agents: { "coder:1": { role: "coder", label: "coder 1", status: "stuck", provider: "claude", since: at(9), note: `note ${EVIL}` } },
    review_results: { reviewer_logic: { verdict: "fail", summary: `summary ${EVIL}` } },
    interruption_cause: `cause ${EVIL}`,
  });

function project(): string {
  const d = makeTmpDir("amx-hostile-");
  dirs.push(d);
  writeSession(d, "20250301-100000-evil", hostile());
  return d;
}

function run(cwd: string, args: string[]) {
  const p = Bun.spawnSync([scope.bin, ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, AGENTMUX_TMUX_SOCKET: socket, TMUX: "" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

test("status, status --json and sessions print hostile session text inert; JSON keeps the data", () => {
  socket = privateSocket();
  const d = project();
  const text = run(d, ["status", "evil"]);
  expect(text.code).toBe(0);
  expect(text.out).toContain("Add ab limits");
  expect(isInert(text.out)).toBe(true);
  const json = run(d, ["status", "evil", "--json"]);
  expect(isInert(json.out)).toBe(true);
  const data = JSON.parse(json.out);
  expect(data.feature).toBe(hostile().request_title);
  expect(data.agents[0].note).toBe(`note ${EVIL}`);
  expect(isInert(run(d, ["sessions"]).out)).toBe(true);
  expect(isInert(run(d, ["sessions", "--json"]).out)).toBe(true);
});

test("the monitor draws a hostile title and note without setting the terminal's title or clearing it", async () => {
  socket = privateSocket();
  const d = project();
  const scr = new Screen(socket);
  await scr.start([scope.bin, "monitor", join(d, ".agentmux/.sessions/20250301-100000-evil")], d, { width: 120, height: 40 });
  const s = await scr.until("the monitor", (x) => x.includes("▶ reviewing") && x.includes("coder 1"));
  expect(s).toContain("Add ab limits");
  const title = await scr.tmux.run(["display-message", "-p", "-t", "t", "#{pane_title}"]);
  expect(title).not.toContain("pwned");
});
