import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { awaitingApproval, PASSED_REVIEW } from "./fixtures.ts";
import { screensScope, type Screen } from "./tmux-screen.ts";

setDefaultTimeout(60_000);

/**
 * The approval panel's work in progress outlives the panel: quitting it (q, y; the monitor's
 * `a` brings it back) or a cancel and a resume kept the user's line comments but dropped the
 * edited commit message, the files left out and the change request being written.
 */
const scope = screensScope();
const { dirs, screen } = scope;

const completing = () => awaitingApproval("amx-panel-draft-", dirs, { "b.txt": "b\n", "c.txt": "c\n" }, PASSED_REVIEW);

async function openPanel(scr: Screen, repo: string, dir: string): Promise<string> {
  await scr.start([scope.bin, "panel", dir], repo, { width: 100, height: 30 });
  return scr.until("the panel", (x) => x.includes("Commit message (e: edit)") && x.includes("a approve"));
}

async function quit(scr: Screen): Promise<void> {
  await scr.keys("q");
  await scr.until("the quit question", (x) => x.includes("Quit without approving"));
  await scr.keys("y");
  await scr.until("the panel gone", (x) => x.includes("EXIT=130"));
}

test("q then the panel again: the edited message, the file left out and the change request typed so far are all still there; approving uses them", async () => {
  const { repo, dir } = completing();
  const first = screen();
  await openPanel(first, repo, dir);
  await first.keys("e");
  await first.until("the editor", (x) => x.includes("Ctrl-S submits"));
  await first.keys("Home");
  await first.type("[api] ");
  await first.keys("C-s");
  await first.until("the edited message", (x) => x.includes("[api] feat: add rate limiting") && !x.includes("Ctrl-S submits"));
  await first.keys("Down", "Space");
  await first.until("c.txt left out", (x) => /\[ \] \S+ c\.txt/.test(x));
  await first.keys("r");
  await first.until("the change request box", (x) => x.includes("What should change?"));
  await first.type("Limit per key");
  await first.until("the text typed", (x) => x.includes("Limit per key"));
  await first.keys("Escape");
  await first.until("back in the panel", (x) => !x.includes("What should change?"));
  await quit(first);

  const again = screen();
  const shown = await openPanel(again, repo, dir);
  expect(shown).toContain("[api] feat: add rate limiting");
  expect(shown).toMatch(/\[ \] \S+ c\.txt/);
  expect(shown).toMatch(/\[x\] \S+ b\.txt/);
  await again.keys("r");
  await again.until("the change request typed before", (x) => x.includes("What should change?") && x.includes("Limit per key"));
  await again.keys("Escape");
  await again.until("back in the panel", (x) => !x.includes("What should change?"));
  await again.keys("a");
  const approval = join(dir, "08_completion/approval.json");
  await waitFor("approval.json", () => existsSync(approval));
  expect(JSON.parse(readFileSync(approval, "utf8"))).toMatchObject({ commit_message: "[api] feat: add rate limiting", exclude_files: ["c.txt"] });
  // the decision is written: the work in progress is gone with it
  expect(existsSync(join(dir, ".runtime/panel_draft.json"))).toBe(false);
});
