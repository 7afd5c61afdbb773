import { resolve } from "node:path";
import { NoPythonSession, NoSessionChosen, NothingToResume, PythonSession, SeveralResumable } from "../session/errors.ts";
import { readPythonState } from "../session/python-state.ts";
import { isHeadless } from "../launcher/start.ts";
import { resumeSession } from "../launcher/resume.ts";
import { followCiOfSession } from "../launcher/ci-after.ts";
import { listSessions, type SessionSummary } from "../session/list.ts";
import { resolveSession } from "../session/resolve.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { resume } from "./specs/sessions.ts";
import { sessionCells } from "../views/sessions.ts";
import { inertLine } from "../schema/inert-text.ts";
import { cells } from "../views/width.ts";
import { sessionsRoot } from "../protocol/paths.ts";

async function pick(projectDir: string, fromPython: boolean): Promise<SessionSummary> {
  const all = (await listSessions(projectDir)).filter((s) => !s.archived);
  // the Python agentmux's sessions: offered with --from-python, else named with the flag that converts them
  const python = all.filter((s) => !s.state && readPythonState(s.dir));
  const unfinished = all.filter((s) => s.state && s.state.phase !== "done" && !python.includes(s));
  const candidates = unfinished.filter((s) => !s.live);
  if (fromPython) {
    if (python.length === 1) return python[0]!;
    if (python.length > 1) throw new SeveralResumable({ ids: python.map((s) => s.id) });
    throw new NoPythonSession({ root: sessionsRoot(projectDir), resumable: candidates.map((s) => s.id) });
  }
  if (!candidates.length && python.length) throw new PythonSession({ dir: python[0]!.dir, id: python[0]!.id });
  if (!candidates.length) throw new NothingToResume({ running: unfinished.map((s) => s.id) });
  if (candidates.length === 1) return candidates[0]!;
  if (!process.stdin.isTTY) {
    throw new SeveralResumable({ ids: candidates.map((s) => s.id) });
  }
  const n = candidates.length;
  const wId = Math.max(...candidates.map((s) => s.id.length));
  process.stdout.write(`${n} sessions can be resumed:\n`);
  const entries = candidates.map((s, i) => {
    const c = sessionCells(s);
    return { head: `  ${String(i + 1).padStart(String(n).length)}) `, id: c.id, details: `${c.phase} · ${c.event} · ${c.age}` };
  });
  // an entry that would run past the terminal's edge (a long id) puts its details under its id: every entry then does
  const width = process.stdout.columns || 80;
  const oneLine = entries.every((e) => cells(`${e.head}${e.id.padEnd(wId)}  ${e.details}`) <= width);
  for (const e of entries) {
    const lines = oneLine ? [`${e.head}${e.id.padEnd(wId)}  ${e.details}`] : [`${e.head}${e.id}`, `${" ".repeat(e.head.length)}${e.details}`];
    for (const l of lines) process.stdout.write(inertLine(l) + "\n");
  }
  process.stdout.write(`Resume which session? Enter 1-${n} (Ctrl-D: none): `);
  for await (const line of console) {
    const k = Number(line.trim());
    if (Number.isInteger(k) && k >= 1 && k <= n) return candidates[k - 1]!;
    process.stdout.write(`enter a number from 1 to ${n} (Ctrl-D: none): `);
  }
  process.stdout.write("\n");
  throw new NoSessionChosen({});
}

export async function run({ flags, positionals }: ParsedArgs<typeof resume>): Promise<number> {
  const projectDir = findProjectDir();
  if (flags["watch-ci"]) {
    const s = await resolveSession(projectDir, positionals[0]);
    return followCiOfSession(
      { id: s.id, prUrl: s.state?.pr_url, branch: s.state?.feature_branch },
      {
        cwd: projectDir,
        productManager: false,
        worktree: false,
        keepSession: flags["keep-session"],
        headless: isHeadless(flags.ci),
        progress: flags.json ? "json" : "plain",
        ...(flags.config ? { configPath: resolve(flags.config) } : {}),
        out: (l) => process.stdout.write(l + "\n"),
      },
    );
  }
  const s = positionals[0] ? await resolveSession(projectDir, positionals[0]) : await pick(projectDir, flags["from-python"] === true);
  return resumeSession({
    sessionDir: s.dir,
    socket: s.socket,
    headless: isHeadless(flags.ci),
    progress: flags.json ? "json" : "plain",
    ...(flags.config ? { configPath: resolve(flags.config) } : {}),
    keepSession: flags["keep-session"],
    fromPython: flags["from-python"],
    out: (l) => process.stdout.write(l + "\n"),
  });
}
