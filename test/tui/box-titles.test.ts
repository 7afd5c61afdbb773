import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { killTmuxServer, privateSocket } from "../helpers/tmp.ts";
import { awaitingApproval } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(40_000);

/** The approval panel's boxes keep their titles inside their borders at 80 columns. */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

const LONG = "src/components/notifications/preferences/notification-preferences-form.tsx";

test("a diff of a file with a long path: its title is cut inside the box (it ran past the corner)", async () => {
  socket = privateSocket();
  const { repo, dir } = awaitingApproval("amx-box-titles-", dirs, { [LONG]: "export const form = 1;\n" }, {}, "# What changed\n\nA form.\n");
  const scr = new Screen(socket);
  await scr.start([scope.bin, "panel", dir], repo, { width: 80, height: 24 });
  await scr.until("the panel", (x) => x.includes("a approve"));
  await scr.keys("Enter");
  const shown = await scr.until("the diff", (x) => x.includes("export const form"));
  const title = shown.split("\n").find((l) => l.includes("notification"))!;
  expect(title).toMatch(/… ─*┐/);
  expect(shown.split("\n").filter((l) => l.includes("Esc back"))).toEqual([]);
});
