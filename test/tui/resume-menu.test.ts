import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { killTmuxServer, makeTmpDir, privateSocket } from "../helpers/tmp.ts";
import { stateIn, writeSession } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(30_000);

/** #17.14: `agentmux resume` with several resumable sessions asks which one, on a prompt line. */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

test("the resume menu lists the sessions and shows a prompt line; a wrong answer asks again; Ctrl-D chooses none", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-resume-menu-");
  dirs.push(project);
  writeSession(project, "20250301-100000-alpha", stateIn("failed", { updated_at: "2025-03-01T10:00:00.000Z" }));
  writeSession(project, "20250302-100000-beta", stateIn("implementing", { updated_at: "2025-03-02T10:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin, "resume"], project, { width: 100, height: 20 }, { AGENTMUX_TMUX_SOCKET: socket });
  const menu = await scr.until("the menu", (s) => s.includes("20250301-100000-alpha") && s.includes("20250302-100000-beta"));
  const lines = menu.trimEnd().split("\n");
  expect(lines.slice(-4)).toEqual([
    "2 sessions can be resumed:",
    expect.stringMatching(/^  1\) 20250302-100000-beta   implementing · design ready · \d+d ago$/),
    expect.stringMatching(/^  2\) 20250301-100000-alpha  failed · run failed · \d+d ago$/),
    "Resume which session? Enter 1-2 (Ctrl-D: none):",
  ]);
  await scr.type("7");
  await scr.keys("Enter");
  const again = await scr.until("asked again", (s) => s.includes("enter a number from 1 to 2"));
  expect(again.trimEnd().split("\n").at(-1)).toBe("enter a number from 1 to 2 (Ctrl-D: none):");
  await scr.keys("C-d");
  const end = await scr.until("no session chosen", (s) => s.includes("EXIT="));
  expect(end).not.toContain("EXIT=0");
});

// at 80 columns a long session id pushed each entry's details past the edge, where the terminal
// wrapped them onto the start of the next line ("failed ·" / "run failed · just now")
test("in 80 columns a long session id keeps each entry readable: its details go on their own line", async () => {
  socket = privateSocket();
  const project = makeTmpDir("amx-resume-menu-");
  dirs.push(project);
  const long = "20250301-100000-add-a-reverse-function-that-reverses-strings-and";
  writeSession(project, long, stateIn("failed", { updated_at: "2025-03-01T10:00:00.000Z" }));
  writeSession(project, "20250302-100000-beta", stateIn("failed", { updated_at: "2025-03-02T10:00:00.000Z" }));
  const scr = new Screen(socket);
  await scr.start([scope.bin, "resume"], project, { width: 80, height: 20 }, { AGENTMUX_TMUX_SOCKET: socket });
  const menu = await scr.until("the menu", (s) => s.includes("Resume which session?"));
  const lines = menu.trimEnd().split("\n");
  expect(lines.slice(-6)).toEqual([
    "2 sessions can be resumed:",
    "  1) 20250302-100000-beta",
    expect.stringMatching(/^     failed · run failed · \d+d ago$/),
    `  2) ${long}`,
    expect.stringMatching(/^     failed · run failed · \d+d ago$/),
    "Resume which session? Enter 1-2 (Ctrl-D: none):",
  ]);
  await scr.keys("C-d");
  await scr.until("no session chosen", (s) => s.includes("EXIT="));
});
