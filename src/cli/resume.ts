import { AgentmuxError } from "../errors.ts";
import { isHeadless } from "../launcher/start.ts";
import { resumeSession } from "../launcher/resume.ts";
import { listSessions, resolveSession, type SessionSummary } from "../session/list.ts";
import { findProjectDir } from "../session/project.ts";
import { bool, parseArgs } from "./args.ts";

const HELP = `Usage: agentmux resume [session] [--ci] [--json]

Resumes an interrupted session (by id or folder; without one: the only resumable session, or a
menu when there are several). The phase of a failed run is inferred from its artifacts; only
tool events not yet applied are replayed.
`;

async function pick(projectDir: string): Promise<SessionSummary> {
  const candidates = (await listSessions(projectDir)).filter((s) => s.state && s.state.phase !== "done" && !s.live);
  if (!candidates.length) throw new AgentmuxError("session", "there is no session to resume", { hint: "see: agentmux sessions" });
  if (candidates.length === 1) return candidates[0]!;
  if (!process.stdin.isTTY) {
    throw new AgentmuxError("usage", "several sessions can be resumed; name one", { hint: candidates.map((s) => `agentmux resume ${s.id}`).join("\n        "), exitCode: 2 });
  }
  candidates.forEach((s, i) => process.stdout.write(`${i + 1}) ${s.id}  phase: ${s.state!.phase}  last event: ${s.state!.last_event}\n`));
  for await (const line of console) {
    const n = Number(line.trim());
    if (Number.isInteger(n) && n >= 1 && n <= candidates.length) return candidates[n - 1]!;
    process.stdout.write(`enter a number from 1 to ${candidates.length}: `);
  }
  throw new AgentmuxError("usage", "no session chosen", { exitCode: 2 });
}

export async function run(argv: string[]): Promise<number> {
  const { flags, positionals } = parseArgs("resume", argv, { flags: { ci: { type: "boolean" }, json: { type: "boolean" } }, maxPositionals: 1 });
  if (flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const projectDir = findProjectDir();
  const s = positionals[0] ? await resolveSession(projectDir, positionals[0]) : await pick(projectDir);
  return resumeSession({
    sessionDir: s.dir,
    socket: s.socket,
    headless: isHeadless(bool(flags.ci)),
    progress: bool(flags.json) ? "json" : "plain",
    out: (l) => process.stdout.write(l + "\n"),
  });
}
