import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { killTmuxServer, privateSocket } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { awaitingApproval, PASSED_REVIEW } from "./fixtures.ts";
import { Screen } from "./tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

setDefaultTimeout(40_000);

/** #11.11: the commit message in a real editor (cursor keys), and in the user's $EDITOR (compiled binary). */
const scope = binaryScope();
const { dirs } = scope;
let socket = "";
afterEach(() => killTmuxServer(socket));

const completing = () => awaitingApproval("amx-editor-", dirs, { "b.txt": "b\n" }, PASSED_REVIEW);

const approved = (dir: string) =>
  waitFor("approval.json", () => {
    try {
      return JSON.parse(readFileSync(join(dir, "08_completion/approval.json"), "utf8"));
    } catch {
      return null;
    }
  });

test("e: the cursor moves with the arrows, Home and End; Backspace, Delete and Enter edit where it is", async () => {
  socket = privateSocket();
  const { repo, dir } = completing();
  const scr = new Screen(socket);
  await scr.start([scope.bin, "panel", dir], repo, { width: 100, height: 30 });
  await scr.until("the panel", (x) => x.includes("feat: add rate limiting") && x.includes("a approve"));
  await scr.keys("e");
  await scr.until("the editor", (x) => x.includes("Ctrl-S submits"));
  await scr.keys("Home");
  await scr.type("[x] ");
  await scr.keys("End", "Enter", "Enter");
  await scr.type("Token bucket, 10 req/s.");
  await scr.keys("Up", "Up", "Home", "Right", "Right", "Right", "Right", "BSpace", "BSpace", "BSpace", "BSpace");
  await scr.keys("End", ...Array(13).fill("BSpace"));
  await scr.type("limits");
  await scr.keys("Down", "Down", "End", "Left");
  await scr.type(" per client");
  await scr.keys("Home", ...Array(6).fill("Delete"));
  await scr.until("the edit on screen", (x) => x.includes("feat: add limits") && x.includes("bucket, 10 req/s per client.") && !x.includes("Token"));
  await scr.keys("C-s");
  await scr.until("back in the panel", (x) => !x.includes("Ctrl-S submits") && x.includes("feat: add limits"));
  await scr.keys("a");
  expect((await approved(dir)).commit_message).toBe("feat: add limits\n\nbucket, 10 req/s per client.");
});

test("E: the message opens in $EDITOR (the panel gives it the terminal and comes back), and what it saved is the message", async () => {
  socket = privateSocket();
  const { repo, dir } = completing();
  // a fake editor: shows itself, waits for a key (it has the terminal), then rewrites the file
  const fake = join(repo, "..", `fake-editor-${Date.now()}.sh`);
  dirs.push(fake);
  writeFileSync(
    fake,
    `#!/bin/sh\nprintf 'FAKE EDITOR on %s\\n' "$(head -1 "$1")"\nread answer\n{ printf 'from %s: ' "$answer"; cat "$1"; printf '\\nsecond line\\n'; } > "$1.new" && mv "$1.new" "$1"\n`,
  );
  chmodSync(fake, 0o755);
  const scr = new Screen(socket);
  await scr.start([scope.bin, "panel", dir], repo, { width: 100, height: 30 }, { EDITOR: fake, VISUAL: "" });
  await scr.until("the panel", (x) => x.includes("feat: add rate limiting") && x.includes("a approve"));
  await scr.keys("E");
  const inEditor = await scr.until("the editor has the terminal", (x) => x.includes("FAKE EDITOR on feat: add rate limiting"));
  expect(inEditor).not.toContain("a approve");
  await scr.type("vim");
  await scr.keys("Enter");
  const back = await scr.until("the panel is back", (x) => x.includes("from vim: feat: add rate limiting") && x.includes("a approve"));
  expect(back).not.toContain("FAKE EDITOR");
  expect(back).toContain("implementation complete");
  await scr.keys("a");
  expect((await approved(dir)).commit_message).toBe("from vim: feat: add rate limiting\n\nsecond line");
});

test("E with an editor that fails: the message is unchanged and the panel says why", async () => {
  socket = privateSocket();
  const { repo, dir } = completing();
  const scr = new Screen(socket);
  await scr.start([scope.bin, "panel", dir], repo, { width: 100, height: 30 }, { EDITOR: "false", VISUAL: "" });
  await scr.until("the panel", (x) => x.includes("a approve"));
  await scr.keys("E");
  await scr.until("the reason", (x) => x.includes("false exited with code 1: the message is unchanged"));
  await scr.keys("a");
  expect((await approved(dir)).commit_message).toBe("feat: add rate limiting");
});
