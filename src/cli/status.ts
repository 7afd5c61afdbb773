import { existsSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { phaseEnded } from "../schema/catalog.ts";
import { isAbsolute, join, resolve } from "node:path";
import type { ParsedArgs } from "./args.ts";
import type { status } from "./specs/sessions.ts";
import { resolveSession } from "../session/resolve.ts";
import { F, sessionsRoot } from "../protocol/paths.ts";
import { archiveDirOf } from "../session/archive.ts";
import { findProjectDir } from "../session/project.ts";
import { readSnapshotInput } from "../report/read.ts";
import { colorEnabled, toAnsi } from "../views/line.ts";
import { statusJson, statusView, watchFrame, type StatusInput } from "../views/status.ts";
import { logLines } from "../views/log.ts";
import { readLog } from "../session/log.ts";
import { terminalJson } from "../schema/inert-text.ts";

async function load(arg: string | undefined): Promise<StatusInput> {
  const s = await resolveSession(findProjectDir(), arg);
  return readSnapshotInput(s.dir, { id: s.id, live: s.live, now: Date.now() });
}

/** How long `status --watch` waits for a session that is being created (its state.json not written yet). */
const CREATION_WAIT_MS = 10_000;

/**
 * The folder of a session being created that `arg` names (its id or path; without one, this
 * project's newest such folder): claimed, but its state.json not written yet. Null when none.
 */
function beingCreated(arg: string | undefined): string | null {
  const root = sessionsRoot(findProjectDir());
  const pending = (dir: string) => {
    try {
      return statSync(dir).isDirectory() && !existsSync(join(dir, F.state));
    } catch {
      return false; // not there (or gone meanwhile)
    }
  };
  if (arg !== undefined) {
    const dir = isAbsolute(arg) || arg.includes("/") ? resolve(arg) : join(root, arg);
    return pending(dir) ? dir : null;
  }
  let ids: string[];
  try {
    ids = readdirSync(root).filter((n) => !n.startsWith("."));
  } catch {
    return null;
  }
  return (
    ids
      .sort()
      .reverse()
      .map((id) => join(root, id))
      .find(pending) ?? null
  );
}

/** `status --watch` right as a run starts: a session being created is waited for (up to 10 s), not "no session". */
async function loadOrWaitForCreation(arg: string | undefined): Promise<StatusInput> {
  const deadline = Date.now() + CREATION_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      return await load(arg);
    } catch (e) {
      const dir = beingCreated(arg);
      if (!dir || Date.now() > deadline) throw e;
      if (!told) process.stderr.write(`agentmux: waiting for session ${dir.split("/").pop()}: it is being created\n`);
      told = true;
      await Bun.sleep(25);
    }
  }
}

/** `rows`: a watched terminal's height (the frame is cut to fit it). */
function render(d: StatusInput, rows?: number): string {
  const width = process.stdout.columns || 100;
  const color = colorEnabled(process.stdout);
  const lines = statusView(d, width);
  return (rows ? watchFrame(lines, rows, d.id) : lines).map((l) => toAnsi(l, { color })).join("\n") + "\n";
}

/** `status --log`: the orchestrator's log, readable (or, with --json, its records). */
async function printLog(arg: string | undefined, json: boolean): Promise<number> {
  const s = await resolveSession(findProjectDir(), arg);
  const dir = existsSync(join(s.dir, F.orchestratorLog)) ? s.dir : archiveDirOf(s.dir);
  const records = readLog(dir);
  if (json) process.stdout.write(records.map((r) => JSON.stringify(r)).join("\n") + (records.length ? "\n" : ""));
  else
    process.stdout.write(
      logLines(records)
        .map((l) => toAnsi(l, { color: colorEnabled(process.stdout) }))
        .join("\n") + "\n",
    );
  return 0;
}

export async function run(a: ParsedArgs<typeof status>): Promise<number> {
  const arg = a.positionals[0];
  if (a.flags.log) return printLog(arg, a.flags.json);
  const first = a.flags.watch ? await loadOrWaitForCreation(arg) : await load(arg);
  if (a.flags.json) {
    process.stdout.write(terminalJson(statusJson(first), 2) + "\n");
    return 0;
  }
  if (!a.flags.watch) {
    process.stdout.write(render(first));
    return 0;
  }
  const arg2 = first.dir;
  // a terminal is redrawn in place; a pipe or file gets each frame after a blank line, no escapes
  const tty = process.stdout.isTTY === true;
  let frames = 0;
  let shown = "";
  // a frame fits the terminal while the run goes on; the last one, of a run that ended, is whole (it stays in the scrollback)
  const draw = (d: StatusInput, onlyIfChanged = false) => {
    const frame = render(d, tty && !phaseEnded(d.state.phase) ? process.stdout.rows || 24 : undefined);
    if (onlyIfChanged && frame === shown) return;
    shown = frame;
    process.stdout.write((tty ? "\x1b[H\x1b[2J" : frames++ ? "\n" : "") + frame);
  };
  draw(first);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise<number>((done) => {
    let w: FSWatcher | undefined;
    const stop = () => (clearTimeout(timer), w?.close(), done(0));
    // the reader went away (`status --watch | head`): nothing more to show
    process.stdout.once("error", stop);
    const refresh = (onlyIfChanged = false) => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          load(arg2).then(
            (d) => {
              draw(d, onlyIfChanged);
              // a finished run has nothing more to show
              if (phaseEnded(d.state.phase)) stop();
            },
            () => {
              if (existsSync(arg2)) return;
              // the folder was removed after a successful commit: the final frame comes from its archive
              const archived = archiveDirOf(arg2);
              if (existsSync(join(archived, F.state)))
                draw({ ...readSnapshotInput(archived, { id: first.id, live: false, now: Date.now() }), toolEvents: first.toolEvents });
              stop();
            },
          ),
        30,
      );
    };
    if (phaseEnded(first.state.phase)) return stop();
    try {
      w = watch(first.dir, () => refresh());
      w.on("error", () => stop());
    } catch {
      // the folder went between the first frame and the watch (a run that committed and removed it)
    }
    // what changed between the first frame and the watch has no event of its own
    refresh(true);
    process.once("SIGINT", stop);
  });
}
