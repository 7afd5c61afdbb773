import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { AgentmuxError } from "../errors.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { listSessionNames, showEnvironment } from "../effects/tmux/ops.ts";
import { SESSION_DIR_VAR } from "../schema/tmux-names.ts";
import { defaultSocket, listSessions, readSummary, withLiveness, type SessionSummary } from "./list.ts";
import { F, sessionsRoot } from "./paths.ts";

/** A short list of ids for a hint: the newest few, then how many more and where to see them. */
export function idHint(ids: string[], max = 5): string {
  if (ids.length <= max) return ids.join(", ");
  return `${ids.slice(0, max).join(", ")} and ${ids.length - max} more (see: agentmux sessions)`;
}

/** Ids equal to `arg`, else those that start or end with it. */
export function matchIds(ids: string[], arg: string): string[] {
  if (ids.includes(arg)) return [arg];
  return ids.filter((id) => id.startsWith(arg) || id.endsWith(arg));
}

const Ambiguous = (arg: string, ids: string[]) =>
  new AgentmuxError("session", `"${arg}" matches ${ids.length} sessions`, { hint: `use more of the id: ${idHint(ids)}` });

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
 * runs anywhere; without an argument, this project's most recently updated session.
 */
export async function resolveSession(projectDir: string, arg?: string): Promise<SessionSummary> {
  const all = await listSessions(projectDir);
  if (arg === undefined) {
    if (!all.length)
      throw new AgentmuxError("session", "no sessions in this project", {
        where: sessionsRoot(projectDir),
        hint: 'start one with: agentmux run "<what to build>"',
      });
    return all[0]!;
  }
  const path = isAbsolute(arg) ? arg : resolve(arg);
  if (arg.includes("/") || existsSync(join(path, F.state))) {
    const inList = all.find((s) => s.dir === path);
    if (inList) return inList;
    const [one] = await summariesOf([path]);
    if (one) return one;
  }
  const here = matchIds(all.map((s) => s.id), arg);
  if (here.length === 1) return all.find((s) => s.id === here[0])!;
  if (here.length > 1) throw Ambiguous(arg, here);
  const others = (await summariesOf(await elsewhere())).filter((s) => s.dir !== join(sessionsRoot(projectDir), s.id));
  const there = matchIds([...new Set(others.map((s) => s.id))], arg);
  if (there.length === 1) return others.find((s) => s.id === there[0])!;
  if (there.length > 1) throw Ambiguous(arg, there);
  throw new AgentmuxError("session", `no session "${arg}"`, {
    where: sessionsRoot(projectDir),
    hint: all.length ? `sessions here: ${idHint(all.map((s) => s.id))}` : 'there are no sessions yet; start one with: agentmux run "<what to build>"',
  });
}
