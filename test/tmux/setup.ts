import { join } from "node:path";
import { Layout } from "../../src/effects/tmux/layout.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { createSession } from "../../src/effects/tmux/session.ts";
import { REPO_ROOT, makeTmpDir, privateSocket } from "../helpers/tmp.ts";

export const BUN = process.execPath;
export const RECEIVER = join(REPO_ROOT, "test", "fixtures", "tty-receiver.ts");
export const ARGV_DUMP = join(REPO_ROOT, "test", "tmux", "fixtures", "argv-dump.ts");

/** Strings that break naive quoting at every layer: sh, tmux's parser, tmux formats. */
export const HOSTILE = [
  "it's",
  '"double" quotes',
  "$(touch /tmp/amx-pwned)",
  "`id`",
  "a; b",
  ";",
  "\\;",
  "#{pane_id}",
  "#[fg=red]##",
  "日本語 👩‍💻 é",
  "--help",
  "-n",
  "",
  "$HOME ${PATH} ~ * ?",
  "back\\slash\ttab",
  "new\nline",
];

export type TmuxFixture = { tmux: Tmux; socket: string; session: string; controlPane: string; window: string; layout: Layout; dir: string; envDir: string };

/**
 * A private tmux server with a session made by createSession and a Layout over it. Its calls run
 * as a tmux process each, as the orchestrator's do by default (`control: true`: through a
 * control-mode client, as with tmux.control_mode).
 */
export async function startFixture(opts: { controlWidth?: number; width?: number; height?: number; control?: boolean } = {}): Promise<TmuxFixture> {
  const socket = privateSocket();
  const tmux = new Tmux(socket);
  const dir = makeTmpDir("amx-tmux-");
  const session = "amx-test";
  const controlWidth = opts.controlWidth ?? 40;
  const { controlPane, window } = await createSession(tmux, {
    name: session,
    cwd: dir,
    width: opts.width ?? 200,
    height: opts.height ?? 50,
    controlWidth,
    controlCommand: ["sh", "-c", "echo control; exec tail -f /dev/null"],
  });
  if (opts.control && !(await tmux.useControlClient(session))) throw new Error("tmux refused a control-mode client");
  const envDir = join(dir, ".env");
  const layout = await Layout.open(tmux, { session, controlPane, controlWidth, envDir });
  return { tmux, socket, session, controlPane, window, layout, dir, envDir };
}

export function receiverCommand(record: string, flags: string[] = []): string[] {
  return [BUN, RECEIVER, "--record", record, ...flags];
}
