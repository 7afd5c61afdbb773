import { existsSync, realpathSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { F } from "../protocol/paths.ts";
import { privateRoot } from "../session/private-dir.ts";

/**
 * What every sandbox starts from (and what doctor's trial makes): its own pid, IPC and host-name
 * namespaces, dies with its parent, no capabilities (run by root, bwrap keeps them: a root agent
 * could unmount what hides the run's secrets), the system read-only, a minimal /dev (the host's
 * has the disks, owned by root) and its own /proc.
 */
export const BWRAP_BASE: readonly string[] = [
  "--die-with-parent",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--cap-drop",
  "ALL",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
];
/** What one agent's sandbox is made from: where it works, the run around it, and what its CLI needs. */
export type SandboxPlan = {
  /** the agent's working directory (the project, or its worktree): read-write */
  workDir: string;
  /** the main repository: hidden in a worktree run (its .git stays: the worktree's history lives there) */
  projectDir: string;
  /** the run's session folder: read-write, without its `.runtime` folder */
  sessionDir: string;
  home: string;
  /** folders under `home` the CLI keeps its config, login and data in (providers.<p>.sandbox_home): read-write */
  cliHome: readonly string[];
  /** files under `home` the CLI keeps (its `sandbox_home` file entries): each shown as this launch's own copy, read-write */
  homeCopies?: readonly { part: string; copy: string }[];
  /** files this launch writes for the agent (its MCP config, settings): shown read-only, each alone */
  ownFiles: readonly string[];
  /** folders this launch made for the agent (a private CLI home, its CLI's records folder): read-write */
  ownDirs: readonly string[];
  /** programs the launch runs (the CLI, agentmux for its bridge): shown read-only wherever they live */
  programs: readonly string[];
  /** the PATH the CLI gets: its folders under a hidden place are shown read-only */
  path: string;
  /** folders to hide beyond the fixed ones (the tmux socket folder when TMUX_TMPDIR moved it) */
  hide?: readonly string[];
  /** `.runtime` subfolders the agent itself owns (the simulated agent's own state; made by the launch): read-write */
  runtimeDirs?: readonly string[];
  /** files the agent's CLI appends to (the session's turn-end file its hook writes; made by the launch): read-write */
  ownWritable?: readonly string[];
};

/** `from`: what is shown at `path` when it is not the same path (a launch's own copy of a file) */
type Mount = { op: "--tmpfs" | "--bind" | "--ro-bind"; path: string; from?: string };

/** `p` is `dir` or under it (both absolute, or both relative to the same folder). */
export const inside = (dir: string, p: string) => {
  const rel = relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};
const depth = (p: string) => resolve(p).split(sep).filter(Boolean).length;
const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * The bubblewrap command line that runs `argv` for one agent. The whole file system is read-only
 * (the CLI finds its runtime, libraries and tools where they are); hidden behind empty folders:
 * the user's home, /tmp and /var/tmp (other programs' files, tmux's socket: another pane's keys),
 * /run/user, the other worktrees of the project and, in a worktree run, the main checkout (its
 * .git stays), every session folder but this one, and this one's `.runtime`, and agentmux's private
 * folder in the home (every agent's token files and env files, the seal key) even under a CLI's
 * part of the home. Shown again on top: the agent's work directory and session folder
 * (read-write), its CLI's folders in the home and its records folder (read-write), its own copy of
 * its CLI's files in the home (read-write), its own launch files (read-only). Its own
 * pid namespace and /proc: it cannot see or read another agent's processes; no capabilities and a
 * minimal /dev. The repository's .git/hooks and .git/config are read-only (they run code in the
 * user's git later). The network is shared (the CLI reaches its model and the run's MCP endpoint
 * on 127.0.0.1).
 */
export function bwrapArgv(plan: SandboxPlan, argv: readonly string[], o: { bwrap?: string; exists?: (p: string) => boolean } = {}): string[] {
  const exists = o.exists ?? existsSync;
  const hidden = ["/tmp", "/var/tmp", "/run/user", plan.home, ...(plan.hide ?? [])].filter((p) => exists(p));
  const project = resolve(plan.projectDir);
  const work = resolve(plan.workDir);
  const worktreeRun = project !== work;
  const masks: Mount[] = hidden.map((path) => ({ op: "--tmpfs", path }));
  const below: Mount[] = [];
  const worktrees = join(dirname(project), `${project.split(sep).pop()}-worktrees`);
  if (exists(worktrees)) below.push({ op: "--tmpfs", path: worktrees });
  if (worktreeRun) {
    below.push({ op: "--tmpfs", path: project });
    const git = join(project, ".git");
    if (exists(git)) below.push({ op: "--bind", path: git });
  }
  below.push({ op: "--bind", path: work });
  // the repository's hooks and config run code in the user's own git later, outside the sandbox: read-only
  for (const f of ["hooks", "config"]) if (exists(join(project, ".git", f))) below.push({ op: "--ro-bind", path: join(project, ".git", f) });
  const sessions = join(project, ".agentmux");
  if (exists(sessions)) below.push({ op: "--tmpfs", path: sessions });
  below.push({ op: "--bind", path: plan.sessionDir });
  const runtime = join(plan.sessionDir, F.runtimeDir);
  below.push({ op: "--tmpfs", path: runtime });
  for (const d of plan.runtimeDirs ?? []) below.push({ op: "--bind", path: join(runtime, d) });
  for (const p of plan.cliHome) if (exists(join(plan.home, p))) below.push({ op: "--bind", path: join(plan.home, p) });
  // a file is shown as the launch's own copy: a CLI saves one by writing a new file and renaming it
  // over, which a bind-mounted file refuses (EBUSY), and its fallback (rewriting in place) beside
  // another agent's doing the same left claude 2.1.332's ~/.claude.json half-written
  const copies: Mount[] = [];
  for (const c of plan.homeCopies ?? []) copies.push({ op: "--bind", path: join(plan.home, c.part), from: c.copy });
  // the launch writes these before it starts the agent: they exist by then
  for (const d of plan.ownDirs) below.push({ op: "--bind", path: d });
  // agentmux's private folder (every agent's token files, the seal key) stays hidden under a folder shown that holds it (`.cache`)
  const secrets = privateRoot(plan.home);
  const shown = [...plan.cliHome.map((p) => join(plan.home, p)), ...plan.ownDirs];
  if (exists(secrets) && shown.some((d) => inside(d, secrets))) below.push({ op: "--tmpfs", path: secrets });
  for (const f of plan.ownFiles) below.push({ op: "--ro-bind", path: f });
  for (const f of plan.ownWritable ?? []) below.push({ op: "--bind", path: f });
  // programs and PATH folders under something hidden: shown read-only (their whole install prefix)
  const isHidden = (p: string) =>
    [...hidden, worktrees, ...(worktreeRun ? [project] : [])].some((h) => inside(h, p)) && !inside(work, p) && !inside(plan.sessionDir, p);
  for (const prog of plan.programs) {
    if (!isAbsolute(prog) || !exists(prog)) continue;
    for (const p of [prog, real(prog)]) if (isHidden(p)) below.push({ op: "--ro-bind", path: installPrefix(p) });
  }
  for (const dir of plan.path.split(delimiter).filter((d) => isAbsolute(d) && exists(d))) {
    if (isHidden(dir)) below.push({ op: "--ro-bind", path: installPrefix(join(dir, "x")) });
  }
  // a parent's mount before its children's: a later mount covers an earlier one below it
  const ordered = [...below, ...copies]
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.path) - depth(b.m.path) || a.i - b.i)
    .map(({ m }) => m);
  const out = [o.bwrap ?? "bwrap", ...BWRAP_BASE];
  const seen = new Set<string>();
  for (const m of [...masks, ...ordered]) {
    const key = `${m.op} ${m.from ?? m.path} ${m.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(...(m.op === "--tmpfs" ? [m.op, m.path] : [m.op, m.from ?? m.path, m.path]));
  }
  out.push("--chdir", work, "--", ...argv);
  return out;
}

/**
 * The folder to show for a program: the prefix it was installed under (`…/bin/x` → `…`, so a
 * node CLI finds its `lib/node_modules`), but never a whole home-level folder such as ~/.local
 * (only its bin and lib), and the program's own folder when it is in no `bin`.
 */
function installPrefix(program: string): string {
  const dir = dirname(program);
  if (dir.split(sep).pop() !== "bin") return dir;
  const prefix = dirname(dir);
  return prefix.endsWith(`${sep}.local`) ? dir : prefix;
}
