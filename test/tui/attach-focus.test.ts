import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { isolatedBinary, Screen } from "./tmux-screen.ts";

setDefaultTimeout(90_000);

/**
 * #11.9 through the compiled binary: attaching puts the keyboard on the monitor, and inside the
 * user's own tmux (whose prefix is Ctrl-b) agentmux's session takes Ctrl-a, says so in the key
 * bar, and Ctrl-a d detaches it without touching the user's tmux.
 */
let bin = "";
const sockets: string[] = [];
const dirs: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
  dirs.push(join(bin, ".."));
});
afterAll(() => dirs.forEach(removeDir));
afterEach(() => sockets.splice(0).forEach(killTmuxServer));
const socket = () => {
  const s = privateSocket();
  sockets.push(s);
  return s;
};

function sessionOf(repo: string): { id: string; dir: string } | null {
  const root = join(repo, ".agentmux", ".sessions");
  const id = existsSync(root) ? readdirSync(root).find((n) => !n.startsWith(".")) : undefined;
  return id && existsSync(join(root, id, "runtime_state.json")) ? { id, dir: join(root, id) } : null;
}

async function stalledRun(nested: boolean) {
  const root = makeTmpDir("amx-attach-");
  dirs.push(root);
  const repo = join(root, "repo");
  const innerSocket = socket();
  const inner = new Tmux(innerSocket);
  // a pane of the outer server has TMUX set: the launcher runs "inside the user's tmux"
  const env: Record<string, string> = { AGENTMUX_TMUX_SOCKET: innerSocket, CI: "", ...(nested ? {} : { TMUX: "" }) };
  const scr = new Screen(socket());
  await scr.start([bin, "demo", "--dir", repo, "--think-ms", "0", "--scenario", "stall=architect"], root, { width: 120, height: 30 }, env);
  await scr.until("the monitor with the architect", (x) => x.includes("[architect]") && x.includes("PIPELINE"), 60_000);
  const s = await waitFor("the session", () => sessionOf(repo));
  const runtime = JSON.parse(readFileSync(join(s.dir, "runtime_state.json"), "utf8"));
  return { scr, inner, s, control: runtime.control_pane as string, session: runtime.tmux_session as string, env, root };
}

const active = async (inner: Tmux, pane: string) => (await inner.run(["display-message", "-p", "-t", pane, "#{pane_active}#{window_active}"])).trim();

test("inside the user's tmux: agentmux's prefix is Ctrl-a, the key bar says so, Ctrl-a d detaches; attach focuses the monitor", async () => {
  const { scr, inner, s, control, session, env, root } = await stalledRun(true);
  expect((await inner.run(["show-options", "-Av", "-t", `=${session}:`, "prefix"])).trim()).toBe("C-a");
  await scr.until("the key bar with Ctrl-a", (x) => x.includes("Ctrl-a d detach"));
  // the user focuses the architect's pane, then detaches with agentmux's prefix
  const agent = await waitFor(
    "the architect's pane beside the monitor",
    async () =>
      (await inner.run(["list-panes", "-t", control, "-F", "#{pane_id} #{@label}"]))
        .split("\n")
        .find((l) => l.includes("[architect]"))
        ?.split(" ")[0],
  );
  await inner.run(["select-pane", "-t", agent]);
  expect(await active(inner, control)).toBe("01");
  await scr.keys("C-a", "d");
  const out = await scr.until("the launcher is back", (x) => x.includes("EXIT="));
  expect(out).toContain("Detached. The run goes on in the background.");

  const again = new Screen(socket());
  await again.start([bin, "attach", s.id], join(root, "repo"), { width: 120, height: 30 }, env);
  await again.until("the monitor again", (x) => x.includes("PIPELINE"));
  expect(await active(inner, control)).toBe("11");
  await again.keys("C-a", "d");
  await again.until("detached again", (x) => x.includes("EXIT=0"));
});

test("in a plain terminal the prefix stays Ctrl-b", async () => {
  const { scr, inner, session } = await stalledRun(false);
  expect((await inner.run(["show-options", "-Av", "-t", `=${session}:`, "prefix"])).trim()).toBe("C-b");
  await scr.until("the key bar with Ctrl-b", (x) => x.includes("Ctrl-b d detach"));
  await scr.keys("C-b", "d");
  await scr.until("detached", (x) => x.includes("Detached."));
});
