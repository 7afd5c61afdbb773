import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { killTmuxServer, privateSocket } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { awaitingApproval, PASSED_REVIEW } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(40_000);

/**
 * The approval panel's "What should change?" box: Esc goes back to the panel (to look at a diff,
 * say) and the text typed so far waits there; `r` opens it again with that text. It was dropped.
 */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

/** The panel awaiting the decision, its "What should change?" box opened with r. */
async function changeRequestBox(size: { width: number; height: number }): Promise<{ scr: Screen; dir: string }> {
  socket = privateSocket();
  const { repo, dir } = awaitingApproval("amx-change-draft-", dirs, { "b.txt": "b\n" }, PASSED_REVIEW);
  const scr = new Screen(socket);
  await scr.start([scope.bin, "panel", dir], repo, size);
  await scr.until("the panel", (x) => x.includes("feat: add rate limiting") && x.includes("a approve"));
  await scr.keys("r");
  await scr.until("the change request box", (x) => x.includes("What should change?"));
  return { scr, dir };
}

test("r, type, Esc, r: the change request typed so far is still there, and Ctrl-S sends it", async () => {
  const { scr, dir } = await changeRequestBox({ width: 100, height: 30 });
  await scr.type("Also limit per API key");
  await scr.until("the text typed", (x) => x.includes("Also limit per API key"));
  await scr.keys("Escape");
  await scr.until("back in the panel", (x) => !x.includes("What should change?"));
  await scr.keys("r");
  await scr.until("the box again, with the text typed before", (x) => x.includes("What should change?") && x.includes("Also limit per API key"));
  await scr.type(", not only per IP.");
  await scr.keys("C-s");
  const changes = join(dir, "08_completion/changes.md");
  await waitFor("changes.md", () => existsSync(changes));
  expect(readFileSync(changes, "utf8")).toContain("Also limit per API key, not only per IP.");
});

test("Ctrl-S on an empty change request says why nothing was sent (the box just reappeared)", async () => {
  const { scr, dir } = await changeRequestBox({ width: 100, height: 30 });
  await scr.keys("C-s");
  await scr.until("the reason", (x) => x.includes("What should change?") && x.includes("nothing to send yet"));
  expect(existsSync(join(dir, "08_completion/changes.md"))).toBe(false);
});

test("at 80 columns a long box title is cut inside the box: it ran past the corner and over the text below", async () => {
  const { scr, dir } = await changeRequestBox({ width: 80, height: 24 });
  await scr.keys("C-s");
  const shown = await scr.until("the reason", (x) => x.includes("nothing to send yet"));
  const title = shown.split("\n").find((l) => l.includes("What should change?"))!;
  expect(title).toMatch(/… ─*┐/);
  expect(shown.split("\n").filter((l) => l.includes("Ctrl-S submits"))).toEqual([]);
});
