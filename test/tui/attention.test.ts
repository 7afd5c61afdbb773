import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(120_000);

/**
 * #11.8 through the compiled binary: when a run starts waiting for the user's approval, the
 * terminal attached to it gets one bell, one OSC 9 and one OSC 777 notification and a tmux
 * status-line message — once for the wait, however often the monitor redraws.
 */
const scope = binaryScope();
const { dirs } = scope;
const socket = scope.socket;
const count = (text: string, what: string) => text.split(what).length - 1;

test("approval waiting: one bell, one OSC 9, one OSC 777 and a status-line message on the attached terminal", async () => {
  const root = makeTmpDir("amx-attention-");
  dirs.push(root);
  const bytes = join(root, "terminal.bytes");
  const inner = socket();
  const scr = new Screen(socket());
  await scr.start(
    [scope.bin, "demo", "--approve", "--dir", join(root, "repo"), "--think-ms", "0"],
    root,
    { width: 200, height: 40 },
    { AGENTMUX_TMUX_SOCKET: inner, CI: "" },
  );
  // everything written to the user's terminal (the outer pane), byte for byte
  await scr.tmux.run(["pipe-pane", "-o", "-t", "t", `cat >> '${bytes}'`]);
  // with tmux's status line off, the message takes the window's last row until the panel,
  // drawn in the same window, paints its key bar there: watch every frame until then
  let message = false;
  await scr.until(
    "the approval panel",
    (x) => {
      message ||= x.includes("agentmux: the run waits for your approval");
      return x.includes("Commit message (e: edit)");
    },
    90_000,
  );
  expect(message).toBe(true);
  const seen = await waitFor("the notifications", () => {
    const b = existsSync(bytes) ? readFileSync(bytes, "latin1") : "";
    return b.includes("\x1b]777;notify;agentmux;") ? b : null;
  });
  expect(seen).toContain("\x07\x1b]9;agentmux: the run waits for your approval\x07");
  // the monitor (beside the panel at this width) redraws every second: wait until its clock has moved three times
  const clock = async () => /◷ (\d+:\d\d:\d\d)/.exec(await scr.capture())?.[1];
  let ticks = 0;
  let last = await clock();
  await waitFor(
    "three monitor redraws",
    async () => {
      const now = await clock();
      if (now && now !== last) (ticks++, (last = now));
      return ticks >= 3;
    },
    { timeoutMs: 20_000 },
  );
  const all = readFileSync(bytes, "latin1");
  expect(count(all, "\x1b]9;agentmux: the run waits for your approval\x07")).toBe(1);
  expect(count(all, "\x1b]777;notify;agentmux;the run waits for your approval\x07")).toBe(1);
});
