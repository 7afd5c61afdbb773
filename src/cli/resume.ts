import { resolve } from "node:path";
import { NoSessionChosen, NothingToResume, SeveralResumable } from "../session/errors.ts";
import { isHeadless } from "../launcher/start.ts";
import { resumeSession } from "../launcher/resume.ts";
import { listSessions, type SessionSummary } from "../session/list.ts";
import { resolveSession } from "../session/resolve.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { resume } from "./specs/sessions.ts";

async function pick(projectDir: string): Promise<SessionSummary> {
  const candidates = (await listSessions(projectDir)).filter((s) => s.state && s.state.phase !== "done" && !s.live);
  if (!candidates.length) throw new NothingToResume({});
  if (candidates.length === 1) return candidates[0]!;
  if (!process.stdin.isTTY) {
    throw new SeveralResumable({ ids: candidates.map((s) => s.id) });
  }
  candidates.forEach((s, i) => process.stdout.write(`${i + 1}) ${s.id}  phase: ${s.state!.phase}  last event: ${s.state!.last_event}\n`));
  for await (const line of console) {
    const n = Number(line.trim());
    if (Number.isInteger(n) && n >= 1 && n <= candidates.length) return candidates[n - 1]!;
    process.stdout.write(`enter a number from 1 to ${candidates.length}: `);
  }
  throw new NoSessionChosen({});
}

export async function run({ flags, positionals }: ParsedArgs<typeof resume>): Promise<number> {
  const projectDir = findProjectDir();
  const s = positionals[0] ? await resolveSession(projectDir, positionals[0]) : await pick(projectDir);
  return resumeSession({
    sessionDir: s.dir,
    socket: s.socket,
    headless: isHeadless(flags.ci),
    progress: flags.json ? "json" : "plain",
    ...(flags.config ? { configPath: resolve(flags.config) } : {}),
    keepSession: flags["keep-session"],
    out: (l) => process.stdout.write(l + "\n"),
  });
}
