import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { AmbiguousSession, NoSessions, NoSuchSession } from "./errors.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { listSessionNames, showEnvironment } from "../effects/tmux/ops.ts";
import { SESSION_DIR_VAR } from "../schema/tmux-names.ts";
import { defaultSocket, listSessions, readSummary, withLiveness, type SessionSummary } from "./list.ts";
import { F, sessionsRoot } from "../protocol/paths.ts";

export { idHint } from "./errors.ts";

/** Ids equal to `arg`, else those that start or end with it. */
export function matchIds(ids: string[], arg: string): string[] {
  if (ids.includes(arg)) return [arg];
  return ids.filter((id) => id.startsWith(arg) || id.endsWith(arg));
}

async function summariesOf(dirs: string[]): Promise<SessionSummary[]> {
  const now = Date.now();
  return withLiveness(dirs.map((d) => readSummary(d, now)).filter((x) => x !== undefined));
}

/**
 * Sessions outside this project: live runs on agentmux's tmux server (a run's tmux session
 * records its folder), and demo runs in their scratch repositories under the temp folder.
 */
async function elsewhere(): Promise<string[]> {
  const dirs = new Set<string>();
  const tmux = new Tmux(defaultSocket());
  for (const name of await listSessionNames(tmux).catch(() => new Set<string>())) {
    if (!name.startsWith("agentmux-")) continue;
    const dir = await showEnvironment(tmux, name, SESSION_DIR_VAR);
    if (dir && existsSync(join(dir, F.state))) dirs.add(dir);
  }
  try {
    for (const demo of readdirSync(tmpdir()).filter((n) => n.startsWith("agentmux-demo-"))) {
      const root = sessionsRoot(join(tmpdir(), demo));
      if (!existsSync(root)) continue;
      for (const id of readdirSync(root)) if (!id.startsWith(".") && existsSync(join(root, id, F.state))) dirs.add(join(root, id));
    }
  } catch {
    /* no temp folder to look in */
  }
  return [...dirs];
}

/**
 * The session a command means: its id, any unique prefix or suffix of an id, or a path to its
 * folder — in this project first, then among live runs on agentmux's tmux server and demo
 * runs anywhere; without an argument, this project's most recently updated session (the newest
 * that `prefer` accepts, when one does).
 */
export async function resolveSession(projectDir: string, arg?: string, prefer?: (s: SessionSummary) => boolean): Promise<SessionSummary> {
  const all = await listSessions(projectDir);
  if (arg === undefined) {
    if (!all.length) throw new NoSessions({ root: sessionsRoot(projectDir) });
    // `prefer`: the newest session it accepts (a running one, for attach and cancel), else the newest
    return (prefer && all.find(prefer)) || all[0]!;
  }
  const path = isAbsolute(arg) ? arg : resolve(arg);
  if (arg.includes("/") || existsSync(join(path, F.state))) {
    const inList = all.find((s) => s.dir === path);
    if (inList) return inList;
    const [one] = await summariesOf([path]);
    if (one) return one;
  }
  const here = matchIds(
    all.map((s) => s.id),
    arg,
  );
  if (here.length === 1) return all.find((s) => s.id === here[0])!;
  if (here.length > 1) throw new AmbiguousSession({ arg, ids: here });
  const others = (await summariesOf(await elsewhere())).filter((s) => s.dir !== join(sessionsRoot(projectDir), s.id));
  const there = matchIds([...new Set(others.map((s) => s.id))], arg);
  if (there.length === 1) return others.find((s) => s.id === there[0])!;
  if (there.length > 1) throw new AmbiguousSession({ arg, ids: there });
  throw new NoSuchSession({ arg, root: sessionsRoot(projectDir), available: all.map((s) => s.id) });
}
