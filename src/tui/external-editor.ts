import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInTerminal } from "../effects/process/run.ts";
import { blessed, suspend } from "./blessed.ts";

/** The user's editor as git picks it: $VISUAL, else $EDITOR, else vi. */
export const editorCommand = (env: Record<string, string | undefined> = process.env) => env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";

/**
 * Edit `text` in the user's own editor: a private temp file, the terminal handed over (the
 * blessed screen leaves and comes back), the file read back. The editor command may carry
 * arguments (`code -w`, `emacs -nw`): the shell splits it, the file is passed as "$1".
 */
export async function editExternally(screen: blessed.Widgets.Screen, text: string): Promise<{ text: string } | { error: string }> {
  const dir = mkdtempSync(join(tmpdir(), "agentmux-message-"));
  const file = join(dir, "COMMIT_EDITMSG");
  const editor = editorCommand();
  try {
    writeFileSync(file, text.replace(/\n*$/, "\n"), { mode: 0o600 });
    const code = await suspend(screen, () => runInTerminal(["sh", "-c", `${editor} "$1"`, "sh", file]));
    if (code !== 0) return { error: `${editor} exited with code ${code}: the message is unchanged` };
    return { text: readFileSync(file, "utf8").replace(/\s+$/, "") };
  } catch (e) {
    return { error: `could not run ${editor}: ${(e as Error).message}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
